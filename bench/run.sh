#!/bin/sh
# bench/run.sh -- measure capsuled against molly-brown, gophernicus and
# nginx (the web view), and each small-web surface against the least its
# kernel work costs.
#
#   sh bench/run.sh [BUILD]          (make bench runs it with BUILD=build)
#
# Builds capsuled and the bench tools into BUILD, writes a synthetic
# archive into a temp dir, starts capsuled and, when installed (installed
# with apt-get when we are root), molly-brown and gophernicus on the same
# content, all on 127.0.0.1, and runs every scenario against each server
# in turn for BENCH_ROUNDS rounds.  Prints one table; bench/README.md
# explains it.  Everything it starts is stopped by pid on exit, and the
# temp dir is removed (BENCH_KEEP=1 keeps it).
#
# Knobs: BENCH_ROUNDS (3), BENCH_QUICK=1 (shorter runs), BENCH_NO_PEERS=1,
# BENCH_NO_BIG=1 (skip the 10,000-post archive), BENCH_NO_MANY=1 (skip
# the 1,000 capsules), BENCH_CAPSULES (1000), BENCH_THREADS (1),
# BENCH_SANDBOX=off (every capsuled with `sandbox: false`, to compare).

set -u

B=${1:-build}
ROUNDS=${BENCH_ROUNDS:-3}
THREADS=${BENCH_THREADS:-1}
QUICK=${BENCH_QUICK:-0}
SANDBOX=${BENCH_SANDBOX:-on}
LG=$B/bench/loadgen
GEN=$B/bench/genarchive
FS=$B/bench/forkserve
CAPSULED=$B/capsuled

# Run lengths: each run stops at the count or the time, whichever first.
if [ "$QUICK" = 1 ]; then
	GEM_N=800 GEM_S=2 GPH_N=5000 GPH_S=1.5 PEER_GPH_N=600
else
	GEM_N=4000 GEM_S=4 GPH_N=30000 GPH_S=3 PEER_GPH_N=3000
fi

say() { printf '%s\n' "$*" >&2; }
die() { say "bench: $*"; exit 1; }

TF=$B/bench/tlsfloor
TCPF=$B/bench/tcpfloor
make -s BUILD="$B" "$CAPSULED" "$LG" "$GEN" "$FS" "$TF" "$TCPF" >&2 ||
    die "build failed"

# --- peers --------------------------------------------------------------
have_molly=0
have_gnicus=0
if [ "${BENCH_NO_PEERS:-0}" != 1 ]; then
	missing=
	command -v molly-brown >/dev/null 2>&1 || missing="$missing molly-brown"
	[ -x /usr/sbin/gophernicus ] || missing="$missing gophernicus"
	[ -x /usr/sbin/nginx ] || missing="$missing nginx-light"
	if [ -n "$missing" ] && [ "$(id -u)" = 0 ] &&
	    command -v apt-get >/dev/null 2>&1; then
		say "bench: installing$missing (Debian packages)"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		    --no-install-recommends $missing >/dev/null 2>&1 || {
			apt-get update -q >/dev/null 2>&1
			DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			    --no-install-recommends $missing >/dev/null 2>&1
		}
		# The package enables a socket unit on port 70; we only
		# want the binary.
		if [ -d /run/systemd/system ]; then
			systemctl disable --now gophernicus.socket \
			    >/dev/null 2>&1 || true
		fi
	fi
	command -v molly-brown >/dev/null 2>&1 && have_molly=1
	[ -x /usr/sbin/gophernicus ] && { [ "$(id -u)" != 0 ] ||
	    command -v setpriv >/dev/null 2>&1; } && have_gnicus=1
	[ $have_molly = 1 ] || say "bench: molly-brown not installed; skipped"
	[ $have_gnicus = 1 ] || say "bench: gophernicus not installed; skipped"
fi

ulimit -n "$(ulimit -Hn)" 2>/dev/null || ulimit -n 65536 2>/dev/null || true

T=$(mktemp -d /tmp/capsuled-bench.XXXXXX) || die "mktemp failed"
chmod 755 "$T"
PIDS=
cleanup() {
	for p in $PIDS; do
		kill "$p" 2>/dev/null
	done
	for p in $PIDS; do
		i=0
		while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		kill -9 "$p" 2>/dev/null
	done
	if [ "${BENCH_KEEP:-0}" = 1 ]; then
		say "bench: kept $T"
	else
		rm -rf "$T"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Below the kernel's ephemeral range (32768- on Linux): the load
# generator leaves thousands of client ports in TIME_WAIT there, and a
# server started later could not bind one of them.
NEXT_PORT=$((20000 + $$ % 10000))
free_port() {	# free_port VAR: a port no socket uses, into VAR
	while ss -Htan "sport = :$NEXT_PORT" 2>/dev/null | grep -q .; do
		NEXT_PORT=$((NEXT_PORT + 1))
	done
	eval "$1=$NEXT_PORT"
	NEXT_PORT=$((NEXT_PORT + 1))
}

kv() {	# kv KEY LINE: the value of KEY in a key=value line
	printf '%s\n' "$2" | tr ' ' '\n' | sed -n "s/^$1=//p" | head -n 1
}

# stop_pid PID: SIGTERM, wait (bounded), forget it.
stop_pid() {
	kill "$1" 2>/dev/null
	i=0
	while kill -0 "$1" 2>/dev/null && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -9 "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	PIDS=$(printf '%s\n' $PIDS | grep -vx "$1" | tr '\n' ' ')
}

rss_of() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null; }

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# capsuled refuses to serve as root: drop to nobody after binding, as a
# real deployment would (the temp dir is world-readable).
USERLINE=
[ "$(id -u)" = 0 ] && USERLINE="user: nobody"

# write_conf NAME CAPSULE GEMINI-PORT GOPHER-PORT EXTRA-YAML
write_conf() {
	cat >"$T/$1.yaml" <<EOF
hostname: localhost
bind: [127.0.0.1]
gemini_port: $3
gopher_port: $4
capsule: $2
certs: $T/certs
workers: 2
max_connections: 4096
# One loopback client is the benchmark, not an abuser: no per-address
# limits (issue 7 turned them on by default).
max_connections_per_ip: 0
rate_limit: 0
log: $T/$1.log
log_level: info
access_log: true
sandbox: $([ "$SANDBOX" = off ] && echo false || echo true)
$USERLINE
$5
EOF
}

# start_capsuled NAME: start it with $T/NAME.yaml; sets SPID.
start_capsuled() {
	"$CAPSULED" --allow-root -c "$T/$1.yaml" </dev/null >/dev/null 2>&1 &
	SPID=$!
	PIDS="$PIDS $SPID"
}

wait_up() {	# wait_up PORT [gopher:]PATH: 0 once it answers (20 s at most)
	"$LG" --mode fetch --port "$1" --path "$2" --retry 20 \
	    --out /dev/null >/dev/null
}

# --- content --------------------------------------------------------------
say "bench: writing the archive ($T)"
"$GEN" -o "$T/capsule" -n 300 -s 7 >"$T/small.env" || die "genarchive failed"
P4K_FILE=$(sed -n 's/^post4k_file=//p' "$T/small.env")
# The 4 KB static file: the 4 KB post as the peers serve it, under files/,
# so that capsuled and the peer send the same bytes from a file.
mkdir -p "$T/capsule/files"
"$CAPSULED" --render "$T/capsule/posts/$P4K_FILE" \
    >"$T/capsule/files/bench-4k.gmi" || die "capsuled --render failed"
"$CAPSULED" --render "$T/capsule/posts/$P4K_FILE" --to gopher \
    >"$T/capsule/files/bench-4k.txt" || die "capsuled --render failed"

free_port CAP_GEM
free_port CAP_GPH
free_port CAP_HTTP
free_port CAP_SPARTAN
free_port CAP_NEX
free_port CAP_FINGER
# root: files serves the same files at "/" as well (docs/operating.md,
# "Static trees"): the -root- rows, a path the generated pages leave to
# the tree.  The web view and the small-web surfaces answer from the same
# capsuled.
write_conf main "$T/capsule" "$CAP_GEM" "$CAP_GPH" "root: files
http_port: $CAP_HTTP
spartan_port: $CAP_SPARTAN
nex_port: $CAP_NEX
finger_port: $CAP_FINGER"
start_capsuled main
CAP_PID=$SPID
wait_up "$CAP_GEM" /posts/bench-4k || die "capsuled did not come up"

if [ $have_molly = 1 ]; then
	free_port MOLLY_PORT
	mkdir -p "$T/molly/docs"
	openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
	    -keyout "$T/molly/key.pem" -out "$T/molly/cert.pem" -days 3650 \
	    -subj /CN=localhost -addext subjectAltName=DNS:localhost \
	    >/dev/null 2>&1 || die "openssl req failed"
	"$CAPSULED" --render "$T/capsule/posts/$P4K_FILE" \
	    >"$T/molly/docs/bench-4k.gmi" || die "capsuled --render failed"
	cat >"$T/molly/molly.conf" <<EOF
Port = $MOLLY_PORT
Hostname = "localhost"
CertPath = "$T/molly/cert.pem"
KeyPath = "$T/molly/key.pem"
DocBase = "$T/molly/docs"
AccessLog = "$T/molly/access.log"
ErrorLog = "$T/molly/error.log"
EOF
	molly-brown -c "$T/molly/molly.conf" </dev/null >/dev/null 2>&1 &
	MOLLY_PID=$!
	PIDS="$PIDS $MOLLY_PID"
	wait_up "$MOLLY_PORT" /bench-4k.gmi || {
		say "bench: molly-brown did not come up; skipped"
		have_molly=0
	}
fi

if [ $have_gnicus = 1 ]; then
	free_port GN_PORT
	mkdir -p "$T/gopher"
	"$CAPSULED" --render "$T/capsule/posts/$P4K_FILE" --to gopher \
	    >"$T/gopher/bench-4k.txt" || die "capsuled --render failed"
	# The same home menu capsuled serves, as a gophermap.
	"$LG" --mode fetch --port "$CAP_GPH" --path gopher:/ \
	    --out "$T/gopher/gophermap.in" >/dev/null || die "menu fetch failed"
	sed '/^\.\r\{0,1\}$/d' "$T/gopher/gophermap.in" >"$T/gopher/gophermap"
	rm -f "$T/gopher/gophermap.in"
	chmod 755 "$T/gopher"
	chmod 644 "$T/gopher"/*
	# Throttling limits raised: one client making thousands of requests
	# is the benchmark, not an abuser.  No footer, like capsuled.
	# gophernicus refuses to run as root.
	GN_AS=
	[ "$(id -u)" = 0 ] &&
	    GN_AS="setpriv --reuid=nobody --regid=nogroup --clear-groups"
	$GN_AS "$FS" -p "$GN_PORT" -- /usr/sbin/gophernicus -h localhost \
	    -p "$GN_PORT" -r "$T/gopher" -nf -ns -nv -i 1000000000 \
	    -k 1000000000 </dev/null >/dev/null 2>&1 &
	GN_PID=$!
	PIDS="$PIDS $GN_PID"
	wait_up "$GN_PORT" gopher:/bench-4k.txt || {
		say "bench: gophernicus did not come up; skipped"
		have_gnicus=0
	}
fi

# The kernel's floor for Gopher: accept, read, write the same number of
# bytes as capsuled's answer, close; nothing else (bench/tcpfloor.c).
free_port TCPF_PORT
"$LG" --mode fetch --port "$CAP_GPH" --path gopher:/posts/bench-4k \
    --out "$T/bench-4k.gph" >/dev/null || die "gopher fetch failed"
"$TCPF" --port "$TCPF_PORT" --size "$(wc -c <"$T/bench-4k.gph")" \
    </dev/null >/dev/null 2>&1 &
TCPF_PID=$!
PIDS="$PIDS $TCPF_PID"
wait_up "$TCPF_PORT" gopher:/x || die "tcpfloor did not come up"

# --- the web view against nginx serving the same page from a file -----------
# The 4 KB post as capsuled's web view renders it, written to a file that
# Debian's nginx serves (one process, master_process off, so that its CPU
# is the process's; access log on, as capsuled's is).  The rows compare
# CPU per request with a connection a request and with kept ones.
have_nginx=0
if [ "${BENCH_NO_PEERS:-0}" != 1 ] && [ -x /usr/sbin/nginx ] &&
    command -v curl >/dev/null 2>&1; then
	free_port NGX_PORT
	mkdir -p "$T/nginx" "$T/web/posts"
	curl -s -m 10 -o "$T/web/posts/bench-4k" \
	    "http://127.0.0.1:$CAP_HTTP/posts/bench-4k" ||
	    die "the web view's post fetch failed"
	chmod -R a+rX "$T/web"
	cat >"$T/nginx/nginx.conf" <<EOF
daemon off;
master_process off;
worker_processes 1;
error_log $T/nginx/error.log;
pid $T/nginx/nginx.pid;
events { worker_connections 4096; }
http {
	access_log $T/nginx/access.log;
	default_type text/html;
	etag on;
	keepalive_requests 100;
	server { listen 127.0.0.1:$NGX_PORT; root $T/web; }
}
EOF
	/usr/sbin/nginx -c "$T/nginx/nginx.conf" -p "$T/nginx" </dev/null \
	    >/dev/null 2>&1 &
	NGX_PID=$!
	PIDS="$PIDS $NGX_PID"
	i=0
	while ! curl -s -m 1 -o /dev/null \
	    "http://127.0.0.1:$NGX_PORT/posts/bench-4k" && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if [ $i -lt 50 ]; then have_nginx=1; else
		say "bench: nginx did not come up; the web rows have no peer"; fi
else
	say "bench: nginx (nginx-light) not installed; the web rows have no peer"
fi

# The same floor for each small-web surface, answering as many bytes as
# capsuled does there (Spartan's status line is 30 of them): the body's
# length from one request of loadgen in that mode.
small_floor() {	# small_floor NAME MODE PORT PATH EXTRA-BYTES: NAME_PORT, NAME_PID
	_len=$(kv body_len "$("$LG" --mode "$2" --port "$3" --path "$4" \
	    --conns 1 --requests 1 --duration 5)")
	[ -n "$_len" ] && [ "$_len" -gt 0 ] || die "$2 $4: no answer"
	free_port _fport
	"$TCPF" --port "$_fport" --size $((_len + $5)) </dev/null \
	    >/dev/null 2>&1 &
	_fpid=$!
	PIDS="$PIDS $_fpid"
	wait_up "$_fport" gopher:/x || die "tcpfloor ($2) did not come up"
	eval "$1_PORT=$_fport $1_PID=$_fpid"
}
small_floor SPF spartan "$CAP_SPARTAN" /posts/bench-4k 30
small_floor NEXF nex "$CAP_NEX" /posts/bench-4k 0
small_floor FINGF finger "$CAP_FINGER" / 0

# --- apps: one program as CGI and behind fcgiwrap (FastCGI) ---------------
# A second capsuled answers /cgi-bin/hello by running it and /fcgi/ by
# asking fcgiwrap to run it: the rows compare capsuled's own CPU per
# request (the program's and fcgiwrap's are not counted).
have_apps=0
if command -v fcgiwrap >/dev/null 2>&1; then
	mkdir -p "$T/capsule/cgi-bin"
	printf '#!/bin/sh\nprintf "20 text/gemini\\r\\n# hello\\n"\n' \
	    >"$T/capsule/cgi-bin/hello"
	chmod 755 "$T/capsule/cgi-bin" "$T/capsule/cgi-bin/hello"
	setsid fcgiwrap -c 8 -s "unix:$T/fcgi.sock" </dev/null >/dev/null 2>&1 &
	FW_PID=$!
	PIDS="$PIDS $FW_PID"
	i=0
	while [ ! -S "$T/fcgi.sock" ] && [ $i -lt 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	chmod 666 "$T/fcgi.sock" 2>/dev/null
	free_port APP_GEM
	free_port APP_GPH
	write_conf apps "$T/capsule" "$APP_GEM" "$APP_GPH" "cgi: cgi-bin
cgi_max_programs: 64
fastcgi:
  - prefix: /fcgi
    socket: 'unix:$T/fcgi.sock'
    params: {SCRIPT_FILENAME: '$T/capsule/cgi-bin/hello'}
    max_connections: 4"
	start_capsuled apps
	APP_PID=$SPID
	if wait_up "$APP_GEM" /fcgi/ && wait_up "$APP_GEM" /cgi-bin/hello; then
		have_apps=1
	else
		say "bench: the CGI and FastCGI capsuled did not answer; skipped"
	fi
else
	say "bench: fcgiwrap not installed; the FastCGI row is skipped"
fi

# --- request scenarios, alternating servers --------------------------------
R=$T/results
: >"$R"
run() {	# run SCENARIO SERVER PID LOADGEN-ARGS...
	sc=$1 sv=$2 pid=$3
	shift 3
	out=$("$LG" --pid "$pid" --threads "$THREADS" "$@" 2>"$T/lg.err")
	if [ -z "$out" ]; then
		out="ok=0 errors=1 $(head -c 200 "$T/lg.err" | tr ' \n' '_ ')"
	fi
	printf '%s %s %s\n' "$sc" "$sv" "$out" >>"$R"
	say "  $sc $sv: cpu/req $(kv cpu_us_per_req "$out") us," \
	    "$(kv rps "$out") req/s, p99 $(kv p99_us "$out") us," \
	    "errors $(kv errors "$out")"
}

gem() {	# gem SCENARIO MODE CONNS [CAPSULED-PATH]
	run "$1" capsuled "$CAP_PID" --mode "$2" --port "$CAP_GEM" \
	    --path "${4:-/posts/bench-4k}" --conns "$3" --requests $GEM_N \
	    --duration $GEM_S --warmup 200 --min-len 3000
	[ $have_molly = 1 ] && run "$1" molly-brown "$MOLLY_PID" --mode "$2" \
	    --port "$MOLLY_PORT" --path /bench-4k.gmi --conns "$3" \
	    --requests $GEM_N --duration $GEM_S --warmup 200 --min-len 3000
	:
}

gph() {	# gph SCENARIO CAPSULED-PATH GOPHERNICUS-PATH [--menu]
	run "$1" capsuled "$CAP_PID" --mode gopher --port "$CAP_GPH" \
	    --path "$2" --conns 32 --requests $GPH_N --duration $GPH_S \
	    --warmup 500 --min-len 1000 ${4:-}
	[ $have_gnicus = 1 ] && run "$1" gophernicus "$GN_PID" --mode gopher \
	    --port "$GN_PORT" --path "$3" --conns 32 --requests $PEER_GPH_N \
	    --duration $GPH_S --warmup 100 --min-len 1000 ${4:-}
	:
}

web() {	# web SCENARIO MODE
	run "$1" capsuled "$CAP_PID" --mode "$2" --port "$CAP_HTTP" \
	    --path /posts/bench-4k --conns 32 --requests $GPH_N \
	    --duration $GPH_S --warmup 500 --min-len 3000
	[ $have_nginx = 1 ] && run "$1" nginx "$NGX_PID" --mode "$2" \
	    --port "$NGX_PORT" --path /posts/bench-4k --conns 32 \
	    --requests $GPH_N --duration $GPH_S --warmup 500 --min-len 3000
	:
}

# small SCENARIO MODE PORT PATH MIN-LEN FLOOR-PORT FLOOR-PID: capsuled on
# a small-web surface, then its floor (asked as Gopher: any bytes do).
small() {
	run "$1" capsuled "$CAP_PID" --mode "$2" --port "$3" --path "$4" \
	    --conns 32 --requests $GPH_N --duration $GPH_S --warmup 500 \
	    --min-len "$5"
	run "tcp-floor-$1" tcpfloor "$7" --mode gopher --port "$6" --path /x \
	    --conns 32 --requests $GPH_N --duration $GPH_S --warmup 500 \
	    --min-len "$5"
}

LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
r=1
while [ $r -le "$ROUNDS" ]; do
	say "bench: round $r of $ROUNDS"
	gem gemini-4k-full-c32 gemini 32
	gem gemini-4k-full-c256 gemini 256
	gem gemini-4k-resume-c32 resume 32
	gem gemini-4k-file-c32 gemini 32 /files/bench-4k.gmi
	gem gemini-4k-root-c32 gemini 32 /bench-4k.gmi
	gph gopher-menu-c32 / / --menu
	gph gopher-4k-c32 /posts/bench-4k /bench-4k.txt
	gph gopher-4k-file-c32 /files/bench-4k.txt /bench-4k.txt
	gph gopher-4k-root-c32 /bench-4k.txt /bench-4k.txt
	web web-4k-c32 http
	web web-4k-keep-c32 http-keep
	run tcp-floor-4k-c32 tcpfloor "$TCPF_PID" --mode gopher \
	    --port "$TCPF_PORT" --path /x --conns 32 --requests $GPH_N \
	    --duration $GPH_S --warmup 500 --min-len 1000
	small spartan-4k-c32 spartan "$CAP_SPARTAN" /posts/bench-4k 1000 \
	    "$SPF_PORT" "$SPF_PID"
	small nex-4k-c32 nex "$CAP_NEX" /posts/bench-4k 1000 "$NEXF_PORT" \
	    "$NEXF_PID"
	small finger-plan-c32 finger "$CAP_FINGER" / 200 "$FINGF_PORT" \
	    "$FINGF_PID"
	if [ $have_apps = 1 ]; then
		run app-cgi-c8 capsuled "$APP_PID" --mode gemini \
		    --port "$APP_GEM" --path /cgi-bin/hello --conns 8 \
		    --requests $((GEM_N / 4)) --duration $GEM_S --warmup 20 \
		    --min-len 5
		run app-fastcgi-c8 capsuled "$APP_PID" --mode gemini \
		    --port "$APP_GEM" --path /fcgi/ --conns 8 \
		    --requests $((GEM_N / 4)) --duration $GEM_S --warmup 20 \
		    --min-len 5
	fi
	r=$((r + 1))
done
# fcgiwrap's children are in its group: stopped with it.
[ -n "${FW_PID:-}" ] && kill -- -"$FW_PID" 2>/dev/null

# --- idle connections --------------------------------------------------------
# Extra rows: "scenario server cpu rps p50 p99 max errors rss vs target"
X=$T/extra
: >"$X"

# --- the floor: capsuled's TLS in memory, no sockets -------------------------
# The same SSL_CTX and tlsconn code, both ends in one thread: what OpenSSL
# itself costs per exchange here, which no server can go below.
say "bench: TLS in memory (tlsfloor)"
for how in full resume; do
	flag=
	[ $how = resume ] && flag=--resume
	out=$("$TF" --certs "$T/certs" --count 2000 $flag) ||
	    say "bench: tlsfloor $how failed"
	eval "FLOOR_$how=\$(kv server_cpu_us_per_req \"\$out\")"
	printf 'tls-in-memory-%s\tcapsuled\t%s\t-\t-\t-\t-\t%s\t-\t-\t%s\n' \
	    "$how" "$(kv server_cpu_us_per_req "$out")" \
	    "$([ -n "$out" ] && echo 0 || echo 1)" \
	    "OpenSSL + tlsconn, no sockets: the floor for gemini-4k-$how" >>"$X"
done
# The same for a connection kept after its handshake: heap in use per
# connection, the floor for idle-1000-tls (which adds struct conn, the
# kernel's part of RSS and malloc's free memory).
out=$("$TF" --certs "$T/certs" --count 1000 --idle) ||
    say "bench: tlsfloor idle failed"
FLOOR_IDLE_KB=$(awk -v b="$(kv heap_per_conn_bytes "$out")" \
    'BEGIN { printf "%.2f", b / 1024 }')
printf 'tls-in-memory-idle\tcapsuled\t-\t-\t-\t-\t-\t%s\t-\t%s KB/conn\t%s\n' \
    "$([ -n "$out" ] && echo 0 || echo 1)" \
    "$(awk -v b="$(kv heap_per_conn_bytes "$out")" \
    'BEGIN { printf "%.2f", b / 1024 }')" \
    "OpenSSL + tlsconn after the handshake, heap in use: the floor for idle-1000-tls" >>"$X"
say "bench: idle connections"
# A fresh server for each measurement, so that memory freed by earlier
# scenarios does not hide the cost.  "tcp": connect and say nothing;
# "tls": complete the TLS 1.3 handshake, then say nothing.
idle_capsuled() {	# idle_capsuled tcp|tls
	free_port IDLE_GEM
	free_port IDLE_GPH
	write_conf idle "$T/capsule" "$IDLE_GEM" "$IDLE_GPH" \
	    "request_timeout: 2"
	start_capsuled idle
	IDLE_PID=$SPID
	wait_up "$IDLE_GEM" / || die "capsuled (idle) did not come up"
	out=$("$LG" --mode idle --path "$1" --port "$IDLE_GEM" \
	    --idle-conns 1000 --idle-wait 6 --pid "$IDLE_PID")
	per=$(kv rss_per_conn_kb "$out")
	closed=$(kv closed_by_server "$out")
	cmin=$(kv close_min_ms "$out")
	cmax=$(kv close_max_ms "$out")
	est=$(kv established "$out")
	# TCP: 12 KB.  TLS: OpenSSL's own state after the handshake is more
	# than 12 KB here, so the floor measured above (tlsfloor --idle)
	# plus 3 KB (struct conn, malloc's and the kernel's share).
	lim=12
	[ "$1" = tls ] && lim=$(awk -v f="${FLOOR_IDLE_KB:-0}" \
	    'BEGIN { printf "%.1f", f + 3 }')
	verdict=$(awk -v p="$per" -v c="$closed" -v lo="$cmin" -v hi="$cmax" \
	    -v lim="$lim" 'BEGIN { ok = p <= lim && lim > 3 && c == 1000 &&
		lo >= 1900 && hi <= 3500
		print ok ? "PASS" : "FAIL" }')
	what="<=12 KB"
	[ "$1" = tls ] && what="<=floor+3 KB ($lim)"
	printf 'idle-1000-%s\tcapsuled\t-\t-\t-\t-\t-\t%s\t%s\t%s KB/conn\t%s and closed at the 2 s timeout: %s (closed %s/1000 at %s-%s ms)\n' \
	    "$1" $((1000 - ${est:-0})) "$(kv rss_after_kb "$out")" "$per" \
	    "$what" "$verdict" "$closed" "$cmin" "$cmax" >>"$X"
	stop_pid "$IDLE_PID"
}
idle_molly() {		# idle_molly tcp|tls
	free_port IDLE_MOLLY
	sed "s/^Port = .*/Port = $IDLE_MOLLY/" "$T/molly/molly.conf" \
	    >"$T/molly/idle.conf"
	molly-brown -c "$T/molly/idle.conf" </dev/null >/dev/null 2>&1 &
	IDLE_PID=$!
	PIDS="$PIDS $IDLE_PID"
	wait_up "$IDLE_MOLLY" /bench-4k.gmi || { stop_pid "$IDLE_PID"; return; }
	out=$("$LG" --mode idle --path "$1" --port "$IDLE_MOLLY" \
	    --idle-conns 1000 --idle-wait 1 --pid "$IDLE_PID")
	est=$(kv established "$out")
	printf 'idle-1000-%s\tmolly-brown\t-\t-\t-\t-\t-\t%s\t%s\t%s KB/conn\t(closed by the server within 1 s: %s)\n' \
	    "$1" $((1000 - ${est:-0})) "$(kv rss_after_kb "$out")" \
	    "$(kv rss_per_conn_kb "$out")" "$(kv closed_by_server "$out")" \
	    >>"$X"
	stop_pid "$IDLE_PID"
}
for how in tcp tls; do
	idle_capsuled $how
	[ $have_molly = 1 ] && idle_molly $how
done

# --- the 10,000-post archive -------------------------------------------------
if [ "${BENCH_NO_BIG:-0}" != 1 ]; then
	say "bench: 10,000-post archive"
	"$GEN" -o "$T/big" -n 10000 -s 11 >"$T/big.env" ||
	    die "genarchive failed"
	MD=$(sed -n 's/^md_bytes=//p' "$T/big.env")
	BT=$(sed -n 's/^biggest_tag=//p' "$T/big.env")
	BTN=$(sed -n 's/^biggest_tag_posts=//p' "$T/big.env")
	free_port BIG_GEM
	free_port BIG_GPH
	write_conf big "$T/big" "$BIG_GEM" "$BIG_GPH" ""
	# capsuled --check: read, parse and index everything, then exit.
	t0=$(now_ms)
	"$CAPSULED" --check -c "$T/big.yaml" >/dev/null 2>&1 ||
	    say "bench: capsuled --check reported problems (see $T/big.yaml)"
	CHECK_MS=$(($(now_ms) - t0))
	# Start to the first 200 (a small post: its render is cheap).
	t0=$(now_ms)
	start_capsuled big
	BIG_PID=$SPID
	"$LG" --mode fetch --port "$BIG_GEM" --path /posts/bench-4k --retry 30 \
	    --out /dev/null >/dev/null || die "10k archive: no first 200"
	FIRST_MS=$(($(now_ms) - t0))
	RSS_LOAD=$(rss_of "$BIG_PID")
	awk -v c="$CHECK_MS" -v f="$FIRST_MS" -v md="$MD" 'BEGIN {
		printf "10k-load\tcapsuled\t-\t-\t-\t-\t-\t0\t-\t%.1f MB md\t", md / 1e6
		printf "--check %d ms, start to first 200 %d ms (<1 s: %s)\n", \
		    c, f, (c < 1000 && f < 1000) ? "PASS" : "FAIL" }' >>"$X"
	awk -v r="$RSS_LOAD" -v md="$MD" 'BEGIN {
		x = r * 1024 / md
		printf "10k-rss-after-load\tcapsuled\t-\t-\t-\t-\t-\t0\t%d\t%.2fx md\t", r, x
		printf "RSS < 2x Markdown: %s\n", x < 2 ? "PASS" : "FAIL" }' >>"$X"

	# First request (renders) against the same request cached: the
	# latency difference, and the server CPU difference (schedstat),
	# which a busy machine blurs less; the verdict uses the CPU one.
	first() {	# first SCENARIO PORT PATH LIMIT-MS
		out=$("$LG" --mode first --port "$2" --path "$3" --repeat 10 \
		    --warm / --pid "$BIG_PID")
		awk -v sc="$1" -v f="$(kv first_us "$out")" \
		    -v c="$(kv cached_p50_us "$out")" -v e="$(kv errors "$out")" \
		    -v fc="$(kv first_cpu_us "$out")" \
		    -v cc="$(kv cached_cpu_p50_us "$out")" \
		    -v b="$(kv bytes "$out")" -v lim="$4" 'BEGIN {
			r = (fc - cc) / 1000
			printf "%s\tcapsuled\t%.0f\t-\t%.2f\t-\t%.2f\t%d\t-\t%d bytes\t", \
			    sc, fc, c / 1000, f / 1000, e == "" ? 1 : e, b
			printf "render: cpu %.2f ms (%.0f-%.0f us), wall %.2f ms; <%s ms: %s\n", \
			    r, fc, cc, (f - c) / 1000, lim, (r < lim && e == 0) ? "PASS" : "FAIL" }' >>"$X"
	}
	# The 20 KB post: a median over seven such posts, each rendered
	# for the first time (one sample is at the mercy of the machine).
	# The renderer has already made a post on Gemini (bench-4k, at
	# start); on Gopher it does so here first, so neither figure holds
	# the once-per-process cost of a first Markdown render.
	"$LG" --mode fetch --port "$BIG_GPH" --path gopher:/posts/bench-4k \
	    --out /dev/null >/dev/null || say "bench: gopher bench-4k failed"
	# The render floor: the same seven posts rendered in one process,
	# each after 20 ms asleep (tlsfloor --render); a first render in
	# the server may cost twice that (the request, links resolved
	# against the archive, the page around the post, the thread pool),
	# not a fixed 1 ms, which this machine's idle CPU alone can exceed.
	out=$("$TF" --render "$T"/big/posts/*-bench-20k*.md) ||
	    say "bench: tlsfloor --render failed"
	RF_GMI=$(kv gmi_render_us "$out")
	RF_GPH=$(kv gph_render_us "$out")
	printf 'render-floor-20k\tcapsuled\t-\t-\t-\t-\t-\t%s\t-\t-\tgemtext %s us, Gopher %s us (median of 7, in one process): the floor for 10k-first-*-20k-post\n' \
	    "$([ -n "$out" ] && echo 0 || echo 1)" "${RF_GMI:--}" \
	    "${RF_GPH:--}" >>"$X"
	first3() {	# first3 SCENARIO PORT PREFIX LIMIT-MS
		outs=""
		for p in bench-20k bench-20k-2 bench-20k-3 bench-20k-4 \
		    bench-20k-5 bench-20k-6 bench-20k-7; do
			out=$("$LG" --mode first --port "$2" --path "$3$p" \
			    --repeat 10 --warm / --pid "$BIG_PID")
			outs="$outs$(kv first_cpu_us "$out") $(kv cached_cpu_p50_us "$out") $(kv errors "$out") $(kv first_us "$out") $(kv cached_p50_us "$out") $(kv bytes "$out")
"
		done
		printf '%s' "$outs" | awk -v sc="$1" -v lim="$4" '
		BEGIN { n = 0 }	# r[n] before n++: n must be 0, not ""
		# A CPU figure of -1: the server threads could not be read.
		NF == 6 && ($1 < 0 || $2 < 0) { e++ }
		NF == 6 { r[n] = ($1 - $2) / 1000; w[n] = ($4 - $5) / 1000
			raw = raw sprintf("%s%.2f", n ? ", " : "", r[n])
			fc[n] = $1; cc[n] = $2; f[n] = $4; c[n] = $5; b[n] = $6
			e += ($3 == "" ? 1 : $3); n++ }
		END {
			if (n < 7) { print sc "\tcapsuled\t-\t-\t-\t-\t-\t1\t-\t-\trender: no result: FAIL"; exit }
			for (i = 0; i < n; i++) for (j = i + 1; j < n; j++)
				if (r[j] < r[i]) { t = r[i]; r[i] = r[j]; r[j] = t
				    t = fc[i]; fc[i] = fc[j]; fc[j] = t
				    t = cc[i]; cc[i] = cc[j]; cc[j] = t
				    t = f[i]; f[i] = f[j]; f[j] = t
				    t = c[i]; c[i] = c[j]; c[j] = t
				    t = w[i]; w[i] = w[j]; w[j] = t }
			m = int(n / 2)
			printf "%s\tcapsuled\t%.0f\t-\t%.2f\t-\t%.2f\t%d\t-\t%d bytes\t", \
			    sc, fc[m], c[m] / 1000, f[m] / 1000, e, b[m]
			printf "render: cpu %.2f ms median of %d (%s), wall %.2f ms; <%s ms: %s\n", \
			    r[m], n, raw, w[m], lim, (r[m] < lim && e == 0) ? "PASS" : "FAIL" }' >>"$X"
	}
	first3 10k-first-gmi-20k-post "$BIG_GEM" /posts/ \
	    "$(awk -v f="${RF_GMI:-0}" 'BEGIN { printf "%.2f", 2 * f / 1000 }')"
	first3 10k-first-gph-20k-post "$BIG_GPH" gopher:/posts/ \
	    "$(awk -v f="${RF_GPH:-0}" 'BEGIN { printf "%.2f", 2 * f / 1000 }')"
	first 10k-first-gmi-posts "$BIG_GEM" /posts/ 50
	first 10k-first-gph-posts "$BIG_GPH" gopher:/posts/ 50
	first 10k-first-gmi-tags "$BIG_GEM" /tags/ 50
	first 10k-first-gph-tags "$BIG_GPH" gopher:/tags/ 50
	first "10k-first-gmi-tag($BTN)" "$BIG_GEM" "/tags/$BT/" 50
	first "10k-first-gph-tag($BTN)" "$BIG_GPH" "gopher:/tags/$BT/" 50

	run 10k-gopher-4k-c32 capsuled "$BIG_PID" --mode gopher \
	    --port "$BIG_GPH" --path /posts/bench-4k --conns 32 \
	    --requests $GPH_N --duration $GPH_S --warmup 500 --min-len 1000
	run 10k-gemini-4k-full-c32 capsuled "$BIG_PID" --mode gemini \
	    --port "$BIG_GEM" --path /posts/bench-4k --conns 32 \
	    --requests $GEM_N --duration $GEM_S --warmup 200 --min-len 3000
	stop_pid "$BIG_PID"
fi

# --- 1,000 capsules ------------------------------------------------------------
# Served as as many host names: capsule 0 is the top-level host, capsule
# i the host ci.test.  Each edit is a new post file, written by loadgen,
# which then asks the host's / over Gemini every 2 ms until its title
# shows: save to live, the debounce (20 ms here) included.  A server of
# one capsule (a copy of capsule 0) runs beside the big one, and their
# edits alternate, so that the machine's load weighs on both alike.
live_ms() {	# live_ms PORT HOST FILE NEEDLE: one edit's ms, or -1
	"$LG" --mode live --port "$1" --host "$2" --path / --save "$3" \
	    --needle "$4" | awk '{ for (i = 1; i <= NF; i++)
		if ($i ~ /^live_us=/) { sub(/^live_us=/, "", $i); v = $i } }
		END { if (v == "") print -1; else printf "%.1f\n", v / 1000 }'
}
median() {	# median: of the numbers on stdin, one a line (-1: too few)
	sort -n | awk '{ v[NR] = $1 } END {
		if (NR < 1 || v[1] < 0) print -1; else print v[int((NR + 1) / 2)] }'
}
if [ "${BENCH_NO_MANY:-0}" != 1 ]; then
	NCAP=${BENCH_CAPSULES:-1000}
	say "bench: $NCAP capsules of 20 posts"
	mkdir "$T/many"
	MANY_MD=0
	i=0
	while [ $i -lt "$NCAP" ]; do
		"$GEN" -p -o "$T/many/c$i" -n 20 -s $((i + 1)) >"$T/many.env" ||
		    die "genarchive failed"
		MANY_MD=$((MANY_MD + $(sed -n 's/^md_bytes=//p' "$T/many.env")))
		i=$((i + 1))
	done
	cp -R "$T/many/c0" "$T/one"
	free_port ONE_GEM
	free_port ONE_GPH
	write_conf one "$T/one" "$ONE_GEM" "$ONE_GPH" "watch_debounce: 20ms"
	start_capsuled one
	ONE_PID=$SPID
	wait_up "$ONE_GEM" / || die "one capsule: no first 200"
	free_port MANY_GEM
	free_port MANY_GPH
	{
		echo "watch_debounce: 20ms"
		echo "hosts:"
		i=1
		while [ $i -lt "$NCAP" ]; do
			printf '  - hostname: c%d.test\n    capsule: %s\n' \
			    $i "$T/many/c$i"
			i=$((i + 1))
		done
	} >"$T/many-hosts.yaml"
	write_conf many "$T/many/c0" "$MANY_GEM" "$MANY_GPH" \
	    "$(cat "$T/many-hosts.yaml")"
	# The hosts' certificates are made at the first start: not timed.
	start_capsuled many
	wait_up "$MANY_GEM" / || die "$NCAP capsules: no first 200"
	stop_pid "$SPID"
	t0=$(now_ms)
	start_capsuled many
	MANY_PID=$SPID
	"$LG" --mode fetch --port "$MANY_GEM" --path /posts/bench-4k --retry 60 \
	    --out /dev/null >/dev/null || die "$NCAP capsules: no first 200"
	MANY_LOAD=$(($(now_ms) - t0))
	# Its CPU time so far (all threads): what a busy machine blurs less.
	MANY_CPU=$(awk -v t="$(getconf CLK_TCK)" '{ printf "%d", ($14 + $15) * 1000 / t }' \
	    "/proc/$MANY_PID/stat")
	sleep 1		# the loader's frees after the first generation
	MANY_RSS=$(rss_of "$MANY_PID")
	MID=$((NCAP / 2))
	: >"$T/live1"
	: >"$T/liven"
	for k in 1 2 3 4 5 6 7; do
		live_ms "$ONE_GEM" localhost "$T/one/posts/2026-01-0$k-live-$k.md" \
		    "Live edit $k of one" >>"$T/live1"
		sleep 0.2
		live_ms "$MANY_GEM" "c$MID.test" \
		    "$T/many/c$MID/posts/2026-01-0$k-live-$k.md" \
		    "Live edit $k of many" >>"$T/liven"
		sleep 0.2
	done
	LIVE1=$(median <"$T/live1")
	LIVEN=$(median <"$T/liven")
	stop_pid "$MANY_PID"
	stop_pid "$ONE_PID"
	awk -v n="$NCAP" -v ms="$MANY_LOAD" -v md="$MANY_MD" -v cpu="$MANY_CPU" 'BEGIN {
		printf "%d-capsules-load\tcapsuled\t-\t-\t-\t-\t-\t0\t-\t%.1f MB md\t", n, md / 1e6
		printf "start to first 200, 2 workers: %d ms (cpu %d ms); <2 s: %s\n", \
		    ms, cpu, ms < 2000 ? "PASS" : "FAIL" }' >>"$X"
	awk -v n="$NCAP" -v r="$MANY_RSS" -v md="$MANY_MD" 'BEGIN {
		lim = 2 * md + 20e6
		printf "%d-capsules-rss\tcapsuled\t-\t-\t-\t-\t-\t0\t%d\t%.2fx md\t", n, r, r * 1024 / md
		printf "RSS < 2x Markdown + 20 MB (%.0f MB): %s\n", lim / 1e6, \
		    r * 1024 < lim ? "PASS" : "FAIL" }' >>"$X"
	awk -v n="$NCAP" -v a="$LIVE1" -v b="$LIVEN" 'BEGIN {
		ok = a > 0 && b > 0 && b < 100 && b <= 1.2 * a
		printf "%d-capsules-save-to-live\tcapsuled\t-\t-\t-\t-\t-\t%d\t-\t%.1f vs %.1f ms\t", \
		    n, (a > 0 && b > 0) ? 0 : 1, b, a
		printf "median of 7, debounce 20 ms: %d loaded %.1f ms, 1 loaded %.1f ms; <100 ms and <1.2x: %s\n", \
		    n, b, a, ok ? "PASS" : "FAIL" }' >>"$X"
fi

# --- the table ---------------------------------------------------------------
LOAD1=$(cut -d' ' -f1-3 /proc/loadavg)
printf '\ncapsuled bench, %s: %s cores, load average %s at start, %s at end;\n' \
    "$(date -u +%Y-%m-%dT%H:%MZ)" "$(nproc)" "$LOAD0" "$LOAD1"
printf '%s rounds, medians of the rounds (max: the largest); latency in ms; RSS peak in KiB\n\n' \
    "$ROUNDS"
awk -v extra="$X" -v ff="${FLOOR_full:-0}" -v fr="${FLOOR_resume:-0}" '
function med(s,    n, a, i, j, t) {
	n = split(s, a, ",")
	for (i = 2; i <= n; i++) {
		t = a[i] + 0
		for (j = i - 1; j > 0 && a[j] + 0 > t; j--)
			a[j + 1] = a[j]
		a[j + 1] = t
	}
	if (n == 0)
		return -1
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function add(arr, k, x) { arr[k] = arr[k] == "" ? x : arr[k] "," x }
function row(a, b, c, d, e, f, g, h, i, j, k) {
	printf "%-27s %-12s %8s %8s %7s %7s %8s %6s %7s  %-17s %s\n", \
	    a, b, c, d, e, f, g, h, i, j, k
}
function verdict(ok) { return ok ? "PASS" : "FAIL" }
{
	k = $1 SUBSEP $2
	if (!(k in seen)) {
		seen[k] = 1
		order[++n] = k
		sc[n] = $1
		sv[n] = $2
	}
	delete v
	for (i = 3; i <= NF; i++) {
		p = index($i, "=")
		if (p > 0)
			v[substr($i, 1, p - 1)] = substr($i, p + 1)
	}
	add(cpu, k, v["cpu_us_per_req"] + 0)
	add(rps, k, v["rps"] + 0)
	add(p50, k, v["p50_us"] + 0)
	add(p99, k, v["p99_us"] + 0)
	if (v["max_us"] + 0 > mx[k])
		mx[k] = v["max_us"] + 0
	if (v["rss_kb"] + 0 > rss[k])
		rss[k] = v["rss_kb"] + 0
	err[k] += v["errors"] + 0
}
END {
	post["gemini-4k-file-c32"] = "gemini-4k-full-c32"
	post["gopher-4k-file-c32"] = "gopher-4k-c32"
	post["gemini-4k-root-c32"] = "gemini-4k-full-c32"
	post["gopher-4k-root-c32"] = "gopher-4k-c32"
	row("scenario", "server", "cpu_us/r", "req/s", "p50", "p99", "max", \
	    "errors", "rss_kb", "capsuled/peer", "target")
	for (i = 1; i <= n; i++) {
		k = order[i]
		C[k] = med(cpu[k]); RPS[k] = med(rps[k]); P99[k] = med(p99[k])
	}
	for (i = 1; i <= n; i++) {
		k = order[i]
		c = sc[i] SUBSEP "capsuled"
		vs = "-"; tg = "-"
		if (sv[i] != "capsuled" && (c in C) && C[k] > 0) {
			vs = sprintf("cpu %.2fx", C[c] / C[k])
			if (sc[i] ~ /c256/ && P99[k] > 0)
				vs = vs sprintf(" p99 %.2fx", P99[c] / P99[k])
			if (sc[i] ~ /^gopher/ && RPS[k] > 0)
				vs = vs sprintf(" rps %.1fx", RPS[c] / RPS[k])
			# 0.7x, 0.6x and a p99 of 0.5x molly-brown are below
			# what OpenSSL and the kernel cost here (and p99 in a
			# closed loop is the load generator): shown, not
			# judged; the capsuled row has the target of the floor.
			if (sc[i] ~ /^gemini-4k-(full|resume)/)
				tg = "(no target: see the capsuled row)"
			else if (sc[i] ~ /^gopher/)
				tg = "rps >= 10x: " verdict(RPS[c] >= 10 * RPS[k])
			else if (sc[i] ~ /^web-/)
				tg = "cpu <= 1.2x: " verdict(C[c] <= 1.2 * C[k])
			if (sc[i] == "gemini-4k-file-c32" ||
			    sc[i] == "gemini-4k-root-c32")
				tg = "cpu <= 0.9x: " verdict(C[c] <= 0.9 * C[k])
		} else if (sv[i] == "capsuled" && sc[i] ~ /-(file|root)-/ &&
		    (post[sc[i]] SUBSEP "capsuled") in C) {
			# A static file against the post of the same size.
			p = C[post[sc[i]] SUBSEP "capsuled"]
			vs = sprintf("post %.2fx", C[k] / p)
			tg = "cpu <= 1.10x post: " verdict(C[k] <= 1.10 * p)
		} else if (sc[i] == "app-fastcgi-c8" &&
		    ("app-cgi-c8" SUBSEP "capsuled") in C && C[k] > 0) {
			# The same program, run by fcgiwrap instead of us.
			vs = sprintf("cgi %.2fx", C[k] / C["app-cgi-c8" SUBSEP \
			    "capsuled"])
			tg = "capsuled cpu only"
		} else if (sv[i] == "capsuled" && sc[i] ~ /^gemini-4k-full-c32$/ &&
		    ff > 0)
			tg = sprintf("cpu <= 1.8x tls floor (%.0f): %s", 1.8 * ff,
			    verdict(C[k] <= 1.8 * ff))
		else if (sv[i] == "capsuled" && sc[i] == "gemini-4k-resume-c32" &&
		    fr > 0)
			tg = sprintf("cpu <= 1.8x tls floor (%.0f): %s", 1.8 * fr,
			    verdict(C[k] <= 1.8 * fr))
		else if (sv[i] == "capsuled" && sc[i] ~ /^gopher/ &&
		    ("tcp-floor-4k-c32" SUBSEP "tcpfloor") in C) {
			# 40 us is below the loopback TCP of the kernel here.
			t = C["tcp-floor-4k-c32" SUBSEP "tcpfloor"]
			tg = sprintf("cpu <= 1.5x tcp floor (%.0f): %s", 1.5 * t,
			    verdict(C[k] <= 1.5 * t))
		}
		else if (sv[i] == "capsuled" &&
		    sc[i] ~ /^(spartan|nex|finger)-/ &&
		    ("tcp-floor-" sc[i] SUBSEP "tcpfloor") in C) {
			# Its own floor: as many bytes, the same kernel.
			t = C["tcp-floor-" sc[i] SUBSEP "tcpfloor"]
			vs = sprintf("floor %.2fx", t > 0 ? C[k] / t : 0)
			tg = sprintf("cpu <= 1.5x tcp floor (%.0f): %s", 1.5 * t,
			    verdict(C[k] <= 1.5 * t))
		}
		else if (sv[i] == "tcpfloor" && sc[i] == "tcp-floor-4k-c32")
			tg = "syscalls only: the floor for gopher-4k"
		else if (sv[i] == "tcpfloor")
			tg = "syscalls only: the floor for " substr(sc[i], 11)
		row(sc[i], sv[i], sprintf("%.1f", C[k]), sprintf("%.0f", RPS[k]), \
		    sprintf("%.2f", med(p50[k]) / 1000), sprintf("%.2f", P99[k] / 1000), \
		    sprintf("%.2f", mx[k] / 1000), err[k], rss[k], vs, tg)
	}
	FS = "\t"
	while ((getline line < extra) > 0) {
		split(line, f, "\t")
		row(f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10], f[11])
	}
}' "$R"
