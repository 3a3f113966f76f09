#!/bin/sh
# kristall.sh -- Kristall, a graphical small-web browser (Debian's
# kristall), under Xvfb against the Gemini and Finger surfaces: the home
# page and a post over Gemini, the site's plan over Finger.  Each page is
# typed into the address bar (xdotool: Kristall opens no URL given on its
# command line), must reach the server (its access log) and show in the
# window (its title, or a screen that is not blank); a screenshot of each
# (ImageMagick's import) is left in BUILD/tests/logs/kristall-*.png for a
# person to look at.  Finger is off in Kristall until its settings say
# otherwise: the test's own HOME says so.  Skipped, saying why, when a
# tool is missing and cannot be installed.
. "$(dirname "$0")/e2e.subr"

cleanup() {
	[ -n "${kpid:-}" ] && kill "$kpid" 2>/dev/null
	[ -n "${xpid:-}" ] && kill "$xpid" 2>/dev/null
	srv_stop >/dev/null 2>&1
	rm -rf "$cap" "$khome"
}
trap cleanup EXIT
cap=$(mktemp -d /tmp/capsuled-kristall.XXXXXX)
khome=$(mktemp -d /tmp/capsuled-kristall-home.XXXXXX)
shots=$build/tests/logs
mkdir -p "$cap/posts" "$shots"
printf -- '---\ntitle: Kristall test capsule\n---\nHello, Kristall.\n' \
    >"$cap/index.md"
printf -- '---\ntitle: A post for Kristall\n---\nRead in a real client.\n' \
    >"$cap/posts/2024-01-02-kristall.md"

for p in "kristall kristall" "xvfb Xvfb" "xdotool xdotool" \
    "imagemagick import"; do
	set -- $p
	if ! need_pkg "$1" "$2"; then
		skip "Kristall: $why"
		summary; exit
	fi
done

fport=$(rand_port)
if ! srv_start "$cap" "finger_port: $fport"; then
	nok "the server with finger_port: $fport did not start"
	summary; exit
fi

# A display nobody holds.
d=90
while [ -e "/tmp/.X$d-lock" ] && [ $d -lt 140 ]; do d=$((d + 1)); done
Xvfb ":$d" -screen 0 1024x768x24 -nolisten tcp >"$khome/xvfb.log" 2>&1 &
xpid=$!
export DISPLAY=":$d" HOME="$khome" XDG_RUNTIME_DIR="$khome"
mkdir -p "$khome/.config/kristall"
# Kristall reads its protocols in a group "Protocols" (some versions
# nest one in another): finger on, in both spellings.
printf '[Protocols]\ngemini=true\nfinger=true\nProtocols\\gemini=true\nProtocols\\finger=true\n' \
    >"$khome/.config/kristall/config.ini"
i=0
while [ ! -S "/tmp/.X11-unix/X$d" ] && [ $i -lt 100 ]; do
	sleep 0.1; i=$((i + 1))
done
timeout 120 kristall -i >"$khome/kristall.log" 2>&1 &
kpid=$!
win=$(timeout 30 xdotool search --sync --onlyvisible --class kristall \
    2>/dev/null | head -n 1)
if [ -z "$win" ]; then
	nok "Kristall showed no window"
	cat "$khome/kristall.log" >&2
	summary; exit
fi

# visit URL LOGLINE NAME: type URL into the address bar; wait for LOGLINE
# in the server's access log; a screenshot as kristall-NAME.png.
visit() {
	xdotool mousemove 330 34 click 1
	sleep 0.3
	xdotool key ctrl+a
	xdotool type --delay 5 "$1"
	xdotool key Return
	_i=0
	while ! grep -qF "$2" "$srv_log" && [ $_i -lt 100 ]; do
		sleep 0.1; _i=$((_i + 1))
	done
	if ! grep -qF "$2" "$srv_log"; then
		nok "Kristall did not ask for $1 (no '$2' in the log)"
		return 1
	fi
	ok
	sleep 1.5			# drawn
	import -window root "$shots/kristall-$3.png"
	return 0
}

# title WANT: the window's title holds WANT, within 5 s.
title() {
	_i=0
	while [ $_i -lt 50 ]; do
		case $(xdotool getwindowname "$win" 2>/dev/null) in
		*"$1"*) ok; return 0 ;;
		esac
		sleep 0.1; _i=$((_i + 1))
	done
	nok "Kristall's title is '$(xdotool getwindowname "$win")', not '$1'"
}

# colours PNG: more than a handful (text drawn, not a blank page).
colours() {
	n=$(convert "$1" -format %k info: 2>/dev/null)
	if [ "${n:-0}" -gt 20 ]; then ok; else nok "$1: $n colours"; fi
}

g=gemini://127.0.0.1:$gem_port
if visit "$g/" "gemini \"$g/\" 20" gemini-home; then
	title "Kristall test capsule"
	colours "$shots/kristall-gemini-home.png"
fi
if visit "$g/posts/kristall" "gemini \"$g/posts/kristall\" 20" gemini-post
then
	title "A post for Kristall"
	colours "$shots/kristall-gemini-post.png"
fi
if visit "finger://127.0.0.1:$fport/" 'finger "" 20' finger-plan; then
	colours "$shots/kristall-finger-plan.png"
	# What Kristall shows is the plan: the title line, as sent.
	check "the plan is Kristall's page" grep -q \
	    'Loaded [0-9]* bytes of type "text" / "finger"' "$khome/kristall.log"
fi
check "the server exits 0" srv_stop
summary
