/*
 * Task channels: the framed byte stream between a request worker and a
 * task worker, over a Unix stream socket; messages between workers
 * (Server::sendMessage()) use the same framing on channels of their own.
 *
 * Engine code: no PHP headers. A frame is a 13-byte header (payload length
 * + 9 as uint32, the task id as uint64, the kind as one byte, host byte
 * order: both ends are on this machine) and the payload. The request worker
 * sends CALL frames and gets RESULT or ERROR frames back with the same id;
 * a task worker that is about to stop sends GOODBYE, after which the
 * request worker sends no more CALLs on that channel and closes it once its
 * tasks there have come back, so no task is ever lost in a socket buffer.
 */
#ifndef RAPIER_TASK_H
#define RAPIER_TASK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "loop.h"

typedef enum {
	RAPIER_TASK_CALL = 1,
	RAPIER_TASK_RESULT = 2,
	RAPIER_TASK_ERROR = 3,     /* payload: a message for the caller */
	RAPIER_TASK_GOODBYE = 4,   /* the receiver drains: nothing new on this channel */
	RAPIER_TASK_MESSAGE = 5,   /* Server::sendMessage(); the id is the sender's worker id */
} rapier_task_kind_t;

#define RAPIER_TASK_HEADER_SIZE 13

typedef struct {
	uint64_t id;
	uint8_t kind;
	const char *payload;
	size_t len;
} rapier_task_frame_t;

typedef struct rapier_task_conn_s rapier_task_conn_t;

/* A whole frame arrived. The callback may close conn, but must not free it. */
typedef void (*rapier_task_frame_fn)(rapier_task_conn_t *conn, const rapier_task_frame_t *frame);

/*
 * The channel ended: 0 when the peer closed it, a negative errno otherwise
 * (-EMSGSIZE for a frame over the limit). conn is closed already and may
 * be freed in the callback.
 */
typedef void (*rapier_task_close_fn)(rapier_task_conn_t *conn, int error);

/* Optional: everything queued has been written (after a send the socket did not take whole).
 * The callback may close conn, but must not free it. */
typedef void (*rapier_task_flushed_fn)(rapier_task_conn_t *conn);

struct rapier_task_conn_s {
	rapier_io_t io;                /* io.fd < 0 once closed */
	rapier_loop_t *loop;
	char *in;                      /* bytes read, not yet a whole frame */
	size_t in_len, in_cap;
	char *out;                     /* bytes queued for the peer */
	size_t out_len, out_pos, out_cap;
	size_t max_payload;
	rapier_task_frame_fn on_frame;
	rapier_task_close_fn on_close;
	rapier_task_flushed_fn on_flushed;
	bool paused;                   /* not reading (the receiver has enough to do) */
	void *data;
};

/*
 * A worker's side of a listener: each connection from a process of this
 * user is handed to on_conn, non-blocking; connections of other users are
 * closed unread (an abstract address has no file permissions, and what
 * comes in is unserialized).
 */
typedef struct rapier_task_acceptor_s rapier_task_acceptor_t;

typedef void (*rapier_task_accept_fn)(rapier_task_acceptor_t *acceptor, int fd);

struct rapier_task_acceptor_s {
	rapier_io_t io;                /* io.fd < 0 when not listening */
	rapier_loop_t *loop;
	rapier_task_accept_fn on_conn;
	void *data;
};

/*
 * One listener per slot (a task worker, or any worker for messages),
 * opened by the master before forking and inherited by every child: a
 * child serving slot i takes fds[i], a sender connects to addrs[i].
 */
typedef struct {
	unsigned count;
	int *fds;                      /* -1 once closed or taken */
	struct sockaddr_un *addrs;
	socklen_t *lens;
} rapier_task_listeners_t;

/*
 * A listening Unix stream socket with an address the kernel picks in the
 * abstract namespace (no file to clean up). Returns the descriptor and
 * fills addr/len for rapier_task_connect(), or a negative errno.
 */
int rapier_task_listen(struct sockaddr_un *addr, socklen_t *len, int backlog);

/* A non-blocking connection to a task listener, or a negative errno. */
int rapier_task_connect(const struct sockaddr_un *addr, socklen_t len);

/* count listeners; 0, or a negative errno with none left open. */
int rapier_task_listeners_open(rapier_task_listeners_t *set, unsigned count, int backlog);

/* A connection to slot index's listener, or a negative errno. */
int rapier_task_listeners_connect(const rapier_task_listeners_t *set, unsigned index);

/* Slot index's descriptor, now the caller's (-1 when there is none). */
int rapier_task_listeners_take(rapier_task_listeners_t *set, unsigned index);

/* Closes the descriptors but slot keep's (-1: all); the addresses stay for connecting. */
void rapier_task_listeners_close(rapier_task_listeners_t *set, int keep);

/* Closes the descriptors and frees the set. Idempotent. */
void rapier_task_listeners_free(rapier_task_listeners_t *set);

/* Not listening yet. */
void rapier_task_acceptor_init(rapier_task_acceptor_t *acceptor);

/* Takes over listen_fd (nothing happens for -1) and hands over connections as they come. */
void rapier_task_acceptor_start(rapier_task_acceptor_t *acceptor, rapier_loop_t *loop, int listen_fd,
	rapier_task_accept_fn on_conn, void *data);

/* Stops listening and closes the descriptor; the loop must still be there. Idempotent. */
void rapier_task_acceptor_stop(rapier_task_acceptor_t *acceptor);

/* Closes the descriptor without the loop (it has gone). Idempotent. */
void rapier_task_acceptor_close(rapier_task_acceptor_t *acceptor);

/* Takes over fd (non-blocking) and starts reading. */
void rapier_task_conn_open(rapier_task_conn_t *conn, rapier_loop_t *loop, int fd, size_t max_payload,
	rapier_task_frame_fn on_frame, rapier_task_close_fn on_close, void *data);

/* Queues a frame; 0, -EMSGSIZE over max_payload, -EPIPE on a closed channel, -ENOMEM. */
int rapier_task_conn_send(rapier_task_conn_t *conn, uint64_t id, rapier_task_kind_t kind,
	const char *payload, size_t len);

/*
 * Stops reading (frames already read are still handed over) or starts
 * again: a receiver with too much to do lets its senders' queues fill.
 */
void rapier_task_conn_pause(rapier_task_conn_t *conn, bool paused);

/* Whether the channel keeps the loop alive (an idle channel should not). */
void rapier_task_conn_set_unref(rapier_task_conn_t *conn, bool unref);

/* Closes the descriptor and frees the buffers; no callback runs. Idempotent. */
void rapier_task_conn_close(rapier_task_conn_t *conn);

static inline bool rapier_task_conn_is_open(const rapier_task_conn_t *conn)
{
	return conn->io.fd >= 0;
}

/* Bytes queued that the socket has not taken yet. */
static inline size_t rapier_task_conn_queued(const rapier_task_conn_t *conn)
{
	return conn->out_len - conn->out_pos;
}

#endif
