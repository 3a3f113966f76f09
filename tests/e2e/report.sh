#!/bin/sh
# report.sh -- `capsuled --check --report`: after --check's summary, one
# line per file that lost something in the conversion (template
# constructs removed or approximated, links that name nothing, other
# warnings) and the totals, which add up to --check's warnings.
set -u
. "$(dirname "$0")/e2e.subr"

tmp=$(mktemp -d /tmp/capsuled-report.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$tmp/cap/posts"
printf -- '---\ntitle: Home\n---\nHello.\n' >"$tmp/cap/index.md"
printf -- '---\ntitle: Clean\n---\nNothing to say.\n' \
    >"$tmp/cap/posts/2024-01-01-clean.md"
printf -- '---\ntitle: Jekyll\n---\n{%% include note.html %%}\n\n[home]({{ "/" | relative_url }}) and [gone](/blog/never-written/).\n' \
    >"$tmp/cap/posts/2024-02-01-jekyll.md"
printf 'hostname: localhost\ncapsule: %s/cap\ncerts: %s/certs\n' \
    "$tmp" "$tmp" >"$tmp/c.yaml"

"$bin" -c "$tmp/c.yaml" --check --report >"$tmp/out" 2>"$tmp/err"
check "exits 1: there are warnings" [ $? -eq 1 ]
check "one file to report" grep -qxF \
    "report:   1 file with something removed, approximated or unresolved" \
    "$tmp/out"
check "the file and what it lost" grep -qxF \
    "          posts/2024-02-01-jekyll.md: 1 template construct removed, 1 link to nothing" \
    "$tmp/out"
check "the clean post is not listed" sh -c \
    "! grep -q 2024-01-01-clean '$tmp/out'"
check "totals" grep -qxF \
    "          total: 1 template construct removed, 1 link to nothing" \
    "$tmp/out"
check "--check's warnings are the same two" grep -qxF \
    "warnings: 2 (logged above)" "$tmp/out"

"$bin" -c "$tmp/c.yaml" --check >"$tmp/out2" 2>/dev/null
check "without --report, no report" sh -c "! grep -q '^report:' '$tmp/out2'"

summary
