#!/bin/sh
# menus.sh -- one post's Gopher menu as numbered clients show it, against
# golden screens (tests/golden/screens/CLIENT.txt).
#
# A post with three links is served; lynx (-number_links), vf1 and the
# classic `gopher` client number the menu's items themselves (the
# classic one counts info lines too), sacc does not.  Each is started in
# a private tmux server (new-session -d at 80x24), its first screen of
# the post's menu captured (capture-pane -p), blank lines and the port
# taken out, and compared with the golden screen: the text's references
# are items "Link N: label", never "[N] label" after the client's own
# "[M]".  A missing client is SKIPPED with the reason.
# CAPSULED_UPDATE_GOLDEN=1 rewrites the goldens (review the diff).
set -u
. "$(dirname "$0")/e2e.subr"

WAIT=${CLIENTS_WAIT:-15}
golden=$top/tests/golden/screens
tmp=$(mktemp -d /tmp/capsuled-menus.XXXXXX) || exit 1
sock=$tmp/tmux.sock
unset TMUX
export LANG=C.UTF-8

cleanup() {
	tmux -S "$sock" kill-server >/dev/null 2>&1
	srv_stop >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

if ! need_pkg tmux tmux; then
	skip "every client: $why"
	summary
	exit
fi

mkdir -p "$tmp/cap/posts" "$tmp/cap/pages"
printf -- '---\ntitle: Flatten the Back\ndate: 2025-01-01\n---\nRead [the about page](/about) first, then [part two](/posts/hone) and [elsewhere](https://example.org/x).\n' \
    >"$tmp/cap/posts/2025-01-01-flatten.md"
printf -- '---\ntitle: Hone\ndate: 2025-01-02\n---\nx\n' \
    >"$tmp/cap/posts/2025-01-02-hone.md"
printf -- '---\ntitle: About\n---\nMe.\n' >"$tmp/cap/pages/about.md"
printf -- '---\ntitle: Bench Notes\n---\nHello.\n' >"$tmp/cap/index.md"
srv_start "$tmp/cap" || { nok "server start"; summary; exit; }

# screen CLIENT COMMAND KEYS: the client's screen once it shows the
# menu, normalised, against the golden; KEYS are sent first (the
# classic client's opening notice).
screen() {
	_c=$1 _cmd=$2 _keys=$3
	_h=$tmp/home-$_c
	mkdir -p "$_h"
	tmux -S "$sock" new-session -d -s "$_c" -x 80 -y 24 \
	    "cd '$_h' && env HOME='$_h' TERM=xterm LANG=C.UTF-8 $_cmd; sleep 3600" ||
	    { skip "$_c: tmux could not start it"; return; }
	_i=0
	while [ $_i -lt $((WAIT * 5)) ]; do
		tmux -S "$sock" capture-pane -p -t "$_c" >"$tmp/$_c.raw"
		if [ -n "$_keys" ] && grep -q "Press RETURN" "$tmp/$_c.raw"; then
			tmux -S "$sock" send-keys -t "$_c" "$_keys"
			_keys=
		fi
		grep -q "Back to Bench Notes" "$tmp/$_c.raw" && break
		sleep 0.2
		_i=$((_i + 1))
	done
	sleep 0.3		# the rest of the screen drawn
	tmux -S "$sock" capture-pane -p -t "$_c" | sed -e '/^[[:space:]]*$/d' \
	    -e "s/$gph_port/PORT/g" -e 's/[[:space:]]*$//' >"$tmp/$_c.txt"
	if [ "${CAPSULED_UPDATE_GOLDEN:-}" = 1 ]; then
		cp "$tmp/$_c.txt" "$golden/$_c.txt"
		ok
		return
	fi
	if cmp -s "$tmp/$_c.txt" "$golden/$_c.txt"; then
		ok
	else
		nok "$_c: the post's menu differs from $golden/$_c.txt"
		diff -u "$golden/$_c.txt" "$tmp/$_c.txt" | sed 's/^/    | /' >&2
	fi
	check "$_c: no [n] label after the client's own number" \
	    sh -c "! grep -q '\\[[0-9]\\] \\?\\[[0-9]\\]' '$tmp/$_c.txt'"
}

mkdir -p "$golden"
url=gopher://localhost:$gph_port/1/posts/flatten/
if need_pkg lynx lynx; then
	screen lynx "lynx -number_links '$url'" ""
else
	skip "lynx: $why"
fi
if need_pkg vf1 vf1; then
	screen vf1 "vf1 '$url'" ""
else
	skip "vf1: $why"
fi
if need_pkg gopher gopher; then
	screen gopher "gopher -p /posts/flatten/ localhost $gph_port" Enter
else
	skip "gopher: $why"
fi
if need_pkg sacc sacc; then
	screen sacc "sacc '$url'" ""
else
	skip "sacc: $why"
fi
summary
