#!/usr/bin/env bash
# The HTTP benchmark: wrk against nginx, nginx + php-fpm and Rapier on the
# same endpoints and the same data, on loopback. See docs/benchmarks.md.
#
#   bench/run.sh            the quick run (about 5 minutes)
#   FULL=1 bench/run.sh     every scenario at every concurrency (about 30 minutes)
#   ROUNDS=3 bench/run.sh   each scenario three times over, servers alternating;
#                           the report shows each step's median
#
# Environment (all optional):
#   RAPIER_EXT        the built extension (default ext/modules/rapier.so)
#   DURATION          seconds per measured run (5 quick, 10 full); WARMUP (1)
#   BENCH_SERVERS     a subset of: nginx fpm16 fpm200 rapier rapier-c1 lumen-fpm lumen-rapier
#                     nginx-tls rapier-tls
#   BENCH_SCENARIOS   a subset of: hello user users queries redis slow
#   BENCH_CONNECTIONS a subset of: 100 400 10000
#   BENCH_JIT         opcache.jit for the Rapier servers (tracing), or off
#   BENCH_FPM_JIT     opcache.jit for php-fpm (off), e.g. tracing
#
# MariaDB and Redis come from scripts/services.sh, every server from its own
# config in a throwaway directory (mktemp); the exit trap stops everything
# this script started, by pid, and removes that directory. Results go to
# bench/results/<UTC timestamp>/ and bench/results/latest.md.
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$BENCH_DIR")
FULL=${FULL:-0}
if [ "$FULL" = 1 ]; then
	DURATION=${DURATION:-10}
else
	DURATION=${DURATION:-5}
fi
WARMUP=${WARMUP:-1}
ROUNDS=${ROUNDS:-1}
if ! [[ $ROUNDS =~ ^[1-9][0-9]?$ ]]; then
	echo "bench: ROUNDS must be a whole number from 1 to 99, not '$ROUNDS'" >&2
	exit 2
fi
RAPIER_EXT=${RAPIER_EXT:-$ROOT/ext/modules/rapier.so}
# Exported: the servers start with them and the report names them.
export BENCH_JIT=${BENCH_JIT:-tracing} BENCH_FPM_JIT=${BENCH_FPM_JIT:-off}

# Also the order each scenario runs them in: the servers a floor compares
# (Rapier with nginx, php-fpm 16 and 200; the two Lumens) come next to each
# other, and so do nginx and Rapier over HTTPS, last so that the floors'
# steps run when they did before.
ALL_SERVERS=(nginx rapier fpm16 fpm200 rapier-c1 lumen-fpm lumen-rapier nginx-tls rapier-tls)
ALL_SCENARIOS=(hello user users queries redis slow)
# Open files wanted per process: the 10,000-connection runs hold that many
# sockets in wrk and in the servers (nginx in front of php-fpm holds two per
# client), plus MariaDB, Redis and log descriptors.
readonly OPEN_FILES=65536
readonly OPEN_FILES_NEEDED=12000

source "$BENCH_DIR/lib/servers.sh"

say() {
	echo "bench: $*" >&2
}

# steps SERVER SCENARIO: the connection counts SERVER runs SCENARIO at.
steps() {
	local server=$1 scenario=$2 c
	selected "$scenario" "${BENCH_SCENARIOS:-}" || return 0
	for c in 100 400 10000; do
		selected "$c" "${BENCH_CONNECTIONS:-}" && in_plan "$server" "$scenario" "$c" && echo "$c"
	done
	return 0
}

selected() {
	[ -z "$2" ] || [[ " $2 " == *" $1 "* ]]
}

# The plan: nginx serves hello only (it is the ceiling of that endpoint), and
# so do nginx and Rapier over HTTPS (what TLS adds to a request).
# The quick run keeps hello at all three concurrencies, user by id and slow
# I/O at 100 and 400, and Lumen and HTTPS at 100; Rapier and php-fpm 16 also
# run 10 users, 100 queries and Redis at 100, so that it judges every floor.
# HTTPS never runs at 10,000 connections: wrk opens them all at once and
# the step becomes a storm of handshakes (neither server answered a request
# in a 5 s step), not the cost of an encrypted request.
in_plan() {
	local server=$1 scenario=$2 c=$3
	[[ $server != @(nginx|nginx-tls|rapier-tls) ]] || [ "$scenario" = hello ] || return 1
	[[ $server != *-tls || $c != 10000 ]] || return 1
	[ "$FULL" != 1 ] || return 0
	case $server in
	lumen-* | *-tls) [[ $scenario == @(hello|user) && $c == 100 ]] ;;
	*) [[ $scenario == hello || ($scenario == @(user|slow) && $c != 10000) ||
		($server == @(rapier|fpm16) && $scenario == @(users|queries|redis) && $c == 100) ]] ;;
	esac
}

require_tools() {
	local tool missing=()
	for tool in wrk nginx php-fpm8.2 gnuplot mariadbd redis-server openssl; do
		command -v "$tool" >/dev/null || missing+=("$tool")
	done
	if [ ${#missing[@]} -gt 0 ]; then
		say "missing: ${missing[*]}; run \`make bench\` (it installs them) or scripts/install-deps.sh --bench"
		exit 1
	fi
	if [ ! -f "$RAPIER_EXT" ]; then
		say "no extension at $RAPIER_EXT; run \`make build\` first"
		exit 1
	fi
}

raise_open_files() {
	local before hard target=$OPEN_FILES
	before=$(ulimit -n)
	[ "$before" != unlimited ] || return 0
	hard=$(ulimit -Hn)
	# Root may raise the hard limit too (unless a container forbids it).
	if [ "$hard" != unlimited ] && [ "$hard" -lt $target ]; then
		ulimit -Hn $target 2>/dev/null || target=$hard
	fi
	[ "$target" -gt "$before" ] || target=$before
	ulimit -n "$target"
	if [ "$target" -lt $OPEN_FILES_NEEDED ]; then
		say "the open-file limit is $target, under $OPEN_FILES_NEEDED: the 10,000-connection runs will report socket errors"
	elif [ "$target" != "$before" ]; then
		say "raised the open-file limit from $before to $target (10,000 connections in wrk and in each server)"
	else
		say "open-file limit: $target (its hard limit), enough for 10,000 connections"
	fi
}

cleanup() {
	local status=$?
	trap - EXIT INT TERM
	if [ $status -ne 0 ]; then
		echo >&2
		say "stopping everything (exit status $status)"
	fi
	stop_pids "${STARTED_PIDS[@]}"
	if [ -d "$WORK/services" ]; then
		"$ROOT/scripts/services.sh" stop "$WORK/services" || true
	fi
	rm -rf "$WORK"
	exit $status
}

start_services() {
	say "starting MariaDB and Redis"
	"$ROOT/scripts/services.sh" start "$WORK/services" >/dev/null
	# shellcheck source=/dev/null
	source "$WORK/services/env"
	export BENCH_MYSQL_HOST=$RAPIER_TEST_MYSQL_HOST BENCH_MYSQL_PORT=$RAPIER_TEST_MYSQL_PORT
	export BENCH_MYSQL_DATABASE=$RAPIER_TEST_MYSQL_DATABASE BENCH_MYSQL_USER=$RAPIER_TEST_MYSQL_USER
	export BENCH_MYSQL_PASSWORD=$RAPIER_TEST_MYSQL_PASSWORD
	export BENCH_REDIS_HOST=$RAPIER_TEST_REDIS_HOST BENCH_REDIS_PORT=$RAPIER_TEST_REDIS_PORT
	MARIADB_PID=$(cat "$WORK/services/mariadb.pid")
	REDIS_PID=$(cat "$WORK/services/redis.pid")
	say "loading 10,000 users into MariaDB and one JSON user into Redis"
	php "$BENCH_DIR/lib/seed.php" "$WORK/expect"
}

note() {
	say "$*"
	echo "$*" >>"$RESULTS/notes.txt"
}

# run_server SERVER SCENARIO ROUND: start it, measure SCENARIO at each of its
# connection counts, stop it. A server that cannot run here (SKIP_REASON) is
# noted once and not tried again.
declare -A SKIPPED=()
run_server() {
	local server=$1 scenario=$2 round=$3 c status=0
	local -a plan
	mapfile -t plan < <(steps "$server" "$scenario")
	[ ${#plan[@]} -gt 0 ] || return 0
	# Where the step count stands once this server is done, however it ends.
	local after=$((STEP + ${#plan[@]}))
	if [ -n "${SKIPPED[$server]:-}" ]; then
		STEP=$after
		return 0
	fi
	say "starting $server"
	start_server "$server" || status=$?
	if [ $status -ne 0 ]; then
		if [ $status -eq 2 ]; then
			note "$server skipped: $SKIP_REASON"
			SKIPPED[$server]=1
		else
			note "$server did not start; see its log: $(tail -n 5 $SERVER_LOG 2>/dev/null | tr '\n' ' ')"
			stop_server
		fi
		STEP=$after
		return 0
	fi
	# The first step checks every answer and warms the server up. After a
	# step that fails (a wrong answer, a server still busy) the rest of this
	# scenario is not run.
	local first=(--check --warmup="$WARMUP")
	for c in "${plan[@]}"; do
		STEP=$((STEP + 1))
		php "$BENCH_DIR/lib/measure.php" --server="$server" --scenario="$scenario" --connections="$c" \
			--duration="$DURATION" --url="$SERVER_URL" --pids="$(IFS=,; echo "${SERVER_PIDS[*]}")" \
			--mariadb="$MARIADB_PID" --redis="$REDIS_PID" --expect-dir="$WORK/expect" \
			--out="$RESULTS/runs.jsonl" --step="[$STEP/$TOTAL]" --round="$round" "${first[@]}" || break
		first=()
	done
	STEP=$after
	stop_server
}

main() {
	require_tools
	local server servers=()
	for server in "${ALL_SERVERS[@]}"; do
		selected "$server" "${BENCH_SERVERS:-}" && servers+=("$server")
	done

	WORK=$(mktemp -d "${TMPDIR:-/tmp}/rapier-bench.XXXXXX")
	# nginx's workers drop to an unprivileged user when started by root and
	# must still reach php-fpm's socket in here.
	chmod 755 "$WORK"
	trap cleanup EXIT
	trap 'exit 130' INT TERM
	RESULTS=$BENCH_DIR/results/$(date -u +%Y%m%dT%H%M%SZ)
	mkdir -p "$RESULTS"
	# A private copy: a rebuild of ext/ during the run must not change the
	# module under the workers' feet.
	RAPIER_SO=$WORK/rapier.so
	cp "$RAPIER_EXT" "$RAPIER_SO"

	say "$([ "$FULL" = 1 ] && echo full || echo quick) run, ${DURATION}s per step$([ "$ROUNDS" = 1 ] || echo ", $ROUNDS rounds"), results in ${RESULTS#"$ROOT"/}"
	raise_open_files
	php "$BENCH_DIR/lib/results.php" machine "$RAPIER_SO" >"$RESULTS/machine.json"
	start_services

	# Scenario by scenario, each server in turn: a ratio then compares steps
	# run minutes apart, not up to half an hour, and this VM's speed was seen
	# to drift by 30% within twenty minutes (docs/benchmarks.md). With
	# ROUNDS, the servers alternate within the scenario, round after round,
	# so that a slow spell of the machine hits each of them alike.
	local scenario round
	TOTAL=0 STEP=0
	for scenario in "${ALL_SCENARIOS[@]}"; do
		for server in "${servers[@]}"; do
			TOTAL=$((TOTAL + ROUNDS * $(steps "$server" "$scenario" | wc -l)))
		done
	done
	for scenario in "${ALL_SCENARIOS[@]}"; do
		for ((round = 1; round <= ROUNDS; round++)); do
			for server in "${servers[@]}"; do
				run_server "$server" "$scenario" "$round"
			done
		done
	done

	say "writing the report"
	php "$BENCH_DIR/lib/results.php" render "$RESULTS" "$DURATION" "$FULL"
	cat "$RESULTS/results.md"
}

main "$@"
