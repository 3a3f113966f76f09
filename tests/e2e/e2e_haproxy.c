/*
 * e2e_haproxy.c -- two capsuled instances behind a real HAProxy, as
 * docs/scaling.md, "Several instances behind a load balancer", describes
 * them.
 *
 * HAProxy (Debian package haproxy; skipped with a line saying so when
 * it is absent) listens on loopback in TCP mode with four frontends,
 * Gemini and Gopher each with send-proxy (v1) and send-proxy-v2, each
 * round-robin over the two instances.  The instances share a ticket key
 * file (made with capsuled --gen-ticket-keys) and a certificate (the
 * first one's, copied to the second, then SIGHUP), and list HAProxy's
 * source address in proxy_protocol.  Their capsules are the same but
 * for files/who.txt, which tells who answered.  Addresses are picked so
 * that only the header can explain what the logs show: the client binds
 * 127.0.0.2, HAProxy reaches the instances from 127.0.0.3 (the only
 * listed address), and the tests that bypass HAProxy come from
 * 127.0.0.1 (not listed) or craft headers from 127.0.0.3.
 *
 * Checked: both instances answer through every frontend; their access
 * logs name 127.0.0.2 with the very port the client bound, and never
 * 127.0.0.3; a TLS session made through one instance resumes on the
 * other, N of N (TLS 1.3 and 1.2); a new key added to the shared file
 * is picked up by both without a signal, old tickets still open and new
 * ones are sealed by the new key; a post written to both capsules is
 * served by both; an IP literal in a URL is checked against the address
 * the header says the client reached; straight to an instance, a header
 * from an unlisted address, a listed address without a header, or a
 * malformed header is refused and logged; the per-address connection
 * limit and the rate limiter count the header's client, not the proxy;
 * a v2 LOCAL health check is the proxy itself.  HAProxy runs as nobody
 * when the test runs as root, dies with the test (PR_SET_PDEATHSIG), and
 * every wait is bounded.  contrib/haproxy.cfg, the sample
 * docs/scaling.md points to, must pass haproxy -c.
 */
#include <sys/prctl.h>

#include <pwd.h>

#include "content/archive.h"
#include "net/ticket.h"
#include "e2e.h"

#define NROUNDS		10	/* cross-instance resumptions */
#define PERFRONT	6	/* requests through each frontend */
#define LISTED		"127.0.0.3"	/* HAProxy's source, listed */
#define CLIENT		"127.0.0.2"	/* the real client */
#define UNLISTED	"127.0.0.1"

enum { GEM1, GEM2, GPH1, GPH2, NFRONT };
static const char *const frontname[NFRONT] = {
	"gemini send-proxy", "gemini send-proxy-v2",
	"gopher send-proxy", "gopher send-proxy-v2",
};
/*
 * Where HAProxy listens.  The Gemini frontends are not on the instances'
 * address, so that an IP literal in a URL is checked against the one in
 * the header (where the client reached us), not the instance's own.
 */
static const char *const frontaddr[NFRONT] = {
	"127.0.0.5", "127.0.0.4", "127.0.0.1", "127.0.0.1",
};

static struct e2e_server inst[2];
static char	 top[64], capsule[2][128], keys[128], hacfg[128], halog[128];
static int	 front[NFRONT];
static pid_t	 hapid = -1;
static SSL_CTX	*ctx13, *ctx12;

static void
make_capsule(int i)
{
	char	 path[256];

	snprintf(capsule[i], sizeof(capsule[i]), "%s/capsule-%c", top,
	    'a' + i);
	mkdir(capsule[i], 0755);
	snprintf(path, sizeof(path), "%s/posts", capsule[i]);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/files", capsule[i]);
	mkdir(path, 0755);
	test_put(capsule[i], "index.md",
	    "---\ntitle: The fleet\n---\nHello.\n");
	test_put(capsule[i], "posts/2024-01-01-first.md",
	    "---\ntitle: First\n---\nThe same on every instance.\n");
	test_put(capsule[i], "files/who.txt", i == 0 ? "instance A\n" :
	    "instance B\n");
}

/* HAProxy's address for a frontend's port; else the instances'. */
static const char *
dst_of(int port)
{
	int	 i;

	for (i = 0; i < NFRONT; i++)
		if (front[i] == port)
			return frontaddr[i];
	return "127.0.0.1";
}

static int
local_port(int fd)
{
	struct sockaddr_in	 sin;
	socklen_t		 len = sizeof(sin);

	if (getsockname(fd, (struct sockaddr *)&sin, &len) == -1)
		return -1;
	return ntohs(sin.sin_port);
}

/* One Gemini exchange, as much of it as happened. */
struct visit {
	int		 handshake;	/* 1: TLS handshake done */
	int		 status;	/* -1: no header */
	int		 who;		/* 0 A, 1 B, -1 unknown */
	int		 reused;	/* the session offered was resumed */
	int		 lport;		/* the client's port */
	SSL_SESSION	*sess;		/* to resume later; caller frees */
	X509		*peer;		/* the certificate; caller frees */
	struct reply	 r;
};

static void
visit_free(struct visit *v)
{
	SSL_SESSION_free(v->sess);
	X509_free(v->peer);
	reply_free(&v->r);
}

/*
 * From src to port: pre (a PROXY header, or NULL) in the clear, then
 * TLS (resuming resume, if given) and a request for path (on
 * gemini://localhost, unless path is a whole URL).
 */
static void
gem(SSL_CTX *ctx, const char *src, int port, const void *pre,
    size_t prelen, const char *path, SSL_SESSION *resume, struct visit *v)
{
	SSL	*ssl;
	char	 req[256], chunk[16384];
	int	 fd, n;

	memset(v, 0, sizeof(*v));
	v->status = -1;
	v->who = -1;
	v->r.status = -1;
	buf_init(&v->r.body);
	if ((fd = e2e_connect_from(src, dst_of(port), port, 5000, 0)) == -1)
		return;
	v->lport = local_port(fd);
	if (pre != NULL && write(fd, pre, prelen) != (ssize_t)prelen) {
		close(fd);
		return;
	}
	ssl = SSL_new(ctx);
	SSL_set_fd(ssl, fd);
	SSL_set_tlsext_host_name(ssl, "localhost");
	if (resume != NULL)
		SSL_set_session(ssl, resume);
	if (SSL_connect(ssl) != 1) {
		ERR_clear_error();
		SSL_free(ssl);
		close(fd);
		return;
	}
	v->handshake = 1;
	v->reused = SSL_session_reused(ssl);
	v->peer = SSL_get1_peer_certificate(ssl);
	n = snprintf(req, sizeof(req), "%s%s\r\n", strncmp(path,
	    "gemini://", 9) == 0 ? "" : "gemini://localhost", path);
	if (SSL_write(ssl, req, n) == n)
		while ((n = SSL_read(ssl, chunk, sizeof(chunk))) > 0)
			buf_add(&v->r.body, chunk, (size_t)n);
	/* Freed without a close_notify, the session is not resumable. */
	SSL_shutdown(ssl);
	ERR_clear_error();
	v->sess = SSL_get1_session(ssl);
	SSL_free(ssl);
	close(fd);
	e2e_split_header(&v->r);
	v->status = v->r.status;
	if (v->r.body.data != NULL) {
		if (strstr(v->r.body.data, "instance A") != NULL)
			v->who = 0;
		else if (strstr(v->r.body.data, "instance B") != NULL)
			v->who = 1;
	}
}

/*
 * From src to port: pre, then the selector line (NULL: none, and keep
 * the connection open: its fd is returned).  out gets what came back
 * before the server closed; *lport the client's port.  -1: no
 * connection.
 */
static int
gph(const char *src, int port, const void *pre, size_t prelen,
    const char *line, struct buf *out, int *lport)
{
	char	 chunk[16384];
	ssize_t	 n;
	int	 fd;

	buf_init(out);
	if ((fd = e2e_connect_from(src, dst_of(port), port, 5000, 0)) == -1)
		return -1;
	if (lport != NULL)
		*lport = local_port(fd);
	if (pre != NULL && write(fd, pre, prelen) != (ssize_t)prelen) {
		close(fd);
		return -1;
	}
	if (line == NULL)
		return fd;
	if (write(fd, line, strlen(line)) != (ssize_t)strlen(line)) {
		close(fd);
		return 0;	/* closed on us already: nothing came */
	}
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		buf_add(out, chunk, (size_t)n);
	buf_addc(out, '\0');
	out->len--;
	close(fd);
	return 0;
}

static int
who_of(const struct buf *b)
{
	if (b->data == NULL)
		return -1;
	if (strstr(b->data, "instance A") != NULL)
		return 0;
	if (strstr(b->data, "instance B") != NULL)
		return 1;
	return -1;
}

/* A v1 header for a client at addr:port, to instance i's port. */
static size_t
v1(char *out, size_t len, const char *addr, int port, int to)
{
	return (size_t)snprintf(out, len, "PROXY TCP4 %s 127.0.0.1 %d %d\r\n",
	    addr, port, to);
}

/* A v2 header: LOCAL (a health check) or PROXY for addr:port. */
static size_t
v2(unsigned char *out, int local, const char *addr, int port, int to)
{
	static const unsigned char sig[12] = {
		0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49,
		0x54, 0x0A
	};

	memcpy(out, sig, sizeof(sig));
	out[12] = local ? 0x20 : 0x21;
	out[13] = local ? 0x00 : 0x11;
	out[14] = 0;
	out[15] = local ? 0 : 12;
	if (local)
		return 16;
	inet_pton(AF_INET, addr, out + 16);
	inet_pton(AF_INET, "127.0.0.1", out + 20);
	out[24] = (unsigned char)(port >> 8);
	out[25] = (unsigned char)port;
	out[26] = (unsigned char)(to >> 8);
	out[27] = (unsigned char)to;
	return 28;
}

/* The access log line of a request from CLIENT:lport, in either log. */
static int
logged_as(int lport, const char *proto)
{
	char	 needle[64];
	int	 i;

	snprintf(needle, sizeof(needle), " %s:%d %s \"", CLIENT, lport,
	    proto);
	for (i = 0; i < 2; i++)
		if (e2e_log_wait(inst[i].log, needle, 0))
			return i;
	return -1;
}

static int
haproxy_path(char *out, size_t len)
{
	static const char *const dirs[] = {
		"/usr/sbin", "/usr/local/sbin", "/usr/bin", "/usr/local/bin",
		"/sbin", "/bin",
	};
	size_t	 i;

	for (i = 0; i < nitems(dirs); i++) {
		snprintf(out, len, "%s/haproxy", dirs[i]);
		if (access(out, X_OK) == 0)
			return 0;
	}
	return -1;
}

static int
start_haproxy(const char *bin)
{
	static const char *const send[NFRONT] = {
		"send-proxy", "send-proxy-v2", "send-proxy", "send-proxy-v2",
	};
	FILE		*f;
	uint64_t	 deadline;
	int		 i, fd, up, to;

	for (i = 0; i < NFRONT; i++) {
		do
			front[i] = e2e_free_port();
		while (i > 0 && front[i] == front[i - 1]);
	}
	snprintf(hacfg, sizeof(hacfg), "%s/haproxy.cfg", top);
	snprintf(halog, sizeof(halog), "%s/haproxy.out", top);
	if ((f = fopen(hacfg, "w")) == NULL)
		return -1;
	fprintf(f, "global\n\tmaxconn 200\n\tnbthread 1\n");
	/* Started as root, it binds, then runs as nobody. */
	if (geteuid() == 0)
		fprintf(f, "\tuid 65534\n\tgid 65534\n");
	fprintf(f, "defaults\n\tmode tcp\n\ttimeout connect 5s\n"
	    "\ttimeout client 10s\n\ttimeout server 10s\n");
	for (i = 0; i < NFRONT; i++) {
		to = i < GPH1 ? 0 : 1;	/* Gemini or Gopher ports */
		fprintf(f, "frontend f%d\n\tbind %s:%d\n"
		    "\tdefault_backend b%d\n", i, frontaddr[i], front[i], i);
		fprintf(f, "backend b%d\n\tbalance roundrobin\n"
		    "\tsource " LISTED "\n", i);
		/* Health checks too, as contrib/haproxy.cfg has them. */
		fprintf(f, "\tserver a 127.0.0.1:%d %s check inter 1s\n",
		    to ? inst[0].gopher_port : inst[0].gemini_port, send[i]);
		fprintf(f, "\tserver b 127.0.0.1:%d %s check inter 1s\n",
		    to ? inst[1].gopher_port : inst[1].gemini_port, send[i]);
	}
	fclose(f);
	if ((hapid = fork()) == -1)
		return -1;
	if (hapid == 0) {
		int	 out = open(halog, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		/* It must not outlive the test, however the test ends. */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		dup2(out, 1);
		dup2(out, 2);
		execl(bin, "haproxy", "-db", "-f", hacfg, (char *)NULL);
		_exit(127);
	}
	deadline = e2e_now_ms() + 10000;
	while (e2e_now_ms() < deadline) {
		if (waitpid(hapid, &i, WNOHANG) == hapid) {
			hapid = -1;
			return -1;
		}
		for (i = 0, up = 0; i < NFRONT; i++)
			if ((fd = e2e_connect_from(UNLISTED, dst_of(front[i]),
			    front[i], 5000, 0)) != -1) {
				close(fd);
				up++;
			}
		if (up == NFRONT)
			return 0;
		e2e_sleep_ms(50);
	}
	return -1;
}

static void
stop_haproxy(void)
{
	uint64_t	 deadline = e2e_now_ms() + 5000;
	int		 status;

	if (hapid <= 0)
		return;
	kill(hapid, SIGTERM);
	while (e2e_now_ms() < deadline) {
		if (waitpid(hapid, &status, WNOHANG) == hapid) {
			hapid = -1;
			return;
		}
		e2e_sleep_ms(20);
	}
	kill(hapid, SIGKILL);
	waitpid(hapid, &status, 0);
	hapid = -1;
}

/* The two instances, sharing keys and (after a SIGHUP) a certificate. */
static int
start_fleet(void)
{
	char	 extra[512], cmd[1024];

	snprintf(extra, sizeof(extra),
	    "proxy_protocol: [" LISTED "]\n"
	    "ticket_keys: %s\n"
	    "max_connections_per_ip: 2\n"
	    "rate_limit: 1\n"
	    "rate_burst: 80\n"
	    "watch_debounce: 50ms\n", keys);
	/* Not a loop: gcc -O1 then sees overlaps (-Wrestrict) in e2e.h. */
	if (e2e_start(&inst[0], capsule[0], extra) == -1 ||
	    e2e_start(&inst[1], capsule[1], extra) == -1) {
		fprintf(stderr, "e2e: an instance did not start\n");
		return -1;
	}
	/* B serves A's certificate: clients pin one for the name. */
	snprintf(cmd, sizeof(cmd), "cp '%s/certs/cert.pem' '%s/certs/key.pem' "
	    "'%s/certs/'", inst[0].dir, inst[0].dir, inst[1].dir);
	if (system(cmd) != 0)
		return -1;
	kill(inst[1].pid, SIGHUP);
	return e2e_log_wait(inst[1].log, "reload: configuration", 10000) ? 0 :
	    -1;
}

static void
test_frontends(void)
{
	struct visit	 v;
	struct buf	 b;
	int		 f, i, t, seen[2], lport, who, where, logged;

	for (f = 0; f < NFRONT; f++) {
		seen[0] = seen[1] = 0;
		logged = 0;
		for (i = 0; i < PERFRONT; i++) {
			if (f < GPH1) {
				gem(ctx13, CLIENT, front[f], NULL, 0,
				    "/files/who.txt", NULL, &v);
				OK(v.status == 20, "%s: request %d: status %d",
				    frontname[f], i, v.status);
				lport = v.lport;
				who = v.who;
				visit_free(&v);
			} else {
				gph(CLIENT, front[f], NULL, 0,
				    "/files/who.txt\r\n", &b, &lport);
				who = who_of(&b);
				OK(who >= 0, "%s: request %d: %s",
				    frontname[f], i, b.data ? b.data :
				    "nothing");
				buf_free(&b);
			}
			if (who >= 0)
				seen[who]++;
			/* Access lines go out within 100 ms (log.h). */
			for (t = 0, where = -1; t < 40 && where == -1; t++) {
				where = logged_as(lport, f < GPH1 ?
				    "gemini" : "gopher");
				if (where == -1)
					e2e_sleep_ms(25);
			}
			/* In the log of the instance that answered. */
			logged += where >= 0 && where == who;
		}
		OK(seen[0] > 0 && seen[1] > 0, "%s: both instances answer "
		    "(A %d, B %d)", frontname[f], seen[0], seen[1]);
		INT_EQ(logged, PERFRONT, "access lines with the client's own "
		    "address and port, by the instance that answered");
		printf("haproxy: %s: %d requests, A %d, B %d, %d logged as "
		    CLIENT ":port\n", frontname[f], PERFRONT, seen[0],
		    seen[1], logged);
	}
	for (i = 0; i < 2; i++) {
		OK(!e2e_log_wait(inst[i].log, "Z " LISTED ":", 0),
		    "instance %c logs no request as the proxy's address",
		    'A' + i);
		OK(!e2e_log_wait(inst[i].log, "no valid PROXY header", 0),
		    "instance %c: every connection from HAProxy had a header",
		    'A' + i);
		/* Its health checks reset at once: no noise from them. */
		OK(!e2e_log_wait(inst[i].log, "proxy_protocol does not list",
		    0),
		    "instance %c: no header refused so far", 'A' + i);
	}
}

/*
 * An IP literal in a URL names the address the client reached: behind
 * HAProxy, the frontend's, from the header (v1 and v2); the instances'
 * own address (127.0.0.1) is not where the client reached them.
 */
static void
test_literal(void)
{
	struct visit	 v;
	char		 url[128];
	int		 f, i, ok, other;

	for (f = GEM1; f <= GEM2; f++) {
		ok = other = 0;
		for (i = 0; i < 2; i++) {
			snprintf(url, sizeof(url), "gemini://%s/files/who.txt",
			    frontaddr[f]);
			gem(ctx13, CLIENT, front[f], NULL, 0, url, NULL, &v);
			ok += v.status == 20;
			visit_free(&v);
			gem(ctx13, CLIENT, front[f], NULL, 0,
			    "gemini://127.0.0.1/files/who.txt", NULL, &v);
			other += v.status == 53;
			visit_free(&v);
		}
		INT_EQ(ok, 2, "gemini://<HAProxy's address>/ is this server");
		INT_EQ(other, 2, "gemini://<the instance's address>/ through "
		    "HAProxy is not where the client reached us: 53");
	}
}

/* The key name a session's ticket was sealed with equals name. */
static int
sealed_by(SSL_SESSION *s, const unsigned char name[16])
{
	const unsigned char	*t;
	size_t			 len;

	if (s == NULL)
		return 0;
	SSL_SESSION_get0_ticket(s, &t, &len);
	return len > 16 && memcmp(t, name, 16) == 0;
}

/* The sealing key's name: the last key of the shared file. */
static int
last_key_name(unsigned char name[16])
{
	unsigned char	 k[TICKET_FILE_KEYS][TICKET_KEY_BYTES];
	struct buf	 b = BUF_INIT;
	char		 chunk[4096], err[256];
	size_t		 n = 0, r;
	FILE		*f;
	int		 rv = -1;

	if ((f = fopen(keys, "r")) == NULL)
		return -1;
	while ((r = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_add(&b, chunk, r);
	fclose(f);
	if (ticket_parse_keys(b.data, b.len, k, &n, err, sizeof(err)) == 0) {
		memcpy(name, k[n - 1], 16);
		rv = (int)n;
	}
	buf_free(&b);
	return rv;
}

/* Sessions made through one instance resume on the other. */
static SSL_SESSION *
test_resumption(void)
{
	struct visit	 a, b;
	SSL_SESSION	*keep = NULL;
	int		 i, across = 0, resumed = 0;

	for (i = 0; i < NROUNDS; i++) {
		SSL_CTX	*ctx = i % 2 ? ctx12 : ctx13;
		int	 f = i % 2 ? GEM1 : GEM2;

		gem(ctx, CLIENT, front[f], NULL, 0, "/files/who.txt", NULL, &a);
		gem(ctx, CLIENT, front[f], NULL, 0, "/files/who.txt", a.sess,
		    &b);
		if (a.who >= 0 && b.who >= 0 && a.who != b.who) {
			across++;
			resumed += b.reused && b.status == 20;
		}
		OK(a.status == 20 && !a.reused, "round %d: a full handshake "
		    "first (%d)", i, a.status);
		if (keep == NULL && i % 2 == 0) {
			keep = a.sess;
			a.sess = NULL;
		}
		visit_free(&a);
		visit_free(&b);
	}
	INT_EQ(across, NROUNDS, "the second connection of each round landed "
	    "on the other instance");
	INT_EQ(resumed, NROUNDS, "sessions resumed across instances");
	printf("haproxy: %d of %d TLS sessions resumed on the other instance "
	    "(TLS 1.3 and 1.2 alternately)\n", resumed, NROUNDS);
	return keep;
}

/* The operator adds a key to the shared file; both pick it up. */
static void
test_rotation(SSL_SESSION *old)
{
	struct visit	 v[3], w;
	unsigned char	 name[16];
	char		 cmd[512], needle[200];
	int		 i, n, opened = 0, sealed = 0, across;
	int		 seen[2] = { 0, 0 };
	uint64_t	 t0;

	snprintf(cmd, sizeof(cmd), "'%s' --gen-ticket-keys '%s' >/dev/null",
	    getenv("CAPSULED_BIN") ? getenv("CAPSULED_BIN") :
	    "build/capsuled", keys);
	t0 = e2e_now_ms();
	OK(system(cmd) == 0, "capsuled --gen-ticket-keys rotates the file");
	n = last_key_name(name);
	INT_EQ(n, 2, "two keys in the file now");
	snprintf(needle, sizeof(needle), "ticket keys: %s changed: 2 keys",
	    keys);
	for (i = 0; i < 2; i++)
		OK(e2e_log_wait(inst[i].log, needle, 10000),
		    "instance %c read the new file without a signal", 'A' + i);
	printf("haproxy: a rotated key file was read by both instances "
	    "within %.1f s\n", (double)(e2e_now_ms() - t0) / 1000);
	/*
	 * The old key still opens (and renews) on both instances, the new
	 * one seals: three resumptions through one frontend land on X, Y,
	 * X; then the last renewed ticket goes on to Y.
	 */
	for (i = 0; i < 3; i++) {
		gem(ctx13, CLIENT, front[GEM1], NULL, 0, "/files/who.txt",
		    old, &v[i]);
		opened += v[i].reused && v[i].status == 20;
		sealed += sealed_by(v[i].sess, name);
		if (v[i].who >= 0)
			seen[v[i].who] = 1;
	}
	gem(ctx13, CLIENT, front[GEM1], NULL, 0, "/files/who.txt", v[2].sess,
	    &w);
	across = w.reused && w.who >= 0 && w.who != v[2].who;
	for (i = 0; i < 3; i++)
		visit_free(&v[i]);
	visit_free(&w);
	INT_EQ(opened, 3, "a ticket of the old key opens");
	OK(seen[0] && seen[1], "on both instances");
	INT_EQ(sealed, 3, "renewed tickets are sealed by the new key");
	OK(across, "and one resumes on the other instance");
}

/* A post copied into both capsules (rsync, git pull) is live on both. */
static void
test_watch(void)
{
	struct visit	 v;
	uint64_t	 deadline;
	int		 i, ok = 0, seen[2] = { 0, 0 };

	for (i = 0; i < 2; i++)
		test_put(capsule[i], "posts/2024-05-05-fleet.md",
		    "---\ntitle: Fleet\n---\nPublished everywhere.\n");
	deadline = e2e_now_ms() + 10000;
	while (ok < 4 && e2e_now_ms() < deadline) {
		gem(ctx13, CLIENT, front[GEM1], NULL, 0, "/posts/fleet", NULL,
		    &v);
		if (v.status == 20 && strstr(v.r.body.data,
		    "Published everywhere") != NULL)
			ok++;
		else {
			ok = 0;
			e2e_sleep_ms(100);
		}
		visit_free(&v);
	}
	/* Four in a row, round robin: each instance twice. */
	INT_EQ(ok, 4, "a new post is served through HAProxy by both");
	for (i = 0; i < 2; i++) {
		gem(ctx13, UNLISTED, inst[i].gemini_port, NULL, 0,
		    "/posts/fleet", NULL, &v);
		seen[i] = v.status == 20;
		visit_free(&v);
	}
	OK(seen[0] && seen[1], "each instance's watcher picked it up");
}

/* Straight to instance A: who may send a header, and who must. */
static void
test_refusals(void)
{
	struct visit	 v;
	struct buf	 b;
	unsigned char	 h2[64];
	char		 h1[128], needle[64];
	size_t		 n;
	int		 lport, gport = inst[0].gopher_port;
	int		 mport = inst[0].gemini_port;

	/* Not listed, with a header: refused, logged. */
	n = v1(h1, sizeof(h1), "192.0.2.66", 4242, gport);
	gph(UNLISTED, gport, h1, n, "/files/who.txt\r\n", &b, &lport);
	INT_EQ(b.len, 0, "gopher: a header from an unlisted address: closed");
	buf_free(&b);
	snprintf(needle, sizeof(needle), UNLISTED ":%d: PROXY header from",
	    lport);
	OK(e2e_log_wait(inst[0].log, needle, 2000), "and logged: %s",
	    needle);
	n = v2(h2, 0, "192.0.2.66", 4242, mport);
	gem(ctx13, UNLISTED, mport, h2, n, "/files/who.txt", NULL, &v);
	OK(!v.handshake, "gemini: a v2 header from an unlisted address: no "
	    "TLS");
	visit_free(&v);
	/* Without one, an unlisted client is served as ever. */
	gem(ctx13, UNLISTED, mport, NULL, 0, "/files/who.txt", NULL, &v);
	INT_EQ(v.who, 0, "gemini: an unlisted client without a header");
	visit_free(&v);

	/* Listed, without a header, or with a broken one: refused. */
	gph(LISTED, gport, NULL, 0, "/files/who.txt\r\n", &b, &lport);
	INT_EQ(b.len, 0, "gopher: the listed address without a header");
	buf_free(&b);
	snprintf(needle, sizeof(needle), LISTED ":%d: no valid PROXY header",
	    lport);
	OK(e2e_log_wait(inst[0].log, needle, 2000), "and logged: %s",
	    needle);
	gem(ctx13, LISTED, mport, NULL, 0, "/files/who.txt", NULL, &v);
	OK(!v.handshake, "gemini: the listed address without a header");
	visit_free(&v);
	gph(LISTED, gport, "PROXY TCP4 192.0.2.1 127.0.0.1 0443 70\r\n", 40,
	    "/files/who.txt\r\n", &b, NULL);
	INT_EQ(b.len, 0, "a malformed header (port 0443)");
	buf_free(&b);
	gph(LISTED, gport, "PROXY TCP4 192.0.2.1 127.0.0.1 443 70\n", 38,
	    "/files/who.txt\r\n", &b, NULL);
	INT_EQ(b.len, 0, "a malformed header (LF alone)");
	buf_free(&b);

	/* Listed, with a crafted header: served as that client. */
	n = v1(h1, sizeof(h1), "203.0.113.5", 4242, mport);
	gem(ctx13, LISTED, mport, h1, n, "/files/who.txt", NULL, &v);
	INT_EQ(v.status, 20, "gemini: a crafted v1 header from the proxy");
	visit_free(&v);
	OK(e2e_log_wait(inst[0].log, " 203.0.113.5:4242 gemini \"", 2000),
	    "logged as the header's client");
	/* A v2 LOCAL health check: the proxy is the client. */
	n = v2(h2, 1, NULL, 0, 0);
	gph(LISTED, gport, h2, n, "/files/who.txt\r\n", &b, &lport);
	INT_EQ(who_of(&b), 0, "gopher: a v2 LOCAL header is served");
	buf_free(&b);
	snprintf(needle, sizeof(needle), " " LISTED ":%d gopher \"", lport);
	OK(e2e_log_wait(inst[0].log, needle, 2000),
	    "LOCAL: logged as the proxy itself");
}

/* The limits count the header's client, not the proxy's address. */
static void
test_limits(void)
{
	struct buf	 b;
	char		 h[128];
	size_t		 n;
	int		 held[2], i, port = inst[0].gopher_port, first = 0;

	/* max_connections_per_ip: 2, all from the one listed address. */
	n = v1(h, sizeof(h), "198.51.100.9", 1000, port);
	for (i = 0; i < 2; i++)
		held[i] = gph(LISTED, port, h, n, NULL, &b, NULL);
	OK(held[0] > 0 && held[1] > 0, "two connections held");
	e2e_sleep_ms(harness_valgrind() ? 3000 : 500);
	gph(LISTED, port, h, n, "/files/who.txt\r\n", &b, NULL);
	INT_EQ(b.len, 0, "a third from 198.51.100.9: over its limit");
	buf_free(&b);
	n = v1(h, sizeof(h), "198.51.100.10", 1000, port);
	gph(LISTED, port, h, n, "/files/who.txt\r\n", &b, NULL);
	INT_EQ(who_of(&b), 0, "one from 198.51.100.10, same proxy: served");
	buf_free(&b);
	for (i = 0; i < 2; i++)
		if (held[i] > 0)
			close(held[i]);

	/* rate_burst: 80 a client, then 44 (Gopher: a type-3 line). */
	n = v1(h, sizeof(h), "198.51.100.20", 1000, port);
	for (i = 1; i <= 120 && first == 0; i++) {
		gph(LISTED, port, h, n, "/files/who.txt\r\n", &b, NULL);
		if (b.data != NULL && strstr(b.data, "Too many requests"))
			first = i;
		buf_free(&b);
	}
	OK(first >= 81 && first <= 90, "198.51.100.20 slowed down after its "
	    "burst of 80 (at request %d)", first);
	gph(LISTED, port, h, n, "/files/who.txt\r\n", &b, NULL);
	OK(b.data != NULL && strstr(b.data, "Too many requests") != NULL,
	    "and still");
	buf_free(&b);
	n = v1(h, sizeof(h), "198.51.100.21", 1000, port);
	gph(LISTED, port, h, n, "/files/who.txt\r\n", &b, NULL);
	INT_EQ(who_of(&b), 0, "198.51.100.21 through the same proxy: served");
	buf_free(&b);
	printf("haproxy: per-address limits keyed by the header: a third "
	    "connection refused, rate-limited at request %d\n", first);
}

/* The sample docs/scaling.md points to is one HAProxy takes. */
static void
test_sample(const char *bin)
{
	const char	*topdir = getenv("CAPSULED_TOP");
	char		 cmd[1024];

	if (getpwnam("haproxy") == NULL) {
		/* Its "user haproxy" needs the user Debian's package makes. */
		fprintf(stderr, "SKIPPED: contrib/haproxy.cfg not checked: no "
		    "user haproxy here\n");
		return;
	}
	snprintf(cmd, sizeof(cmd), "'%s' -c -q -f '%s/contrib/haproxy.cfg'",
	    bin, topdir != NULL ? topdir : ".");
	OK(system(cmd) == 0, "haproxy -c accepts contrib/haproxy.cfg");
}

static void
cleanup(void)
{
	char	 cmd[512];

	stop_haproxy();
	for (int i = 0; i < 2; i++)
		if (inst[i].pid > 0)
			INT_EQ(e2e_stop(&inst[i]), 0, "instance stops cleanly");
	if (harness_failed > 0) {
		snprintf(cmd, sizeof(cmd), "sed 's/^/haproxy: /' '%s' >&2",
		    halog);
		(void)!system(cmd);
	}
	if (getenv("E2E_KEEP") == NULL) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
		(void)!system(cmd);
	}
}

static const struct harness_test tests[] = {
	NAMED("sample"),
	NAMED("frontends"),
	NAMED("literal"),
	NAMED("resumption"),
	NAMED("watch"),
	NAMED("refusals"),
	NAMED("limits"),
};

int
main(int argc, char **argv)
{
	struct visit	 a, b;
	SSL_SESSION	*old;
	char		 bin[64], cmd[512];

	HARNESS_INIT(argc, argv, tests);

	if (haproxy_path(bin, sizeof(bin)) == -1) {
		fprintf(stderr, "SKIPPED: haproxy is not installed (Debian "
		    "package haproxy; .ci/run installs it)\n");
		printf("0 passed, 0 failed, 1 skipped\n");
		return 0;
	}
	signal(SIGPIPE, SIG_IGN);
	RUN("sample", test_sample(bin));
	snprintf(top, sizeof(top), "/tmp/capsuled-haproxy.XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	make_capsule(0);
	make_capsule(1);
	snprintf(keys, sizeof(keys), "%s/ticket.keys", top);
	snprintf(cmd, sizeof(cmd), "'%s' --gen-ticket-keys '%s' >/dev/null",
	    getenv("CAPSULED_BIN") ? getenv("CAPSULED_BIN") :
	    "build/capsuled", keys);
	OK(system(cmd) == 0, "capsuled --gen-ticket-keys makes the file");
	ctx13 = e2e_client_ctx(0);
	ctx12 = e2e_client_ctx(TLS1_2_VERSION);
	if (start_fleet() == -1) {
		OK(0, "two instances with shared keys and certificate");
		cleanup();
		return harness_done();
	}
	/* The same certificate from both (straight, from 127.0.0.1). */
	gem(ctx13, UNLISTED, inst[0].gemini_port, NULL, 0, "/", NULL, &a);
	gem(ctx13, UNLISTED, inst[1].gemini_port, NULL, 0, "/", NULL, &b);
	OK(a.peer != NULL && b.peer != NULL && X509_cmp(a.peer, b.peer) == 0,
	    "both instances serve the one certificate");
	visit_free(&a);
	visit_free(&b);
	if (start_haproxy(bin) == -1) {
		OK(0, "haproxy did not start (see below)");
		cleanup();
		return harness_done();
	}
	RUN("frontends", test_frontends());
	RUN("literal", test_literal());
	/* The rotation resumes the session the first check had. */
	if (harness_selected("resumption")) {
		old = test_resumption();
		test_rotation(old);
		SSL_SESSION_free(old);
	}
	RUN("watch", test_watch());
	RUN("refusals", test_refusals());
	RUN("limits", test_limits());
	cleanup();
	SSL_CTX_free(ctx13);
	SSL_CTX_free(ctx12);
	return harness_done();
}
