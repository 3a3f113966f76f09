#!/bin/sh
# mk/deps.sh -- make sure the libraries capsuled builds against are here,
# then write their flags to the file named by $1 (included by the Makefile).
#
# Missing Debian packages are installed when run as root; otherwise the
# exact apt-get line is printed and the build stops.
set -eu
out=${1:?usage: deps.sh OUTPUT.mk}

# pkg-config module -> Debian package
need="libuv:libuv1-dev openssl:libssl-dev yaml-0.1:libyaml-dev libcmark-gfm:libcmark-gfm-dev"
missing=""
command -v pkg-config >/dev/null 2>&1 || missing="pkg-config"
command -v cc >/dev/null 2>&1 || missing="$missing gcc"
command -v make >/dev/null 2>&1 || missing="$missing make"
for pair in $need; do
	mod=${pair%%:*}; pkg=${pair#*:}
	if ! command -v pkg-config >/dev/null 2>&1 ||
	    ! pkg-config --exists "$mod" 2>/dev/null; then
		missing="$missing $pkg"
	fi
done
# The extensions library has no .pc file of its own.
[ -e /usr/include/cmark-gfm-core-extensions.h ] ||
    missing="$missing libcmark-gfm-extensions-dev"

if [ -n "$missing" ]; then
	missing=$(echo $missing)	# squeeze blanks
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "deps: installing $missing" >&2
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq >&2 || true
		apt-get install -y -qq --no-install-recommends $missing >&2
	else
		echo "deps: missing packages; install them with:" >&2
		echo "  sudo apt-get install -y $missing" >&2
		exit 1
	fi
fi

mods="libuv openssl yaml-0.1 libcmark-gfm"
{
	echo "# written by mk/deps.sh; delete to re-check"
	echo "PKG_CFLAGS := $(pkg-config --cflags $mods)"
	# -lm: search.c ranks with log().
	echo "PKG_LIBS := $(pkg-config --libs $mods) -lcmark-gfm-extensions -lpthread -lm"
} > "$out.tmp"
mv "$out.tmp" "$out"
