# Starting and stopping the servers under test; sourced by bench/run.sh,
# which sets WORK (the run's throwaway directory), BENCH_DIR, RAPIER_SO and
# the BENCH_* variables the apps read.
#
# Each start_* function starts one server on a free loopback port and sets
# SERVER_URL, SERVER_LOG (where to look when it fails) and SERVER_PIDS, the
# roots of its process trees (nginx master, php-fpm master, Rapier master):
# measure.php samples those trees, stop_server stops them. Every root is also
# kept in STARTED_PIDS for run.sh's exit trap. Processes are stopped by the
# pids recorded here, never by name.

STARTED_PIDS=()

# Seconds a server may take to answer after start (php-fpm forking 200
# children on a loaded machine is the slowest), and to stop after SIGTERM.
readonly SERVER_START_TIMEOUT=30
readonly SERVER_STOP_TIMEOUT=20

free_port() {
	php -n -r '$s = stream_socket_server("tcp://127.0.0.1:0", $e, $m) or exit(1);
		echo substr(strrchr(stream_socket_get_name($s, false), ":"), 1), "\n";'
}

# render TEMPLATE OUT KEY=VALUE...: copies TEMPLATE with each @KEY@ replaced.
render() {
	local template=$1 out=$2 kv
	shift 2
	local args=()
	for kv in "$@"; do
		args+=(-e "s|@${kv%%=*}@|${kv#*=}|g")
	done
	sed "${args[@]}" "$template" >"$out"
}

# new_server NAME: a fresh directory and port for the next server (a
# server is started once per scenario: each start gets its own).
SERVER_STARTS=0
new_server() {
	SERVER_STARTS=$((SERVER_STARTS + 1))
	SERVER_DIR=$WORK/servers/$SERVER_STARTS-$1
	mkdir -p "$SERVER_DIR"
	SERVER_PORT=$(free_port)
	SERVER_URL=http://127.0.0.1:$SERVER_PORT
	SERVER_PIDS=()
}

remember_pid() {
	SERVER_PIDS+=("$1")
	STARTED_PIDS+=("$1")
}

# start_nginx SERVER_TEMPLATE [KEY=VALUE...]: nginx in the foreground of its
# own prefix (-p), config and logs in SERVER_DIR; -e keeps even its start-up
# errors out of /var/log.
start_nginx() {
	local template=$1
	shift
	render "$BENCH_DIR/conf/nginx.conf.in" "$SERVER_DIR/nginx.conf" DIR="$SERVER_DIR"
	render "$BENCH_DIR/conf/$template" "$SERVER_DIR/nginx-server.conf" \
		DIR="$SERVER_DIR" PORT="$SERVER_PORT" "$@"
	nginx -p "$SERVER_DIR" -c "$SERVER_DIR/nginx.conf" -e "$SERVER_DIR/nginx-error.log" \
		</dev/null >>"$SERVER_DIR/nginx.out" 2>&1 &
	remember_pid $!
	SERVER_LOG=$SERVER_DIR/nginx-error.log
}

# use_tls: the next server speaks HTTPS (SERVER_URL https://), with the
# run's throwaway certificate in TLS_CERT and its key in TLS_KEY: a
# self-signed EC P-256 one for localhost and 127.0.0.1, made on first use,
# so that nginx-tls and rapier-tls serve the same one. Nothing verifies it
# (wrk does not, Probe is told not to): it only has to be the same for both.
use_tls() {
	TLS_CERT=$WORK/tls/cert.pem TLS_KEY=$WORK/tls/key.pem
	SERVER_URL=https://127.0.0.1:$SERVER_PORT
	[ ! -f "$TLS_CERT" ] || return 0
	mkdir -p "$WORK/tls"
	SERVER_LOG=$WORK/tls/openssl.log
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
		-keyout "$TLS_KEY" -out "$TLS_CERT" -days 2 -subj /CN=localhost \
		-addext subjectAltName=DNS:localhost,IP:127.0.0.1 </dev/null >"$SERVER_LOG" 2>&1
}

# php_jit_args MODE: the options for opcache's JIT in MODE (an opcache.jit
# mode such as tracing, or off). Each server gets the setting it is faster
# with on this benchmark, measured (docs/benchmarks.md): Rapier the tracing
# JIT (BENCH_JIT), php-fpm none (BENCH_FPM_JIT; with it, plain php-fpm
# spent half as much CPU again per hello and Lumen on php-fpm did not move).
php_jit_args() {
	if [ "$1" = off ]; then
		echo "-d opcache.jit=off"
	else
		echo "-d opcache.jit_buffer_size=64M -d opcache.jit=$1"
	fi
}

# start_fpm CHILDREN SCRIPT: php-fpm with a static pool of CHILDREN behind
# nginx; every request runs SCRIPT (a front controller).
start_fpm() {
	local children=$1 script=$2
	local as_root=()
	# php-fpm refuses to run its children as root unless told (-R); the
	# pool then runs as whoever runs the benchmark.
	[ "$(id -u)" -ne 0 ] || as_root=(-R)
	render "$BENCH_DIR/conf/php-fpm.conf.in" "$SERVER_DIR/php-fpm.conf" \
		DIR="$SERVER_DIR" CHILDREN="$children"
	# opcache on (Debian's default too), and no stat() per request and
	# included file: nothing changes during a run.
	BENCH_PERSISTENT=1 BENCH_LUMEN_STORAGE=$SERVER_DIR \
		php-fpm8.2 --nodaemonize "${as_root[@]}" -y "$SERVER_DIR/php-fpm.conf" -p "$SERVER_DIR" \
		-d opcache.enable=1 -d opcache.validate_timestamps=0 $(php_jit_args "$BENCH_FPM_JIT") \
		</dev/null >>"$SERVER_DIR/php-fpm.out" 2>&1 &
	remember_pid $!
	start_nginx nginx-fpm.conf.in SCRIPT="$script"
	SERVER_LOG="$SERVER_DIR/php-fpm.log $SERVER_DIR/nginx-error.log"
}

# start_rapier CONCURRENCY SCRIPT: a Rapier server script (2 workers; an
# empty CONCURRENCY leaves it to the script) run
# by the PHP CLI with the extension, opcache on as php-fpm has it
# (RAPIER_OPCACHE=0 turns it off), and its JIT (above). A resident server compiles its
# code once, so opcache itself changes little here beyond the optimizer.
start_rapier() {
	local concurrency=$1 script=$2
	BENCH_PORT=$SERVER_PORT BENCH_RAPIER_CONCURRENCY=$concurrency BENCH_LUMEN_STORAGE=$SERVER_DIR \
		php -d extension="$RAPIER_SO" -d opcache.enable_cli="${RAPIER_OPCACHE:-1}" $(php_jit_args "$BENCH_JIT") "$script" \
		</dev/null >>"$SERVER_DIR/rapier.log" 2>&1 &
	remember_pid $!
	SERVER_LOG=$SERVER_DIR/rapier.log
}

# start_server NAME: starts one of the servers run.sh knows and waits until
# it answers. Returns 2 with SKIP_REASON set for a server that cannot run
# here, 1 when it failed to start.
start_server() {
	new_server "$1"
	SKIP_REASON=
	case $1 in
	nginx) start_nginx nginx-ceiling.conf.in ;;
	fpm16) start_fpm 16 "$BENCH_DIR/apps/plain/index.php" ;;
	fpm200) start_fpm 200 "$BENCH_DIR/apps/plain/index.php" ;;
	# No concurrency given: rapier.php admits as many requests as its pool has connections.
	rapier) start_rapier "" "$BENCH_DIR/servers/rapier.php" ;;
	rapier-c1) start_rapier 1 "$BENCH_DIR/servers/rapier.php" ;;
	lumen-fpm) start_fpm 16 "$BENCH_DIR/apps/lumen/public/index.php" ;;
	lumen-rapier) start_lumen_rapier || return 2 ;;
	# HTTPS, TLS 1.2 and 1.3 on both (Rapier's default tls_min_version is 1.2).
	nginx-tls)
		use_tls || return 1
		start_nginx nginx-ceiling-tls.conf.in CERT="$TLS_CERT" KEY="$TLS_KEY"
		;;
	rapier-tls)
		use_tls || return 1
		BENCH_RAPIER_TLS_CERT_FILE=$TLS_CERT BENCH_RAPIER_TLS_KEY_FILE=$TLS_KEY \
			start_rapier "" "$BENCH_DIR/servers/rapier.php"
		;;
	*)
		echo "bench: unknown server $1" >&2
		return 1
		;;
	esac
	php "$BENCH_DIR/lib/wait.php" "$SERVER_URL/hello" "$SERVER_START_TIMEOUT" "${SERVER_PIDS[@]}" || return 1
	# nginx answers (502) even when the php-fpm behind it has died.
	local pid
	for pid in "${SERVER_PIDS[@]}"; do
		alive "$pid" || return 1
	done
}

# Lumen on Rapier: the hook for the framework adapter of issue 4. Runs only
# once src/Adapter/LumenAdapter.php exists; bench/servers/rapier-lumen.php
# says what it expects of that class.
start_lumen_rapier() {
	if [ ! -f "$ROOT/src/Adapter/LumenAdapter.php" ]; then
		SKIP_REASON="src/Adapter/LumenAdapter.php does not exist yet (the Lumen adapter of issue 4)"
		return 1
	fi
	start_rapier "${BENCH_LUMEN_RAPIER_CONCURRENCY:-1}" "$BENCH_DIR/servers/rapier-lumen.php"
}

# tree_pids PID: PID and all its descendants, parents first.
tree_pids() {
	local child
	echo "$1"
	for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do
		tree_pids "$child"
	done
}

# alive PID: the process exists and is not a zombie (our own children stay
# zombies until run.sh waits for them, and kill -0 succeeds on a zombie).
alive() {
	local state
	state=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
	[[ $state != Z* ]]
}

# stop_pids PID...: SIGTERM to the roots (each server drains and stops its
# own children), SIGKILL to whatever of their trees is left after
# SERVER_STOP_TIMEOUT.
stop_pids() {
	[ $# -gt 0 ] || return 0
	local pid all=() deadline=$((SECONDS + SERVER_STOP_TIMEOUT))
	for pid in "$@"; do
		alive "$pid" || continue
		mapfile -t -O "${#all[@]}" all < <(tree_pids "$pid")
		kill -TERM "$pid" 2>/dev/null || true
	done
	for pid in "${all[@]}"; do
		while alive "$pid" && [ $SECONDS -lt $deadline ]; do
			sleep 0.1
		done
		if alive "$pid"; then
			echo "bench: process $pid did not stop within ${SERVER_STOP_TIMEOUT}s, killing it" >&2
			kill -KILL "$pid" 2>/dev/null || true
		fi
	done
	for pid in "$@"; do
		wait "$pid" 2>/dev/null || true
	done
}

stop_server() {
	stop_pids "${SERVER_PIDS[@]}"
	SERVER_PIDS=()
}
