/*
 * Rapier event loop: epoll file-descriptor watchers plus the timer heap.
 *
 * Engine code: no PHP headers. The loop knows file descriptors and timers,
 * nothing about coroutines; the scheduler (coroutine.c) drives it one poll
 * at a time with rapier_loop_poll() and decides when it is finished.
 * Functions return 0 or a negative errno value, libuv style.
 */
#ifndef RAPIER_LOOP_H
#define RAPIER_LOOP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/epoll.h>

#include "list.h"
#include "timer.h"

#define RAPIER_IO_READ  EPOLLIN
#define RAPIER_IO_WRITE EPOLLOUT

typedef struct rapier_loop_s rapier_loop_t;
typedef struct rapier_io_s rapier_io_t;
typedef struct rapier_defer_s rapier_defer_t;

/* events: the epoll bits that fired (EPOLLERR and EPOLLHUP included). */
typedef void (*rapier_io_cb)(rapier_io_t *io, uint32_t events);

struct rapier_io_s {
	int fd;
	uint32_t events;      /* wanted: RAPIER_IO_READ | RAPIER_IO_WRITE */
	bool active;          /* registered with epoll */
	bool unref;           /* does not keep the loop alive (a listener idling between requests) */
	bool paused;          /* stopped for the caller, still registered with epoll (rapier_io_pause) */
	bool low_priority;    /* in the loop's second epoll set (rapier_io_set_low_priority) */
	uint32_t generation;  /* the loop's when last started: an older one is a forked child's copy */
	rapier_io_cb cb;
	void *data;
};

typedef void (*rapier_defer_cb)(rapier_defer_t *defer);

/*
 * Work put off until the loop is about to wait again: what several
 * callbacks or coroutines of one pass each ask for is then done once (one
 * send for the frames of many HTTP/2 responses, not one each).
 */
struct rapier_defer_s {
	rapier_list_node_t link;  /* in the loop's deferred list while pending */
	bool pending;
	uint64_t pass;            /* the loop's defer_pass when it was started */
	rapier_defer_cb cb;
	void *data;
};

/* Number of epoll events harvested per poll; more wait for the next poll. */
#define RAPIER_LOOP_MAX_EVENTS 256
/* Events of low-priority watchers dispatched per poll, after all the others. */
#define RAPIER_LOOP_LOW_PRIORITY_BATCH 256

struct rapier_loop_s {
	int epoll_fd;
	bool epoll_pwait2_missing;   /* kernel older than 5.11: millisecond waits */
	uint32_t io_ref_count;       /* active, ref'd watchers */
	uint32_t generation;         /* bumped in a forked child (rapier_loop_fork_child) */
	rapier_timer_heap_t timers;
	uint64_t now_ns;             /* cached at the start of each poll */
	int low_epoll_fd;            /* low-priority watchers, created on first use; -1 before */
	rapier_io_t low_io;          /* low_epoll_fd, watched in epoll_fd */
	bool low_ready;              /* low_epoll_fd fired in this poll */
	rapier_list_t deferred;      /* rapier_defer_t waiting for rapier_loop_run_deferred() */
	uint64_t defer_pass;         /* runs of rapier_loop_run_deferred() so far */
	struct epoll_event *events;  /* the batch being dispatched */
	int event_count;
	int event_index;
};

int rapier_loop_init(rapier_loop_t *loop);
void rapier_loop_close(rapier_loop_t *loop);

/*
 * In a child forked while the loop runs (a pthread_atfork() child handler):
 * gives the child epoll sets of its own, so that nothing it does to its
 * watchers reaches the parent's, and forgets the parent's watchers and
 * timers there: their copies never fire in the child and do not keep its
 * loop alive; one started again is the child's own from then on.
 */
void rapier_loop_fork_child(rapier_loop_t *loop);

/* True while a ref'd watcher or timer is active, or deferred work is pending. */
bool rapier_loop_alive(const rapier_loop_t *loop);

/*
 * Waits for I/O at most timeout_ns (-1: until the next timer or forever,
 * 0: do not block), dispatches fired watchers, then expired timers.
 * Returns the number of callbacks run, or a negative errno.
 */
int rapier_loop_poll(rapier_loop_t *loop, int64_t timeout_ns);

/*
 * Runs the deferred work pending now, oldest first (work deferred by it
 * waits for the next call). The scheduler calls this once the ready
 * coroutines have run, before it polls; a poll runs it too, and then does
 * not block. Returns how many ran.
 */
int rapier_loop_run_deferred(rapier_loop_t *loop);

void rapier_defer_init(rapier_defer_t *defer, rapier_defer_cb cb, void *data);
/* Has cb run at the next rapier_loop_run_deferred(); once, however often this is called before. */
void rapier_defer_start(rapier_loop_t *loop, rapier_defer_t *defer);
void rapier_defer_stop(rapier_loop_t *loop, rapier_defer_t *defer);

void rapier_io_init(rapier_io_t *io, int fd, rapier_io_cb cb, void *data);
/* Registers (or updates) interest in events; 0 events stops the watcher. */
int rapier_io_start(rapier_loop_t *loop, rapier_io_t *io, uint32_t events);
void rapier_io_stop(rapier_loop_t *loop, rapier_io_t *io);
/*
 * Stops the watcher lazily: no callback runs and it no longer keeps the
 * loop alive, but it stays registered, so a start with the same events
 * right after costs no system call. If an event comes while paused, the
 * watcher is then really stopped (and a later start registers it again).
 * For a connection that stops reading while its request is handled and
 * reads again after the response: usually nothing arrives in between.
 */
void rapier_io_pause(rapier_loop_t *loop, rapier_io_t *io);
void rapier_io_set_unref(rapier_loop_t *loop, rapier_io_t *io, bool unref);
/*
 * Makes a stopped watcher low priority, for intake of new work (client
 * connections waiting for their next request). Such watchers live
 * in a second epoll set, watched as one descriptor of the first: a poll
 * dispatches every other watcher that fired, then at most
 * RAPIER_LOOP_LOW_PRIORITY_BATCH low-priority ones. Level triggering puts
 * the rest at the back of that set's ready list, so they take turns.
 * Why: in one set, an overloaded server's thousands of readable client
 * connections stand in the ready list ahead of a handler's database reply,
 * and a request making 100 queries waits a full pass over them per query.
 */
void rapier_io_set_low_priority(rapier_io_t *io);
/* Back to the first set (only while stopped): a connection that stopped being intake, an upgraded WebSocket. */
void rapier_io_set_normal_priority(rapier_io_t *io);

/* Starts timer to fire after timeout_ns, then every repeat_ns if non-zero. */
int rapier_timer_start(rapier_loop_t *loop, rapier_timer_t *timer, uint64_t timeout_ns, uint64_t repeat_ns);
/* Starts a one-shot timer due at due_ns (rapier_now_ns() clock), for a caller that has just read the clock. */
int rapier_timer_start_at(rapier_loop_t *loop, rapier_timer_t *timer, uint64_t due_ns);
void rapier_timer_stop(rapier_loop_t *loop, rapier_timer_t *timer);

#endif
