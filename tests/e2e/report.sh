#!/bin/sh
# report.sh -- `capsuled --check --report`: after --check's summary, one
# line per file that lost something in the conversion (template
# constructs removed or approximated, raw HTML elements read as links,
# approximated or dropped, links that name nothing, other warnings) and
# the totals, which add up to --check's warnings; then each HTML element
# with the places of its first few.
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
printf -- '---\ntitle: Raw\n---\nWatch <a href="https://v.example/t">the talk</a>.\n\n<table><tr><td>1</td></tr></table>\n\n<script>x()</script>\n<iframe src="https://v.example/e"></iframe>\n' \
    >"$tmp/cap/posts/2024-03-01-raw.md"
printf 'hostname: localhost\ncapsule: %s/cap\ncerts: %s/certs\n' \
    "$tmp" "$tmp" >"$tmp/c.yaml"

"$bin" -c "$tmp/c.yaml" --check --report >"$tmp/out" 2>"$tmp/err"
check "exits 0: warnings do not fail --check" [ $? -eq 0 ]
check "two files to report" grep -qxF \
    "report:   2 files with something removed, approximated or unresolved" \
    "$tmp/out"
check "the file and what it lost" grep -qxF \
    "          posts/2024-02-01-jekyll.md: 1 template construct removed, 1 link to nothing" \
    "$tmp/out"
check "the clean post is not listed" sh -c \
    "! grep -q 2024-01-01-clean '$tmp/out'"
check "raw HTML, per file" grep -qxF \
    "          posts/2024-03-01-raw.md: 2 HTML elements as links, 1 HTML element approximated, 1 HTML element dropped" \
    "$tmp/out"
check "totals" grep -qxF \
    "          total: 1 template construct removed, 2 HTML elements as links, 1 HTML element approximated, 1 HTML element dropped, 1 link to nothing" \
    "$tmp/out"
check "raw HTML, per element, with its place" grep -qxF \
    "          html <iframe>: 1 as links, at posts/2024-03-01-raw.md:9:1" \
    "$tmp/out"
check "a dropped element" grep -qxF \
    "          html <script>: 1 dropped, at posts/2024-03-01-raw.md:8:1" \
    "$tmp/out"
check "an approximated one" grep -qxF \
    "          html <table>: 1 approximated, at posts/2024-03-01-raw.md:6:1" \
    "$tmp/out"
check "an inline link" grep -qxF \
    "          html <a>: 1 as links, at posts/2024-03-01-raw.md:4:7" \
    "$tmp/out"
check "--check's warnings are the same two" grep -qxF \
    "warnings: 2" "$tmp/out"

"$bin" -c "$tmp/c.yaml" --check >"$tmp/out2" 2>/dev/null
check "without --report, no report" sh -c "! grep -q '^report:' '$tmp/out2'"

# The man page's recipe: `--check && systemctl reload` reloads past a
# warning; --strict makes warnings count; a capsule that cannot be read
# and a configuration that does not load still fail.
"$bin" -c "$tmp/c.yaml" --check >/dev/null 2>&1 && reloaded=1 || reloaded=0
check "--check && reload: reloads with warnings" [ "$reloaded" -eq 1 ]
"$bin" -c "$tmp/c.yaml" --check --strict >"$tmp/out3" 2>/dev/null
check "--strict: exits 1 on warnings" [ $? -eq 1 ]
check "--strict: the summary is still printed" grep -qxF \
    "warnings: 2" "$tmp/out3"
mkdir -p "$tmp/clean/posts"
printf -- '---\ntitle: Clean\n---\nNothing wrong.\n' \
    >"$tmp/clean/posts/2024-01-01-clean.md"
printf 'hostname: localhost\ncapsule: %s/clean\ncerts: %s/certs\n' \
    "$tmp" "$tmp" >"$tmp/clean.yaml"
"$bin" -c "$tmp/clean.yaml" --check --strict >/dev/null 2>&1
check "--strict: exits 0 without warnings" [ $? -eq 0 ]
printf 'hostname: localhost\ncapsule: %s/none\ncerts: %s/certs\n' \
    "$tmp" "$tmp" >"$tmp/none.yaml"
"$bin" -c "$tmp/none.yaml" --check >/dev/null 2>&1
check "a capsule that cannot be read: exits 1" [ $? -eq 1 ]
printf 'hostname: [\n' >"$tmp/bad.yaml"
"$bin" -c "$tmp/bad.yaml" --check >/dev/null 2>&1
check "a configuration that does not load: exits 2" [ $? -eq 2 ]

# "ignored" is what the archive does not read, by the archive's own
# rule and walk: a folder of posts/ that holds posts is read, and what
# it holds besides them is listed; a folder with no post beneath, once.
mkdir -p "$tmp/tree/posts/2019/03" "$tmp/tree/posts/empty/deeper" \
    "$tmp/tree/posts/2020-01-01-b" "$tmp/tree/pages/old"
printf -- '---\ntitle: X\n---\nx\n' >"$tmp/tree/posts/2019/03/2019-03-01-x.md"
printf 'n\n' >"$tmp/tree/posts/2019/notes.txt"
printf 'p\n' >"$tmp/tree/posts/empty/deeper/a.png"
printf -- '---\ntitle: B\n---\nb\n' >"$tmp/tree/posts/2020-01-01-b/index.md"
printf 'p\n' >"$tmp/tree/posts/2020-01-01-b/a.png"
printf -- '---\ntitle: S\n---\n' >"$tmp/tree/posts/_index.md"
printf -- '---\ntitle: A\n---\na\n' >"$tmp/tree/pages/about.md"
printf 'a\n' >"$tmp/tree/pages/about.gmi"
printf 'hostname: localhost\ncapsule: %s/tree\ncerts: %s/certs\n' \
    "$tmp" "$tmp" >"$tmp/tree.yaml"
"$bin" -c "$tmp/tree.yaml" --check >"$tmp/out4" 2>/dev/null
check "a folder holding posts is no ignored folder" sh -c \
    "! grep -q 'posts/2019: ' '$tmp/out4'"
check "what it holds besides them is" grep -qxF \
    "          posts/2019/notes.txt: not Markdown, HTML or gemtext: no post" \
    "$tmp/out4"
check "a folder with no post beneath, once" grep -qxF \
    "          posts/empty: a folder without a post or an index file: no post" \
    "$tmp/out4"
check "not what is in it" sh -c "! grep -q 'posts/empty/' '$tmp/out4'"
check "a bundle's files are its own" sh -c \
    "! grep -q '2020-01-01-b' '$tmp/out4'"
check "a section's page is not read" grep -qxF \
    "          posts/_index.md: a section's page, not a post" "$tmp/out4"
check "pages/: a folder, and not .md" sh -c "grep -qxF \
    '          pages/old: a folder: only the files of this folder are read' \
    '$tmp/out4' && \
    grep -qxF '          pages/about.gmi: not Markdown: not read' \
    '$tmp/out4'"
check "the count" grep -qxF "ignored:  5" "$tmp/out4"

# Markups that are no post are named, with the file; drafts kept in a
# drafts folder are drafts, dated or not; an HTML page without front
# matter is no post (issue 33).
mkdir -p "$tmp/kept/posts/_drafts" "$tmp/kept/posts/2020-01-02-r"
printf -- '---\ntitle: Kept\n---\nk\n' >"$tmp/kept/posts/2020-01-01-k.md"
printf 'Title\n=====\n' >"$tmp/kept/posts/notes.rst"
printf 'x\n' >"$tmp/kept/posts/book.adoc"
printf -- '---\ntitle: Dated draft\n---\nd\n' \
    >"$tmp/kept/posts/_drafts/2020-02-02-dated.md"
printf -- '---\ntitle: Undated draft\n---\nd\n' \
    >"$tmp/kept/posts/_drafts/undated.markdown"
printf -- '---\ntitle: R\n---\n<p>r</p>\n' \
    >"$tmp/kept/posts/2020-01-02-r/index.html"
printf 'src\n' >"$tmp/kept/posts/2020-01-02-r/index.Rmd"
printf '<p>a page</p>\n' >"$tmp/kept/posts/page.html"
printf 'hostname: localhost\ncapsule: %s/kept\ncerts: %s/certs\n' \
    "$tmp" "$tmp" >"$tmp/kept.yaml"
"$bin" -c "$tmp/kept.yaml" --check >"$tmp/out5" 2>/dev/null
check "reStructuredText is named" grep -qxF "          posts/notes.rst: \
reStructuredText is not supported: no post, served as a file" "$tmp/out5"
check "AsciiDoc too" grep -qF "posts/book.adoc: AsciiDoc is not supported" \
    "$tmp/out5"
check "_drafts/: drafts, dated or not" sh -c "grep -qxF 'drafts:   2' \
    '$tmp/out5' && grep -qF 'posts/_drafts/2020-02-02-dated.md  Dated draft' \
    '$tmp/out5' && grep -qF 'posts/_drafts/undated.markdown  Undated draft' \
    '$tmp/out5'"
check "an HTML post" sh -c "grep -q '^posts:    2 ' '$tmp/out5' && \
    grep -qF 'body: 2 Markdown (0 of them MDX, 1 HTML), 0 gemtext' \
    '$tmp/out5'"
check "an HTML page is no post" grep -qxF \
    "          posts/page.html: not Markdown, HTML or gemtext: no post" \
    "$tmp/out5"

summary
