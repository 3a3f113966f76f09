#!/bin/sh
# tests/layers/run.sh -- mk/layers.sh checked on small trees made here:
# one that keeps every rule passes; each of the others breaks one rule
# (an include from a higher layer, a circle of modules, an internal
# header included by a file it does not name, one that names no files,
# one that names a file that is not there) and must fail, saying so.
set -u
. "$(dirname "$0")/../e2e/e2e.subr"

tmp=$(mktemp -d /tmp/capsuled-layers.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT

# tree NAME: a clean tree of two layers in $tmp/NAME/src.
tree() {
	d=$tmp/$1/src
	mkdir -p "$d/core" "$d/content"
	printf '#include "core/a.h"\n' >"$d/core/a.c"
	printf '/* a.h */\n' >"$d/core/a.h"
	printf '#include "content/x.h"\n#include "content/x_int.h"\n#include "core/a.h"\n' >"$d/content/x.c"
	printf '/* x.h */\n' >"$d/content/x.h"
	printf '#include "content/x_int.h"\n' >"$d/content/y.c"
	printf '/*\n * x_int.h -- shared by x.c and y.c.\n *\n * Included only by: x.c, y.c\n */\n#include "content/x.h"\n' \
	    >"$d/content/x_int.h"
	echo "$d"
}

# layers DIR: mk/layers.sh on DIR, its output in $out, its status in $rc.
layers() {
	out=$(sh "$top/mk/layers.sh" "$1" 2>&1)
	rc=$?
}

says() {	# says TEXT: the last run's output has TEXT
	case $out in *"$1"*) return 0;; esac
	echo "$out" >&2
	return 1
}

d=$(tree clean)
layers "$d"
check "a clean tree passes (an internal header with its module's own header)" [ "$rc" -eq 0 ]
check "and says so" says "0 failed"

d=$(tree up)
printf '#include "content/x.h"\n' >>"$d/core/a.c"
layers "$d"
check "an include from a higher layer fails" [ "$rc" -ne 0 ]
check "naming it" says "src/core/a.c (core) includes content/x.h (content, a higher layer)"

d=$(tree circle)
printf '#include "content/y.h"\n' >>"$d/content/x.h"
printf '/* y.h */\n#include "content/x.h"\n' >"$d/content/y.h"
layers "$d"
check "a circle of modules fails" [ "$rc" -ne 0 ]
check "naming it" says "depend on each other in a circle"

d=$(tree stranger)
printf '#include "content/x_int.h"\n' >"$d/content/z.c"
layers "$d"
check "an internal header included by a file it does not name fails" [ "$rc" -ne 0 ]
check "naming the file" says "src/content/z.c includes content/x_int.h, which is not for it"

d=$(tree above)
mkdir -p "$d/site"
printf '#include "content/x_int.h"\n' >"$d/site/y.c"
layers "$d"
check "a file of the same name in another folder is no file of it" [ "$rc" -ne 0 ]
check "naming it" says "src/site/y.c includes content/x_int.h, which is not for it"

d=$(tree unnamed)
printf '/* x_int.h -- for anyone. */\n' >"$d/content/x_int.h"
layers "$d"
check "an internal header that names no files fails" [ "$rc" -ne 0 ]
check "saying so" says "x_int.h: no \"Included only by:\" line names its files"

d=$(tree gone)
printf '/*\n * Included only by: x.c, w.c\n */\n' >"$d/content/x_int.h"
layers "$d"
check "an internal header naming a file that is not there fails" [ "$rc" -ne 0 ]
check "naming it" says "names w.c, which is not in"

summary
