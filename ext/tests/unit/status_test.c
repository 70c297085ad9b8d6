/*
 * Unit tests for the status table, its seqlocks, the JSON document, the
 * status socket and the pid file helpers.
 */
#define _GNU_SOURCE
#include "unit.h"

#include "timer.c"
#include "loop.c"
#include "status.c"

#include <stdatomic.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>

static char tmpdir[64];

/* A strict little JSON checker: true if s holds exactly one valid value. */
static const char *json_value(const char *s);

static const char *json_ws(const char *s)
{
	while (*s == ' ' || *s == '\n' || *s == '\t' || *s == '\r') {
		s++;
	}
	return s;
}

static const char *json_string(const char *s)
{
	if (*s++ != '"') {
		return NULL;
	}
	while (*s != '"') {
		if (*s == '\0' || (unsigned char) *s < 0x20) {
			return NULL;
		}
		s += *s == '\\' ? 2 : 1;
	}
	return s + 1;
}

static const char *json_number(const char *s)
{
	const char *start = s;

	s += *s == '-';
	while ((*s >= '0' && *s <= '9') || *s == '.' || *s == 'e' || *s == 'E' || *s == '+' || *s == '-') {
		s++;
	}
	return s > start ? s : NULL;
}

static const char *json_members(const char *s, char close, bool keyed)
{
	s = json_ws(s + 1);
	if (*s == close) {
		return s + 1;
	}
	for (;;) {
		if (keyed) {
			s = json_string(json_ws(s));
			if (s == NULL || *(s = json_ws(s)) != ':') {
				return NULL;
			}
			s++;
		}
		s = json_value(s);
		if (s == NULL) {
			return NULL;
		}
		s = json_ws(s);
		if (*s == close) {
			return s + 1;
		}
		if (*s++ != ',') {
			return NULL;
		}
	}
}

static const char *json_value(const char *s)
{
	s = json_ws(s);
	switch (*s) {
	case '{': return json_members(s, '}', true);
	case '[': return json_members(s, ']', false);
	case '"': return json_string(s);
	case 't': return strncmp(s, "true", 4) == 0 ? s + 4 : NULL;
	case 'f': return strncmp(s, "false", 5) == 0 ? s + 5 : NULL;
	case 'n': return strncmp(s, "null", 4) == 0 ? s + 4 : NULL;
	default: return json_number(s);
	}
}

static bool json_valid(const char *doc)
{
	const char *end = json_value(doc);
	return end != NULL && *json_ws(end) == '\0';
}

static int count_substr(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)) != NULL; p++) {
		n++;
	}
	return n;
}

static void test_json_checker_rejects_garbage(void)
{
	CHECK(json_valid("{\"a\":[1,2.5,{\"b\":\"c\"}],\"d\":true}"));
	CHECK(!json_valid("{\"a\":1,}"));
	CHECK(!json_valid("{\"a\":1"));
	CHECK(!json_valid("{\"a\" 1}"));
	CHECK(!json_valid("[1,2]]"));
}

static void test_table_layout_and_entries(void)
{
	rapier_status_table_t *t;
	rapier_status_view_t v;
	rapier_status_entry_t *e;

	CHECK_EQ_INT(rapier_status_table_create(&t, 6), 0);
	CHECK_EQ_INT(t->capacity, 6);
	CHECK_EQ_INT((uintptr_t) &t->entries[1] % 64, 0);
	CHECK_EQ_INT((uintptr_t) &t->entries[1].worker % 64, 0);
	CHECK_EQ_INT(rapier_status_entry_read(&t->entries[5], &v), 0);
	CHECK_EQ_INT(v.state, RAPIER_PROC_FREE);

	e = &t->entries[2];
	rapier_status_entry_begin(e, RAPIER_ROLE_TASK_WORKER, 3, 7);
	rapier_status_entry_set_pid(e, 4242);
	rapier_status_self_connections(e, 2);
	rapier_status_self_request_begin(e);
	rapier_status_self_request_begin(e);
	rapier_status_self_request_end(e);
	CHECK_EQ_INT(rapier_status_entry_read(e, &v), 0);
	CHECK_EQ_INT(v.pid, 4242);
	CHECK_EQ_INT(v.role, RAPIER_ROLE_TASK_WORKER);
	CHECK_EQ_INT(v.index, 3);
	CHECK_EQ_INT(v.generation, 7);
	CHECK_EQ_INT(v.state, RAPIER_PROC_STARTING);
	CHECK_EQ_INT(v.requests, 1);
	CHECK_EQ_INT(v.in_flight, 1);
	CHECK_EQ_INT(v.connections, 2);
	CHECK_EQ_INT(e->worker.seq % 2, 0);

	/* A new owner of the entry starts from zero. */
	rapier_status_self_update(e, &(rapier_status_counters_t) { .requests = 3, .slow = 1, .tls_handshake_failures = 2,
		.connections = 2, .websockets = 1 });
	rapier_status_entry_begin(e, RAPIER_ROLE_WORKER, 0, 8);
	rapier_status_entry_read(e, &v);
	CHECK_EQ_INT(v.requests, 0);
	CHECK_EQ_INT(v.connections, 0);
	CHECK_EQ_INT(v.slow, 0);
	CHECK_EQ_INT(v.tls_handshake_failures, 0);
	CHECK_EQ_INT(v.websockets, 0);
	CHECK_EQ_INT(v.pid, 0);
	rapier_status_table_destroy(t);
}

/*
 * A writer process keeps all its counters equal; a reader in this process
 * must never see them differ. Without the seqlock this fails within
 * milliseconds on two cores.
 */
static void test_seqlock_never_tears(void)
{
	rapier_status_table_t *t;
	rapier_status_entry_t *e;
	pid_t writer;
	long reads = 0, torn = 0, busy = 0;
	uint64_t until;

	CHECK_EQ_INT(rapier_status_table_create(&t, 1), 0);
	e = &t->entries[0];
	writer = fork();
	if (writer == 0) {
		for (uint64_t k = 1;; k++) {
			rapier_status_counters_t c = { .requests = k, .shed = k, .abandoned = k, .slow = k,
				.tls_handshake_failures = k, .memory = k, .in_flight = (uint32_t) k, .connections = (uint32_t) k,
				.concurrency_limit = (uint32_t) k, .websockets = (uint32_t) k };
			rapier_status_self_update(e, &c);
		}
	}
	until = rapier_now_ns() + 150 * 1000000ull;
	while (rapier_now_ns() < until) {
		rapier_status_view_t v;
		if (rapier_status_entry_read(e, &v) < 0) {
			busy++;
			continue;
		}
		reads++;
		if (v.requests != v.memory || v.requests != v.shed || v.requests != v.abandoned || v.requests != v.slow
				|| v.requests != v.tls_handshake_failures || (uint32_t) v.requests != v.in_flight
				|| v.in_flight != v.connections || v.connections != v.concurrency_limit
				|| v.concurrency_limit != v.websockets) {
			torn++;
		}
	}
	kill(writer, SIGKILL);
	waitpid(writer, NULL, 0);
	CHECK(reads > 1000);
	CHECK_EQ_INT(torn, 0);
	CHECK(busy < reads);
	rapier_status_table_destroy(t);
}

static void test_render_json(void)
{
	rapier_status_table_t *t;
	char *doc;
	size_t len = 0;

	CHECK_EQ_INT(rapier_status_table_create(&t, 4), 0);
	atomic_store(&t->master_pid, 100);
	atomic_store(&t->started_ns, rapier_now_ns());
	atomic_store(&t->restarts, 3);
	atomic_store(&t->retired_requests, 40);
	atomic_store(&t->retired_shed, 4);
	atomic_store(&t->retired_abandoned, 6);
	atomic_store(&t->retired_slow, 10);
	atomic_store(&t->retired_tls_handshake_failures, 20);
	atomic_store(&t->retired_messages_sent, 100);
	atomic_store(&t->retired_messages_received, 200);
	atomic_store(&t->generation[0], 2);
	atomic_store(&t->generation[1], 1);
	rapier_status_entry_begin(&t->entries[0], RAPIER_ROLE_WORKER, 0, 2);
	rapier_status_entry_set_pid(&t->entries[0], 101);
	rapier_status_entry_set_state(&t->entries[0], RAPIER_PROC_READY);
	rapier_status_self_update(&t->entries[0], &(rapier_status_counters_t) {
		.requests = 5, .shed = 3, .abandoned = 2, .slow = 9, .tls_handshake_failures = 11, .memory = 1000,
		.in_flight = 1, .connections = 2, .concurrency_limit = 12, .websockets = 4 });
	rapier_status_entry_begin(&t->entries[1], RAPIER_ROLE_TASK_WORKER, 0, 1);
	rapier_status_entry_set_pid(&t->entries[1], 102);
	rapier_status_messages_update(&t->entries[0], 7, 70);
	rapier_status_entry_begin(&t->entries[2], RAPIER_ROLE_USER_PROCESS, 0, 1);
	rapier_status_entry_set_pid(&t->entries[2], 103);
	rapier_status_entry_set_state(&t->entries[2], RAPIER_PROC_READY);
	/* A user process sends, and takes none. */
	rapier_status_messages_update(&t->entries[2], 3, 0);
	rapier_status_entry_begin(&t->entries[3], RAPIER_ROLE_WORKER, 1, 1);
	rapier_status_entry_set_state(&t->entries[3], RAPIER_PROC_EXITED);

	doc = rapier_status_render_json(t, &len);
	CHECK(doc != NULL);
	CHECK_EQ_INT(strlen(doc), len);
	CHECK(json_valid(doc));
	CHECK(strstr(doc, "\"master\":{\"pid\":100,") != NULL);
	CHECK(strstr(doc, "\"generations\":{\"worker\":2,\"task_worker\":1}") != NULL);
	CHECK(strstr(doc, "\"restarts\":3,") != NULL);
	/* Three live entries; the exited one is not listed. */
	CHECK_EQ_INT(count_substr(doc, "\"pid\":"), 4);
	CHECK(strstr(doc, "\"pid\":101,\"role\":\"worker\",\"index\":0,\"generation\":2,\"state\":\"ready\"") != NULL);
	CHECK(strstr(doc, "\"pid\":102,\"role\":\"task_worker\",\"index\":0,\"generation\":1,\"state\":\"starting\"") != NULL);
	CHECK(strstr(doc, "\"requests\":5,\"in_flight\":1,\"connections\":2,\"websockets\":4,\"shed\":3,\"abandoned\":2,"
		"\"slow\":9,\"tls_handshake_failures\":11,\"concurrency_limit\":12,\"messages_sent\":7,\"messages_received\":70,"
		"\"memory\":1000,") != NULL);
	CHECK(strstr(doc, "\"pid\":103,\"role\":\"user_process\",\"index\":0,\"generation\":1,\"state\":\"ready\"") != NULL);
	CHECK(strstr(doc, "\"totals\":{\"processes\":3,\"workers\":1,\"task_workers\":1,\"user_processes\":1,\"requests\":45,") != NULL);
	/* Open WebSockets are the live processes' only. */
	CHECK(strstr(doc, "\"in_flight\":1,\"connections\":2,\"websockets\":4,\"shed\":7,") != NULL);
	/* Shed, abandoned, slow, failed TLS handshakes and messages, like requests, count the reaped processes' too. */
	CHECK(strstr(doc, "\"shed\":7,\"abandoned\":8,\"slow\":19,\"tls_handshake_failures\":31,\"messages_sent\":110,"
		"\"messages_received\":270,\"rss\":") != NULL);
	free(doc);
	rapier_status_table_destroy(t);
}

static int connect_unix(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	snprintf(addr.sun_path, sizeof(addr.sun_path), "%s", path);
	if (connect(fd, (struct sockaddr *) &addr, sizeof(addr)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Drives the loop until the client has its whole document (EOF). */
static char *fetch(rapier_loop_t *loop, const char *path)
{
	static char buf[65536];
	size_t len = 0;
	int fd = connect_unix(path);

	if (fd < 0) {
		return NULL;
	}
	for (int polls = 0; polls < 50; polls++) {
		rapier_loop_poll(loop, 10 * 1000000);
		ssize_t n;
		while ((n = recv(fd, buf + len, sizeof(buf) - 1 - len, MSG_DONTWAIT)) > 0) {
			len += (size_t) n;
		}
		if (n == 0) {
			close(fd);
			buf[len] = '\0';
			return buf;
		}
	}
	close(fd);
	return NULL;
}

static void test_status_server(void)
{
	rapier_status_table_t *t;
	rapier_status_server_t *srv;
	rapier_loop_t loop;
	char path[128];
	struct stat st;
	const char *doc;
	FILE *f;

	snprintf(path, sizeof(path), "%s/status.sock", tmpdir);
	/* A leftover file at the path (a crashed master's socket) is replaced. */
	f = fopen(path, "w");
	fclose(f);
	CHECK_EQ_INT(rapier_status_table_create(&t, 2), 0);
	atomic_store(&t->master_pid, getpid());
	rapier_status_entry_begin(&t->entries[0], RAPIER_ROLE_WORKER, 0, 1);
	rapier_status_entry_set_pid(&t->entries[0], getpid());
	CHECK_EQ_INT(rapier_loop_init(&loop), 0);
	CHECK_EQ_INT(rapier_status_server_open(&srv, &loop, t, path), 0);
	CHECK_EQ_INT(stat(path, &st), 0);
	CHECK(S_ISSOCK(st.st_mode));
	CHECK_EQ_INT(st.st_mode & 0777, 0660);

	/* Twice, and more clients than the server's slots, one after another. */
	for (int i = 0; i < 12; i++) {
		doc = fetch(&loop, path);
		CHECK(doc != NULL && json_valid(doc));
	}
	/* The master samples our RSS into the entry when it renders. */
	doc = fetch(&loop, path);
	CHECK(doc != NULL && strstr(doc, "\"rss\":0}") == NULL);

	/* A forked child abandoning its copy must not silence the master's listener. */
	pid_t child = fork();
	if (child == 0) {
		rapier_status_server_abandon(srv);
		rapier_loop_close(&loop);
		_exit(0);
	}
	waitpid(child, NULL, 0);
	doc = fetch(&loop, path);
	CHECK(doc != NULL && json_valid(doc));

	rapier_status_server_close(srv);
	CHECK(access(path, F_OK) < 0);
	rapier_loop_close(&loop);
	rapier_status_table_destroy(t);
}

static void test_status_server_path_too_long(void)
{
	rapier_status_server_t *srv;
	rapier_loop_t loop;
	char path[200];

	memset(path, 'a', sizeof(path) - 1);
	path[0] = '/';
	path[sizeof(path) - 1] = '\0';
	rapier_loop_init(&loop);
	CHECK_EQ_INT(rapier_status_server_open(&srv, &loop, NULL, path), -ENAMETOOLONG);
	rapier_loop_close(&loop);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

static void test_pidfile(void)
{
	char path[128], text[32];
	pid_t owner = -1, other;
	int status;

	snprintf(path, sizeof(path), "%s/rapier.pid", tmpdir);
	CHECK_EQ_INT(rapier_pidfile_check(path, getpid(), &owner), 0);
	CHECK_EQ_INT(owner, 0);

	CHECK_EQ_INT(rapier_pidfile_write(path, 777777), 0);
	CHECK_EQ_INT(pidfile_read(path), 777777);
	/* A process that has exited. */
	other = fork();
	if (other == 0) {
		_exit(0);
	}
	waitpid(other, &status, 0);
	snprintf(text, sizeof(text), "%d\n", (int) other);
	write_text(path, text);
	CHECK_EQ_INT(rapier_pidfile_check(path, getpid(), &owner), 0);
	CHECK_EQ_INT(owner, other);
	/* Garbage. */
	write_text(path, "12ab\n");
	CHECK_EQ_INT(rapier_pidfile_check(path, getpid(), &owner), 0);
	CHECK_EQ_INT(owner, 0);
	/* Our own pid (a container restart). */
	snprintf(text, sizeof(text), "%d\n", (int) getpid());
	write_text(path, text);
	CHECK_EQ_INT(rapier_pidfile_check(path, getpid(), &owner), 0);
	/* A live process running this same program: refused. */
	CHECK_EQ_INT(rapier_pidfile_check(path, getpid() + 1, &owner), -EEXIST);
	CHECK_EQ_INT(owner, getpid());
	/* A live process running another program (pid 1 is never "status_test"). */
	write_text(path, "1\n");
	CHECK_EQ_INT(rapier_pidfile_check(path, getpid(), &owner), 0);
	CHECK_EQ_INT(owner, 1);

	/* Removal leaves another master's file alone. */
	CHECK_EQ_INT(rapier_pidfile_write(path, 424242), 0);
	rapier_pidfile_remove(path, getpid());
	CHECK(access(path, F_OK) == 0);
	rapier_pidfile_remove(path, 424242);
	CHECK(access(path, F_OK) < 0);
}

int main(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/rapier-status-test-XXXXXX");
	if (mkdtemp(tmpdir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	test_json_checker_rejects_garbage();
	test_table_layout_and_entries();
	test_seqlock_never_tears();
	test_render_json();
	test_status_server();
	test_status_server_path_too_long();
	test_pidfile();
	rmdir(tmpdir);
	return unit_finish("status_test");
}
