#!/bin/sh
# clients.sh -- real Gemini and Gopher clients against the real server.
#
# Starts capsuled on loopback ephemeral ports serving the sample capsule
# (capsule/), then drives each client inside tmux (a private server,
# new-session -d at 100x30, send-keys, capture-pane -p) through a short
# walk -- home, a series, a post, a tag page, back -- and checks every
# screen for the titles the sample capsule has:
#
#   amfora, bombadillo (Gemini): link numbers typed into the client's
#     command line (amfora: Space N Enter; bombadillo: ":" N Enter), so
#     the links the server wrote are the links followed; "b" is back.
#   lynx (Gopher): numbered links (N Enter), "g" URL for the tag page,
#     Left arrow for back.
#   sacc (Gopher): "/" search for the item, "l" to open it, "q" to leave
#     the pager (more) a post is shown in, "h" for back.
#   gopher (Gopher+, the classic UMN client of Debian's gopher package,
#     no flags: it opens with the "<TAB>$" probe): item numbers typed
#     (every menu line counts, info lines too) and Enter, "u" for up,
#     the search dialog for /search; home, a series, a post's menu, its
#     text, a tag, the archive, a search.
#   curl: gopher:// URLs for the home menu, the series, a post, the tag,
#     a binary file (byte-exact) and robots.txt.
#
# Missing clients are installed with apt-get when run as root on Debian;
# otherwise the client is SKIPPED with the reason on stderr -- never
# counted as passed.  Clients get a fresh HOME (and XDG dirs), so the
# user's configuration and TOFU store are never read or written; the
# server's self-signed certificate is trusted on first use.  Every wait
# polls for at most $WAIT seconds.  The screens of the run are kept in
# BUILD/tests/captures/ (docs/clients.md shows some of them).  Ends
# with "N passed, N failed, N skipped".
set -u
. "$(dirname "$0")/e2e.subr"

WAIT=${CLIENTS_WAIT:-15}		# seconds per screen
caps=$build/tests/captures
homes=$(mktemp -d /tmp/capsuled-clients.XXXXXX) || exit 1
sock=$homes/tmux.sock		# a private tmux server, gone with homes
have_tmux=0

cleanup() {
	[ $have_tmux = 1 ] && tmux -S "$sock" kill-server >/dev/null 2>&1
	srv_stop >/dev/null 2>&1
	rm -rf "$homes"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
unset TMUX
export LANG=C.UTF-8
case ${TERM:-dumb} in dumb | unknown) export TERM=xterm-256color ;; esac

rm -rf "$caps"
mkdir -p "$caps"

t() { tmux -S "$sock" "$@"; }

# screen FILE has every PATTERN (fixed strings)
has_all() {
	_f=$1; shift
	for _p; do grep -qF -- "$_p" "$_f" || return 1; done
}

# step SESSION NAME PATTERN...: poll the screen until every pattern is on
# it; keep it as CAPS/SESSION-NAME.txt.  Counts one check.  After 3 s
# without it, the window is resized and back (SIGWINCH): amfora 1.9
# sometimes leaves a page half drawn -- the old URL in its bar, or no
# text -- after "b", until the next redraw.
step() {
	_s=$1 _n=$2; shift 2
	_f=$caps/$_s-$_n.txt
	_i=0
	while [ $_i -lt $((WAIT * 5)) ]; do
		t capture-pane -p -t "$_s" >"$_f" 2>/dev/null
		if has_all "$_f" "$@"; then
			ok
			return 0
		fi
		if [ $_i = 15 ]; then
			echo "$_s: $_n: not drawn after 3 s; forcing a redraw" >&2
			t resize-window -t "$_s" -x 101 -y 30
			sleep 0.2
			t resize-window -t "$_s" -x 100 -y 30
		fi
		sleep 0.2
		_i=$((_i + 1))
	done
	nok "$_s: $_n: not on screen after ${WAIT}s: $*"
	sed 's/^/    | /' "$_f" >&2
	return 1
}

# keys SESSION KEY...: send keys, a little apart (curses apps read them
# as they come; a prompt must be up before its text is typed), after
# letting the page just seen settle.
keys() {
	_s=$1; shift
	sleep 0.5
	for _k; do
		t send-keys -t "$_s" "$_k"
		sleep 0.3
	done
}

# start SESSION COMMAND: a detached 100x30 session in a fresh HOME.  A
# session tmux cannot make is the client not starting: SKIPPED, with the
# reason.  (A client that starts but never shows its first page fails.)
start() {
	_h=$homes/$1
	mkdir -p "$_h/.config" "$_h/.local/share" "$_h/.cache"
	t new-session -d -s "$1" -x 100 -y 30 \
	    "cd '$_h' && env HOME='$_h' XDG_CONFIG_HOME='$_h/.config' \
	    XDG_DATA_HOME='$_h/.local/share' XDG_CACHE_HOME='$_h/.cache' \
	    TERM=xterm-256color LANG=C.UTF-8 PAGER=more $2; sleep 3600" \
	    2>"$homes/$1.tmux.err" && return 0
	skip "$1: tmux could not start it: $(cat "$homes/$1.tmux.err")"
	return 1
}

# The gemtext of PATH, fetched with openssl (the clients' view of it).
gem_fetch() {
	printf 'gemini://localhost:%s%s\r\n' "$gem_port" "$1" |
	    timeout 10 openssl s_client -quiet -connect "127.0.0.1:$gem_port" \
	    -servername localhost 2>/dev/null
}

# gem_link PATH URL: the number a Gemini client gives the link to URL on
# PATH (links are numbered in page order).
gem_link() {
	gem_fetch "$1" | awk -v u="$2" '/^=>/ { n++; sub(/^=>[ \t]*/, "");
	    split($0, f, /[ \t]+/); if (f[1] == u) { print n; exit } }'
}

gph_fetch() {
	curl -s -m 10 "gopher://127.0.0.1:$gph_port/1$1"
}

# gph_link MENU SELECTOR: the number lynx gives the item (info and error
# lines are not links).
gph_link() {
	gph_fetch "$1" | awk -F '\t' -v s="$2" '{ t = substr($1, 1, 1) }
	    t != "i" && t != "3" && t != "." { n++ }
	    $2 == s { print n; exit }'
}

# gph_num MENU SELECTOR: the number the UMN client gives the item: every
# line of the menu counts, info lines too.
gph_num() {
	gph_fetch "$1" | awk -F '\t' -v s="$2" '$0 == ".\r" { exit }
	    { n++ } $2 == s { print n; exit }'
}

# gph_label MENU SELECTOR: the first 24 bytes of the item's display text.
gph_label() {
	gph_fetch "$1" | awk -F '\t' -v s="$2" \
	    '$2 == s { print substr($1, 2, 24); exit }'
}

series=/series/running-a-capsule/
post=/posts/running-a-capsule-1
pmenu=$post/			# the post's Gopher menu; lists link it
tag=/tags/gemini/
T_HOME="Notes from a Small Capsule"
T_SERIES="A series on Notes from a Small Capsule"
T_POST="Part 1 of 4 in Running a Capsule"
T_POST2="Why Bother?"
T_TAG="Posts tagged"
T_READ="Read the text"		# the first item of a post's menu

walk_amfora() {
	g=gemini://localhost:$gem_port
	n_series=$(gem_link / $series)
	n_post=$(gem_link $series $post)
	n_tag=$(gem_link $post $tag)
	if [ -z "$n_series" ] || [ -z "$n_post" ] || [ -z "$n_tag" ]; then
		nok "amfora: links not found in the gemtext" \
		    "($n_series/$n_post/$n_tag)"
		return
	fi
	start amfora "amfora $g/" || return
	step amfora 1-home "$T_HOME" "$g/" || return
	keys amfora Space "$n_series" Enter
	step amfora 2-series "$T_SERIES" "$g$series" || return
	keys amfora Space "$n_post" Enter
	step amfora 3-post "$T_POST" "$T_POST2" "$g$post" || return
	keys amfora Space "$n_tag" Enter
	step amfora 4-tag "$T_TAG" "gemini" "$g$tag" || return
	keys amfora b
	step amfora 5-back "$T_POST" "$g$post" || return
	keys amfora q
}

walk_bombadillo() {
	g=gemini://localhost:$gem_port
	n_series=$(gem_link / $series)
	n_post=$(gem_link $series $post)
	n_tag=$(gem_link $post $tag)
	if [ -z "$n_series" ] || [ -z "$n_post" ] || [ -z "$n_tag" ]; then
		nok "bombadillo: links not found in the gemtext"
		return
	fi
	start bombadillo "bombadillo $g/" || return
	step bombadillo 1-home "$T_HOME" "$g/" || return
	keys bombadillo : "$n_series" Enter
	step bombadillo 2-series "$T_SERIES" "$g$series" || return
	keys bombadillo : "$n_post" Enter
	step bombadillo 3-post "$T_POST" "$T_POST2" "$g$post" || return
	keys bombadillo : "$n_tag" Enter
	step bombadillo 4-tag "$T_TAG" "$g$tag" || return
	keys bombadillo b
	step bombadillo 5-back "$T_POST" "$g$post" || return
	keys bombadillo q
}

walk_lynx() {
	g=gopher://localhost:$gph_port
	n_series=$(gph_link / $series)
	n_pmenu=$(gph_link $series $pmenu)
	n_text=$(gph_link $pmenu $post)
	if [ -z "$n_series" ] || [ -z "$n_pmenu" ] || [ -z "$n_text" ]; then
		nok "lynx: items not found in the menus"
		return
	fi
	# Typed digits follow links only in this keypad mode.
	printf 'INCLUDE:/etc/lynx/lynx.cfg\nDEFAULT_KEYPAD_MODE:LINKS_ARE_NUMBERED\n' \
	    >"$homes/lynx.cfg"
	start lynx "lynx -cfg='$homes/lynx.cfg' $g/1/" || return
	step lynx 1-home "$T_HOME" "Gopher Menu" || return
	keys lynx "$n_series" Enter
	step lynx 2-series "$T_SERIES" || return
	keys lynx "$n_pmenu" Enter
	step lynx 3-post-menu "$T_READ" "$T_POST2" || return
	keys lynx "$n_text" Enter
	step lynx 3-post "$T_POST" "$T_POST2" || return
	keys lynx g "$g/1$tag" Enter
	step lynx 4-tag "$T_TAG" "gemini" || return
	keys lynx Left
	step lynx 5-back "$T_POST" "$T_POST2" || return
	keys lynx q y
}

walk_sacc() {
	g=gopher://localhost:$gph_port
	l_series=$(gph_label / $series)
	l_post=$(gph_label $series $pmenu)
	l_tag=$(gph_label / $tag)
	if [ -z "$l_series" ] || [ -z "$l_post" ] || [ -z "$l_tag" ]; then
		nok "sacc: items not found in the menus"
		return
	fi
	start sacc "sacc $g/1/" || return
	step sacc 1-home "$T_HOME" "localhost:$gph_port/1/" || return
	keys sacc / "$l_series" Enter l
	step sacc 2-series "$T_SERIES" "$series" || return
	keys sacc / "$l_post" Enter l
	step sacc 3-post-menu "$T_READ" "$pmenu" || return
	keys sacc / "$T_READ" Enter l
	step sacc 3-post "$T_POST" "$T_POST2" "More" || return
	keys sacc q
	step sacc 4-post-menu-again "$T_READ" "$pmenu" || return
	keys sacc h
	step sacc 4-series-again "$T_SERIES" "$series" || return
	keys sacc h
	# Back on the home menu, scrolled to the item it left by.
	step sacc 5-back-home "$l_series" "$l_tag" || return
	keys sacc / "$l_tag" Enter l
	step sacc 6-tag "$T_TAG" "$tag" || return
	keys sacc h
	step sacc 7-back "$l_tag" "| localhost:$gph_port/1/" || return
	keys sacc q
}

walk_gopher() {
	n_series=$(gph_num / $series)
	n_pmenu=$(gph_num $series $pmenu)
	n_text=$(gph_num $pmenu $post)
	n_tag=$(gph_num $pmenu $tag)
	n_posts=$(gph_num / /posts/)
	n_search=$(gph_num / /search)
	if [ -z "$n_series" ] || [ -z "$n_pmenu" ] || [ -z "$n_text" ] ||
	    [ -z "$n_tag" ] || [ -z "$n_posts" ] || [ -z "$n_search" ]; then
		nok "gopher: items not found in the menus"
		return
	fi
	# No -p: the client asks "<TAB>$" first, and must get a menu.
	start gopher "gopher localhost $gph_port" || return
	step gopher 0-welcome "Press RETURN to continue" || return
	keys gopher Enter
	step gopher 1-home "$T_HOME" "Home Gopher server: localhost" || return
	keys gopher "$n_series" Enter
	step gopher 2-series "$T_SERIES" || return
	keys gopher "$n_pmenu" Enter
	step gopher 3-post-menu "$T_READ" "$T_POST2" || return
	keys gopher "$n_text" Enter
	step gopher 4-post "$T_POST" "$T_POST2" "[Exit: u]" || return
	keys gopher u
	step gopher 5-post-menu-again "$T_READ" "$T_POST2" || return
	keys gopher "$n_tag" Enter
	step gopher 6-tag "$T_TAG" "gemini" || return
	keys gopher u u u
	# Home again, on the page of the item it left by.
	step gopher 7-home-again "Home Gopher server: localhost" \
	    "-->  [$n_series]" || return
	keys gopher "$n_posts" Enter
	step gopher 8-posts "posts, newest first." || return
	keys gopher u "$n_search" Enter
	step gopher 9-search-dialog "Words to search for" || return
	keys gopher g o p h e r Enter
	step gopher 10-search "Results for: gopher" "Gopher Archaeology" ||
	    return
	keys gopher q y
	# It asked in Gopher+ form, and got menus: no "-p" needed.
	check "gopher: the client asked with the Gopher+ probe" \
	    grep -qF '/series/running-a-capsule/\x09$"' "$srv_log"
}

# curl NAME URL PATTERN...: fetch, keep, check (one check).
curl_step() {
	_n=$1 _u=$2; shift 2
	_f=$caps/curl-$_n.txt
	if ! curl -s -m 10 -o "$_f" "$_u"; then
		nok "curl $_u: failed"
		return 1
	fi
	if has_all "$_f" "$@"; then
		ok
	else
		nok "curl $_u: missing one of: $*"
		head -n 20 "$_f" | sed 's/^/    | /' >&2
	fi
}

walk_curl() {
	g=gopher://127.0.0.1:$gph_port
	curl_step 1-home "$g/1/" "i$T_HOME	" \
	    "	$series	localhost	$gph_port"
	# A menu ends with a lone "." line (RFC 1436).
	check "curl: home menu ends with .CRLF" \
	    sh -c "tail -c 3 '$caps/curl-1-home.txt' | od -An -c | grep -q '\\. *\\\\r *\\\\n'"
	curl_step 2-series "$g/1$series" "i$T_SERIES" "	$pmenu	"
	curl_step 2-post-menu "$g/1$pmenu" "0$T_READ" "	$post	" \
	    "	/tags/gemini/	"
	curl_step 3-post "$g/0$post" "Running a Capsule, Part 1: $T_POST2" \
	    "$T_POST"
	curl_step 4-tag "$g/1$tag" "$T_TAG"
	if curl -s -m 10 -o "$caps/curl-5-file.png" "$g/9/files/capsule.png" &&
	    cmp -s "$caps/curl-5-file.png" "$top/capsule/files/capsule.png"
	then
		ok
	else
		nok "curl: /files/capsule.png is not byte-exact"
	fi
	curl_step 6-robots "$g/0/robots.txt" "User-agent: *"
}

if ! srv_start "$top/capsule"; then
	nok "capsuled did not start"
	summary
	exit 1
fi

if need_pkg tmux tmux; then
	have_tmux=1
	for c in amfora bombadillo lynx sacc gopher; do
		if ! need_pkg "$c" "$c"; then
			skip "$c: $why"
		elif [ "$c" = amfora ] || [ "$c" = bombadillo ]; then
			if need_pkg openssl openssl; then
				"walk_$c"
			else
				skip "$c: $why (needed to number the links)"
			fi
		elif need_pkg curl curl; then
			"walk_$c"
		else
			skip "$c: $why (needed to read the menus)"
		fi
	done
else
	for c in amfora bombadillo lynx sacc gopher; do
		skip "$c: $why"
	done
fi
if need_pkg curl curl; then
	walk_curl
else
	skip "curl: $why"
fi

check "server still up after the clients" alive "$srv_pid"
cp "$srv_log" "$caps/server.log" 2>/dev/null	# the requests the walks made
check "server exits 0 on SIGTERM" srv_stop
summary
