#!/bin/sh
# install.sh -- `make install DESTDIR=...` puts exactly the expected
# files under PREFIX (binary, both man pages, the example configuration,
# README.md and every guide of docs/ beside it, the systemd unit with the
# binary's path filled in, the sysusers.d entry), with the right modes; the installed binary runs;
# PREFIX and SYSCONFDIR are honoured; `make uninstall` leaves no file
# behind.  Uses the already-built binary of this build (make -o: nothing
# is rebuilt here).
set -u
. "$(dirname "$0")/e2e.subr"

dest=$(mktemp -d /tmp/capsuled-install.XXXXXX) || exit 1
trap 'rm -rf "$dest"' EXIT

mk() {	# make TARGET VAR=VALUE...
	make -s -C "$top" BUILD="$build" -o "$build/capsuled" \
	    -o "$build/deps.mk" DESTDIR="$dest" "$@" >"$dest.log" 2>&1
	_rc=$?
	[ $_rc -ne 0 ] && sed 's/^/    | /' "$dest.log" >&2
	rm -f "$dest.log"
	return $_rc
}

mode() { stat -c '%a' "$1" 2>/dev/null; }

# have FILE MODE: a regular file with that mode
have() {
	if [ -f "$dest$1" ] && [ "$(mode "$dest$1")" = "$2" ]; then
		ok
	else
		nok "$1: missing or mode $(mode "$dest$1") (want $2)"
	fi
}

p=/usr/local
check "make install" mk install
have $p/bin/capsuled 755
have $p/share/man/man8/capsuled.8 644
have $p/share/man/man5/capsuled.yaml.5 644
have $p/share/doc/capsuled/capsuled.yaml.example 644
have $p/share/doc/capsuled/README.md 644
# The guides README.md links, at the same relative paths.
want=7
for g in "$top"/docs/*.md; do
	have $p/share/doc/capsuled/docs/"${g##*/}" 644
	check "installed ${g##*/} is docs/${g##*/}" \
	    cmp -s "$g" "$dest$p/share/doc/capsuled/docs/${g##*/}"
	want=$((want + 1))
done
check "README.md links the installed guides" \
    grep -q '](docs/operating.md)' "$dest$p/share/doc/capsuled/README.md"
have $p/lib/systemd/system/capsuled.service 644
have $p/lib/sysusers.d/capsuled.conf 644
n=$(find "$dest" -type f | wc -l)
if [ "$n" -eq "$want" ]; then ok; else nok "$n files installed, want $want:
$(find "$dest" -type f)"; fi
outside=$(find "$dest" -mindepth 1 -not -path "$dest/usr" \
    -not -path "$dest/usr/local" -not -path "$dest/usr/local/*")
if [ -z "$outside" ]; then ok; else nok "installed outside PREFIX: $outside"; fi

# The example is config/capsuled.yaml with absolute paths for a system
# install (the unit's /srv/capsule and state directory), nothing else.
ex=$dest$p/share/doc/capsuled/capsuled.yaml.example
check "example: capsule /srv/capsule" grep -qx 'capsule: /srv/capsule' "$ex"
check "example: certs /var/lib/capsuled/certs" \
    grep -qx 'certs: /var/lib/capsuled/certs' "$ex"
sed -e 's|^capsule: \.\./capsule$|capsule: /srv/capsule|' \
    -e 's|^certs: \.\./certs$|certs: /var/lib/capsuled/certs|' \
    "$top/config/capsuled.yaml" >"$dest.want"
check "example is config/capsuled.yaml otherwise" cmp -s "$ex" "$dest.want"
rm -f "$dest.want"

# The repository's own file copied to an /etc/capsuled/ (here under
# $dest) with its relative paths: the capsule is missing there, so it
# stops with an error before making a certificate in ../certs.
mkdir -p "$dest/etc/capsuled"
cp "$top/config/capsuled.yaml" "$dest/etc/capsuled/capsuled.yaml"
"$bin" --allow-root -c "$dest/etc/capsuled/capsuled.yaml" \
    >"$dest.out" 2>&1 </dev/null
rc=$?
check "config/ copied to /etc/capsuled: exits 1 (got $rc)" [ "$rc" -eq 1 ]
check "config/ copied to /etc/capsuled: the capsule named as an error" \
    grep -q "error: the capsule $dest/etc/capsule: No such file" "$dest.out"
check "config/ copied to /etc/capsuled: no certificate outside" \
    [ ! -e "$dest/etc/certs" ]
rm -rf "$dest.out" "$dest/etc"
v=$("$dest$p/bin/capsuled" --version 2>&1)
case $v in
*"capsuled "[0-9]*libuv*OpenSSL*libyaml*cmark-gfm*) ok ;;
*) nok "installed capsuled --version: $v" ;;
esac
u=$dest$p/lib/systemd/system/capsuled.service
check "unit runs the installed binary" grep -qx \
    "ExecStart=$p/bin/capsuled -c /etc/capsuled/capsuled.yaml" "$u"
check "man page names where the example went" grep -q \
    "$p/share/doc/capsuled/capsuled.yaml.example" \
    "$dest$p/share/man/man8/capsuled.8"
check "sysusers.d entry makes the user" grep -q '^u capsuled ' \
    "$dest$p/lib/sysusers.d/capsuled.conf"

check "make uninstall" mk uninstall
left=$(find "$dest" \( -type f -o -type l \))
if [ -z "$left" ]; then ok; else nok "left after uninstall: $left"; fi
if [ ! -d "$dest$p/share/doc/capsuled" ]; then ok; else
	nok "uninstall left $p/share/doc/capsuled"; fi
check "uninstall twice is harmless" mk uninstall

# Another PREFIX and SYSCONFDIR, as a distribution package would use.
rm -rf "$dest" && mkdir "$dest"
check "make install PREFIX=/usr" mk install PREFIX=/usr \
    SYSCONFDIR=/etc/capsuled-test
have /usr/bin/capsuled 755
have /usr/share/man/man8/capsuled.8 644
check "unit follows PREFIX and SYSCONFDIR" grep -qx \
    "ExecStart=/usr/bin/capsuled -c /etc/capsuled-test/capsuled.yaml" \
    "$dest/usr/lib/systemd/system/capsuled.service"
check "make uninstall PREFIX=/usr" mk uninstall PREFIX=/usr
left=$(find "$dest" \( -type f -o -type l \))
if [ -z "$left" ]; then ok; else nok "left after uninstall: $left"; fi
if [ ! -d "$dest/usr/share/doc/capsuled" ]; then ok; else
	nok "uninstall left /usr/share/doc/capsuled"; fi
summary
