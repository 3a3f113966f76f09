#!/bin/sh
# mk/modules.sh [--update | --check] -- the module map of src/,
# made from the tree itself.
#
# Every file of src/ opens with a comment whose first paragraph starts
# "name.c -- summary" (or name.h); a module is a .c file and its .h, or
# a header alone (core/gemini_limits.h), and its summary is the header's
# paragraph when it has one, else the .c file's.  Layers are listed in
# the order mk/layers.sh gives them.
#
#   (no option)  print the map as docs/design.md's table, bottom layer
#                first: | layer | module | what it is |
#   --update     write it between its marker lines (`make modules`)
#   --check      say whether every file opens with its name line and
#                whether docs/design.md holds the map of the tree as it
#                is; "N passed, N failed" last, exit 1 on any failure
#                (run by `make test`, tests/run.sh)
#
# README.md links docs/design.md; the map is kept
# in one place only.
set -u
LC_ALL=C	# one order on every machine
export LC_ALL
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
src=src
begin='<!-- modules: made by mk/modules.sh from the files'"'"' first lines; `make modules` rewrites it -->'
end='<!-- modules: end -->'

# Layers from the bottom: mk/layers.sh's list, then any other folder.
layers=$(sed -n 's/^layers="\(.*\)"$/\1/p' mk/layers.sh)
for d in "$src"/*/; do
	l=$(basename "$d")
	case " $layers " in *" $l "*) ;; *) layers="$layers $l" ;; esac
done

# The first paragraph of f's opening comment, joined, "name -- "
# included; empty when f has no opening comment.
para() {
	awk 'NR == 1 { if ($0 != "/*") exit; next }
	    /^ \*\/?$/ || /\*\// { exit }
	    { sub(/^ \* ?/, ""); printf "%s%s", sep, $0; sep = " " }
	    END { print "" }' "$1"
}

# The modules of layer $1, one per line: "name<TAB>summary", the
# summary the header's, else the .c file's.
modules() {
	for f in "$src/$1"/*.c "$src/$1"/*.h; do
		[ -f "$f" ] || continue
		b=$(basename "$f")
		m=${b%.[ch]}
		case $b in
		*.h) [ -f "$src/$1/$m.c" ] || m=$b ;;	# a header alone
		*.c) [ -f "$src/$1/$m.h" ] && continue ;;	# its .h below
		esac
		s=""
		for c in "$src/$1/$m.h" "$src/$1/$m.c" "$src/$1/$m"; do
			[ -f "$c" ] || continue
			cb=$(basename "$c")
			case $(para "$c") in
			"$cb -- "?*) s=$(para "$c"); s=${s#"$cb -- "}; s=${s%.}
			    break ;;
			esac
		done
		[ -n "$s" ] || s="(no \"$b -- summary\" line)"
		printf '%s\t%s\n' "$m" "$s"
	done | sort
}

table() {
	echo "| layer | module | what it is |"
	echo "| --- | --- | --- |"
	for l in $layers; do
		modules "$l" | awk -F '\t' -v l="$l" '{
			gsub(/\|/, "\\|", $2)
			printf "| %s | `%s` | %s |\n", NR == 1 ? l : "", $1, $2
		}'
	done
}

# The document $1 with what lies between the markers replaced by the
# file $2, on stdout; exit 1 when the markers are missing.
spliced() {
	awk -v b="$begin" -v e="$end" -v new="$2" '
	    $0 == b { print; while ((getline l < new) > 0) print l
		skip = 1; seen++; next }
	    $0 == e && skip { skip = 0; seen++ }
	    !skip { print }
	    END { exit seen == 2 ? 0 : 1 }' "$1"
}

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
table >"$tmp/design.md"

case ${1:-} in
"")
	cat "$tmp/design.md" ;;
--update)
	for doc in docs/design.md; do
		if ! spliced "$doc" "$tmp/$(basename "$doc")" >"$tmp/out"; then
			echo "modules: $doc: no marker lines; put these two" \
			    "where the map goes:" >&2
			printf '%s\n%s\n' "$begin" "$end" >&2
			exit 1
		fi
		cmp -s "$tmp/out" "$doc" || { cat "$tmp/out" >"$doc";
		    echo "modules: $doc rewritten"; }
	done ;;
--check)
	passed=0 failed=0
	for f in "$src"/*/*.c "$src"/*/*.h; do
		[ -f "$f" ] || continue
		b=$(basename "$f")
		case $(para "$f") in
		"$b -- "?*) passed=$((passed + 1)) ;;
		*)
			echo "modules: $f: does not open with a comment" \
			    "\"/*\" then \" * $b -- summary\""
			failed=$((failed + 1)) ;;
		esac
	done
	for doc in docs/design.md; do
		if ! spliced "$doc" "$tmp/$(basename "$doc")" >"$tmp/out"; then
			echo "modules: $doc: the marker lines of the module" \
			    "map are missing"
			failed=$((failed + 1))
		elif ! cmp -s "$tmp/out" "$doc"; then
			echo "modules: $doc: the module map is not the tree's;" \
			    "run \`make modules\` (and read the diff)"
			failed=$((failed + 1))
		else
			passed=$((passed + 1))
		fi
	done
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ] ;;
*)
	echo "usage: mk/modules.sh [--update | --check]" >&2
	exit 2 ;;
esac
