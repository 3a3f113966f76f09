#!/bin/sh
# web.sh -- the web view of the sample capsule in real clients: Debian's
# headless Chromium, tidy and lynx (each installed on demand as root,
# else skipped with the reason).
#
#  - Chromium: screenshots of the home page, a post, a tag page and a
#    listing at phone (390x844) and desktop (1280x800) widths, checked
#    against tests/golden/web/*.png, and no message on its console;
#  - every link of those pages, and of the pages they link, answers (a
#    crawl of the site over HTTP: 200 after at most one redirect);
#  - tidy -errors -quiet reports no error on any page type;
#  - lynx -dump reads a post: its title, its text, its links.
#
# The screenshots are compared with a tolerance, not byte for byte: a
# font's hinting or a library's antialiasing moves pixels at the edges
# of glyphs, which an exact check would call a failure.  Both images are
# scaled to an eighth of their size, where a glyph is a grey smudge and
# such differences vanish, and the normalised RMSE (ImageMagick's
# compare) must stay under 0.04.  Measured on the post at phone width:
# blurred by a pixel (about what other hinting does) 0.003; its title
# blanked 0.080; every line one line lower 0.152; another page of the
# site 0.106 to 0.143; dark for light 0.86.  The pages'
# text is pinned by the DOM Chromium builds (--dump-dom), compared
# exactly with tests/golden/web/*.dom.
# WEB_GOLDEN_UPDATE=1 (make golden) writes the goldens instead.
. "$(dirname "$0")/e2e.subr"

cleanup() { srv_stop >/dev/null 2>&1; rm -rf "$tmp"; }
trap cleanup EXIT
tmp=$(mktemp -d /tmp/capsuled-web.XXXXXX)
gold=$top/tests/golden/web
mkdir -p "$gold"

if ! need_pkg chromium chromium; then skip "chromium: $why"; fi
if ! need_pkg tidy tidy; then skip "tidy: $why"; fi
if ! need_pkg lynx lynx; then skip "lynx: $why"; fi
if ! need_pkg imagemagick compare; then skip "imagemagick: $why"; fi
# The goldens were taken with DejaVu: another font is another layout.
if [ ! -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] &&
    ! need_pkg fonts-dejavu-core fc-list; then
	skip "fonts-dejavu-core: $why"
fi

hport=$(rand_port)
# Public ports fixed: the pages name them, and the screenshots show it.
if ! srv_start "$top/capsule" "http_port: $hport
gemini_public_port: 1965
gopher_public_port: 70
rate_limit: 0"; then
	nok "the server with http_port did not start"
	summary; exit
fi
base=http://127.0.0.1:$hport

# fetch PATH FILE: the page into FILE; its status on stdout.
fetch() {
	curl -s -m 10 -o "$2" -w '%{http_code}' "$base$1"
}

# The page types: home, a post (Markdown), a post kept in gemtext, a
# tag page, a series, the archive, a listing, a page of pages/, a
# gemtext file converted, the search form and its results, an error.
types="/ /posts/gemtext-tips /posts/a-post-kept-in-gemtext /tags/gemini/
/series/running-a-capsule/ /posts/ /files/ /about /search /search?q=gopher
/gemlog/ /nope"

# tidy: no error on any page type (warnings are tidy's taste, not HTML5's).
if command -v tidy >/dev/null 2>&1; then
	for p in $types; do
		fetch "$p" "$tmp/page.html" >/dev/null
		if out=$(tidy -errors -quiet "$tmp/page.html" 2>&1 >/dev/null) ||
		    ! echo "$out" | grep -q 'Error:'; then
			ok
		else
			nok "tidy: $p: $(echo "$out" | grep 'Error:' | head -3)"
		fi
	done
fi

# Every link of every page reached from the home page answers.
if command -v curl >/dev/null 2>&1; then
	: >"$tmp/seen"
	echo / >"$tmp/queue"
	n=0 bad=0
	while [ -s "$tmp/queue" ] && [ $n -lt 400 ]; do
		p=$(head -n 1 "$tmp/queue")
		sed -i 1d "$tmp/queue"
		grep -qxF "$p" "$tmp/seen" && continue
		echo "$p" >>"$tmp/seen"
		n=$((n + 1))
		code=$(curl -s -m 10 -L --max-redirs 1 -o "$tmp/crawl" \
		    -w '%{http_code} %{content_type}' "$base$p")
		case $code in
		200*) ;;
		*) bad=$((bad + 1)); echo "FAIL: link $p: $code" >&2; continue ;;
		esac
		case $code in *text/html*) ;; *) continue ;; esac
		grep -o 'href="/[^"]*"' "$tmp/crawl" | sed 's/^href="//; s/"$//;
		    s/&amp;/\&/g; s/#.*//' | sort -u >>"$tmp/queue"
	done
	if [ $bad -eq 0 ] && [ $n -gt 30 ]; then ok; else
		nok "crawl: $bad of $n links did not answer"; fi
fi

# lynx reads a post as a reader would.
if command -v lynx >/dev/null 2>&1; then
	out=$(lynx -dump -nolist -width=80 "$base/posts/gemtext-tips" 2>&1)
	case $out in *"Tips & tricks for gemtext"*) ok ;;
	    *) nok "lynx: no title: $(echo "$out" | head -5)" ;; esac
	case $out in *"Know the six line types"*) ok ;;
	    *) nok "lynx: no section heading" ;; esac
	case $out in *"This page on Gemini: gemini://localhost/posts/gemtext-tips"*)
	    ok ;; *) nok "lynx: no Gemini address" ;; esac
	out=$(lynx -dump -width=80 "$base/posts/gemtext-tips" 2>&1)
	case $out in *"$base/posts/plain-text-habits-paragraphs"*) ok ;;
	    *) nok "lynx: the link to another post is not listed" ;; esac
fi

# shot NAME PATH W H: a screenshot and the DOM, checked or written.
shot() {
	_png=$tmp/$1.png
	rm -f "$_png"
	timeout 60 chromium --headless --no-sandbox --disable-gpu \
	    --disable-background-networking --disable-extensions \
	    --disable-sync --no-first-run --hide-scrollbars \
	    --force-device-scale-factor=1 --force-color-profile=srgb \
	    --enable-logging=stderr --v=0 \
	    --window-size="$3,$4" --screenshot="$_png" "$base$2" \
	    >"$tmp/$1.log" 2>&1
	if [ ! -s "$_png" ]; then
		nok "chromium: no screenshot of $2 at $3x$4"
		return
	fi
	if grep -q 'CONSOLE' "$tmp/$1.log"; then
		nok "chromium: $2: console: $(grep CONSOLE "$tmp/$1.log" |
		    head -2)"
	else
		ok
	fi
	if [ "${WEB_GOLDEN_UPDATE:-}" = 1 ]; then
		cp "$_png" "$gold/$1.png"
		return
	fi
	if [ ! -f "$gold/$1.png" ]; then
		nok "no golden $gold/$1.png (make golden writes it)"
		return
	fi
	_d=$(compare -metric RMSE \
	    \( "$_png" -resize 12.5% \) \( "$gold/$1.png" -resize 12.5% \) \
	    null: 2>&1 | sed 's/.*(\(.*\)).*/\1/')
	if [ "$(identify -format '%wx%h' "$_png")" != \
	    "$(identify -format '%wx%h' "$gold/$1.png")" ]; then
		nok "screenshot $1: another size than its golden"
	elif awk -v d="$_d" 'BEGIN { exit !(d != "" && d + 0 < 0.04) }'; then
		ok
	else
		cp "$_png" "$top/build/web-$1.png" 2>/dev/null
		nok "screenshot $1: differs from its golden by $_d (>= 0.04;" \
		    "what was taken: build/web-$1.png)"
	fi
}

# dom NAME PATH: the DOM Chromium built, checked or written.
dom() {
	timeout 60 chromium --headless --no-sandbox --disable-gpu \
	    --disable-background-networking --no-first-run --dump-dom \
	    "$base$2" 2>/dev/null >"$tmp/$1.dom"
	if [ "${WEB_GOLDEN_UPDATE:-}" = 1 ]; then
		cp "$tmp/$1.dom" "$gold/$1.dom"
	elif [ -s "$tmp/$1.dom" ] && cmp -s "$tmp/$1.dom" "$gold/$1.dom"; then
		ok
	else
		nok "DOM of $2 differs from $gold/$1.dom:" \
		    "$(diff "$gold/$1.dom" "$tmp/$1.dom" 2>&1 | head -6)"
	fi
}

if command -v chromium >/dev/null 2>&1 && command -v compare >/dev/null 2>&1
then
	for page in "home /" "post /posts/gemtext-tips" "tag /tags/gemini/" \
	    "listing /files/"; do
		set -- $page
		shot "$1-phone" "$2" 390 844
		shot "$1-desktop" "$2" 1280 800
		dom "$1" "$2"
	done
fi
check "the server exits 0" srv_stop
summary
