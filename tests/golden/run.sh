#!/bin/sh
# tests/golden/run.sh CAPSULED [--update]
#
# For each tests/golden/NAME.md: `capsuled --render NAME.md` must print
# exactly NAME.gmi, and `--render NAME.md --to gopher` exactly
# NAME.gph.txt when that file exists; the same for a gemtext post
# NAME.src.gmi, on both protocols.  --update rewrites the expectations
# (review the diff before committing).  Each render runs under a time
# limit, so a pathological input that hangs fails instead of blocking.
set -u
bin=${1:?usage: run.sh CAPSULED [--update]}
update=${2:-}
dir=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

check() {	# md expected format
	md=$1 want=$2 fmt=$3
	if ! timeout 10 "$bin" --render "$md" --to "$fmt" >"$tmp/got" 2>"$tmp/err"; then
		echo "FAIL $(basename "$md") ($fmt): exit $?" >&2
		cat "$tmp/err" >&2
		failed=$((failed + 1))
		return
	fi
	if [ "$update" = --update ]; then
		cp "$tmp/got" "$want"
	fi
	if cmp -s "$tmp/got" "$want"; then
		passed=$((passed + 1))
	else
		echo "FAIL $(basename "$md") ($fmt):" >&2
		diff -u "$want" "$tmp/got" | head -n 40 >&2
		failed=$((failed + 1))
	fi
}

# Posts kept in gemtext: NAME.src.gmi renders to NAME.gmi, NAME.gph.txt.
for src in "$dir"/*.src.gmi; do
	[ -f "$src" ] || continue
	base=${src%.src.gmi}
	check "$src" "$base.gmi" gemini
	check "$src" "$base.gph.txt" gopher
done

for md in "$dir"/*.md; do
	base=${md%.md}
	if [ -f "$base.gmi" ] || [ "$update" = --update ]; then
		check "$md" "$base.gmi" gemini
	fi
	if [ -f "$base.gph.txt" ]; then
		check "$md" "$base.gph.txt" gopher
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
