/*
 * tlsfloor.c -- what capsuled's TLS costs without sockets or a kernel.
 *
 * One thread plays both ends in memory: an OpenSSL client, and the
 * server side exactly as capsuled runs it (tls_server_new(), tlsconn.c:
 * the same SSL_CTX settings, ticket keys, wire BIO and buffers).  Each
 * round is one Gemini exchange: full TLS 1.3 handshake (or, with
 * --resume, a resumption with the previous round's ticket), the request
 * line, a 4 KB answer, close_notify, and the connection freed.  Only
 * the server side's calls are timed (thread CPU time), so the figure is
 * the floor for capsuled's CPU per request: what OpenSSL itself costs
 * on this machine, plus our thin layer over it.  The rest of what the
 * server spends per request (bench/run.sh's cpu_us/r) is the kernel's
 * loopback TCP, libuv, and cache misses from sharing two cores with
 * the load generator.
 *
 * With --idle, no exchange: it completes --count handshakes and keeps
 * every server side as capsuled keeps a connection that has not sent a
 * request yet (tlsconn_release_buffers()), and prints the heap in use
 * per kept connection (mallinfo2()): the floor for bench/run.sh's
 * idle-1000-tls row, which adds capsuled's struct conn, the kernel's
 * share of RSS and malloc's fragmentation.
 *
 * With --render FILE..., no TLS: the floor under bench/run.sh's
 * first-render rows.  Each Markdown file (front matter and body, as
 * the loader reads it) is rendered once to gemtext and once to Gopher
 * text, each after 20 ms asleep (a CPU that has idled runs the same
 * code slower on this kind of machine, and the server's first render
 * comes after the request's handshake on an otherwise idle worker),
 * timed in thread CPU time; the first file is rendered untimed before,
 * as the server has rendered a post before the measured one.  Prints
 * the medians.  What the server adds to it: the request, the lookup,
 * the page around the post, and the hop through libuv's thread pool.
 *
 * usage: tlsfloor --certs DIR [--count 2000] [--resume | --idle]
 *        tlsfloor --render FILE...
 * output: one key=value line.
 */
#include <getopt.h>
#include <malloc.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/buf.h"
#include "core/log.h"
#include "core/util.h"
#include "content/frontmatter.h"
#include "markdown/render.h"
#include "net/tlsconn.h"

static const char	 request[] = "gemini://localhost/bench-4k\r\n";

struct side {
	SSL		*client;
	BIO		*in, *out;	/* the client's, owned by client */
	struct tlsconn	*server;
	struct buf	 wire;
};

static double		 server_ns;	/* CPU time in the server's calls */

static double
cpu_ns(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void
die(const char *what)
{
	fprintf(stderr, "tlsfloor: %s\n", what);
	ERR_print_errors_fp(stderr);
	exit(1);
}

/* Client output to the server, which reads; returns tlsconn_read(). */
static int
to_server(struct side *s, char *plain, size_t plainlen)
{
	char	 tmp[16384];
	double	 t0;
	int	 n, r;

	t0 = cpu_ns();
	while ((n = BIO_read(s->out, tmp, sizeof(tmp))) > 0)
		if (tlsconn_feed(s->server, tmp, (size_t)n) != 0)
			die("tlsconn_feed failed");
	r = tlsconn_read(s->server, plain, plainlen);
	buf_truncate(&s->wire, 0);
	tlsconn_drain(s->server, &s->wire);
	server_ns += cpu_ns() - t0;
	if (s->wire.len > 0)
		BIO_write(s->in, s->wire.data, (int)s->wire.len);
	return r;
}

/* A client in s, to resume when resume is not NULL; no server yet. */
static void
client_open(SSL_CTX *cctx, SSL_SESSION *resume, struct side *s)
{
	memset(s, 0, sizeof(*s));
	if ((s->client = SSL_new(cctx)) == NULL)
		die("SSL_new");
	s->in = BIO_new(BIO_s_mem());
	s->out = BIO_new(BIO_s_mem());
	BIO_set_mem_eof_return(s->in, -1);
	SSL_set_bio(s->client, s->in, s->out);
	SSL_set_connect_state(s->client);
	SSL_set_tlsext_host_name(s->client, "localhost");
	if (resume != NULL)
		SSL_set_session(s->client, resume);
}

/* One exchange; returns the client's session for the next one. */
static SSL_SESSION *
exchange(SSL_CTX *cctx, struct tls_server *srv, SSL_SESSION *resume,
    const char *body, size_t bodylen, struct side *s, int *resumed)
{
	char		 plain[1024], tmp[16384];
	SSL_SESSION	*next;
	double		 t0;
	int		 i, r = TLSCONN_WANT, n, sent = 0;
	size_t		 got = 0;

	client_open(cctx, resume, s);
	t0 = cpu_ns();
	s->server = tlsconn_new(srv);
	server_ns += cpu_ns() - t0;

	/* Handshake; the request goes, once, with the client's Finished. */
	for (i = 0; i < 8 && r == TLSCONN_WANT; i++) {
		ERR_clear_error();
		if (!sent && (SSL_is_init_finished(s->client) ||
		    SSL_do_handshake(s->client) == 1)) {
			if (SSL_write(s->client, request, sizeof(request) - 1) <= 0)
				die("client write");
			sent = 1;
		}
		r = to_server(s, plain, sizeof(plain));
	}
	if (r != (int)sizeof(request) - 1)
		die("the server did not read the request");
	t0 = cpu_ns();
	if (tlsconn_write(s->server, body, bodylen) != (int)bodylen)
		die("tlsconn_write");
	tlsconn_shutdown(s->server);
	buf_truncate(&s->wire, 0);
	tlsconn_drain(s->server, &s->wire);
	server_ns += cpu_ns() - t0;
	BIO_write(s->in, s->wire.data, (int)s->wire.len);
	while ((n = SSL_read(s->client, tmp, sizeof(tmp))) > 0)
		got += (size_t)n;
	if (got != bodylen)
		die("the client did not get the whole answer");
	*resumed = SSL_session_reused(s->client);
	next = SSL_get1_session(s->client);
	/* Closed cleanly: else SSL_free() marks the session unresumable. */
	SSL_set_shutdown(s->client, SSL_SENT_SHUTDOWN | SSL_RECEIVED_SHUTDOWN);
	t0 = cpu_ns();
	tlsconn_free(s->server);
	server_ns += cpu_ns() - t0;
	SSL_free(s->client);
	buf_free(&s->wire);
	return next;
}

/*
 * One full handshake, no request: the server side, kept as capsuled
 * keeps a connection that is waiting for its request.
 */
static struct tlsconn *
handshake_only(SSL_CTX *cctx, struct tls_server *srv)
{
	struct side	 s;
	struct tlsconn	*server;
	char		 plain[64];
	int		 i;

	client_open(cctx, NULL, &s);
	s.server = tlsconn_new(srv);
	for (i = 0; i < 8 && !(tlsconn_established(s.server) &&
	    SSL_is_init_finished(s.client)); i++) {
		ERR_clear_error();
		(void)SSL_do_handshake(s.client);
		if (to_server(&s, plain, sizeof(plain)) != TLSCONN_WANT)
			die("the handshake failed");
	}
	if (!tlsconn_established(s.server) || !SSL_is_init_finished(s.client))
		die("the handshake did not complete");
	tlsconn_release_buffers(s.server);
	server = s.server;
	SSL_free(s.client);
	buf_free(&s.wire);
	return server;
}

/* --idle: heap in use per connection kept after its handshake. */
static void
run_idle(SSL_CTX *cctx, struct tls_server *srv, long count)
{
	struct tlsconn	**held;
	size_t		  before;
	long		  i;

	if ((held = calloc((size_t)count, sizeof(*held))) == NULL)
		die("out of memory");
	/* A few untimed ones first: the ticket keys, lazy tables. */
	for (i = 0; i < 20; i++)
		tlsconn_free(handshake_only(cctx, srv));
	before = mallinfo2().uordblks;
	for (i = 0; i < count; i++)
		held[i] = handshake_only(cctx, srv);
	printf("mode=idle count=%ld heap_per_conn_bytes=%.0f\n", count,
	    (double)(mallinfo2().uordblks - before) / (double)count);
	for (i = 0; i < count; i++)
		tlsconn_free(held[i]);
	free(held);
}

static int
by_value(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* One render of md to gemtext (gph 0) or Gopher text: thread CPU ns. */
static double
render_once(const char *src, size_t len, int gph)
{
	struct render_opts	 o;
	struct buf		 out = BUF_INIT;
	struct meta		 m;
	struct fm_error		 fe;
	struct timespec		 nap = { 0, 20 * 1000 * 1000 };
	double			 t0, t;

	memset(&o, 0, sizeof(o));
	nanosleep(&nap, NULL);
	t0 = cpu_ns();
	if (frontmatter_parse(src, len, &m, &fe) == -1)
		return -1;
	(gph ? render_gopher : render_gemtext)(src + m.body_off,
	    len - m.body_off, &o, &out);
	t = cpu_ns() - t0;
	meta_free(&m);
	buf_free(&out);
	return t;
}

static int
run_render(int n, char **files)
{
	double	*t[2];
	char	*src;
	size_t	 len;
	int	 i, k;

	t[0] = calloc((size_t)n, sizeof(double));
	t[1] = calloc((size_t)n, sizeof(double));
	for (i = -1; i < n; i++) {
		if ((src = util_read_file(files[i < 0 ? 0 : i], SIZE_MAX,
		    &len)) == NULL) {
			perror(files[i < 0 ? 0 : i]);
			return 1;
		}
		for (k = 0; k < 2; k++) {
			double	 ns = render_once(src, len, k);

			if (ns < 0) {
				fprintf(stderr, "%s: front matter\n",
				    files[i < 0 ? 0 : i]);
				return 1;
			}
			if (i >= 0)
				t[k][i] = ns;
		}
		free(src);
	}
	qsort(t[0], (size_t)n, sizeof(double), by_value);
	qsort(t[1], (size_t)n, sizeof(double), by_value);
	printf("mode=render files=%d gmi_render_us=%.0f gph_render_us=%.0f\n",
	    n, t[0][n / 2] / 1e3, t[1][n / 2] / 1e3);
	free(t[0]);
	free(t[1]);
	return 0;
}

int
main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "certs", required_argument, NULL, 'c' },
		{ "count", required_argument, NULL, 'n' },
		{ "resume", no_argument, NULL, 'r' },
		{ "idle", no_argument, NULL, 'i' },
		{ "render", no_argument, NULL, 'R' },
		{ NULL, 0, NULL, 0 }
	};
	struct tls_server	*srv;
	struct side		 s;
	SSL_CTX			*cctx;
	SSL_SESSION		*sess = NULL, *next;
	const char		*certs = NULL;
	char			 err[512], body[4500];
	long			 count = 2000, i, warm, nresumed = 0;
	int			 ch, resume = 0, idle = 0, render = 0;
	int			 resumed;

	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (ch) {
		case 'c': certs = optarg; break;
		case 'n': count = strtol(optarg, NULL, 10); break;
		case 'r': resume = 1; break;
		case 'i': idle = 1; break;
		case 'R': render = 1; break;
		default: certs = NULL; count = 0; break;
		}
	}
	if (render && optind < argc)
		return run_render(argc - optind, argv + optind);
	if (certs == NULL || count < 1 || count > 1000000 ||
	    (resume && idle)) {
		fprintf(stderr, "usage: tlsfloor --certs DIR [--count N] "
		    "[--resume | --idle]\n       tlsfloor --render FILE...\n");
		return 2;
	}
	log_open(NULL, LOG_LEVEL_WARN);
	if ((srv = tls_server_new(certs, "localhost", err, sizeof(err))) ==
	    NULL) {
		fprintf(stderr, "tlsfloor: %s\n", err);
		return 1;
	}
	if ((cctx = SSL_CTX_new(TLS_client_method())) == NULL)
		die("SSL_CTX_new");
	SSL_CTX_set_verify(cctx, SSL_VERIFY_NONE, NULL);
	SSL_CTX_set_min_proto_version(cctx, TLS1_3_VERSION);
	if (idle) {
		run_idle(cctx, srv, count);
		SSL_CTX_free(cctx);
		tls_server_free(srv);
		return 0;
	}
	memset(body, 'x', sizeof(body));
	memcpy(body, "20 text/gemini\r\n", 16);
	/* A tenth of the rounds, untimed, to warm caches and the ticket. */
	warm = count / 10 + 1;
	for (i = -warm; i < count; i++) {
		if (i == 0)
			server_ns = 0;
		next = exchange(cctx, srv, resume ? sess : NULL, body,
		    sizeof(body), &s, &resumed);
		SSL_SESSION_free(sess);
		sess = next;
		if (i >= 0)
			nresumed += resumed;
	}
	printf("mode=%s count=%ld resumed=%ld server_cpu_us_per_req=%.1f\n",
	    resume ? "resume" : "full", count, nresumed,
	    server_ns / 1e3 / (double)count);
	SSL_SESSION_free(sess);
	SSL_CTX_free(cctx);
	tls_server_free(srv);
	return resume && nresumed != count ? 1 : 0;
}
