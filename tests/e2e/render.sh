#!/bin/sh
# render.sh -- `capsuled --render` prints a post's links as the server
# serves them: a file of a capsule (DIR/posts/x.md, DIR/pages/x.md,
# DIR/index.md) is rendered with that capsule loaded, so a link to
# another post's file becomes /posts/<slug> (Gopher text: the absolute
# gopher:// URL, with -c's hostname and port); a file outside any
# capsule, or standard input, keeps its links as written.  A bundle's
# index.md has its folder's files for its shortcodes.
set -u
. "$(dirname "$0")/e2e.subr"

tmp=$(mktemp -d /tmp/capsuled-render.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$tmp/cap/posts" "$tmp/cap/pages" "$tmp/conf"
printf -- '---\ntitle: Home\n---\nSee [first](posts/2024-01-01-first.md).\n' \
    >"$tmp/cap/index.md"
printf -- '---\ntitle: First\n---\nHello.\n' \
    >"$tmp/cap/posts/2024-01-01-first.md"
printf -- '---\ntitle: Second\n---\n[back](2024-01-01-first.md), [about](../pages/about.md), [old](https://old.example/2023/first.html), [away](gemini://elsewhere.example/x.md), [gone](2020-01-01-gone.md)\n\nAlso [gone too](2020-01-01-gone.md) here.\n' \
    >"$tmp/cap/posts/2024-02-01-second.md"
printf -- '---\ntitle: About\n---\n[the first post](../posts/2024-01-01-first.md)\n' \
    >"$tmp/cap/pages/about.md"
printf 'hostname: example.org\ngopher_public_port: 70\nlink_aliases: ["https://old.example/"]\n' \
    >"$tmp/conf/c.yaml"

# has FILE LINE: FILE holds LINE exactly
has() { grep -qxF -- "$2" "$1"; }

"$bin" --render "$tmp/cap/posts/2024-02-01-second.md" >"$tmp/out" 2>"$tmp/err"
check "post: exits 0" [ $? -eq 0 ]
check "post: a post's file becomes its path" has "$tmp/out" "=> /posts/first back"
check "post: a page's file becomes its path" has "$tmp/out" "=> /about about"
check "post: another server's link stays" has "$tmp/out" \
    "=> gemini://elsewhere.example/x.md away"
check "post: a missing post's file is text, not a dead link" \
    sh -c "! grep -q '=> 2020-01-01-gone.md' '$tmp/out' &&
    grep -qxF 'Also gone too here.' '$tmp/out'"
check "post: the missing post named, as --check names it" has "$tmp/err" \
    "$tmp/cap/posts/2024-02-01-second.md:4:150: link to missing post 2020-01-01-gone.md"
check "post: nothing else on stderr" [ "$(grep -vc 'link to missing post' "$tmp/err")" -eq 0 ]
"$bin" --render "$tmp/cap/pages/about.md" >"$tmp/out"
check "page: a post's file from pages/" has "$tmp/out" \
    "=> /posts/first the first post"
"$bin" --render "$tmp/cap/index.md" >"$tmp/out"
check "index.md: from the capsule's top" has "$tmp/out" "=> /posts/first first"

# With -c: the configuration's aliases, and Gopher's absolute URLs.
"$bin" -c "$tmp/conf/c.yaml" --render "$tmp/cap/posts/2024-02-01-second.md" \
    >"$tmp/out"
check "-c: an old web URL (link_aliases) becomes the post" has "$tmp/out" \
    "=> /posts/first old"
"$bin" -c "$tmp/conf/c.yaml" --render "$tmp/cap/posts/2024-02-01-second.md" \
    --to gopher >"$tmp/out"
check "gopher: references as the server writes them" has "$tmp/out" \
    "[1] gopher://example.org:70/1/posts/first/"

# Outside a capsule, and from standard input: as written.
cp "$tmp/cap/posts/2024-02-01-second.md" "$tmp/loose.md"
"$bin" --render "$tmp/loose.md" >"$tmp/out"
check "outside a capsule: links as written" has "$tmp/out" \
    "=> 2024-01-01-first.md back"
"$bin" --render - <"$tmp/cap/posts/2024-02-01-second.md" >"$tmp/out"
check "stdin: links as written" has "$tmp/out" "=> 2024-01-01-first.md back"

# The sample capsule: what the issue saw.
"$bin" --render "$top/capsule/posts/2024-01-14-running-a-capsule-4.md" \
    >"$tmp/out"
check "sample: part 3 linked as served" has "$tmp/out" \
    "=> /posts/running-a-capsule-3 part 3"
# A page bundle's index: its shortcodes read the folder's files, as the
# server's do, so a gallery shows the bundle's images.
mkdir -p "$tmp/cap/posts/2024-07-01-album/img"
printf -- '---\ntitle: Album\n---\n{{< gallery match="img/*" >}}\n' \
    >"$tmp/cap/posts/2024-07-01-album/index.md"
: >"$tmp/cap/posts/2024-07-01-album/img/a.png"
: >"$tmp/cap/posts/2024-07-01-album/img/b.png"
"$bin" --render "$tmp/cap/posts/2024-07-01-album/index.md" >"$tmp/out" \
    2>"$tmp/err"
check "bundle: exits 0" [ $? -eq 0 ]
check "bundle: the gallery names the folder's files" sh -c \
    "grep -qxF '=> /posts/album/img/a.png a.png' '$tmp/out' &&
    grep -qxF '=> /posts/album/img/b.png b.png' '$tmp/out'"
check "bundle: nothing unresolved on stderr" [ ! -s "$tmp/err" ]

summary
