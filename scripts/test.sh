#!/usr/bin/env bash
# Rapier's test run, in stages:
#   stubs     scripts/gen-stubs.sh --check (arginfo matches the stubs)
#   unit      the engine's C unit tests in ext/tests/unit (ASan, no PHP)
#   fuzz      the fuzz drivers of ext/fuzz over their corpus and regressions
#             (ASan + UBSan, no PHP; the fuzzing itself is make fuzz)
#   phpt      ext/tests with php-src's run-tests.php
#   valgrind  the same phpt suite under valgrind memcheck
#   phpunit   tests/ against throwaway MariaDB and Redis on loopback
#   asan      the phpt suite again with the module built with ASan + UBSan
#             (scripts/asan/build.sh), LeakSanitizer on, in every PHP process
#             the tests start (servers, their workers)
#   asan-phpunit  tests/ with that module (make asan runs both asan stages)
# Every selected stage runs even when an earlier one failed. The last line
# printed is "N passed, N failed" (CI reads it); the exit status is non-zero
# when anything failed.
#
# Usage: scripts/test.sh [stubs|unit|fuzz|phpt|valgrind|phpunit|asan|asan-phpunit]...
#        (default: all)
# Expects ext/modules/rapier.so to be built (make test does that first).
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
ext_so=$root/ext/modules/rapier.so
php_bin=$(command -v php)
host_php=$php_bin  # runs the tools (run-tests.php), whatever PHP the tests run on
run_tests=$(php-config --extension-dir)/build/run-tests.php
phpunit_bin=$(command -v phpunit)
jobs=${RAPIER_TEST_JOBS:-2}
# Valgrind's tests spend much of their time waiting (their servers' timeouts
# stretched, processes starting under valgrind): a third job fills the CPU
# they leave. 9m57s against 11m04s for the stage with two, on two cores.
valgrind_jobs=${RAPIER_TEST_VALGRIND_JOBS:-3}
# The same holds under ASan (timeouts stretched 4x): 2m29s against 3m07s.
asan_jobs=${RAPIER_TEST_ASAN_JOBS:-3}
# Without a sanitizer the tests mostly wait (servers, timeouts, clients): four
# at once on two cores, 0m57s against 1m32s with two.
phpt_jobs=${RAPIER_TEST_PHPT_JOBS:-4}

# run-tests.php's -m runs valgrind with -q and only the default leak summary,
# which -q hides: a leaking test would pass. A full leak check makes every
# leak an error in the log, and any byte in the log marks the test LEAK.
export VALGRIND_OPTS="--leak-check=full --show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible"
VALGRIND_OPTS+=" --suppressions=$root/scripts/valgrind.supp"
# Every PHP process costs about 1.2 s of CPU under memcheck before it runs
# a line, half of it translating code, and the stage starts ~800 of them.
# Translating one basic block at a time instead of chasing into the next
# (guest-chase) and leaving out inlined frames' names from the debug info
# take a sixth off that, and off the stage: 63-68 s against 78-79 s for 58
# tests. Neither changes what memcheck checks; a report's stack just names
# no inlined callee.
VALGRIND_OPTS+=" --vex-guest-chase=no --read-inline-info=no"
# It also traces every child (--trace-children=yes), so that the PHP servers
# and workers a test starts are checked too. The shells, coreutils, curl, openssl,
# mount, memcached, haproxy and nghttp2's clients the tests run are not: they are not ours to check; every traced
# process opens the test's one log file with O_TRUNC, so each of their
# starts emptied it of what the test or its server had reported before;
# under valgrind each start costs about half a second; and mount is setuid,
# which valgrind cannot follow. Tests start PHP directly (proc_open() with an
# array), never through one of these, so no PHP goes unchecked.
untraced="sh dash bash timeout sleep cat wc touch mv rm kill true false printf echo head tail tr seq yes env grep flock curl openssl mount umount memcached h2load nghttp haproxy"
VALGRIND_OPTS+=" --trace-children-skip=$(printf '*/%s,' $untraced)"
VALGRIND_OPTS=${VALGRIND_OPTS%,}

total_passed=0
total_failed=0
total_skipped=0
# What failed, one line each, printed again just above the totals: CI keeps
# only the end of a run's output, where a failure named stages earlier is lost.
failures=()

# Prints a failure where it happens and keeps it for the list at the end.
failure() {
	echo "  FAILED: $*"
	failures+=("$*")
}

# Long runners run in a process group of their own, in the background, so
# that SIGINT/SIGTERM reach this script's trap at once (bash defers traps
# while a foreground command runs); the trap stops that group, and the EXIT
# trap then stops the services and removes the scratch directory.
child=
run_child() {
	local status
	setsid "$@" &
	child=$!
	wait "$child"
	status=$?
	child=
	return $status
}

on_signal() {
	if [ -n "$child" ]; then
		kill -TERM -- "-$child" 2>/dev/null
		wait "$child" 2>/dev/null
	fi
	exit "$1"
}

# Time since the stage began (stage_began, bash's SECONDS), as 3m07s: the
# whole run should stay under 20 minutes, and this shows where it goes.
elapsed() {
	local s=$((SECONDS - stage_began))
	printf '%dm%02ds' $((s / 60)) $((s % 60))
}

# Adds a stage's counts ("passed failed skipped" from the given command);
# a runner that failed without reporting a failing test (a crash, a bad
# option, no report) counts as one failure.
tally() {
	local stage=$1 status=$2 passed=0 failed=0 skipped=0 counts named line
	shift 2
	# The counting command names each failed test on stderr ("  FAILED: x").
	if counts=$("$@" 2>"$work/named"); then
		read -r passed failed skipped <<<"$counts"
	else
		failure "$stage left no readable report"
		failed=1
	fi
	named=0
	while IFS= read -r line; do
		echo "$line"
		if [[ $line == "  FAILED: "* ]]; then
			failures+=("$stage: ${line#"  FAILED: "}")
			named=$((named + 1))
		fi
	done <"$work/named"
	if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
		failure "$stage runner exited with status $status"
		failed=1
	elif [ "$failed" -gt 0 ] && [ "$named" -eq 0 ]; then
		# unit and fuzz name theirs in their own output above.
		failures+=("$stage: $failed failed, named in its output above")
	fi
	echo "== $stage: $passed passed, $failed failed, $skipped skipped ($(elapsed))"
	total_passed=$((total_passed + passed))
	total_failed=$((total_failed + failed))
	total_skipped=$((total_skipped + skipped))
}

# run-tests.php -W writes "RESULT<tab>test" per test. Counted as passed:
# PASSED; XFAILED (an --XFAIL-- section: a known bug); XLEAKED under valgrind
# (an --XLEAK-- section: a leak PHP itself has, e.g. after a fatal error); and
# WARNED for a test with an --XLEAK-- section that did not leak. Without
# valgrind, run-tests.php also reports an --XLEAK-- test whose output is wrong
# as XLEAKED, so there it is a failure. Everything else (FAILED, BORKED,
# LEAKED, other WARNED) is a failure.
phpt_counts() {
	local stage=$1 dir=$2 result test
	local -i passed=0 failed=0 skipped=0 total
	[ -f "$dir/results" ] || return 1
	while IFS=$'\t' read -r result test; do
		case $result:$stage in
		PASSED:*|XFAILED:*|XLEAKED:valgrind) passed+=1 ;;
		SKIPPED:*) skipped+=1 ;;
		WARNED:*)
			if grep -q '^--XLEAK--' "$test"; then
				passed+=1
			else
				failed+=1
				echo "  FAILED: ${test#"$dir/"} ($result)" >&2
			fi
			;;
		*)
			failed+=1
			echo "  FAILED: ${test#"$dir/"} ($result)" >&2
			;;
		esac
	done <"$dir/results"
	# run-tests.php stops early on some internal errors; a test that never
	# reported a result did not pass.
	total=$(find "$dir/tests" -name '*.phpt' | wc -l)
	if [ $((passed + failed + skipped)) -lt "$total" ]; then
		echo "  FAILED: $((total - passed - failed - skipped)) of $total tests reported no result" >&2
		failed+=$((total - passed - failed - skipped))
	fi
	echo "$passed $failed $skipped"
}

# A module that is missing or fails to load (an undefined symbol) would make
# run-tests.php skip every test instead of failing it.
module_loads() {
	"$php_bin" -d extension="$ext_so" -r 'exit(extension_loaded("rapier") ? 0 : 1);'
}

stage_stubs() {
	echo "== stubs: scripts/gen-stubs.sh --check"
	if "$root/scripts/gen-stubs.sh" --check; then
		total_passed=$((total_passed + 1))
		echo "== stubs: 1 passed, 0 failed"
	else
		total_failed=$((total_failed + 1))
		failures+=("stubs: arginfo differs from the stubs (scripts/gen-stubs.sh)")
		echo "== stubs: 0 passed, 1 failed"
	fi
}

# ext/tests/unit's Makefile builds each NAME_test.c and ends its run with
# "unit: N passed, N failed" (one per test binary).
unit_counts() {
	sed -n 's/^unit: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2 0/p' "$1" | grep .
}

stage_unit() {
	local status
	echo "== unit: ext/tests/unit"
	# The tests build in parallel (42 s against 29 s on two cores) and run one after another.
	make -s --no-print-directory -j"$jobs" -C "$root/ext/tests/unit" run </dev/null 2>&1 | tee "$work/unit.log"
	status=${PIPESTATUS[0]}
	tally unit "$status" unit_counts "$work/unit.log"
}

# ext/fuzz's Makefile replays every committed input once and ends with
# "fuzz-replay: N passed, N failed" (N inputs; a driver that fails counts as
# one). It builds under build/fuzz with cc: no clang needed.
fuzz_counts() {
	sed -n 's/^fuzz-replay: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2 0/p' "$1" | grep .
}

stage_fuzz() {
	local status
	echo "== fuzz: ext/fuzz corpus and regressions"
	make -s --no-print-directory -C "$root/ext/fuzz" replay BUILD="$root/build/fuzz" </dev/null 2>&1 | tee "$work/fuzz.log"
	status=${PIPESTATUS[0]}
	tally fuzz "$status" fuzz_counts "$work/fuzz.log"
}

# The suite runs from a private copy of ext/tests: run-tests.php writes and
# deletes files beside each test (.out, .diff, .mem...), and a second run on
# the same directory (another checkout's build, the other stage) would
# delete them under this one. --show-diff and --show-mem put what a failure
# left behind in the log instead.
run_phpt() {
	local stage=$1 status color=--no-color dir=$work/$stage stage_jobs=$jobs
	shift
	[ "$stage" = phpt ] && stage_jobs=$phpt_jobs
	[ "$stage" = valgrind ] && stage_jobs=$valgrind_jobs
	[ "$stage" = asan ] && stage_jobs=$asan_jobs
	[ -t 1 ] && color=--color
	mkdir -p "$dir"
	cp -r "$root/ext/tests" "$dir/"
	echo "== $stage: run-tests.php $* ext/tests"
	TEST_PHP_EXECUTABLE=$php_bin run_child "$host_php" "$run_tests" -q --no-progress $color \
		--show-diff --show-slow 2000 -j"$stage_jobs" -W "$dir/results" "$@" \
		-d extension="$ext_so" "$dir/tests" </dev/null
	status=$?
	tally "$stage" $status phpt_counts "$stage" "$dir"
}

# stage_phpunit [STAGE [PHPUNIT ARGUMENTS...]]
stage_phpunit() {
	local stage=${1:-phpunit} status
	shift $(($# > 0 ? 1 : 0))
	echo "== $stage: tests/${*:+ $*}"
	# PHPUnit resolves the paths in its configuration against the file's directory.
	RAPIER_TEST_EXTENSION=$ext_so run_child "$php_bin" -d extension="$ext_so" "$phpunit_bin" \
		-c "$root/phpunit.xml.dist" --log-junit "$work/$stage.xml" "$@" </dev/null
	status=$?
	tally "$stage" $status "$php_bin" "$root/scripts/junit-summary.php" "$work/$stage.xml"
}

# The asan stages run PHP through scripts/asan/php, which preloads the
# sanitizer runtime into every PHP process (PHP_BINARY is that script, so
# the servers the tests start and their forked workers are covered too) and
# none other. Every process writes its reports to a file of its own; a
# report is a failure even when the test around it passed (a worker that
# died of one is replaced, and its test may never notice).
asan_build() {
	[ -z "${asan_dir:-}" ] || return 0
	echo "== asan: scripts/asan/build.sh build/asan"
	asan_dir=$root/build/asan
	if ! JOBS=$jobs "$root/scripts/asan/build.sh" "$asan_dir" >/dev/null; then
		asan_dir=failed
	fi
}

asan_stage() {
	local stage=$1 logs=$work/$1-reports reports report
	asan_build
	if [ "$asan_dir" = failed ]; then
		failure "the ASan build failed"
		total_failed=$((total_failed + 1))
		return
	fi
	mkdir -p "$logs"
	# Locals shadow the globals (bash scopes them dynamically) for the
	# stage functions called from here, and vanish on return.
	local php_bin=$root/scripts/asan/php ext_so=$asan_dir/rapier.so
	local -x RAPIER_ASAN_BUILD=$asan_dir
	local -x ASAN_OPTIONS=log_path=$logs/report
	local -x UBSAN_OPTIONS=print_stacktrace=1:log_path=$logs/report
	if [ "$stage" = asan ]; then
		# Each allocation's stack is taken with the slow (DWARF) unwinder:
		# PHP is built without frame pointers, and the fast one loses the
		# Rapier function that called emalloc(), the one frame a leak
		# report is read for. It also left a copy of a leaked pointer in
		# TLS, where LeakSanitizer found it and so reported no leak (a
		# leak planted in a coroutine, seen on this host).
		# run-tests.php's silence limit, 60 s, times three as its own --asan does.
		ASAN_OPTIONS=$ASAN_OPTIONS:fast_unwind_on_malloc=0 run_phpt asan --set-timeout 180 -n
	else
		# No LeakSanitizer here: the framework apps end with objects in
		# cycles held by static properties, which a release build of PHP
		# leaves to its allocator (reported as leaks with it off, and the
		# exit status changed). Leaks are the phpt stages' to find. So the
		# fast unwinder will do: it costs a report frames of its allocated-by
		# and freed-by stacks (the function that called emalloc(), and those
		# past the first frame of PHP's own), while the stack of the bad
		# access itself is still taken in full; and the stage takes a third
		# of the time (1m11s against 3m16s). The hint below gets them back.
		# The php-fpm contract classes are left out: their server is php-fpm
		# and their client libcurl, so no code of the extension runs there.
		ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=0:fast_unwind_on_malloc=1 stage_phpunit asan-phpunit \
			--exclude-group php-fpm
	fi
	# A sanitizer that died before checking for leaks is a failure too.
	reports=$(grep -l -E 'ERROR: |runtime error: |LeakSanitizer has encountered a fatal error' "$logs"/report.* 2>/dev/null)
	if [ -n "$reports" ]; then
		for report in $reports; do
			failure "$stage: sanitizer report $(basename "$report")"
			sed 's/^/    /' "$report" | head -60
		done
		total_failed=$((total_failed + $(wc -w <<<"$reports")))
		echo "== $stage: $(wc -w <<<"$reports") sanitizer reports (counted as failures)"
		[ "$stage" = asan ] || echo "  full allocated-by and freed-by stacks: ASAN_OPTIONS=detect_leaks=0:fast_unwind_on_malloc=0" \
			"RAPIER_ASAN_BUILD=$asan_dir RAPIER_TEST_EXTENSION=$ext_so $root/scripts/asan/php -d extension=$ext_so" \
			"$phpunit_bin -c $root/phpunit.xml.dist --filter TEST"
	fi
}

start_services() {
	if ! "$root/scripts/services.sh" start "$services"; then
		total_failed=$((total_failed + 1))
		failure "MariaDB/Redis did not start"
		return 1
	fi
	# shellcheck source=/dev/null
	. "$services/env"
}

# The whole run is one function, so bash has parsed all of it before it
# starts: editing this file during a run cannot change the running script.
main() {
	stages=("$@")
	[ ${#stages[@]} -gt 0 ] || stages=(stubs unit fuzz phpt valgrind phpunit asan asan-phpunit)

	work=$(mktemp -d -t rapier-test.XXXXXX)
	services=$work/services
	# run-tests.php writes run-test-info.php beside itself: a private copy
	# runs for a user who cannot write to PHP's build directory.
	cp "$run_tests" "$work/run-tests.php"
	run_tests=$work/run-tests.php
	cleanup() {
		"$root/scripts/services.sh" stop "$services"
		rm -rf "$work"
	}
	trap cleanup EXIT
	trap 'on_signal 130' INT
	trap 'on_signal 143' TERM

	for stage in "${stages[@]}"; do
		case $stage in
		stubs|unit|fuzz|phpt|valgrind|phpunit|asan|asan-phpunit) ;;
		*)
			echo "test: unknown stage '$stage'" >&2
			exit 2
			;;
		esac
	done

	ready=unknown
	for stage in "${stages[@]}"; do
		if [ "$stage" != stubs ] && [ "$stage" != unit ] && [ "$stage" != fuzz ] && [ $ready = unknown ]; then
			ready=yes
			if ! module_loads; then
				failure "$ext_so does not load (make build)"
				total_failed=$((total_failed + 1))
				ready=no
			elif ! start_services; then
				ready=no
			fi
		fi
		stage_began=$SECONDS
		case $stage in
		stubs) stage_stubs ;;
		unit) stage_unit ;;
		fuzz) stage_fuzz ;;
		phpt) [ $ready = yes ] && run_phpt phpt ;;
		# PCRE's JIT reads 16 bytes at a time past the end of subject strings,
		# which memcheck reports as invalid reads in every test using preg_*.
		# -n (here and in asan): no php.ini, only the extensions a test names
		# in --EXTENSIONS--, as the servers the tests start already run.
		# Loading all of Debian's conf.d costs about a second per process
		# under valgrind, a third of a short test; the phpt stage keeps it,
		# so Rapier is still tested beside every extension a system has.
		valgrind) [ $ready = yes ] && run_phpt valgrind -m --show-mem -n -d pcre.jit=0 ;;
		phpunit) [ $ready = yes ] && stage_phpunit ;;
		asan|asan-phpunit) [ $ready = yes ] && asan_stage "$stage" ;;
		esac
	done

	stage_began=0
	echo "== total time: $(elapsed)"
	if [ ${#failures[@]} -gt 0 ]; then
		echo "== failed:"
		printf '  %s\n' "${failures[@]}"
	fi
	[ $total_skipped -eq 0 ] || echo "($total_skipped skipped)"
	echo "$total_passed passed, $total_failed failed"
	[ $total_failed -eq 0 ]
}

main "$@"
exit
