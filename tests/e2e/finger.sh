#!/bin/sh
# finger.sh -- Debian's finger client against the Finger surface: it
# speaks to port 79 only, so this runs as root with 127.0.0.1:79 free
# (as CI does), and skips otherwise, saying why.  `finger @127.0.0.1`
# shows the site's plan; `finger nobody@127.0.0.1` is told there is no
# such user; the client shows what it was sent, CRLF lines and all.
. "$(dirname "$0")/e2e.subr"

cleanup() { srv_stop >/dev/null 2>&1; rm -rf "$cap"; }
trap cleanup EXIT
cap=$(mktemp -d /tmp/capsuled-finger.XXXXXX)
mkdir -p "$cap/posts"
printf -- '---\ntitle: Plan test\nsubtitle: A capsule to finger\n---\nHi.\n' \
    >"$cap/index.md"
printf -- '---\ntitle: Hello finger\n---\nHi.\n' \
    >"$cap/posts/2024-01-02-hello.md"

if [ "$(id -u)" != 0 ]; then
	skip "finger client: needs port 79, so root"
	summary; exit
fi
if ! need_pkg finger finger; then
	skip "finger client: $why"
	summary; exit
fi
if ss -Hltn 'sport = :79' 2>/dev/null | grep -q .; then
	skip "finger client: 127.0.0.1:79 is taken by another server"
	summary; exit
fi
if ! srv_start "$cap" "finger_port: 79"; then
	nok "the server with finger_port: 79 did not start"
	summary; exit
fi
out=$(timeout 10 finger @127.0.0.1 2>&1)
case $out in *"Plan test"*) ok ;; *) nok "finger @127.0.0.1: no title: $out" ;; esac
case $out in *"2024-01-02 Hello finger"*) ok ;; *) nok "finger @: no post" ;; esac
case $out in *"gemini://localhost:$gem_port/"*) ok ;;
    *) nok "finger @: no Gemini address" ;; esac
out=$(timeout 10 finger nobody@127.0.0.1 2>&1)
case $out in *"nobody: no such user."*) ok ;;
    *) nok "finger nobody@: $out" ;; esac
check "the server exits 0" srv_stop
summary
