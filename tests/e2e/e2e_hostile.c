/*
 * e2e_hostile.c -- the real server against hostile clients, on loopback:
 *
 *  - slow-loris: 370 connections (Gemini: silent, a ClientHello dripped a
 *    byte a second, a finished handshake and then nothing, a request
 *    dripped a byte a second, a Titan upload body dripped by a client
 *    that may not write; Gopher: a selector dripped) are closed by
 *    handshake_timeout / request_timeout, while normal requests keep
 *    their latency (p50 and max printed and bounded);
 *  - plain text and HTTP on the TLS port, TLS 1.0 and 1.1 offered;
 *  - clients that close right after sending their request;
 *  - slow readers of a 32 MiB file: the server's memory stays bounded
 *    (VmRSS) and idle_timeout closes them;
 *  - 2000 idle connections against max_connections 500: the limit
 *    holds, the excess is closed at once, the server recovers;
 *  - random bytes at every stage: before the handshake, after the
 *    ClientHello, as TLS records, as the request line, on Gopher;
 *  - max_connections_per_ip and rate_limit, per client address (the
 *    client binds 127.0.0.2, .3 ... as its source).
 *
 * Every wait is bounded; the whole program takes about 20 s.
 */
#include <poll.h>
#include <pthread.h>
#include <sys/resource.h>

#include <openssl/bio.h>

#include "e2e.h"

#define BIG_SIZE	(32u << 20)
/* Uploads on, for a client certificate no test client has. */
#define WRITER	"00000000000000000000000000000000" \
		"00000000000000000000000000000000"

static SSL_CTX		*ctx;
static char		 top[] = "/tmp/capsuled-e2e-hostile.XXXXXX";
static char		 capsule[512];

/* ---- small tools --------------------------------------------------- */

static uint64_t	 rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t
rng(void)
{
	/* xorshift64*: reproducible random bytes. */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static void
random_bytes(unsigned char *p, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(rng() >> 56);
}

static void
raise_nofile(rlim_t want)
{
	struct rlimit	 rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == -1)
		return;
	if (rl.rlim_cur >= want)
		return;
	rl.rlim_cur = want;
	if (rl.rlim_max < want)
		rl.rlim_max = want;	/* root may raise the hard limit */
	if (setrlimit(RLIMIT_NOFILE, &rl) == -1) {
		getrlimit(RLIMIT_NOFILE, &rl);
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static int
alive(pid_t pid)
{
	int	 st;

	return waitpid(pid, &st, WNOHANG) == 0;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t	 x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Read until the peer closes (bounded by the socket's timeout). */
static size_t
drain(int fd, struct buf *out)
{
	char	 tmp[16384];
	ssize_t	 n;
	size_t	 total = 0;

	while ((n = read(fd, tmp, sizeof(tmp))) > 0) {
		if (out != NULL)
			buf_add(out, tmp, (size_t)n);
		total += (size_t)n;
	}
	return total;
}

/* One Gemini request over an already connected fd; fd is closed. */
static int
gemini_fd(int fd, const char *req, size_t len, struct reply *r)
{
	SSL	*ssl;
	char	 chunk[16384], *crlf;
	int	 n;

	memset(r, 0, sizeof(*r));
	r->status = -1;
	buf_init(&r->body);
	ssl = SSL_new(ctx);
	SSL_set_fd(ssl, fd);
	SSL_set_tlsext_host_name(ssl, "localhost");
	if (SSL_connect(ssl) != 1 || SSL_write(ssl, req, (int)len) <= 0) {
		ERR_clear_error();
		SSL_free(ssl);
		close(fd);
		return -1;
	}
	r->connected = 1;
	while ((n = SSL_read(ssl, chunk, sizeof(chunk))) > 0)
		buf_add(&r->body, chunk, (size_t)n);
	r->close_notify = SSL_get_error(ssl, n) == SSL_ERROR_ZERO_RETURN;
	ERR_clear_error();
	SSL_free(ssl);
	close(fd);
	if (r->body.data != NULL && (crlf = strstr(r->body.data, "\r\n")) !=
	    NULL && (size_t)(crlf - r->body.data) < sizeof(r->header)) {
		memcpy(r->header, r->body.data, (size_t)(crlf - r->body.data));
		r->header[crlf - r->body.data] = '\0';
		if (r->header[0] >= '1' && r->header[0] <= '6' &&
		    r->header[1] >= '0' && r->header[1] <= '9')
			r->status = (r->header[0] - '0') * 10 +
			    (r->header[1] - '0');
	}
	return 0;
}

static int
gemini_get(int port, const char *src, const char *path, struct reply *r)
{
	char	 req[1100];
	int	 fd, len;

	len = snprintf(req, sizeof(req), "gemini://localhost:%d%s\r\n", port,
	    path);
	if ((fd = e2e_connect_from(src, NULL, port, 5000, 0)) == -1) {
		memset(r, 0, sizeof(*r));
		r->status = -2;
		return -1;
	}
	return gemini_fd(fd, req, (size_t)len, r);
}

/* The bytes of a ClientHello, as OpenSSL's client would send them. */
static size_t
client_hello(unsigned char *out, size_t cap)
{
	SSL	*s = SSL_new(ctx);
	BIO	*rb = BIO_new(BIO_s_mem()), *wb = BIO_new(BIO_s_mem());
	int	 n;

	SSL_set_bio(s, rb, wb);
	SSL_set_connect_state(s);
	SSL_set_tlsext_host_name(s, "localhost");
	(void)SSL_do_handshake(s);
	ERR_clear_error();
	n = BIO_read(wb, out, (int)cap);
	SSL_free(s);
	return n > 0 ? (size_t)n : 0;
}

static void
make_capsule(void)
{
	char	 path[1024];
	int	 fd;

	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	mkdir(capsule, 0755);
	snprintf(path, sizeof(path), "%s/posts", capsule);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/files", capsule);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/index.md", capsule);
	test_write(path, "---\ntitle: Hostile\n---\nHello.\n");
	snprintf(path, sizeof(path), "%s/posts/2024-01-01-a.md", capsule);
	test_write(path, "---\ntitle: A\n---\nA post.\n");
	/* Sparse: 32 MiB of zeros that cost no disk. */
	snprintf(path, sizeof(path), "%s/files/big.bin", capsule);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644)) == -1 ||
	    ftruncate(fd, BIG_SIZE) == -1) {
		perror(path);
		exit(1);
	}
	close(fd);
}

/* ---- normal traffic while under attack ------------------------------ */

struct meter {
	int		 gemini_port, gopher_port;
	volatile int	 stop;
	uint64_t	 lat[4000];	/* ms */
	size_t		 n;
	int		 bad;		/* wrong or missing answers */
};

static void *
meter_main(void *arg)
{
	struct meter	*m = arg;
	struct reply	 r;
	struct buf	 out;
	uint64_t	 t0;
	int		 i = 0;

	while (!m->stop && m->n < nitems(m->lat)) {
		t0 = e2e_now_ms();
		if (i++ % 2 == 0) {
			if (gemini_get(m->gemini_port, NULL, "/", &r) == -1 ||
			    r.status != 20 || !r.close_notify)
				m->bad++;
			reply_free(&r);
		} else {
			if (e2e_plain(m->gopher_port, "/\r\n", 3, &out) == -1 ||
			    out.len < 3 || strcmp(out.data + out.len - 3,
			    ".\r\n") != 0)
				m->bad++;
			buf_free(&out);
		}
		m->lat[m->n++] = e2e_now_ms() - t0;
		e2e_sleep_ms(20);
	}
	return NULL;
}

static void
meter_report(struct meter *m, const char *what, uint64_t max_ms)
{
	uint64_t	 p50 = 0, mx = 0;

	if (m->n > 0) {
		qsort(m->lat, m->n, sizeof(m->lat[0]), cmp_u64);
		p50 = m->lat[m->n / 2];
		mx = m->lat[m->n - 1];
	}
	printf("%s: %zu normal requests, p50 %llu ms, max %llu ms, "
	    "%d bad\n", what, m->n, (unsigned long long)p50,
	    (unsigned long long)mx, m->bad);
	OK(m->n >= 20, "%s: normal requests went through (%zu)", what, m->n);
	INT_EQ(m->bad, 0, "normal requests answered correctly");
	OK(mx < max_ms, "%s: max latency %llu ms < %llu ms", what,
	    (unsigned long long)mx, (unsigned long long)max_ms);
}

/* ---- slow-loris ----------------------------------------------------- */

enum sl_kind {
	SL_SILENT,		/* connect, then nothing */
	SL_HELLO,		/* a ClientHello, one byte a second */
	SL_TLSIDLE,		/* handshake done, no request */
	SL_TLSDRIP,		/* handshake done, request a byte a second */
	SL_GOPHER,		/* a selector, one byte a second */
	SL_TITAN,		/* a Titan body from a non-writer, dripped */
	SL_NKINDS,
};

static const char *const sl_names[] = {
	"silent", "ClientHello drip", "TLS then idle", "request drip",
	"Gopher drip", "Titan body drip",
};

struct sl {
	int		 fd;
	enum sl_kind	 kind;
	SSL		*ssl;
	size_t		 sent;
	uint64_t	 t_open, t_closed;	/* ms; t_closed 0: open */
};

static void
test_slowloris(struct e2e_server *s)
{
	static const int counts[SL_NKINDS] = { 50, 150, 20, 30, 100, 20 };
	static const char titan[] =
	    "titan://localhost/posts/x;size=100000;mime=text/markdown\r\n";
	unsigned char	 hello[2048];
	size_t		 hellolen, n = 0, i, k;
	struct sl	*c;
	struct meter	 m;
	pthread_t	 th;
	struct pollfd	*pfd;
	uint64_t	 t0, next_drip, lo[SL_NKINDS], hi[SL_NKINDS];
	unsigned	 open_left;
	int		 j, fds0;

	hellolen = client_hello(hello, sizeof(hello));
	OK(hellolen > 100, "a ClientHello to drip (%zu bytes)", hellolen);
	fds0 = e2e_fd_count(s->pid);
	c = calloc(500, sizeof(*c));
	pfd = calloc(500, sizeof(*pfd));
	for (k = 0; k < SL_NKINDS; k++) {
		lo[k] = UINT64_MAX;
		hi[k] = 0;
		for (j = 0; j < counts[k]; j++, n++) {
			c[n].kind = (enum sl_kind)k;
			c[n].fd = e2e_connect_from(NULL, NULL, k == SL_GOPHER ?
			    s->gopher_port : s->gemini_port, 3000, 0);
			c[n].t_open = e2e_now_ms();
			if (c[n].fd == -1)
				continue;
			if (k == SL_TLSIDLE || k == SL_TLSDRIP ||
			    k == SL_TITAN) {
				c[n].ssl = SSL_new(ctx);
				SSL_set_fd(c[n].ssl, c[n].fd);
				if (SSL_connect(c[n].ssl) != 1)
					ERR_clear_error();
			}
			if (k == SL_TITAN)
				(void)SSL_write(c[n].ssl, titan,
				    sizeof(titan) - 1);
		}
	}
	memset(&m, 0, sizeof(m));
	m.gemini_port = s->gemini_port;
	m.gopher_port = s->gopher_port;
	pthread_create(&th, NULL, meter_main, &m);

	/* Drip once a second; watch for the server closing each one. */
	t0 = e2e_now_ms();
	next_drip = t0;
	open_left = (unsigned)n;
	while (open_left > 0 && e2e_now_ms() - t0 < 6000) {
		if (e2e_now_ms() >= next_drip) {
			next_drip += 1000;
			for (i = 0; i < n; i++) {
				const char *sel = "/posts/aaaaaaaaaaaaaaaaaaaa";
				const char *rq = "gemini://localhost/";

				if (c[i].fd == -1 || c[i].t_closed != 0)
					continue;
				if (c[i].kind == SL_HELLO &&
				    c[i].sent < hellolen)
					(void)!send(c[i].fd,
					    hello + c[i].sent++, 1,
					    MSG_NOSIGNAL | MSG_DONTWAIT);
				else if (c[i].kind == SL_GOPHER)
					(void)!send(c[i].fd,
					    sel + c[i].sent++ % 20, 1,
					    MSG_NOSIGNAL | MSG_DONTWAIT);
				else if (c[i].kind == SL_TLSDRIP)
					(void)SSL_write(c[i].ssl,
					    rq + c[i].sent++ % 19, 1);
				else if (c[i].kind == SL_TITAN)
					(void)SSL_write(c[i].ssl, "a", 1);
				ERR_clear_error();
			}
		}
		for (i = 0; i < n; i++) {
			pfd[i].fd = c[i].t_closed ? -1 : c[i].fd;
			pfd[i].events = POLLIN;
			pfd[i].revents = 0;
		}
		if (poll(pfd, (nfds_t)n, 20) <= 0)
			continue;
		for (i = 0; i < n; i++) {
			if (pfd[i].revents == 0 || !e2e_peer_closed(c[i].fd))
				continue;
			c[i].t_closed = e2e_now_ms();
			open_left--;
		}
	}
	m.stop = 1;
	pthread_join(th, NULL);

	for (i = 0; i < n; i++) {
		uint64_t d;

		if (c[i].fd == -1 || c[i].t_closed == 0)
			continue;
		d = c[i].t_closed - c[i].t_open;
		k = c[i].kind;
		lo[k] = d < lo[k] ? d : lo[k];
		hi[k] = d > hi[k] ? d : hi[k];
	}
	printf("slow-loris: %zu connections (", n);
	for (k = 0; k < SL_NKINDS; k++)
		printf("%s%d %s closed after %llu-%llu ms", k ? ", " : "",
		    counts[k], sl_names[k], (unsigned long long)lo[k],
		    (unsigned long long)hi[k]);
	printf("); %u still open after 6 s\n", open_left);
	INT_EQ(open_left, 0, "every slow-loris connection was closed");
	/* handshake_timeout 1.5 s, request_timeout 2.5 s. */
	for (k = 0; k < SL_NKINDS; k++) {
		uint64_t want = k <= SL_HELLO ? 1500 : 2500;

		OK(lo[k] >= want - 200 && hi[k] <= want + 1500,
		    "%s: closed after %llu-%llu ms, want about %llu",
		    sl_names[k], (unsigned long long)lo[k],
		    (unsigned long long)hi[k], (unsigned long long)want);
	}
	meter_report(&m, "during slow-loris", 500);
	for (i = 0; i < n; i++) {
		if (c[i].ssl != NULL)
			SSL_free(c[i].ssl);
		if (c[i].fd != -1)
			close(c[i].fd);
	}
	free(c);
	free(pfd);
	j = e2e_fds_wait(s->pid, fds0, 3000);
	OK(j <= fds0, "server fds back to %d (now %d)", fds0, j);
}

/*
 * Wait (at most ms) for the server to close each of fds[0..n-1], keeping
 * the first bytes each received; returns how many it closed.  The fds
 * are closed here.
 */
static int
batch_drain(int *fds, int n, unsigned ms, struct buf *outs)
{
	struct pollfd	*pfd = calloc((size_t)n, sizeof(*pfd));
	uint64_t	 end = e2e_now_ms() + ms;
	char		 tmp[4096];
	ssize_t		 got;
	int		 i, left = 0, closed = 0;

	for (i = 0; i < n; i++) {
		buf_init(&outs[i]);
		left += fds[i] != -1;
	}
	while (left > 0 && e2e_now_ms() < end) {
		for (i = 0; i < n; i++) {
			pfd[i].fd = fds[i];
			pfd[i].events = POLLIN;
			pfd[i].revents = 0;
		}
		if (poll(pfd, (nfds_t)n, 50) <= 0)
			continue;
		for (i = 0; i < n; i++) {
			if (pfd[i].revents == 0)
				continue;
			while ((got = recv(fds[i], tmp, sizeof(tmp),
			    MSG_DONTWAIT)) > 0)
				if (outs[i].len < 64)
					buf_add(&outs[i], tmp, (size_t)got);
			if (got == 0 || (errno != EAGAIN &&
			    errno != EWOULDBLOCK)) {
				close(fds[i]);
				fds[i] = -1;
				closed++;
				left--;
			}
		}
	}
	for (i = 0; i < n; i++)
		if (fds[i] != -1)
			close(fds[i]);
	free(pfd);
	return closed;
}

static int
looks_like_header(const struct buf *b)
{
	return b->len >= 3 && b->data[0] >= '1' && b->data[0] <= '6' &&
	    b->data[1] >= '0' && b->data[1] <= '9' && b->data[2] == ' ';
}

/* ---- rude but quick ------------------------------------------------- */

static void
test_wrong_protocols(struct e2e_server *s)
{
#define JUNK(s)	{ s, sizeof(s) - 1 }
	static const struct { const char *p; size_t len; } junk[] = {
		JUNK("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n"),
		JUNK("hello\r\n"),
		JUNK("gemini://localhost/\r\n"),
		JUNK("\x16\x03\x01\x00\x00"),	/* an empty handshake record */
		JUNK("\x16\x03\x00\x00\x05hello"),	/* SSL 3.0 framing */
		JUNK("\x80\x2e\x01\x00\x02"),	/* SSLv2-style ClientHello */
	};
#undef JUNK
	struct buf	 outs[8];
	struct reply	 r;
	SSL_CTX		*old;
	uint64_t	 t0, dt;
	size_t		 i;
	int		 fds[8], closed;

	t0 = e2e_now_ms();
	for (i = 0; i < nitems(junk); i++) {
		fds[i] = e2e_connect_from(NULL, NULL, s->gemini_port, 5000, 0);
		(void)!write(fds[i], junk[i].p, junk[i].len);
	}
	closed = batch_drain(fds, (int)nitems(junk), 4000, outs);
	dt = e2e_now_ms() - t0;
	INT_EQ(closed, nitems(junk), "plain text, HTTP, bad records: closed");
	for (i = 0; i < nitems(junk); i++) {
		OK(!looks_like_header(&outs[i]), "junk %zu: no Gemini header",
		    i);
		buf_free(&outs[i]);
	}
	/* A complete bad record fails at once; a partial one waits. */
	OK(dt < 2500, "junk closed within handshake_timeout (%llu ms)",
	    (unsigned long long)dt);
	old = e2e_client_ctx(TLS1_VERSION);
	OK(e2e_gemini_raw(s->gemini_port, "gemini://localhost/\r\n", 21, &r,
	    old, "localhost") == -1, "TLS 1.0 refused");
	reply_free(&r);
	SSL_CTX_free(old);
	old = e2e_client_ctx(TLS1_1_VERSION);
	OK(e2e_gemini_raw(s->gemini_port, "gemini://localhost/\r\n", 21, &r,
	    old, "localhost") == -1, "TLS 1.1 refused");
	reply_free(&r);
	SSL_CTX_free(old);
	old = e2e_client_ctx(TLS1_2_VERSION);
	OK(e2e_gemini_raw(s->gemini_port, "gemini://localhost/\r\n", 21, &r,
	    old, "localhost") == 0 && r.status == 20,
	    "TLS 1.2 with the same client settings is served");
	reply_free(&r);
	SSL_CTX_free(old);
}

/* Request a big file and hang up at once, politely or with a RST. */
static void
test_hangups(struct e2e_server *s)
{
	static const char req[] = "gemini://localhost/files/big.bin\r\n";
	struct linger	 lg = { 1, 0 };
	struct reply	 r;
	SSL		*ssl;
	int		 i, fd, fds0 = e2e_fd_count(s->pid);

	for (i = 0; i < 40; i++) {
		fd = e2e_connect_from(NULL, NULL, i % 4 == 3 ? s->gopher_port :
		    s->gemini_port, 5000, 0);
		if (i % 2 == 1)
			setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
		if (i % 4 == 3) {
			(void)!write(fd, "/files/big.bin\r\n", 16);
		} else {
			ssl = SSL_new(ctx);
			SSL_set_fd(ssl, fd);
			if (SSL_connect(ssl) == 1)
				SSL_write(ssl, req, sizeof(req) - 1);
			ERR_clear_error();
			SSL_free(ssl);
		}
		close(fd);
	}
	i = e2e_fds_wait(s->pid, fds0, 3000);
	OK(i <= fds0, "after 40 hang-ups the server's fds are back to %d "
	    "(%d)", fds0, i);
	OK(alive(s->pid), "server alive after hang-ups");
	OK(gemini_get(s->gemini_port, NULL, "/", &r) == 0 && r.status == 20,
	    "served after hang-ups");
	reply_free(&r);
}

/* ---- slow readers ----------------------------------------------------- */

static void
test_slow_readers(struct e2e_server *s)
{
	enum { NREADERS = 10 };
	static const char req[] = "gemini://localhost/files/big.bin\r\n";
	SSL		*ssl[NREADERS];
	int		 fd[NREADERS], i, rcv = 4096, fds0, k, closed_fds;
	long		 rss0, rss, peak = 0;
	uint64_t	 t0, t_closed = 0;
	char		 one;

	fds0 = e2e_fd_count(s->pid);
	rss0 = e2e_proc_status_kb(s->pid, "VmRSS");
	for (i = 0; i < NREADERS; i++) {
		fd[i] = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		/* A small window: the server's send queue fills at once. */
		setsockopt(fd[i], SOL_SOCKET, SO_RCVBUF, &rcv, sizeof(rcv));
		close(fd[i]);
		fd[i] = e2e_connect_from(NULL, NULL, s->gemini_port, 5000, 0);
		setsockopt(fd[i], SOL_SOCKET, SO_RCVBUF, &rcv, sizeof(rcv));
		ssl[i] = SSL_new(ctx);
		SSL_set_fd(ssl[i], fd[i]);
		OK(SSL_connect(ssl[i]) == 1 &&
		    SSL_write(ssl[i], req, sizeof(req) - 1) > 0,
		    "slow reader %d asked for 32 MiB", i);
		ERR_clear_error();
	}
	/* Read a byte a second; watch the server's memory and fds. */
	t0 = e2e_now_ms();
	while (e2e_now_ms() - t0 < 7000) {
		for (i = 0; i < NREADERS; i++)
			(void)!recv(fd[i], &one, 1, MSG_DONTWAIT);
		for (k = 0; k < 10; k++) {
			rss = e2e_proc_status_kb(s->pid, "VmRSS");
			peak = rss > peak ? rss : peak;
			closed_fds = e2e_fd_count(s->pid);
			if (closed_fds <= fds0 && t_closed == 0)
				t_closed = e2e_now_ms() - t0;
			e2e_sleep_ms(100);
		}
		if (t_closed != 0)
			break;
	}
	printf("slow readers: %d x 32 MiB at 1 byte/s: server VmRSS %ld kB "
	    "before, %ld kB peak (+%ld kB); closed by idle_timeout after "
	    "%llu ms\n", NREADERS, rss0, peak, peak - rss0,
	    (unsigned long long)t_closed);
	OK(peak - rss0 < 48 * 1024, "memory bounded: +%ld kB for %d slow "
	    "readers of 32 MiB each", peak - rss0, NREADERS);
	OK(t_closed >= 1500 && t_closed < 6000, "idle_timeout (2 s) closed "
	    "the slow readers (after %llu ms)", (unsigned long long)t_closed);
	for (i = 0; i < NREADERS; i++) {
		SSL_free(ssl[i]);
		close(fd[i]);
	}
}

/* ---- thousands of idle connections ------------------------------------ */

/*
 * Poll fd[0..n) for up to timeout_ms; close those the server closed and
 * record how long after connecting that happened. Returns how many.
 */
static size_t
sweep_closed(int *fd, int n, struct pollfd *pfd, const uint64_t *t_conn,
    uint64_t *closed_after, int timeout_ms)
{
	size_t	 nclosed = 0;
	int	 i;

	for (i = 0; i < n; i++) {
		pfd[i].fd = fd[i];
		pfd[i].events = POLLIN;
		pfd[i].revents = 0;
	}
	if (poll(pfd, (nfds_t)n, timeout_ms) <= 0)
		return 0;
	for (i = 0; i < n; i++)
		if (pfd[i].revents != 0 && e2e_peer_closed(fd[i])) {
			closed_after[nclosed++] = e2e_now_ms() - t_conn[i];
			close(fd[i]);
			fd[i] = -1;
		}
	return nclosed;
}

static void
test_many_idle(const char *capsule_dir)
{
	enum { NCONN = 2000, LIMIT = 500 };
	struct e2e_server	 b;
	struct pollfd		*pfd;
	struct reply		 r;
	int			*fd, i, fds0, nopen, nclosed, npending, k;
	uint64_t		*t_conn, *refused, t0, t_start;
	size_t			 nref = 0;

	if (e2e_start(&b, capsule_dir, "max_connections: 500\n"
	    "max_connections_per_ip: 0\nrate_limit: 0\n"
	    "request_timeout: 10\nhandshake_timeout: 10\n") == -1) {
		OK(0, "server B did not start");
		return;
	}
	/*
	 * Counted once the server has answered: what it opens on its
	 * first request (a worker's, the TLS library's) is not a leak.
	 */
	e2e_wait_serving(&b);
	OK(gemini_get(b.gemini_port, NULL, "/", &r) == 0 && r.status == 20,
	    "server B serves");
	reply_free(&r);
	fds0 = e2e_fd_count(b.pid);
	fd = calloc(NCONN, sizeof(*fd));
	pfd = calloc(NCONN, sizeof(*pfd));
	t_conn = calloc(NCONN, sizeof(*t_conn));
	refused = calloc(NCONN, sizeof(*refused));
	/*
	 * Look for closes while still opening, so that a slow opening loop
	 * does not count as the server's delay.
	 */
	t_start = e2e_now_ms();
	for (i = 0; i < NCONN; i++) {
		fd[i] = e2e_connect_from(NULL, NULL, b.gemini_port, 3000, 1);
		t_conn[i] = e2e_now_ms();
		if (i % 100 == 99)
			nref += sweep_closed(fd, i + 1, pfd, t_conn,
			    refused + nref, 0);
	}
	printf("idle: %d connections opened in %llu ms\n", NCONN,
	    (unsigned long long)(e2e_now_ms() - t_start));
	/* For 2.5 s: which ones does the server close? */
	t0 = e2e_now_ms();
	while (e2e_now_ms() - t0 < 2500)
		nref += sweep_closed(fd, NCONN, pfd, t_conn, refused + nref,
		    50);
	nopen = nclosed = npending = 0;
	for (i = 0; i < NCONN; i++) {
		socklen_t len = sizeof(k);

		if (fd[i] == -1) {
			nclosed++;
			continue;
		}
		k = 0;
		getsockopt(fd[i], SOL_SOCKET, SO_ERROR, &k, &len);
		pfd[0].fd = fd[i];
		pfd[0].events = POLLOUT;
		if (k == 0 && poll(pfd, 1, 0) == 1 &&
		    (pfd[0].revents & POLLOUT))
			nopen++;
		else
			npending++;
	}
	qsort(refused, nref, sizeof(*refused), cmp_u64);
	printf("idle: max_connections %d: %d held open, %d closed by the "
	    "server (after p50 %llu ms, max %llu ms), %d not connected; "
	    "server fds %d -> %d\n", LIMIT, nopen, nclosed,
	    (unsigned long long)(nref ? refused[nref / 2] : 0),
	    (unsigned long long)(nref ? refused[nref - 1] : 0), npending,
	    fds0, e2e_fd_count(b.pid));
	OK(nopen <= LIMIT, "the limit holds: %d open <= %d", nopen, LIMIT);
	OK(nopen >= LIMIT * 8 / 10, "up to the limit is served: %d open",
	    nopen);
	OK(nclosed >= NCONN - LIMIT - npending - 50,
	    "the excess was closed: %d", nclosed);
	/*
	 * Refused at once, not held until the 10 s request timeout. The
	 * bound leaves room for one SYN the kernel dropped in the burst
	 * (retransmitted after 1 s) on a loaded machine.
	 */
	OK(nref > 0 && refused[nref / 2] < 2000, "closed at once (p50 %llu ms)",
	    (unsigned long long)(nref ? refused[nref / 2] : 0));
	OK(e2e_fd_count(b.pid) <= fds0 + LIMIT + 4, "server fds bounded (%d)",
	    e2e_fd_count(b.pid));
	OK(gemini_get(b.gemini_port, NULL, "/", &r) == -1 || r.status != 20,
	    "a client over the limit is not served");
	reply_free(&r);

	for (i = 0; i < NCONN; i++)
		if (fd[i] != -1)
			close(fd[i]);
	k = e2e_fds_wait(b.pid, fds0, 5000);
	OK(k <= fds0, "the server let go of them all (fds %d -> %d)", fds0, k);
	t0 = e2e_now_ms();
	OK(gemini_get(b.gemini_port, NULL, "/", &r) == 0 && r.status == 20,
	    "recovered: served again (%llu ms)",
	    (unsigned long long)(e2e_now_ms() - t0));
	reply_free(&r);
	OK(alive(b.pid), "server B alive");
	INT_EQ(e2e_stop(&b), 0, "server B exits 0");
	free(fd);
	free(pfd);
	free(t_conn);
	free(refused);
}

/* ---- random bytes at every stage ---------------------------------------- */

static void
test_random(struct e2e_server *s)
{
	enum { N = 100 };
	unsigned char	 hello[2048], junk[2100];
	size_t		 hellolen, len;
	struct buf	 out, outs[N];
	struct reply	 r;
	SSL		*ssl[N];
	int		 fds[N], i, closed, nhdr, ok_line = 0, n59 = 0;
	int		 ok_gph = 0;

	hellolen = client_hello(hello, sizeof(hello));
	printf("random bytes: seed %#llx\n", (unsigned long long)rng_state);

	/* Before the handshake: a bad record fails at once; a partial one
	 * (SSLv2-style or a long length) waits for handshake_timeout. */
	for (i = 0; i < N; i++) {
		len = 1 + rng() % 2000;
		random_bytes(junk, len);
		fds[i] = e2e_connect_from(NULL, NULL, s->gemini_port, 4000, 0);
		(void)!send(fds[i], junk, len, MSG_NOSIGNAL);
	}
	closed = batch_drain(fds, N, 4000, outs);
	for (i = nhdr = 0; i < N; i++) {
		nhdr += looks_like_header(&outs[i]);
		buf_free(&outs[i]);
	}
	INT_EQ(closed, N, "random before the handshake: all closed");
	INT_EQ(nhdr, 0, "random before the handshake: never a header");

	/* After a real ClientHello. */
	for (i = 0; i < N; i++) {
		len = 1 + rng() % 2000;
		random_bytes(junk, len);
		fds[i] = e2e_connect_from(NULL, NULL, s->gemini_port, 4000, 0);
		(void)!send(fds[i], hello, hellolen, MSG_NOSIGNAL);
		(void)!send(fds[i], junk, len, MSG_NOSIGNAL);
	}
	closed = batch_drain(fds, N, 4000, outs);
	for (i = nhdr = 0; i < N; i++) {
		nhdr += looks_like_header(&outs[i]);
		buf_free(&outs[i]);
	}
	INT_EQ(closed, N, "random after the ClientHello: all closed");
	INT_EQ(nhdr, 0, "random after the ClientHello: never a header");

	/* As TLS records after a finished handshake. */
	for (i = 0; i < N; i++) {
		len = 1 + rng() % 2000;
		random_bytes(junk, len);
		if (i % 2 == 0) {
			junk[0] = 0x17;		/* application data */
			junk[1] = 0x03;
			junk[2] = 0x03;
		}
		fds[i] = e2e_connect_from(NULL, NULL, s->gemini_port, 4000, 0);
		ssl[i] = SSL_new(ctx);
		SSL_set_fd(ssl[i], fds[i]);
		if (SSL_connect(ssl[i]) != 1) {
			close(fds[i]);
			fds[i] = -1;
		} else
			(void)!send(fds[i], junk, len, MSG_NOSIGNAL);
		ERR_clear_error();
	}
	closed = batch_drain(fds, N, 4000, outs);
	for (i = 0; i < N; i++) {
		SSL_free(ssl[i]);
		buf_free(&outs[i]);
	}
	INT_EQ(closed, N, "random TLS records: handshake, then closed");

	for (i = 0; i < N; i++) {
		/* As the request line: CRLF-terminated, or too long. */
		len = i % 2 ? 1 + rng() % 1000 : 1100 + rng() % 900;
		random_bytes(junk, len);
		for (size_t k = 0; k < len; k++)
			if (junk[k] == '\r' || junk[k] == '\n')
				junk[k] = 'x';
		if (i % 2) {
			junk[len++] = '\r';
			junk[len++] = '\n';
		}
		if (gemini_fd(e2e_connect_from(NULL, NULL, s->gemini_port,
		    4000, 0),
		    (char *)junk, len, &r) == 0 && r.close_notify) {
			ok_line++;
			n59 += r.status == 59;
		}
		reply_free(&r);

		/* On Gopher: one line, or too long. */
		len = i % 2 ? 1 + rng() % 1000 : 1100 + rng() % 900;
		random_bytes(junk, len);
		for (size_t k = 0; k < len; k++)
			if (junk[k] == '\n')
				junk[k] = 'x';
		if (i % 2) {
			junk[len++] = '\r';
			junk[len++] = '\n';
		}
		if (e2e_plain(s->gopher_port, (char *)junk, len, &out) == 0 &&
		    out.len >= 5 && out.data[0] == '3' &&
		    strcmp(out.data + out.len - 3, ".\r\n") == 0)
			ok_gph++;
		buf_free(&out);
	}
	INT_EQ(ok_line, N, "random request lines: an answer, close_notify");
	INT_EQ(n59, N, "random request lines: all 59");
	INT_EQ(ok_gph, N, "random Gopher selectors: a type-3 error menu");
	OK(alive(s->pid), "server alive after random bytes");
	OK(gemini_get(s->gemini_port, NULL, "/", &r) == 0 && r.status == 20,
	    "served after random bytes");
	reply_free(&r);
}

/* ---- per-address limits ------------------------------------------------- */

/*
 * Issue 18: TLS handshakes that never send a request count toward the
 * address's rate (2/s, a burst of 3 here): after the burst and a burst
 * more (those would be answered 44), 127.0.0.7 gets no handshake, and
 * the log says so, once.  Another address is served all along.
 */
static void
test_handshake_storm(struct e2e_server *c)
{
	struct reply	 r;
	SSL		*ssl;
	uint64_t	 t0;
	double		 secs;
	char		 cmd[700];
	int		 i, fd, done = 0, refused = 0, allowed, lines;
	FILE		*p;

	t0 = e2e_now_ms();
	for (i = 0; i < 40; i++) {
		if ((fd = e2e_connect_from("127.0.0.7", NULL, c->gemini_port,
		    3000, 0)) == -1)
			continue;
		ssl = SSL_new(ctx);
		SSL_set_fd(ssl, fd);
		if (SSL_connect(ssl) == 1)
			done++;
		else
			refused++;
		ERR_clear_error();
		SSL_free(ssl);
		close(fd);
	}
	secs = (double)(e2e_now_ms() - t0) / 1000;
	/* 3 paid, 3 to a 44, and both buckets' refills at 2/s. */
	allowed = 6 + (int)(secs * 4) + 1;
	OK(done >= 6 && done <= allowed, "handshake storm: %d of 40 in "
	    "%.2f s, at most %d", done, secs, allowed);
	OK(refused >= 40 - allowed, "the rest refused (%d)", refused);
	OK(gemini_get(c->gemini_port, "127.0.0.7", "/", &r) == -1 ||
	    r.status != 20, "127.0.0.7 is not served meanwhile (%d)",
	    r.status);
	reply_free(&r);
	OK(gemini_get(c->gemini_port, "127.0.0.8", "/", &r) == 0 &&
	    r.status == 20, "127.0.0.8 is served meanwhile");
	reply_free(&r);
	snprintf(cmd, sizeof(cmd), "grep -c '127.0.0.7.*TLS handshakes far "
	    "over the request rate' '%s'", c->log);
	lines = -1;
	if ((p = popen(cmd, "r")) != NULL) {
		if (fscanf(p, "%d", &lines) != 1)
			lines = -1;
		pclose(p);
	}
	OK(lines == 1 || (lines == 2 && secs > 9),
	    "the storm makes one log line (%d)", lines);
}

static void
test_per_address(const char *capsule_dir)
{
	struct e2e_server	 c;
	struct reply		 r;
	struct buf		 out;
	int			 held[6], i, fd, nclosed;
	uint64_t		 t0, dt;

	if (e2e_start(&c, capsule_dir, "max_connections_per_ip: 5\n"
	    "rate_limit: 2\nrate_burst: 3\n") == -1) {
		OK(0, "server C did not start");
		return;
	}
	/*
	 * Six idle connections from 127.0.0.5: whichever the workers
	 * accept last (the order is theirs) is closed at once, five stay.
	 * (Not 127.0.0.1: e2e_start()'s probe may not be closed yet.)
	 */
	for (i = 0; i < 6; i++)
		held[i] = e2e_connect_from("127.0.0.5", NULL, c.gemini_port,
		    3000, 0);
	t0 = e2e_now_ms();
	nclosed = 0;
	while (nclosed == 0 && e2e_now_ms() - t0 < 1000) {
		e2e_sleep_ms(20);
		for (i = 0; i < 6; i++)
			if (held[i] != -1 && e2e_peer_closed(held[i])) {
				close(held[i]);
				held[i] = -1;
				nclosed++;
			}
	}
	dt = e2e_now_ms() - t0;
	e2e_sleep_ms(300);		/* and no other goes */
	for (i = 0; i < 6; i++)
		if (held[i] != -1 && e2e_peer_closed(held[i])) {
			close(held[i]);
			held[i] = -1;
			nclosed++;
		}
	INT_EQ(nclosed, 1, "max_connections_per_ip 5: the sixth was closed");
	OK(dt < 1000, "at once (%llu ms)", (unsigned long long)dt);
	OK(gemini_get(c.gemini_port, "127.0.0.2", "/", &r) == 0 &&
	    r.status == 20, "127.0.0.2 is served meanwhile");
	reply_free(&r);
	for (i = 0; i < 6; i++)
		if (held[i] != -1)
			close(held[i]);
	e2e_sleep_ms(200);
	OK(gemini_get(c.gemini_port, "127.0.0.5", "/", &r) == 0 &&
	    r.status == 20, "127.0.0.5 served once its connections closed");
	reply_free(&r);

	/* Rate: 3 at once, then 2 a second. */
	for (i = 0; i < 3; i++) {
		gemini_get(c.gemini_port, "127.0.0.3", "/", &r);
		INT_EQ(r.status, 20, "within the burst");
		reply_free(&r);
	}
	gemini_get(c.gemini_port, "127.0.0.3", "/", &r);
	STR_EQ(r.header, "44 1", "over the rate: 44 and the seconds to wait");
	OK(r.close_notify && r.body.len == strlen("44 1\r\n"),
	    "44 has no body and a clean close");
	reply_free(&r);
	fd = e2e_connect_from("127.0.0.3", NULL, c.gopher_port, 3000, 0);
	(void)!write(fd, "/\r\n", 3);
	buf_init(&out);
	drain(fd, &out);
	close(fd);
	OK(out.len > 0 && out.data[0] == '3' &&
	    strstr(out.data, "Too many requests") != NULL,
	    "Gopher over the rate: a type-3 line (%.60s)",
	    out.data ? out.data : "");
	buf_free(&out);
	OK(gemini_get(c.gemini_port, "127.0.0.4", "/", &r) == 0 &&
	    r.status == 20, "another address has its own bucket");
	reply_free(&r);
	e2e_sleep_ms(600);
	OK(gemini_get(c.gemini_port, "127.0.0.3", "/", &r) == 0 &&
	    r.status == 20, "after half a second, a token again");
	reply_free(&r);
	test_handshake_storm(&c);
	INT_EQ(e2e_stop(&c), 0, "server C exits 0");
}

static const struct harness_test tests[] = {
	NAMED("slowloris"),
	NAMED("wrong_protocols"),
	NAMED("hangups"),
	NAMED("slow_readers"),
	NAMED("random"),
	NAMED("many_idle"),
	NAMED("per_address"),
};

int
main(int argc, char **argv)
{
	struct e2e_server	 a;
	struct reply		 r;
	char			 cmd[600];
	uint64_t		 t0 = e2e_now_ms();

	HARNESS_INIT(argc, argv, tests);

	signal(SIGPIPE, SIG_IGN);
	raise_nofile(8192);
#if defined(__SANITIZE_ADDRESS__)
	/*
	 * ASan keeps freed memory in quarantine (256 MiB): the servers
	 * started from here keep less, so that VmRSS measures what is live.
	 */
	{
		const char *o = getenv("ASAN_OPTIONS");
		char opts[1024];

		snprintf(opts, sizeof(opts), "%s%squarantine_size_mb=8",
		    o ? o : "", o && *o ? ":" : "");
		setenv("ASAN_OPTIONS", opts, 1);
	}
#endif
	if (mkdtemp(top) == NULL)
		return 1;
	make_capsule();
	ctx = e2e_client_ctx(0);
	if (e2e_start(&a, capsule, "request_timeout: 2.5\n"
	    "handshake_timeout: 1.5\nidle_timeout: 2\n"
	    "max_connections: 4000\nmax_connections_per_ip: 0\n"
	    "rate_limit: 0\ntitan_writers: [" WRITER "]\n") == -1) {
		OK(0, "server A did not start");
		return harness_done();
	}
	OK(gemini_get(a.gemini_port, NULL, "/", &r) == 0 && r.status == 20,
	    "server A serves");
	reply_free(&r);

#define PHASE(call) do {						\
	uint64_t t_ = e2e_now_ms();					\
	call;								\
	printf("  %-28s %5llu ms\n", #call,				\
	    (unsigned long long)(e2e_now_ms() - t_));			\
} while (0)
	RUN("slowloris", PHASE(test_slowloris(&a)));
	RUN("wrong_protocols", PHASE(test_wrong_protocols(&a)));
	RUN("hangups", PHASE(test_hangups(&a)));
	RUN("slow_readers", PHASE(test_slow_readers(&a)));
	RUN("random", PHASE(test_random(&a)));
	OK(alive(a.pid), "server A survived everything");
	INT_EQ(e2e_stop(&a), 0, "server A exits 0 on SIGTERM");

	RUN("many_idle", PHASE(test_many_idle(capsule)));
	RUN("per_address", PHASE(test_per_address(capsule)));
#undef PHASE

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	(void)!system(cmd);
	SSL_CTX_free(ctx);
	printf("e2e_hostile: %llu ms in all\n",
	    (unsigned long long)(e2e_now_ms() - t0));
	return harness_done();
}
