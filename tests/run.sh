#!/bin/sh
# tests/run.sh BUILD -- run every test of the suite against BUILD/, print
# each binary's result and one closing "N passed, N failed, N skipped"
# line.
#
# Each test program prints its own "N passed, N failed" (shell tests add
# ", N skipped") as its last line; a program that crashes or prints no
# such line counts as one failure.  Under a test's result line come the
# Debian packages it installed (as root) and the checks it skipped, why.
set -u
build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
if [ "$(id -u)" = 0 ]; then
	echo "as root: a test whose tool is still missing installs its"
	echo "Debian package with apt-get (mk/testdeps.sh lists them all;"
	echo "\`make test\` installs them first); each is named under its"
	echo "test's line."
fi
export CAPSULED_BIN="$top/$build/capsuled"
export CAPSULED_TOP="$top"
passed=0 failed=0 skipped=0
log=$top/$build/tests/logs
mkdir -p "$log"

run_one() {	# name command...
	name=$1; shift
	"$@" >"$log/$name.out" 2>"$log/$name.err"
	rc=$?
	line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log/$name.out" | tail -n 1)
	if [ -z "$line" ]; then
		echo "  $name: no result line (exit $rc)"
		tail -n 20 "$log/$name.err" | sed 's/^/    /'
		failed=$((failed + 1))
		return
	fi
	p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/^[0-9]+ passed, ([0-9]+) failed.*/\1/')
	s=$(echo "$line" | sed -nE 's/.*, ([0-9]+) skipped.*/\1/p')
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1	# crashed after its summary, or under a sanitizer
	fi
	passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + ${s:-0}))
	printf '  %-22s %s\n' "$name" "$line"
	grep -E '^(installing|SKIPPED): ' "$log/$name.err" | sed 's/^/    /'
	if [ "$f" -ne 0 ]; then
		grep -E 'FAIL|ERROR|Sanitizer|runtime error|^server: |^e2e: ' "$log/$name.err" |
		    head -n 80 | sed 's/^/    /'
	fi
}

echo "source layers:"
run_one layers sh mk/layers.sh src
run_one layers_check sh tests/layers/run.sh
run_one modules sh mk/modules.sh --check
echo "unit tests:"
for t in "$build"/tests/test_*; do
	[ -x "$t" ] || continue
	run_one "$(basename "$t")" "$t"
done
echo "golden tests:"
run_one golden sh tests/golden/run.sh "$CAPSULED_BIN"
echo "integration tests:"
for t in "$build"/tests/e2e_*; do
	[ -x "$t" ] || continue
	run_one "$(basename "$t")" "$t"
done
for t in tests/e2e/*.sh; do
	[ -f "$t" ] || continue
	run_one "$(basename "$t" .sh)" sh "$t"
done

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
