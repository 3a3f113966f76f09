#!/bin/sh
# tests/fuzz/run.sh [--no-build] -- run every libFuzzer target for
# FUZZ_SECONDS (default 15) on a scratch copy of its seed corpus
# (tests/fuzz/seeds/NAME/), so the repository's seeds stay small.
# A crash, a leak, a slow input (10 s) or an RSS over 2 GiB leaves the
# input in build-fuzz/NAME-* and fails the run; a target that does not
# stop within FUZZ_SECONDS + 120 s is killed and fails it too.  Every
# seed is run first, so a regression seed fails at once.
set -u
cd "$(dirname "$0")/../.."
secs=${FUZZ_SECONDS:-15}
[ "${1:-}" = --no-build ] || make -s fuzz-build >/dev/null || exit 1
passed=0 failed=0
for bin in build-fuzz/fuzz_*; do
	[ -x "$bin" ] || continue
	name=${bin#build-fuzz/fuzz_}
	corpus=build-fuzz/corpus-$name
	mkdir -p "$corpus"
	[ -d "tests/fuzz/seeds/$name" ] && cp -r "tests/fuzz/seeds/$name/." "$corpus/"
	if timeout -k 10 $((secs + 120)) \
	    "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	    -artifact_prefix="build-fuzz/$name-" "$corpus" \
	    >"build-fuzz/$name.log" 2>&1; then
		runs=$(grep -Eo 'Done [0-9]+ runs' "build-fuzz/$name.log" | tail -n 1)
		echo "  fuzz_$name: ok (${runs:-?})"
		passed=$((passed + 1))
	else
		echo "  fuzz_$name: FAILED, see build-fuzz/$name.log"
		tail -n 30 "build-fuzz/$name.log" | sed 's/^/    /'
		failed=$((failed + 1))
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
