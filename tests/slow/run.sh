#!/bin/sh
# tests/slow/run.sh BUILD -- run the slow tests (make test-slow): each
# BUILD/tests/slow/* program in turn, its output kept in
# BUILD/tests/logs/slow_*.{out,err}; the figures they print go to the
# terminal.  Ends with "N passed, N failed".
set -u
build=${1:-build}
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
export CAPSULED_BIN="$top/$build/capsuled"
export CAPSULED_TOP="$top"
log=$top/$build/tests/logs
mkdir -p "$log"
passed=0 failed=0
for t in "$build"/tests/slow/*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	"$t" >"$log/$name.out" 2>"$log/$name.err"
	rc=$?
	grep -E '^FIGURE' "$log/$name.err" | sed 's/^/  /'
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log/$name.out" |
	    tail -n 1)
	if [ -z "$line" ]; then
		echo "  $name: no result line (exit $rc)"
		failed=$((failed + 1))
		continue
	fi
	p=${line%% passed*}
	f=$(echo "$line" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')
	[ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
	printf '  %-22s %s\n' "$name" "$line"
	[ "$f" -ne 0 ] && grep -E 'FAIL|Sanitizer|runtime error' \
	    "$log/$name.err" | head -n 20 | sed 's/^/    /'
	passed=$((passed + p)); failed=$((failed + f))
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
