/*
 * The Rapier\Http\Server object, shared by the files of its binding:
 * http_server.c (handlers and the worker's life), http_options.c (the
 * options array of its constructor) and http_server_channels.c (tasks and
 * messages between its processes).
 */
#ifndef RAPIER_HTTP_SERVER_OBJECT_H
#define RAPIER_HTTP_SERVER_OBJECT_H

#include <signal.h>

#include "php.h"

#include "coroutine.h"
#include "http.h"
#include "http_message.h"
#include "http_task.h"
#include "process.h"

enum { EV_REQUEST, EV_WORKER_START, EV_WORKER_STOPPING, EV_WORKER_STOP, EV_TASK, EV_MESSAGE, EV_COUNT };

typedef struct server_s server_t;

struct server_s {
	zend_string *host;
	zend_long port;
	rapier_http_config_t cfg;
	zend_long workers;
	zend_long task_workers;
	int64_t shutdown_timeout_ns;
	bool debug;
	zend_string *document_root;
	zend_string *server_name;
	zend_string *real_ip_header;    /* lower case */
	zend_string *real_scheme_header; /* lower case */
	rapier_netmask_t *real_ip_from;
	uint32_t real_ip_from_count;
	zend_string *pid_file;
	zend_string *access_log_path;
	zend_string *error_log_path;
	zend_string *tls_cert_file;     /* HTTPS when set */
	zend_string *tls_key_file;
	zend_string *tls_ciphers;
	int tls_min_version;            /* TLS1_2_VERSION or TLS1_3_VERSION; 0: invalid */
	zend_string *tls_client_ca_file; /* mutual TLS when set */
	int tls_verify_client;          /* rapier_http_tls_verify_t once a CA is set; -1: invalid */
	bool tls_verify_client_set;
	int tls_verify_depth;           /* -1: OpenSSL's default */
	zend_string *tls_crl_file;      /* revocation lists checked with tls_client_ca_file */
	zend_string **tls_certificate_files; /* tls_certificates: certificate, key (or NULL) of each, in pairs */
	uint32_t tls_certificate_count;
	unsigned char tls_ticket_key[RAPIER_HTTP_TLS_TICKET_KEY_LEN]; /* made at start, shared by the workers */
	zend_long http_port;            /* plain HTTP beside HTTPS on this port; 0: none */
	zend_long https_redirect;       /* http_port's requests go to HTTPS on this port; 0: the app serves them;
	                                 * -1: unset (the server's port when http_port is set) */
	bool https_redirect_set;
	int plain_fd;                   /* http_port's listener: one socket every request worker accepts from */
	size_t max_memory;              /* recycle after a request leaves more PHP memory in use; 0: never */
	rapier_tasks_t tasks;
	rapier_messages_t messages;
	bool is_task_worker;
	int access_log_format;          /* rapier_access_log_format_t, -1 when invalid */
	rapier_access_log_t access_log;
	bool access_log_open;
	rapier_master_t master;
	int *slot_fds;                  /* the master's listener per worker slot, inherited by its workers */
	unsigned slot_count;
	bool in_child;                  /* this process is a worker forked by the master */
	rapier_static_root_t static_root;
	bool static_root_open;
	zval handlers[EV_COUNT];
	zend_fcall_info_cache fcc[EV_COUNT];
	zval user_processes;            /* callables of addProcess(), a list; UNDEF: none */
	zend_fcall_info_cache *user_process_fcc; /* theirs, resolved where addProcess() was called */
	bool started;
	pid_t pid;                      /* the server's process this is, once started (a pcntl_fork() child is not one) */
	zend_long worker_id;
	int listen_fd;

	/* The running worker. */
	rapier_http_server_t http;
	bool http_ready;
	bool stopping;
	unsigned draining_parts;        /* of the HTTP server (or the tasks) and the messages, not drained yet */
	bool drained;                   /* every part has drained (workerStop may still wait for workerStopping) */
	rapier_coro_t *stopping_co;     /* workerStopping's coroutine, until it returns */
	bool start_returned;            /* workerStart has returned */
	bool stop_returned;             /* drained, and workerStop (if any) has returned */
	int signal_fd;
	rapier_io_t signal_io;
	rapier_timer_t shutdown_timer;
	rapier_timer_t recycle_timer;  /* sends the recycle request, and repeats it */
	sigset_t old_mask;

	zend_object std;
};

static inline server_t *server_from(zend_object *obj)
{
	return (server_t *) ((char *) obj - XtOffsetOf(server_t, std));
}

/*
 * Applies the constructor's options array to srv; false with a ValueError
 * thrown for an unknown option, a value of the wrong type or out of range,
 * or options that contradict each other.
 */
bool rapier_http_server_parse_options(server_t *srv, HashTable *opts);

/* Releases the paths of the tls_certificates option. */
void rapier_http_server_free_certificate_files(server_t *srv);

#endif
