#!/bin/sh
# mk/layers.sh [SRC] -- check that the source tree keeps its layers.
#
# Each folder of src/ is a layer (docs/design.md, "Layers"), listed
# below from the bottom up.  A file may include headers of its own layer
# and of the layers beneath it, never of one above.  A module is a .c
# file and its .h (src/content/archive.c with archive.h), and its
# internal header when it has one (archive_int.h); module A depends on
# module B when a file of A includes a header of B, and the dependencies
# between modules may form no circle, within a layer or across them.
#
# An internal header, NAME_int.h, is for the files that share it alone:
# its opening comment has a line " * Included only by: a.c, b.c" naming
# them (files of its own folder), and no other file may include it.  A
# *_int.h without that line, or naming a file that is not there, is a
# violation too.
#
# Prints one line per violation and "N passed, N failed" last; exits 1
# on any violation.  Run by `make test` (tests/run.sh).
set -u
src=${1:-src}
layers="core proto markdown content site net app"

rank() {	# layer -> its place from the bottom, or empty
	i=0
	for l in $layers; do
		[ "$l" = "$1" ] && { echo $i; return; }
		i=$((i + 1))
	done
}

failed=0 passed=0
edges=$(mktemp) || exit 1
trap 'rm -f "$edges"' EXIT

# The files an internal header names on its "Included only by:" line (a
# line ending in a comma goes on in the next).
allowed() {	# allowed HEADER -> names, one a line
	sed -n '/^ \* Included only by: /{
		:more
		/,$/{ N; s/,\n \*/,/; b more
		}
		s/^ \* Included only by: //p
	}' "$1" | tr ',' '\n' |
	    sed 's/^[ \t]*//; s/[ \t.]*$//' | grep -v '^$'
}

# Every internal header names who may include it, each of them there.
for h in "$src"/*/*_int.h; do
	[ -f "$h" ] || continue
	if [ -z "$(allowed "$h")" ]; then
		echo "layers: $h: no \"Included only by:\" line names its files"
		failed=$((failed + 1)); continue
	fi
	ok=1
	for f in $(allowed "$h"); do
		[ -f "$(dirname "$h")/$f" ] && continue
		echo "layers: $h: names $f, which is not in $(dirname "$h")"
		ok=0
	done
	if [ $ok = 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done

# Every folder of src/ must be a known layer, and every file in one.
for d in "$src"/*; do
	[ -d "$d" ] || { echo "layers: $d: a file outside every layer"; failed=$((failed + 1)); continue; }
	if [ -z "$(rank "$(basename "$d")")" ]; then
		echo "layers: $d: not a layer ($layers)"; failed=$((failed + 1))
	fi
done

for f in "$src"/*/*.c "$src"/*/*.h; do
	[ -f "$f" ] || continue
	layer=$(basename "$(dirname "$f")")
	mine=$(rank "$layer")
	[ -n "$mine" ] || continue
	mod=$layer/$(basename "$f" | sed 's/\.[ch]$//; s/_int$//')
	ok=1
	# Quoted includes only: system headers are outside the question.
	for inc in $(sed -n 's/^#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$f"); do
		il=${inc%%/*}
		theirs=$(rank "$il")
		if [ "$il" = "$inc" ] || [ -z "$theirs" ]; then
			echo "layers: $f: includes \"$inc\", which names no layer"
			ok=0; continue
		fi
		if [ ! -f "$src/$inc" ]; then
			echo "layers: $f: includes \"$inc\", which does not exist"
			ok=0; continue
		fi
		if [ "$theirs" -gt "$mine" ]; then
			echo "layers: $f ($layer) includes $inc ($il, a higher layer)"
			ok=0
		fi
		case $inc in
		*_int.h)
			if [ "$(dirname "$f")" != "$src/${inc%/*}" ] ||
			    ! allowed "$src/$inc" | grep -qxF "$(basename "$f")"; then
				echo "layers: $f includes $inc, which is not for it"
				ok=0
			fi;;
		esac
		them=$(echo "$inc" | sed 's/\.h$//; s/_int$//')
		[ "$them" = "$mod" ] || echo "$mod $them" >>"$edges"
	done
	if [ $ok = 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done

# tsort names the modules of every circle it finds on stderr.
loops=$(sort -u "$edges" | tsort 2>&1 >/dev/null)
if [ -n "$loops" ]; then
	echo "layers: the modules depend on each other in a circle:"
	echo "$loops" | sed 's/^/    /'
	failed=$((failed + 1))
else
	passed=$((passed + 1))
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
