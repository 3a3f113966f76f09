#!/bin/sh
# mk/testdeps.sh [--list] -- the tools `make test` drives, in one list.
#
# Each test that needs a tool skips its checks without it, saying why
# (`SKIPPED: ...` under its line); this makes sure none is skipped for
# a tool that could be there.  Run by `make test` before the suite: as
# root on Debian, the missing packages are installed with apt-get, each
# named; otherwise the one apt-get line that installs them is printed,
# as mk/deps.sh does for the build, and the suite runs with those checks
# skipped.  Never fails the run.  --list prints the packages alone
# (.ci/run installs them with its own).
set -u

# Debian package:command.  Clients the e2e tests drive (clients.sh,
# menus.sh, finger.sh), the manual's linter, systemd's checker, HAProxy
# (e2e_haproxy), fcgiwrap (e2e_apps), xmllint (test_atom), openssl
# (test_cert, test_tlsconn), python3 with tomllib (test_toml), useradd
# (e2e_userdirs); the web view's browser, validator, screenshots, font
# and TLS front (web.sh, nginx.sh); Kristall on a display of its own
# (kristall.sh); nc for the small-web surfaces (smallweb.sh).  A value
# with a '/' is a file that must exist.
pairs="mandoc:mandoc tmux:tmux curl:curl amfora:amfora
    bombadillo:bombadillo lynx:lynx sacc:sacc gopher:gopher vf1:vf1
    finger:finger openssl:openssl systemd:systemd-analyze haproxy:haproxy
    fcgiwrap:fcgiwrap libxml2-utils:xmllint python3:python3
    passwd:useradd chromium:chromium tidy:tidy imagemagick:compare
    fonts-dejavu-core:/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
    nginx-light:/usr/sbin/nginx kristall:kristall xvfb:Xvfb
    xdotool:xdotool netcat-openbsd:nc"

if [ "${1:-}" = --list ]; then
	for pair in $pairs; do echo "${pair%%:*}"; done
	exit 0
fi
missing=
for pair in $pairs; do
	have=${pair#*:}
	case $have in
	*/*)	[ -e "${TESTDEPS_ROOT:-}$have" ] ;;	# tests: a stand-in root
	*)	command -v "$have" >/dev/null 2>&1 ;;
	esac || missing="$missing ${pair%%:*}"
done
[ -z "$missing" ] && exit 0
missing=$(echo $missing)	# squeeze blanks
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 &&
    [ -f /etc/debian_version ]; then
	echo "testdeps: installing what the tests drive: $missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	if ! apt-get install -y -qq --no-install-recommends $missing \
	    >/dev/null 2>&1; then
		apt-get update -qq >/dev/null 2>&1 || true
		apt-get install -y -qq --no-install-recommends $missing >&2 ||
		    echo "testdeps: not all of them could be installed;" \
		    "their checks are skipped, each saying why" >&2
	fi
else
	echo "testdeps: the checks that drive these tools are skipped;" \
	    "install them with:" >&2
	echo "  sudo apt-get install -y $missing" >&2
fi
exit 0
