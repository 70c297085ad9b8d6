/*
 * Shell commands inside coroutines (see shell_hook.h).
 *
 * PHP runs these commands with libc's popen(), reads their output in
 * blocking stdio reads, then waits in pclose(), which does not say which
 * child it started. Inside a coroutine the command is started here
 * instead, as popen() starts it (posix_spawn() of /bin/sh -c, which costs
 * the same however large the worker's heap; stdout, or for a "w" popen()
 * stdin, a pipe; the other descriptors and the environment the caller's),
 * but here the pid is known. The command gets the signal mask and ignored
 * signals a child of plain PHP would (child_signals.h): what Rapier blocked
 * or ignored for itself goes back, as the pthread_atfork() handlers do for
 * proc_open()'s fork(). The pipe becomes a stream with
 * proc_hook.c's pipe ops, so PHP's own line reading and copying wait in
 * the loop; the exit is awaited on a pidfd there too, then reaped at once.
 *
 * What each function makes of the output is PHP's: exec() returns the last
 * line without trailing whitespace and appends each line, so stripped, to
 * its array; system() prints each line as it comes (flushing when no output
 * buffer is active) and returns the last; passthru() copies the bytes
 * through; shell_exec() returns them all, or null when there are none. A
 * line ends at "\n", whatever its length. The result code is the exit
 * status, or the raw wait status when a signal ended the command.
 *
 * A popen() stream remembers its child: pclose() and fclose() close the
 * pipe, then wait in the loop; the stream's last reference going away
 * waits where it is, as libc's pclose() would (that close may run inside
 * the garbage collector, where no coroutine may suspend).
 *
 * A coroutine canceled while its command runs kills the command (SIGKILL:
 * nobody is left to read its output or its status) and reaps it before
 * CanceledException reaches the caller, so no zombie is left behind. Any
 * other exception thrown meanwhile (by an output handler of system() or
 * passthru()) does the same: no coroutine may wait with one pending.
 */
#include "php_rapier.h"
#include "zend_smart_str.h"
#include "main/php_output.h"
#include "SAPI.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child_signals.h"
#include "coroutine.h"
#include "hook.h"
#include "list.h"
#include "pipe.h"
#include "proc_hook.h"
#include "shell_hook.h"

/* How much PHP reads of a command's output at a time (EXEC_INPUT_BUF). */
#define OUTPUT_CHUNK 4096

/* What a function makes of the output: PHP's php_exec() types, and shell_exec(). */
typedef enum {
	OUTPUT_LAST_LINE = 0,    /* exec() */
	OUTPUT_PRINT_LINES = 1,  /* system() */
	OUTPUT_COLLECT_LINES = 2,/* exec() with an array */
	OUTPUT_PASSTHRU = 3,     /* passthru() */
	OUTPUT_ALL = 4           /* shell_exec() */
} output_mode_t;

/* A command a coroutine is running, on that coroutine's stack. */
typedef struct {
	pid_t pid;
	rapier_list_node_t link;
} running_command_t;

static rapier_list_t running;
static zif_handler stock_exec, stock_system, stock_passthru, stock_shell_exec, stock_popen, stock_pclose, stock_fclose;

static bool may_yield(void)
{
	return rapier_hook_enabled(RAPIER_HOOK_PROC) && rapier_coro_can_yield();
}

/*
 * Starts /bin/sh -c command with its stdout (or, to_stdin, its stdin) on a
 * pipe, as popen(command, "r" or "w") does; returns the pid and the
 * pipe's other end in *pipe_end, or -1 with errno set.
 */
static pid_t start_command(const char *command, bool to_stdin, int *pipe_end)
{
	char *argv[] = { "sh", "-c", (char *) command, NULL };
	int fds[2], target = to_stdin ? STDIN_FILENO : STDOUT_FILENO, child_end, err;
	posix_spawn_file_actions_t actions;
	posix_spawnattr_t attr;
	pid_t pid = -1;

	if (pipe2(fds, O_CLOEXEC) != 0) {
		return -1;
	}
	child_end = to_stdin ? fds[0] : fds[1];
	*pipe_end = to_stdin ? fds[1] : fds[0];
	/* With stdin or stdout closed, the pipe may have got that very number: the dup2() below must move it. */
	if (child_end == target) {
		child_end = fcntl(target, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
		close(target);
		if (child_end < 0) {
			err = errno;
			close(*pipe_end);
			errno = err;
			return -1;
		}
	}
	posix_spawn_file_actions_init(&actions);
	posix_spawnattr_init(&attr);
	if ((err = posix_spawn_file_actions_adddup2(&actions, child_end, target)) == 0
			&& (err = rapier_child_signals_spawnattr(&attr)) == 0) {
		err = posix_spawn(&pid, "/bin/sh", &actions, &attr, argv, environ);
	}
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&actions);
	close(child_end);
	if (err != 0) {
		close(*pipe_end);
		errno = err;
		return -1;
	}
	return pid;
}

/* Reaps pid: PHP's result code, its exit code, or the wait status itself when it did not exit; -1 if not ours. */
static int reap(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			return -1;   /* reaped by someone else (a SIGCHLD handler): pclose() says -1 too */
		}
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : status;
}

static void kill_and_reap(pid_t pid)
{
	kill(pid, SIGKILL);
	reap(pid);
}

/*
 * Ends a command whose output is done with: waits in the loop for its exit
 * and reaps it. With an exception pending, or when that wait is canceled
 * (CanceledException thrown), it is killed and reaped instead, and the
 * result is -1.
 */
static int end_command(running_command_t *cmd)
{
	int code = -1;

	if (!EG(exception) && rapier_proc_wait_exit(cmd->pid)) {
		code = reap(cmd->pid);
	} else {
		kill_and_reap(cmd->pid);
	}
	rapier_list_remove(&running, &cmd->link);
	return code;
}

static size_t strip_trailing_whitespace(char *line, size_t len)
{
	while (len > 0 && isspace((unsigned char) line[len - 1])) {
		len--;
	}
	return len;
}

/*
 * The next line of the output, its "\n" included, or what is left before
 * the end; NULL at the end (or on a failed or canceled read).
 */
static zend_string *next_line(php_stream *stream)
{
	smart_str line = { 0 };
	char chunk[OUTPUT_CHUNK];
	size_t len;

	while (php_stream_get_line(stream, chunk, sizeof(chunk), &len) != NULL && len > 0) {
		smart_str_appendl(&line, chunk, len);
		if (chunk[len - 1] == '\n' || EG(exception)) {
			break;
		}
	}
	return line.s != NULL ? smart_str_extract(&line) : NULL;
}

static void handle_line(output_mode_t mode, zend_string *line, zval *lines)
{
	if (mode == OUTPUT_PRINT_LINES) {
		PHPWRITE(ZSTR_VAL(line), ZSTR_LEN(line));
		if (php_output_get_level() < 1) {
			sapi_flush();
		}
	} else if (mode == OUTPUT_COLLECT_LINES) {
		add_next_index_stringl(lines, ZSTR_VAL(line), strip_trailing_whitespace(ZSTR_VAL(line), ZSTR_LEN(line)));
	}
}

/* exec() and system(): handles each line, returns the last one stripped (or ""). */
static void read_lines(php_stream *stream, output_mode_t mode, zval *lines, zval *return_value)
{
	zend_string *line, *last = NULL;

	while ((line = next_line(stream)) != NULL) {
		handle_line(mode, line, lines);
		if (last != NULL) {
			zend_string_release(last);
		}
		last = line;
		if (EG(exception)) {
			break;
		}
	}
	if (last == NULL) {
		RETVAL_EMPTY_STRING();
		return;
	}
	RETVAL_STRINGL(ZSTR_VAL(last), strip_trailing_whitespace(ZSTR_VAL(last), ZSTR_LEN(last)));
	zend_string_release(last);
}

static void copy_through(php_stream *stream)
{
	char chunk[OUTPUT_CHUNK];
	ssize_t n;

	/* An output handler may throw: no read (no wait) with an exception pending. */
	while (!EG(exception) && (n = php_stream_read(stream, chunk, sizeof(chunk))) > 0) {
		PHPWRITE(chunk, n);
	}
}

static void read_all(php_stream *stream, zval *return_value)
{
	zend_string *all = php_stream_copy_to_mem(stream, PHP_STREAM_COPY_ALL, 0);

	if (EG(exception)) {
		if (all != NULL) {
			zend_string_release(all);
		}
		return;
	}
	if (all != NULL && ZSTR_LEN(all) > 0) {
		RETVAL_STR(all);
	} else if (all != NULL) {
		zend_string_release(all);
	}
}

/*
 * Runs command and handles its output by mode; returns the result code, or
 * -1 (false returned and a warning, or an exception) when it could not run
 * or was canceled.
 */
static int run_command(const char *command, output_mode_t mode, zval *lines, zval *return_value)
{
	running_command_t cmd = { 0 };
	php_stream *stream;
	int output, code;

	cmd.pid = start_command(command, false, &output);
	if (cmd.pid < 0) {
		if (mode == OUTPUT_ALL) {
			php_error_docref(NULL, E_WARNING, "Unable to execute '%s'", command);
		} else {
			php_error_docref(NULL, E_WARNING, "Unable to fork [%s]", command);
		}
		RETVAL_FALSE;
		return -1;
	}
	stream = php_stream_fopen_from_fd(output, "rb", NULL);
	if (stream == NULL) {
		close(output);
		kill_and_reap(cmd.pid);
		php_error_docref(NULL, E_WARNING, "Unable to fork [%s]", command);
		RETVAL_FALSE;
		return -1;
	}
	rapier_list_push(&running, &cmd.link);
	rapier_proc_hook_pipe(stream);
	switch (mode) {
		case OUTPUT_PASSTHRU:
			copy_through(stream);
			break;
		case OUTPUT_ALL:
			read_all(stream, return_value);
			break;
		default:
			read_lines(stream, mode, lines, return_value);
	}
	php_stream_close(stream);
	code = end_command(&cmd);
	if (EG(exception)) {
		zval_ptr_dtor(return_value);
		ZVAL_NULL(return_value);
	}
	return code;
}

/* PHP's own checks of the command argument: ValueError for "" and for NUL bytes. */
static bool command_is_valid(const char *command, size_t len)
{
	if (len == 0) {
		zend_argument_value_error(1, "cannot be empty");
		return false;
	}
	if (strlen(command) != len) {
		zend_argument_value_error(1, "must not contain any null bytes");
		return false;
	}
	return true;
}

/* exec(), system() and passthru(): PHP's php_exec_ex() with the command run here; PHP's own outside a coroutine. */
static void exec_family(INTERNAL_FUNCTION_PARAMETERS, zif_handler stock, output_mode_t mode)
{
	char *command;
	size_t command_len;
	zval *lines = NULL, *result = NULL;
	int code;

	if (!may_yield()) {
		stock(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	ZEND_PARSE_PARAMETERS_START(1, mode == OUTPUT_LAST_LINE ? 3 : 2)
		Z_PARAM_STRING(command, command_len)
		Z_PARAM_OPTIONAL
		if (mode == OUTPUT_LAST_LINE) {
			Z_PARAM_ZVAL(lines)
		}
		Z_PARAM_ZVAL(result)
	ZEND_PARSE_PARAMETERS_END();

	if (!command_is_valid(command, command_len)) {
		RETURN_THROWS();
	}
	if (lines != NULL) {
		if (Z_TYPE_P(Z_REFVAL_P(lines)) == IS_ARRAY) {
			ZVAL_DEREF(lines);
			SEPARATE_ARRAY(lines);
		} else if ((lines = zend_try_array_init(lines)) == NULL) {
			RETURN_THROWS();
		}
		mode = OUTPUT_COLLECT_LINES;
	}
	code = run_command(command, mode, lines, return_value);
	if (EG(exception)) {
		RETURN_THROWS();
	}
	if (result != NULL) {
		ZEND_TRY_ASSIGN_REF_LONG(result, code);
	}
}

static ZEND_NAMED_FUNCTION(hooked_exec)
{
	exec_family(INTERNAL_FUNCTION_PARAM_PASSTHRU, stock_exec, OUTPUT_LAST_LINE);
}

static ZEND_NAMED_FUNCTION(hooked_system)
{
	exec_family(INTERNAL_FUNCTION_PARAM_PASSTHRU, stock_system, OUTPUT_PRINT_LINES);
}

static ZEND_NAMED_FUNCTION(hooked_passthru)
{
	exec_family(INTERNAL_FUNCTION_PARAM_PASSTHRU, stock_passthru, OUTPUT_PASSTHRU);
}

/* shell_exec() and the backtick operator, which compiles to a call of it. */
static ZEND_NAMED_FUNCTION(hooked_shell_exec)
{
	char *command;
	size_t command_len;

	if (!may_yield()) {
		stock_shell_exec(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_STRING(command, command_len)
	ZEND_PARSE_PARAMETERS_END();

	if (!command_is_valid(command, command_len)) {
		RETURN_THROWS();
	}
	run_command(command, OUTPUT_ALL, NULL, return_value);
}

/*
 * popen() streams started here, by stream: the pid their close reaps. An
 * entry leaves when its stream closes, or when pclose() takes the child to
 * wait for it in the loop.
 */
static HashTable popen_children;
static php_stream_ops popen_ops;

static zend_ulong popen_key(php_stream *stream)
{
	return (zend_ulong) (uintptr_t) stream;
}

/* The child popen() started for stream, now the caller's to reap; 0 if none. */
static pid_t take_popen_child(php_stream *stream)
{
	zval *pid = zend_hash_index_find(&popen_children, popen_key(stream));
	pid_t child;

	if (pid == NULL) {
		return 0;
	}
	child = (pid_t) Z_LVAL_P(pid);
	zend_hash_index_del(&popen_children, popen_key(stream));
	return child;
}

/*
 * The last reference going away, the end of the request, or pclose() and
 * fclose() outside a coroutine: the stream layer waits for the command
 * right here, as libc's pclose() does in PHP (a close op must not suspend:
 * the garbage collector may be the caller). Its result is what pclose()
 * then returns.
 */
static int popen_close(php_stream *stream, int close_handle)
{
	pid_t pid = close_handle ? take_popen_child(stream) : 0;
	int closed = rapier_pipe_ops(RAPIER_PIPE_CHILD)->close(stream, close_handle);

	return pid > 0 ? reap(pid) : closed;
}

/*
 * popen()'s mode as PHP checks it, into posix_mode with its first "b"
 * dropped: false with a ValueError thrown unless that leaves r, w, rb, wb
 * or nothing. Only r and w start a command: libc's popen(), which PHP
 * hands the rest, refuses them with EINVAL, and so does the hook.
 */
static bool popen_mode(const char *mode, size_t len, char posix_mode[3])
{
	const char *b = memchr(mode, 'b', len);
	size_t left = len - (b != NULL);
	char kept[3] = { 0 };

	for (size_t i = 0, n = 0; i < len && n < 2; i++) {
		if (mode + i != b) {
			kept[n++] = mode[i];
		}
	}
	if (left > 2 || (left == 1 && kept[0] != 'r' && kept[0] != 'w')
			|| (left == 2 && strcmp(kept, "rb") != 0 && strcmp(kept, "wb") != 0)) {
		zend_argument_value_error(2, "must be one of \"r\", \"rb\", \"w\", or \"wb\"");
		return false;
	}
	memcpy(posix_mode, kept, sizeof(kept));
	return true;
}

static ZEND_NAMED_FUNCTION(hooked_popen)
{
	char *command, *mode, posix_mode[3];
	size_t command_len, mode_len;
	php_stream *stream = NULL;
	pid_t pid = -1;
	zval child;
	int pipe_end;

	if (!may_yield()) {
		stock_popen(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	ZEND_PARSE_PARAMETERS_START(2, 2)
		Z_PARAM_PATH(command, command_len)
		Z_PARAM_STRING(mode, mode_len)
	ZEND_PARSE_PARAMETERS_END();

	if (!popen_mode(mode, mode_len, posix_mode)) {
		RETURN_THROWS();
	}
	if (strcmp(posix_mode, "r") == 0 || strcmp(posix_mode, "w") == 0) {
		pid = start_command(command, posix_mode[0] == 'w', &pipe_end);
	} else {
		errno = EINVAL;
	}
	if (pid > 0 && (stream = php_stream_fopen_from_fd(pipe_end, mode, NULL)) == NULL) {
		int err = errno;

		close(pipe_end);
		kill_and_reap(pid);
		errno = err;
	}
	if (stream == NULL) {
		php_error_docref2(NULL, command, posix_mode, E_WARNING, "%s", strerror(errno));
		RETURN_FALSE;
	}
	stream->ops = &popen_ops;
	ZVAL_LONG(&child, pid);
	zend_hash_index_update(&popen_children, popen_key(stream), &child);
	php_stream_to_zval(stream, return_value);
}

/* In a coroutine, pclose() of a stream popen() started here waits for the command in the loop. */
static ZEND_NAMED_FUNCTION(hooked_pclose)
{
	zval *arg = ZEND_NUM_ARGS() == 1 ? ZEND_CALL_ARG(execute_data, 1) : NULL;
	php_stream *stream = rapier_hook_stream_of(arg);
	pid_t pid;

	if (rapier_pipe_close_refused(stream)) {
		RETURN_THROWS();
	}
	if (stream == NULL || stream->ops != &popen_ops || !may_yield() || (pid = take_popen_child(stream)) == 0) {
		stock_pclose(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	/* Closed first: the command may be waiting for the end of its input, or blocked writing its output. */
	zend_list_close(stream->res);
	if (!rapier_proc_wait_exit(pid)) {
		kill_and_reap(pid);
		RETURN_THROWS();
	}
	RETURN_LONG(reap(pid));
}

/*
 * In a coroutine, fclose() of a stream popen() started here closes the pipe
 * as PHP's fclose() does, then waits for the command in the loop, as
 * pclose() does; the exit status is PHP's to drop.
 */
static ZEND_NAMED_FUNCTION(hooked_fclose)
{
	zval *arg = ZEND_NUM_ARGS() == 1 ? ZEND_CALL_ARG(execute_data, 1) : NULL;
	php_stream *stream = rapier_hook_stream_of(arg);
	pid_t pid;

	/* PHP's fclose() frees every stream but those flagged NO_FCLOSE (STDIN and friends). */
	if (stream == NULL || stream->ops != &popen_ops || (stream->flags & PHP_STREAM_FLAG_NO_FCLOSE)
			|| !may_yield() || (pid = take_popen_child(stream)) == 0) {
		stock_fclose(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	stock_fclose(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	if (!rapier_proc_wait_exit(pid)) {
		kill_and_reap(pid);
		RETURN_THROWS();
	}
	reap(pid);
}

void rapier_shell_hook_minit(void)
{
	stock_exec = rapier_hook_replace_handler(ZEND_STRL("exec"), hooked_exec);
	stock_system = rapier_hook_replace_handler(ZEND_STRL("system"), hooked_system);
	stock_passthru = rapier_hook_replace_handler(ZEND_STRL("passthru"), hooked_passthru);
	stock_shell_exec = rapier_hook_replace_handler(ZEND_STRL("shell_exec"), hooked_shell_exec);
	stock_popen = rapier_hook_replace_handler(ZEND_STRL("popen"), hooked_popen);
	stock_pclose = rapier_hook_replace_handler(ZEND_STRL("pclose"), hooked_pclose);
	stock_fclose = rapier_hook_replace_handler(ZEND_STRL("fclose"), hooked_fclose);
	popen_ops = *rapier_pipe_ops(RAPIER_PIPE_CHILD);
	popen_ops.close = popen_close;
	zend_hash_init(&popen_children, 8, NULL, NULL, 1);
}

void rapier_shell_hook_mshutdown(void)
{
	rapier_hook_replace_handler(ZEND_STRL("exec"), stock_exec);
	rapier_hook_replace_handler(ZEND_STRL("system"), stock_system);
	rapier_hook_replace_handler(ZEND_STRL("passthru"), stock_passthru);
	rapier_hook_replace_handler(ZEND_STRL("shell_exec"), stock_shell_exec);
	rapier_hook_replace_handler(ZEND_STRL("popen"), stock_popen);
	rapier_hook_replace_handler(ZEND_STRL("pclose"), stock_pclose);
	rapier_hook_replace_handler(ZEND_STRL("fclose"), stock_fclose);
	zend_hash_destroy(&popen_children);
}

void rapier_shell_hook_on_run_end(void)
{
	rapier_list_node_t *node;

	/* Only a bailout leaves commands behind; their coroutines will never read or reap them. */
	while ((node = rapier_list_shift(&running)) != NULL) {
		kill_and_reap(RAPIER_LIST_ENTRY(node, running_command_t, link)->pid);
	}
}
