#!/bin/sh
# nginx.sh -- contrib/nginx-capsuled.conf, the documented TLS front of the
# web view, with Debian's nginx (installed on demand as root, else
# skipped with the reason): the file as shipped, only its ports, name and
# certificate paths replaced, included by a minimal nginx.conf.  Over
# HTTPS the home page and a post come back in HTML, a redirect keeps its
# path, another method is capsuled's 405, plain HTTP goes to HTTPS, and
# nginx keeps its connection to capsuled for the next request.
. "$(dirname "$0")/e2e.subr"

cleanup() {
	[ -n "${ngx_pid:-}" ] && kill "$ngx_pid" 2>/dev/null
	[ -n "${ngx_pid:-}" ] && wait "$ngx_pid" 2>/dev/null
	srv_stop >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
tmp=$(mktemp -d /tmp/capsuled-nginx.XXXXXX)

if ! need_pkg nginx-light nginx && ! [ -x /usr/sbin/nginx ]; then
	skip "nginx: $why"
	summary; exit
fi
ngx=$(command -v nginx || echo /usr/sbin/nginx)
if ! need_pkg curl curl; then skip "curl: $why"; summary; exit; fi

# A port below the kernel's ephemeral range that no socket uses (a load
# generator's thousands of client ports live in that range).
quiet_port() {
	while :; do
		_p=$((20000 + $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 12000))
		ss -Htan "sport = :$_p" 2>/dev/null | grep -q . || break
	done
	echo "$_p"
}
hport=$(quiet_port)
sport=$(quiet_port)
pport=$(quiet_port)
if ! srv_start "$top/capsule" "http_port: $hport
http_public_port: $sport
rate_limit: 0"; then
	nok "the server with http_port did not start"
	summary; exit
fi
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes \
    -keyout "$tmp/key.pem" -out "$tmp/cert.pem" -days 2 -subj /CN=localhost \
    >/dev/null 2>&1 || { nok "openssl req failed"; summary; exit; }
sed -e "s|127.0.0.1:8080|127.0.0.1:$hport|" \
    -e "s|listen 443 ssl http2;|listen 127.0.0.1:$sport ssl http2;|" \
    -e "s|listen 80;|listen 127.0.0.1:$pport;|" \
    -e "s|capsule.example.org/fullchain.pem|x|; s|/etc/letsencrypt/live/x|$tmp/cert.pem|" \
    -e "s|capsule.example.org/privkey.pem|y|; s|/etc/letsencrypt/live/y|$tmp/key.pem|" \
    -e "s|server_name capsule.example.org;|server_name localhost;|" \
    -e 's|return 301 https://$host$request_uri;|return 301 https://$host:'"$sport"'$request_uri;|' \
    "$top/contrib/nginx-capsuled.conf" >"$tmp/site.conf"
cat >"$tmp/nginx.conf" <<EOF
daemon off;
master_process off;
error_log $tmp/error.log;
pid $tmp/nginx.pid;
events { worker_connections 64; }
http { access_log off; include $tmp/site.conf; }
EOF
"$ngx" -c "$tmp/nginx.conf" -p "$tmp" </dev/null >"$tmp/stdout" 2>&1 &
ngx_pid=$!
i=0
while ! curl -sk -m 1 -o /dev/null "https://localhost:$sport/" &&
    [ $i -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
base=https://localhost:$sport
out=$(curl -sk -m 10 -D "$tmp/h" "$base/")
case $out in *"<title>Notes from a Small Capsule</title>"*) ok ;;
    *) nok "https /: no home page: $(head -c 300 "$tmp/error.log")" ;; esac
grep -qi '^content-type: text/html' "$tmp/h" && ok || nok "https /: not HTML"
# The page names its public address on Gemini and Gopher, not nginx's.
case $out in *'rel="alternate" title="Gemini"'*) ok ;;
    *) nok "https /: no alternate" ;; esac
out=$(curl -sk -m 10 "$base/posts/gemtext-tips")
case $out in *"Know the six line types"*) ok ;; *) nok "https post" ;; esac
code=$(curl -sk -m 10 -o /dev/null -w '%{http_code} %{redirect_url}' \
    "$base/posts")
case $code in "301 $base/posts/") ok ;; *) nok "redirect: $code" ;; esac
code=$(curl -sk -m 10 -o /dev/null -w '%{http_code}' -X POST "$base/")
[ "$code" = 405 ] && ok || nok "POST through nginx: $code"
code=$(curl -s -m 10 -o /dev/null -w '%{http_code} %{redirect_url}' \
    "http://localhost:$pport/posts/")
case $code in "301 $base/posts/") ok ;; *) nok "http to https: $code" ;;
    esac
# nginx keeps its connection to capsuled: later requests, one peer.
for p in /tags/ /series/ /files/; do
	curl -sk -m 10 -o /dev/null "$base$p"
done
sleep 0.3
peers=$(grep ' http "GET /\(tags\|series\|files\)/ HTTP/1.1" 20 ' "$srv_log" |
    awk '{ print $2 }' | sort -u | wc -l)
[ "$peers" = 1 ] && ok || nok "nginx's requests came on $peers connections"
check "the server exits 0" srv_stop
summary
