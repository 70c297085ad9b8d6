#!/usr/bin/env bash
# Throwaway MariaDB, Redis and PostgreSQL servers for the integration tests.
#
#   scripts/services.sh start DIR   start them on free loopback ports, data in DIR;
#                                   writes DIR/env (export lines for the tests)
#   scripts/services.sh stop DIR    stop what DIR's pid files name, remove DIR
#
# Nothing listens beyond 127.0.0.1, nothing is written outside DIR, and the
# system's own MariaDB/Redis/PostgreSQL configuration is ignored (--no-defaults), so
# repeated and concurrent runs do not interfere. Processes are stopped by the
# pids recorded at start, never by name.
set -euo pipefail

# Seconds to wait for a server to answer; MariaDB's first start on a cold
# disk builds its InnoDB files and can take several seconds.
readonly START_TIMEOUT=60
readonly STOP_TIMEOUT=30

die() {
	echo "services: $*" >&2
	exit 1
}

free_port() {
	php -n -r '$s = stream_socket_server("tcp://127.0.0.1:0", $e, $m) or exit(1);
		echo substr(strrchr(stream_socket_get_name($s, false), ":"), 1), "\n";'
}

pid_alive() {
	[ -n "$1" ] && kill -0 "$1" 2>/dev/null
}

wait_until() {
	local what=$1 pidfile=$2
	shift 2
	local deadline=$((SECONDS + START_TIMEOUT))
	until "$@" >/dev/null 2>&1; do
		if [ -s "$pidfile" ] && ! pid_alive "$(cat "$pidfile")"; then
			die "$what exited during startup"
		fi
		[ $SECONDS -lt $deadline ] || die "$what did not answer within ${START_TIMEOUT}s"
		sleep 0.2
	done
}

# MariaDB's administrator: the account of whoever runs this, root or not,
# which mariadb-install-db lets in by Unix socket (besides MariaDB's root).
# As root, mariadbd runs as root too; as anyone else it runs as them.
admin=$(id -un)

start_mariadb() {
	local dir=$1 port=$2
	local data=$dir/mysql sock=$dir/mysql.sock
	mkdir -p "$data" "$dir/tmp"
	mariadb-install-db --no-defaults --user="$admin" --datadir="$data" \
		--auth-root-authentication-method=socket --skip-test-db \
		>"$dir/mariadb-install.log" 2>&1 \
		|| { cat "$dir/mariadb-install.log" >&2; die "mariadb-install-db failed"; }

	# Small buffers and no binary log: the tests need concurrency, not throughput.
	mariadbd --no-defaults --user="$admin" --datadir="$data" --tmpdir="$dir/tmp" \
		--socket="$sock" --pid-file="$dir/mariadb.pid" --log-error="$dir/mariadb.err" \
		--skip-networking=0 --bind-address=127.0.0.1 --port="$port" \
		--skip-name-resolve --skip-log-bin --performance-schema=OFF \
		--innodb-buffer-pool-size=32M --innodb-log-file-size=16M \
		--max-connections=300 </dev/null >/dev/null 2>&1 &
	echo $! >"$dir/mariadb.pid"
	wait_until MariaDB "$dir/mariadb.pid" \
		mariadb-admin --no-defaults --socket="$sock" --user="$admin" ping \
		|| { cat "$dir/mariadb.err" >&2; exit 1; }

	mariadb --no-defaults --socket="$sock" --user="$admin" <<-'SQL'
		CREATE DATABASE rapier_test;
		CREATE USER 'rapier'@'127.0.0.1' IDENTIFIED BY 'rapier';
		GRANT ALL ON rapier_test.* TO 'rapier'@'127.0.0.1';
	SQL
}

start_redis() {
	local dir=$1 port=$2
	redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
		--unixsocket "$dir/redis.sock" --unixsocketperm 700 \
		--dir "$dir" --logfile "$dir/redis.log" --daemonize no \
		</dev/null >/dev/null 2>&1 &
	echo $! >"$dir/redis.pid"
	wait_until Redis "$dir/redis.pid" redis-cli -h 127.0.0.1 -p "$port" ping \
		|| { cat "$dir/redis.log" >&2; exit 1; }
}

# PostgreSQL refuses to run as root: as root its cluster belongs to the
# postgres account, in a directory of its own (DIR is private to root), which
# DIR/postgres.dir names for stop.
pg_bin() {
	local bin
	bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
	[ -n "$bin" ] || die "PostgreSQL is not installed (scripts/install-deps.sh)"
	echo "$bin"
}

# From /: the postgres account may not enter the caller's directory.
as_pg_owner() {
	if [ "$(id -u)" -eq 0 ]; then
		(cd / && runuser -u postgres -- "$@")
	else
		"$@"
	fi
}

start_postgres() {
	local dir=$1 port=$2 bin pgdir
	bin=$(pg_bin)
	pgdir=$(mktemp -d -t rapier-postgres.XXXXXX)
	echo "$pgdir" >"$dir/postgres.dir"
	[ "$(id -u)" -ne 0 ] || chown postgres: "$pgdir"
	echo rapier >"$pgdir/password"
	as_pg_owner "$bin/initdb" -D "$pgdir/data" -U rapier --pwfile="$pgdir/password" \
		--auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 \
		>"$dir/postgres-initdb.log" 2>&1 \
		|| { cat "$dir/postgres-initdb.log" >&2; die "initdb failed"; }
	# Small and unsafe on purpose: fsync off, the tests need no durability.
	as_pg_owner "$bin/postgres" -D "$pgdir/data" -h 127.0.0.1 -p "$port" -k "$pgdir" \
		-c fsync=off -c synchronous_commit=off -c full_page_writes=off \
		-c max_connections=200 -c shared_buffers=16MB \
		</dev/null >"$pgdir/postgres.log" 2>&1 &
	echo $! >"$dir/postgres.pid"
	wait_until PostgreSQL "$dir/postgres.pid" \
		as_pg_owner "$bin/pg_isready" -q -h 127.0.0.1 -p "$port" \
		|| { cat "$pgdir/postgres.log" >&2; exit 1; }
	# $! is the shell or runuser in between: stop must signal the postmaster itself.
	head -n 1 "$pgdir/data/postmaster.pid" >"$dir/postgres.pid"
	PGPASSWORD=rapier "$bin/psql" -q -h 127.0.0.1 -p "$port" -U rapier -d postgres \
		-c 'CREATE DATABASE rapier_test' >/dev/null \
		|| die "could not create the PostgreSQL test database"
}

stop_pid() {
	local name=$1 pidfile=$2
	[ -s "$pidfile" ] || return 0
	local pid
	pid=$(cat "$pidfile")
	pid_alive "$pid" || return 0
	kill -TERM "$pid" 2>/dev/null || true
	local deadline=$((SECONDS + STOP_TIMEOUT))
	while pid_alive "$pid"; do
		if [ $SECONDS -ge $deadline ]; then
			echo "services: $name ($pid) ignored SIGTERM, killing" >&2
			kill -KILL "$pid" 2>/dev/null || true
			break
		fi
		sleep 0.1
	done
}

cmd=${1:-}
dir=${2:-}
[ -n "$dir" ] || die "usage: $0 start|stop DIR"

case $cmd in
start)
	mkdir -p "$dir"
	dir=$(cd "$dir" && pwd)
	mysql_port=$(free_port)
	redis_port=$(free_port)
	pgsql_port=$(free_port)
	start_redis "$dir" "$redis_port"
	start_mariadb "$dir" "$mysql_port"
	start_postgres "$dir" "$pgsql_port"
	cat >"$dir/env" <<-ENV
		export RAPIER_TEST_MYSQL_HOST=127.0.0.1
		export RAPIER_TEST_MYSQL_PORT=$mysql_port
		export RAPIER_TEST_MYSQL_DSN='mysql:host=127.0.0.1;port=$mysql_port;dbname=rapier_test'
		export RAPIER_TEST_MYSQL_USER=rapier
		export RAPIER_TEST_MYSQL_PASSWORD=rapier
		export RAPIER_TEST_MYSQL_DATABASE=rapier_test
		export RAPIER_TEST_MYSQL_ADMIN=$admin
		export RAPIER_TEST_REDIS_HOST=127.0.0.1
		export RAPIER_TEST_REDIS_PORT=$redis_port
		export RAPIER_TEST_REDIS_SOCKET=$dir/redis.sock
		export RAPIER_TEST_PGSQL_HOST=127.0.0.1
		export RAPIER_TEST_PGSQL_PORT=$pgsql_port
		export RAPIER_TEST_PGSQL_DSN='pgsql:host=127.0.0.1;port=$pgsql_port;dbname=rapier_test'
		export RAPIER_TEST_PGSQL_CONNINFO='host=127.0.0.1 port=$pgsql_port dbname=rapier_test user=rapier password=rapier'
		export RAPIER_TEST_PGSQL_USER=rapier
		export RAPIER_TEST_PGSQL_PASSWORD=rapier
	ENV
	echo "services: MariaDB on 127.0.0.1:$mysql_port, Redis on 127.0.0.1:$redis_port," \
		"PostgreSQL on 127.0.0.1:$pgsql_port"
	;;
stop)
	[ -d "$dir" ] || exit 0
	stop_pid Redis "$dir/redis.pid"
	stop_pid MariaDB "$dir/mariadb.pid"
	stop_pid PostgreSQL "$dir/postgres.pid"
	if [ -s "$dir/postgres.dir" ]; then
		rm -rf "$(cat "$dir/postgres.dir")"
	fi
	rm -rf "$dir"
	;;
*)
	die "usage: $0 start|stop DIR"
	;;
esac
