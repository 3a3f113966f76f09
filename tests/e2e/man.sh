#!/bin/sh
# man.sh -- the manual pages: both pass `mandoc -T lint -W warning`
# (warnings and errors; the STYLE level also looks for the pages that
# .Xr names on this machine, so it is left out), render, and stay in
# step with the code: every key of src/core/config_keys.c's table has an
# entry in capsuled.yaml(5), and every long option of `capsuled --help`
# and every signal main.c handles is in capsuled(8).
# (tests/unit/test_config_sites.c, test_manual, checks the man page's
# keys against the parser's whole table, config_keys(), both ways, and
# that "per host" marks exactly the site keys.  The guides in docs/
# link the man page instead of listing the keys again: links.sh checks
# the links.)
# mandoc is installed when missing (root and Debian apt), else the
# checks are SKIPPED.
set -u
. "$(dirname "$0")/e2e.subr"

m8=$top/man/capsuled.8
m5=$top/man/capsuled.yaml.5

if ! need_pkg mandoc mandoc; then
	skip "mandoc: $why"
	summary
	exit 0
fi

for page in "$m8" "$m5"; do
	name=$(basename "$page")
	if out=$(mandoc -T lint -W warning "$page" 2>&1) && [ -z "$out" ]; then
		ok
	else
		nok "$name: mandoc -T lint: $out"
	fi
	if mandoc -T html "$page" 2>/dev/null | grep -q 'id="NAME"'; then
		ok
	else
		nok "$name: does not render"
	fi
done

# Every configuration key, as ".It Ic key :".
keys=$(sed -n '/^static const struct cfe_field fields\[\] = {/,/^};/p' \
    "$top/src/core/config_keys.c" | grep -o '{ "[a-z_0-9]*"' | cut -d'"' -f2)
[ -n "$keys" ] && ok || nok "no keys found in src/core/config_keys.c"
for k in $keys; do
	if grep -q "^\.It Ic $k :" "$m5"; then
		ok
	else
		nok "capsuled.yaml.5: key '$k' has no entry (.It Ic $k : ...)"
	fi
done

# Every long option of --help, as "Fl \-name": Fl writes one dash, the
# source escapes the others ("Fl \-allow\-root" is --allow-root).
opts=$("$bin" --help 2>/dev/null | grep -o -- '--[a-z][a-z-]*' | sort -u)
[ -n "$opts" ] && ok || nok "capsuled --help lists no options"
for o in $opts; do
	esc=$(printf '%s' "${o#--}" | sed 's/-/\\\\-/g')
	if grep -q "Fl \\\\-$esc\\b" "$m8"; then
		ok
	else
		nok "capsuled.8: option $o is not described"
	fi
done

# Every signal main.c handles, in SIGNALS.
sigs=$(grep 'signums\[\] = {' "$top/src/app/main.c" | grep -o 'SIG[A-Z0-9]*')
[ -n "$sigs" ] && ok || nok "no signals found in src/app/main.c"
for s in $sigs; do
	if sed -n '/^\.Sh SIGNALS/,/^\.Sh /p' "$m8" | grep -q "$s"; then
		ok
	else
		nok "capsuled.8: $s is not in SIGNALS"
	fi
done

# The exit codes main.c uses, in EXIT STATUS.
for c in 0 1 2; do
	if sed -n '/^\.Sh EXIT STATUS/,/^\.Sh /p' "$m8" | grep -q "^\.It $c\$"; then
		ok
	else
		nok "capsuled.8: exit status $c is not described"
	fi
done
summary
