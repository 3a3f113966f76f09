/*
 * e2e_gproxy.c -- "proxy:" entries over the real server
 * (docs/operating.md, "Proxying"): a proxy capsuled in front of a second
 * capsuled instance, the backend, both started here.
 *
 *  - a request under the proxy's prefix answers the backend's page
 *    (the request line forwarded as it came; the proxy's
 *    gemini_public_port is the backend's, so both accept it);
 *  - the client's certificate is not forwarded: a CGI program on the
 *    backend sees no TLS_CLIENT_HASH; an entry's client_cert is
 *    presented instead, and the program sees its hash;
 *  - a fingerprint pin: the backend's own answers, another one 43;
 *  - a backend that is down: 43, logged; a backend (a tiny TLS server
 *    this test runs) sending a bad header: 43, logged; one that never
 *    answers: 42 at cgi_timeout, logged.
 */
#include <poll.h>
#include <pwd.h>

#include <openssl/pem.h>

#include "e2e.h"

static SSL_CTX		*ctx;
static char		 top[] = "/tmp/capsuled-e2e-gproxy.XXXXXX";
static char		 capsule[512];
static int		 skipped;
static int		 tmo = 2;	/* cgi_timeout, s: more under valgrind */

static void
skip(const char *why)
{
	skipped++;
	fprintf(stderr, "SKIPPED: %s\n", why);
}

/* capsule/cgi-bin/name: what a program is told of its client. */
static void
who(const char *name)
{
	char	 p[1024];

	snprintf(p, sizeof(p), "%s/cgi-bin/%s", capsule, name);
	test_write(p, "#!/bin/sh\nprintf '20 text/plain\\r\\n'\n"
	    "echo \"hash=${TLS_CLIENT_HASH-(unset)}\"\n"
	    "echo \"url=$GEMINI_URL\"\n");
	chmod(p, 0755);
}

static void
make_capsule(void)
{
	char	 p[1024];

	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		exit(1);
	}
	chmod(top, 0755);		/* nobody must reach the program */
	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	mkdir(capsule, 0755);
	snprintf(p, sizeof(p), "%s/index.md", capsule);
	test_write(p, "# The backend\n");
	snprintf(p, sizeof(p), "%s/files", capsule);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/files/pin", capsule);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/files/page.gmi", capsule);
	test_write(p, "# The backend's own page\n");
	snprintf(p, sizeof(p), "%s/files/pin/page.gmi", capsule);
	test_write(p, "# Pinned\n");
	snprintf(p, sizeof(p), "%s/cgi-bin", capsule);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/cgi-bin/c", capsule);
	mkdir(p, 0755);
	who("who.cgi");
	who("c/who.cgi");
}

/* SHA-256 hex of the certificate in the PEM file path, into hex. */
static void
cert_hash(const char *path, char hex[65])
{
	unsigned char	 md[32];
	unsigned int	 mdlen = 0, i;
	X509		*x = NULL;
	FILE		*f;

	hex[0] = '\0';
	if ((f = fopen(path, "r")) == NULL)
		return;
	x = PEM_read_X509(f, NULL, NULL, NULL);
	fclose(f);
	if (x == NULL)
		return;
	X509_digest(x, EVP_sha256(), md, &mdlen);
	for (i = 0; i < mdlen; i++)
		sprintf(hex + i * 2, "%02x", md[i]);
	X509_free(x);
}

/*
 * The tiny backend: a child on a loopback port that completes the
 * handshake, reads the request line and answers a header that is not
 * Gemini's ("/slow": nothing, for a while).  Returns its pid, *port.
 */
static pid_t
tiny_start(const char *cert, const char *key, int *port)
{
	struct sockaddr_in	 sin;
	socklen_t		 sl = sizeof(sin);
	SSL_CTX			*sctx;
	pid_t			 pid;
	int			 lfd, fd, one = 1;

	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if ((lfd = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		return -1;
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(lfd, (struct sockaddr *)&sin, sizeof(sin)) == -1 ||
	    listen(lfd, 16) == -1 ||
	    getsockname(lfd, (struct sockaddr *)&sin, &sl) == -1) {
		close(lfd);
		return -1;
	}
	*port = ntohs(sin.sin_port);
	if ((pid = fork()) != 0) {
		close(lfd);
		return pid;
	}
	setpgid(0, 0);
	signal(SIGCHLD, SIG_IGN);
	sctx = SSL_CTX_new(TLS_server_method());
	if (SSL_CTX_use_certificate_chain_file(sctx, cert) != 1 ||
	    SSL_CTX_use_PrivateKey_file(sctx, key, SSL_FILETYPE_PEM) != 1)
		_exit(1);
	for (;;) {
		char	 req[1100];
		SSL	*ssl;
		int	 n;

		if ((fd = accept(lfd, NULL, NULL)) == -1)
			continue;
		if (fork() != 0) {
			close(fd);
			continue;
		}
		ssl = SSL_new(sctx);
		SSL_set_fd(ssl, fd);
		if (SSL_accept(ssl) == 1 && (n = SSL_read(ssl, req,
		    sizeof(req) - 1)) > 0) {
			req[n] = '\0';
			if (strstr(req, "/slow") != NULL)
				sleep((unsigned)tmo + 4);
			else
				SSL_write(ssl, "hello\r\n", 7);
			SSL_shutdown(ssl);
		}
		_exit(0);
	}
}

/* A request line for url, sent to the proxy; the whole reply. */
static struct reply
via(const struct e2e_server *p, int bport, SSL_CTX *c, const char *path)
{
	struct reply	 r;
	char		 req[600];

	snprintf(req, sizeof(req), "gemini://localhost:%d%s\r\n", bport,
	    path);
	if (e2e_gemini_raw(p->gemini_port, req, strlen(req), &r, c,
	    "localhost") == -1)
		r.status = -2;
	if (r.body.data == NULL)
		buf_add(&r.body, "", 0);
	buf_addc(&r.body, '\0');
	return r;
}

static void
test_forward(const struct e2e_server *p, int bport, const char *bhash)
{
	struct reply	 r;
	SSL_CTX		*mine;
	char		 hex[65], want[200];

	r = via(p, bport, ctx, "/files/page.gmi");
	OK(strncmp(r.header, "20 text/gemini", 14) == 0,
	    "the backend's page through the proxy: %s", r.header);
	OK(strstr(r.body.data, "The backend's own page") != NULL,
	    "the backend's body: %.80s", r.body.data);
	reply_free(&r);

	mine = e2e_cert_ctx("alice", hex);
	r = via(p, bport, mine, "/cgi-bin/who.cgi");
	STR_EQ(r.header, "20 text/plain", "the backend's program answers");
	OK(strstr(r.body.data, "hash=(unset)") != NULL,
	    "the client's certificate is not forwarded: %s", r.body.data);
	snprintf(want, sizeof(want), "url=gemini://localhost:%d/cgi-bin/"
	    "who.cgi", bport);
	OK(strstr(r.body.data, want) != NULL,
	    "the request line forwarded as it came: %s", r.body.data);
	reply_free(&r);

	r = via(p, bport, mine, "/cgi-bin/c/who.cgi");
	snprintf(want, sizeof(want), "hash=SHA256:%s", bhash);
	OK(r.status == 20 && strstr(r.body.data, want) != NULL,
	    "client_cert is presented to the backend: %s", r.body.data);
	reply_free(&r);
	SSL_CTX_free(mine);

	r = via(p, bport, ctx, "/files/pin/page.gmi");
	OK(r.status == 20 && strstr(r.body.data, "Pinned") != NULL,
	    "the pinned fingerprint: served (%d)", r.status);
	reply_free(&r);
}

static void
test_errors(const struct e2e_server *p, int bport)
{
	struct reply	 r;
	uint64_t	 t0;

	r = via(p, bport, ctx, "/wrongpin");
	STR_EQ(r.header, "43 Backend unavailable",
	    "another certificate than the pinned one: 43");
	reply_free(&r);
	OK(e2e_log_wait(p->log, "is not the fingerprint configured", 0),
	    "the wrong fingerprint logged");

	r = via(p, bport, ctx, "/down/x");
	STR_EQ(r.header, "43 Backend unavailable", "a backend down: 43");
	reply_free(&r);
	OK(e2e_log_wait(p->log, "connect: connection refused", 0),
	    "the refused connect logged");

	r = via(p, bport, ctx, "/bad/x");
	STR_EQ(r.header, "43 Proxy error: bad response header",
	    "a backend's bad header: 43");
	reply_free(&r);
	OK(e2e_log_wait(p->log, "not a Gemini response header", 0),
	    "the bad header logged");

	/*
	 * Under valgrind the client's 5 s read ends before cgi_timeout:
	 * the answer is then read from the access log.
	 */
	t0 = e2e_now_ms();
	r = via(p, bport, ctx, "/bad/slow");
	if (!harness_valgrind()) {
		STR_EQ(r.header, "42 Proxy error: no answer in time",
		    "a backend that does not answer: 42");
		OK(e2e_now_ms() - t0 >= (uint64_t)tmo * 1000 - 500 &&
		    e2e_now_ms() - t0 < (uint64_t)tmo * 1000 + 4000,
		    "answered at cgi_timeout (%d s): %llu ms", tmo,
		    (unsigned long long)(e2e_now_ms() - t0));
	}
	reply_free(&r);
	OK(e2e_log_wait(p->log, "no answer within cgi_timeout",
	    (unsigned)tmo * 1000 + 5000), "the timeout logged");
	OK(e2e_log_wait(p->log, "/bad/slow\" 42 ", 5000),
	    "the timeout answered 42");

	r = via(p, bport, ctx, "/");
	INT_EQ(r.status, 20, "the proxy's own capsule still served");
	reply_free(&r);
}

static const struct harness_test tests[] = {
	NAMED("forward"),
	NAMED("errors"),
};

int
main(int argc, char **argv)
{
	struct e2e_server	 b, p;
	char			 extra[4096], cmd[600], cert[400], key[400];
	char			 bhash[65], pcap[300];
	int			 root = geteuid() == 0, tport = 0, b_up = 0;
	pid_t			 tiny = -1;

	HARNESS_INIT(argc, argv, tests);

	make_capsule();
	ctx = e2e_client_ctx(0);
	if (harness_valgrind())
		tmo = 10;		/* two servers under valgrind: slow */
	if (root && getpwnam("nobody") == NULL) {
		skip("no user nobody: CGI is not run as root");
		goto out;
	}
	snprintf(extra, sizeof(extra), "%scgi: cgi-bin\n",
	    root ? "user: nobody\n" : "");
	if (e2e_start(&b, capsule, extra) == -1) {
		OK(0, "the backend did not start");
		goto out;
	}
	b_up = 1;
	e2e_wait_serving(&b);
	snprintf(cert, sizeof(cert), "%s/certs/cert.pem", b.dir);
	snprintf(key, sizeof(key), "%s/certs/key.pem", b.dir);
	cert_hash(cert, bhash);
	OK(bhash[0] != '\0', "the backend's certificate read");
	tiny = tiny_start(cert, key, &tport);
	OK(tiny > 0, "the tiny backend listens");
	snprintf(pcap, sizeof(pcap), "%s/front", top);
	mkdir(pcap, 0755);
	snprintf(cmd, sizeof(cmd), "%s/index.md", pcap);
	test_write(cmd, "# The proxy's own page\n");
	snprintf(extra, sizeof(extra),
	    "gemini_public_port: %d\n"
	    "cgi_timeout: %d\n"
	    "proxy:\n"
	    "  - {prefix: /files, backend: 'localhost:%d'}\n"
	    "  - {prefix: /cgi-bin, backend: 'localhost:%d'}\n"
	    "  - {prefix: /cgi-bin/c, backend: '127.0.0.1:%d', sni: localhost,"
	    "\n     client_cert: '%s', client_key: '%s'}\n"
	    "  - {prefix: /files/pin, backend: '127.0.0.1:%d', sni: localhost,"
	    "\n     fingerprint: %s}\n"
	    "  - {prefix: /wrongpin, backend: '127.0.0.1:%d', sni: localhost,"
	    "\n     fingerprint: '%064d'}\n"
	    "  - {prefix: /down, backend: '127.0.0.1:%d'}\n"
	    "  - {prefix: /bad, backend: '127.0.0.1:%d'}\n",
	    b.gemini_port, tmo, b.gemini_port, b.gemini_port, b.gemini_port,
	    cert, key,
	    b.gemini_port, bhash, b.gemini_port, 0, e2e_free_port(), tport);
	if (e2e_start(&p, pcap, extra) == -1) {
		OK(0, "the proxy did not start");
		goto out;
	}
	e2e_wait_serving(&p);
	RUN("forward", test_forward(&p, b.gemini_port, bhash));
	RUN("errors", test_errors(&p, b.gemini_port));
	INT_EQ(e2e_stop(&p), 0, "the proxy exits 0");
out:
	if (b_up)
		INT_EQ(e2e_stop(&b), 0, "the backend exits 0");
	if (tiny > 0) {
		kill(-tiny, SIGKILL);
		waitpid(tiny, NULL, 0);
	}
	SSL_CTX_free(ctx);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	(void)!system(cmd);
	printf("%d passed, %d failed, %d skipped\n", harness_passed,
	    harness_failed, skipped);
	return harness_failed > 0;
}
