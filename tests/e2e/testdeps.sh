#!/bin/sh
# testdeps.sh -- mk/testdeps.sh, which `make test` runs first (issue 34,
# item 10): with none of the tools the tests drive, not as root, it
# prints the one apt-get line naming every package of its list, and the
# run goes on; as root on Debian it hands that list to apt-get.  The
# tools, `id` and apt-get are stand-ins in an empty PATH, the files it
# looks for are under an empty root: nothing is installed, nothing of
# the machine is asked.
set -u
. "$(dirname "$0")/e2e.subr"

fake=$(mktemp -d /tmp/capsuled-testdeps.XXXXXX) || exit 1
trap 'rm -rf "$fake"' EXIT

# fake_id UID: an `id` that says uid; an apt-get that says what it got.
fake_id() {
	printf '#!/bin/sh\necho %s\n' "$1" >"$fake/id"
	printf '#!/bin/sh\necho "$*" >>"%s/apt.args"\n' "$fake" >"$fake/apt-get"
	chmod 755 "$fake/id" "$fake/apt-get"
}

all=$(sh "$top/mk/testdeps.sh" --list | tr '\n' ' ' | sed 's/ $//')
check "--list names the tools' packages" [ -n "$all" ]
for p in haproxy fcgiwrap; do
	case " $all " in
	*" $p "*) ok ;;
	*) nok "--list: $p is in it: $all" ;;
	esac
done

fake_id 1000
out=$(PATH=$fake TESTDEPS_ROOT=$fake /bin/sh "$top/mk/testdeps.sh" 2>&1)
rc=$?
check "not root: exits 0, the run goes on" [ "$rc" = 0 ]
check "not root: the one apt-get line, every package" \
    [ "$(echo "$out" | grep -c 'apt-get install')" = 1 ]
case "$out" in
*"sudo apt-get install -y $all"*) ok ;;
*) nok "not root: the line names $all: $out" ;;
esac
check "not root: nothing installed" [ ! -f "$fake/apt.args" ]

if [ -f /etc/debian_version ]; then
	fake_id 0
	out=$(PATH=$fake TESTDEPS_ROOT=$fake /bin/sh "$top/mk/testdeps.sh" 2>&1)
	case "$(cat "$fake/apt.args" 2>/dev/null)" in
	*"install -y -qq --no-install-recommends $all"*) ok ;;
	*) nok "as root: apt-get asked for every package: $(cat \
	    "$fake/apt.args" 2>/dev/null)" ;;
	esac
	case "$out" in
	*"installing what the tests drive: $all"*) ok ;;
	*) nok "as root: says what it installs: $out" ;;
	esac
else
	skip "not Debian: no apt-get to hand the list to"
fi
summary
