#!/bin/sh
# smallweb.sh -- Spartan, Nex and Finger with a shell client, nc
# (Debian's netcat-openbsd), as a reader without a browser asks: the
# request line typed as the protocol says, the answer read until the
# server closes.
#
#   Spartan: "host path length", the status line "2 text/gemini", a post,
#   a search whose query is the data block, "3" to the slashed path;
#   Nex: a directory of "=> " lines, a post as text; Finger: the plan,
#   CRLF lines.
. "$(dirname "$0")/e2e.subr"

cleanup() { srv_stop >/dev/null 2>&1; rm -rf "$cap"; }
trap cleanup EXIT
cap=$(mktemp -d /tmp/capsuled-smallweb.XXXXXX)
mkdir -p "$cap/posts"
printf -- '---\ntitle: Shell clients\n---\nHi.\n' >"$cap/index.md"
printf -- '---\ntitle: Typed by hand\n---\nA post read with nc.\n' \
    >"$cap/posts/2024-01-02-by-hand.md"

if ! need_pkg netcat-openbsd nc; then
	skip "nc: $why"
	summary; exit
fi
sp=$(rand_port) np=$(rand_port) fp=$(rand_port)
if ! srv_start "$cap" "spartan_port: $sp
nex_port: $np
finger_port: $fp"; then
	nok "the server did not start"
	summary; exit
fi

# ask PORT BYTES: what the server answered, until it closed.
ask() { printf "$2" | timeout 10 nc -N -w 5 127.0.0.1 "$1"; }

out=$(ask "$sp" 'localhost / 0\r\n')
case $out in "2 text/gemini"*"# Shell clients"*) ok ;;
    *) nok "spartan /: $out" ;; esac
out=$(ask "$sp" 'localhost /posts/by-hand 0\r\n')
case $out in *"A post read with nc."*) ok ;;
    *) nok "spartan a post: $out" ;; esac
out=$(ask "$sp" 'localhost /search 4\r\nread')
case $out in *"=> /posts/by-hand"*) ok ;;
    *) nok "spartan search by the data block: $out" ;; esac
out=$(ask "$sp" 'localhost /posts 0\r\n')
case $out in "3 /posts/"*) ok ;; *) nok "spartan /posts: $out" ;; esac

out=$(ask "$np" '/\n')
case $out in *"=> /posts/by-hand/ "*) ok ;; *) nok "nex /: $out" ;; esac
out=$(ask "$np" '/posts/by-hand\n')
case $out in *"A post read with nc."*) ok ;; *) nok "nex a post: $out" ;; esac

out=$(ask "$fp" '\r\n')
case $out in *"Shell clients"*"Typed by hand"*) ok ;;
    *) nok "finger the plan: $out" ;; esac
if ask "$fp" '\r\n' | od -c | grep -q '\\r  \\n'; then ok
else nok "finger: CRLF lines"; fi

check "the server exits 0" srv_stop
summary
