#!/bin/sh
# tests/valgrind.sh BUILD -- memcheck over the suite (make valgrind):
# every unit test under valgrind, then the real server under valgrind
# while e2e_gemini and e2e_gopher talk to it (CAPSULED_VALGRIND=1 makes
# tests/lib/e2e.c prefix the server with valgrind).  Any memcheck error
# or leak (definite, indirect or possible) fails: the unit test's exit
# status, or the server's (99), which the test sees at SIGTERM.  Prints
# one line per program and a closing "N passed, N failed".
set -u
build=${1:-build-valgrind}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
if ! command -v valgrind >/dev/null 2>&1; then
	echo "valgrind is not installed (Debian: apt-get install valgrind)"
	echo "0 passed, 1 failed"
	exit 1
fi
export CAPSULED_BIN="$top/$build/capsuled"
export CAPSULED_TOP="$top"
export CAPSULED_VALGRIND=1
log=$top/$build/tests/valgrind
mkdir -p "$log"
vg="valgrind -q --leak-check=full --show-leak-kinds=definite,indirect,possible
    --errors-for-leak-kinds=definite,indirect,possible --error-exitcode=99
    --track-fds=no"
passed=0 failed=0

result() {	# name rc outfile errfile seconds
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$3" | tail -n 1)
	line=${line:-0 passed, 1 failed}
	p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')
	if [ "$2" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1	# valgrind found something, or it crashed
	fi
	passed=$((passed + p)); failed=$((failed + f))
	printf '  %-22s %-34s %4ss\n' "$1" "${line:-no result line}" "$5"
	if [ "$f" -ne 0 ]; then
		grep -E '^==[0-9]+==|FAIL|definitely|indirectly|possibly|^server: |^e2e: ' "$4" |
		    head -n 80 | sed 's/^/    /'
	fi
}

echo "unit tests under valgrind:"
for t in "$build"/tests/test_*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	s=$(date +%s)
	$vg "$t" >"$log/$name.out" 2>"$log/$name.err"
	rc=$?
	result "$name" "$rc" "$log/$name.out" "$log/$name.err" \
	    $(($(date +%s) - s))
done
echo "the server under valgrind:"
for name in e2e_gemini e2e_gopher; do
	t=$build/tests/$name
	[ -x "$t" ] || continue
	s=$(date +%s)
	"$t" >"$log/$name.out" 2>"$log/$name.err"
	rc=$?
	result "$name" "$rc" "$log/$name.out" "$log/$name.err" \
	    $(($(date +%s) - s))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
