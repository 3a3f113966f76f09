#!/bin/sh
# systemd.sh -- contrib/capsuled.service: `systemd-analyze verify` finds
# nothing wrong with it (run on a copy whose ExecStart is the binary
# under test, so a missing /usr/local/bin does not count; only lines
# about the unit itself are errors -- verify exits 0 on unknown keys and
# bad values, so its output is read, not just its status), the
# hardening a reviewer looks for is there, and the offline exposure
# score stays at or below 2.0 ("OK").  systemd is installed when missing
# (root and Debian apt), else the checks are SKIPPED.
set -u
. "$(dirname "$0")/e2e.subr"

unit=$top/contrib/capsuled.service
tmp=$(mktemp -d /tmp/capsuled-unit.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT

# The directives and values the unit must carry.
for d in 'User=capsuled' 'Group=capsuled' 'DynamicUser=no' \
    'AmbientCapabilities=CAP_NET_BIND_SERVICE' \
    'CapabilityBoundingSet=CAP_NET_BIND_SERVICE' 'NoNewPrivileges=yes' \
    'ProtectSystem=strict' 'ProtectHome=yes' 'PrivateTmp=yes' \
    'PrivateDevices=yes' 'ProtectKernelTunables=yes' \
    'ProtectKernelModules=yes' 'ProtectKernelLogs=yes' \
    'ProtectControlGroups=yes' \
    'RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX' \
    'SystemCallFilter=@system-service' \
    'ReadWritePaths=/var/lib/capsuled /var/log/capsuled' \
    'ReadOnlyPaths=-/srv/capsule' \
    'ExecReload=/bin/kill -HUP $MAINPID' 'Restart=on-failure' \
    'ExecStart=/usr/local/bin/capsuled -c /etc/capsuled/capsuled.yaml'; do
	if grep -qxF -- "$d" "$unit"; then
		ok
	else
		nok "capsuled.service lacks the line: $d"
	fi
done
# Nothing more powerful than binding low ports is granted.
if grep -E '^(AmbientCapabilities|CapabilityBoundingSet)=' "$unit" |
    grep -v '=CAP_NET_BIND_SERVICE$' | grep -q .; then
	nok "capsuled.service grants more than CAP_NET_BIND_SERVICE"
else
	ok
fi

if ! need_pkg systemd systemd-analyze; then
	skip "systemd-analyze verify: $why"
	skip "systemd-analyze security: $why"
	summary
	exit 0
fi

sed "s|^ExecStart=/usr/local/bin/capsuled|ExecStart=$bin|" "$unit" \
    >"$tmp/capsuled.service"
out=$(timeout 60 systemd-analyze verify --man=no "$tmp/capsuled.service" \
    2>&1)
rc=$?
errs=$(printf '%s\n' "$out" | grep 'capsuled\.service')
if [ $rc -eq 0 ] && [ -z "$errs" ]; then
	ok
else
	nok "systemd-analyze verify (exit $rc): ${errs:-$out}"
fi

# Offline exposure score, 0 (locked down) to 10; threshold is x10.
out=$(timeout 60 systemd-analyze security --offline=true --threshold=20 \
    "$tmp/capsuled.service" 2>&1)
rc=$?
score=$(printf '%s\n' "$out" | sed -n 's/.*Overall exposure level for capsuled.service: \([0-9.]*\).*/\1/p')
if [ $rc -eq 0 ] && [ -n "$score" ]; then
	echo "exposure level: $score" >&2
	ok
else
	nok "systemd-analyze security: exposure ${score:-?} over 2.0 (exit $rc)"
fi
summary
