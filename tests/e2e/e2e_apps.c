/*
 * e2e_apps.c -- FastCGI and SCGI backends over the real server
 * (docs/operating.md, "FastCGI and SCGI"):
 *
 *  - "fastcgi:" against a real fcgiwrap (Debian's package, started here
 *    on a Unix socket, running app.sh, which this test writes): the CGI
 *    environment (SCRIPT_NAME the prefix, PATH_INFO, QUERY_STRING,
 *    GEMINI_URL, a configured param; fcgiwrap ends the lines of an
 *    answer without a blank line in CRLF); the connection kept and reused
 *    (FCGI_KEEP_CONN: one opened for many requests in turn); a slow app
 *    answered 42 at cgi_timeout, a crashing one and one with a bad
 *    header 42, a huge answer 42 at cgi_max_output, each logged; twenty
 *    requests at once over max_connections 2 all served;
 *  - "scgi:" against a small SCGI server this test runs (a child
 *    process on a Unix socket): the request's netstring (CONTENT_LENGTH
 *    first, SCGI 1), the answer relayed; slow, crashing and huge
 *    answers as for FastCGI; twenty at once;
 *  - a backend whose socket nobody listens on: 43, logged;
 *  - Gopher never reaches a backend.
 *
 * Skipped (with the reason) when fcgiwrap is not installed.
 */
#include "apps.h"
#include "e2e.h"

static SSL_CTX		*ctx;
static char		 top[] = "/tmp/capsuled-e2e-apps.XXXXXX";
static char		 capsule[512];
static char		 fsock[512], ssock[512];
static int		 skipped;

static void
skip(const char *why)
{
	skipped++;
	fprintf(stderr, "SKIPPED: %s\n", why);
}

static void
make_capsule(void)
{
	char	 p[1024];

	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		exit(1);
	}
	chmod(top, 0755);
	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	mkdir(capsule, 0755);
	snprintf(p, sizeof(p), "%s/index.md", capsule);
	test_write(p, "# Apps\n");
	snprintf(fsock, sizeof(fsock), "%s/fcgi.sock", top);
	snprintf(ssock, sizeof(ssock), "%s/scgi.sock", top);
	snprintf(p, sizeof(p), "%s/app.sh", top);
	test_write(p, "#!/bin/sh\n"
	    "case \"$PATH_INFO\" in\n"
	    "/slow) sleep 10;;\n"
	    "/crash) kill -9 $$;;\n"
	    "/bad) printf 'hello\\r\\n'; exit 0;;\n"
	    "/big) printf '20 text/plain\\r\\n'; i=0\n"
	    "\twhile [ $i -lt 400 ]; do\n"
	    "\t\techo 0123456789012345678901234567890123456789; i=$((i+1))\n"
	    "\tdone; exit 0;;\n"
	    "esac\n"
	    "printf '20 text/plain\\r\\n'\n"
	    "for v in SCRIPT_NAME PATH_INFO QUERY_STRING GEMINI_URL"
	    " GATEWAY_INTERFACE APP_NAME; do\n"
	    "\teval \"val=\\${$v-(unset)}\"\n"
	    "\tprintf '%%s=%%s\\n' \"$v\" \"$val\"\n"
	    "done\n");
	chmod(p, 0755);
}

static void
expect(const struct e2e_server *s, const char *path, const char *header,
    const char *why)
{
	struct reply	 r = e2e_gemini_get(s->gemini_port, ctx, "%s", path);

	STR_EQ(r.header, header, why);
	reply_free(&r);
}

/* n requests for path at once: how many answered 20 with want in it. */
static int
at_once(const struct e2e_server *s, int n, const char *path,
    const char *want)
{
	pid_t	 kids[32];
	int	 i, st, ok = 0;

	for (i = 0; i < n; i++)
		if ((kids[i] = fork()) == 0) {
			struct reply r = e2e_gemini_get(s->gemini_port, ctx,
			    "%s", path);

			_exit(r.status == 20 && r.body.data != NULL &&
			    strstr(r.body.data, want) != NULL ? 0 : 1);
		}
	for (i = 0; i < n; i++)
		if (kids[i] > 0 && waitpid(kids[i], &st, 0) == kids[i] &&
		    WIFEXITED(st) && WEXITSTATUS(st) == 0)
			ok++;
	return ok;
}

static void
test_fastcgi(const struct e2e_server *s)
{
	struct reply	 r;
	uint64_t	 t0;
	int		 i, before;

	r = e2e_gemini_get(s->gemini_port, ctx, "/fcgi/env/x?a%%20b");
	STR_EQ(r.header, "20 text/plain", "fastcgi: the app answers");
	OK(r.body.data != NULL &&
	    strstr(r.body.data, "SCRIPT_NAME=/fcgi\r\n") != NULL &&
	    strstr(r.body.data, "PATH_INFO=/env/x\r\n") != NULL &&
	    strstr(r.body.data, "QUERY_STRING=a%20b\r\n") != NULL &&
	    strstr(r.body.data, "GATEWAY_INTERFACE=CGI/1.1\r\n") != NULL &&
	    strstr(r.body.data, "APP_NAME=guestbook\r\n") != NULL &&
	    strstr(r.body.data, "GEMINI_URL=gemini://localhost") != NULL,
	    "fastcgi: the CGI environment, and params: %s",
	    r.body.data != NULL ? r.body.data : "(none)");
	reply_free(&r);

	/* Kept open: requests in turn use the connections there are. */
	before = e2e_log_count(s, "fcgi.sock: new connection");
	for (i = 0; i < 10; i++)
		expect(s, "/fcgi/env", "20 text/plain", "fastcgi: in turn");
	OK(e2e_log_count(s, "fcgi.sock: new connection") - before <= 2,
	    "fastcgi: 10 requests in turn opened at most one connection "
	    "per worker (%d)", e2e_log_count(s,
	    "fcgi.sock: new connection") - before);

	t0 = e2e_now_ms();
	expect(s, "/fcgi/slow", "42 CGI error: no answer in time",
	    "fastcgi: a slow app: 42");
	OK(e2e_now_ms() - t0 >= 1500 && e2e_now_ms() - t0 < 6000,
	    "fastcgi: answered at cgi_timeout (2 s): %llu ms",
	    (unsigned long long)(e2e_now_ms() - t0));
	OK(e2e_log_wait(s->log, "fcgi.sock: no answer within cgi_timeout",
	    0), "fastcgi: the timeout logged");
	expect(s, "/fcgi/crash", "42 CGI error: bad response header",
	    "fastcgi: a crashing app: 42");
	expect(s, "/fcgi/bad", "42 CGI error: bad response header",
	    "fastcgi: a bad header: 42");
	OK(e2e_log_wait(s->log, "fcgi.sock: not a Gemini response header",
	    0), "fastcgi: the bad header logged");
	expect(s, "/fcgi/big", "42 CGI error: too much output",
	    "fastcgi: a huge answer: 42");
	OK(e2e_log_wait(s->log, "fcgi.sock: more than 8192 bytes", 0),
	    "fastcgi: the size limit logged");
	/*
	 * A kept connection holds an fcgiwrap child (8): 2 workers x 2,
	 * and the slow app's child is still asleep.
	 */
	INT_EQ(at_once(s, 20, "/fcgi/env", "PATH_INFO=/env"), 20,
	    "fastcgi: 20 requests at once, all served");
	expect(s, "/fcgi/env", "20 text/plain", "fastcgi: still serving");
}

static void
test_scgi(const struct e2e_server *s)
{
	struct reply	 r;
	uint64_t	 t0;

	r = e2e_gemini_get(s->gemini_port, ctx, "/scgi/here?q");
	STR_EQ(r.header, "20 text/plain", "scgi: the app answers");
	OK(r.body.data != NULL &&
	    strstr(r.body.data, "first=CONTENT_LENGTH\n") != NULL &&
	    strstr(r.body.data, "SCGI=1\n") != NULL &&
	    strstr(r.body.data, "SCRIPT_NAME=/scgi\n") != NULL &&
	    strstr(r.body.data, "PATH_INFO=/here\n") != NULL &&
	    strstr(r.body.data, "QUERY_STRING=q\n") != NULL,
	    "scgi: the request's netstring: %s",
	    r.body.data != NULL ? r.body.data : "(none)");
	reply_free(&r);
	/* A run of '/' is one (core/pathrule.h); the two still add up. */
	r = e2e_gemini_get(s->gemini_port, ctx, "//scgi//here");
	OK(r.body.data != NULL &&
	    strstr(r.body.data, "SCRIPT_NAME=//scgi\n") != NULL &&
	    strstr(r.body.data, "PATH_INFO=//here\n") != NULL,
	    "scgi: runs of '/': %s %s", r.header,
	    r.body.data != NULL ? r.body.data : "(none)");
	reply_free(&r);
	t0 = e2e_now_ms();
	expect(s, "/scgi/slow", "42 CGI error: no answer in time",
	    "scgi: a slow app: 42");
	OK(e2e_now_ms() - t0 < 6000, "scgi: answered at cgi_timeout");
	expect(s, "/scgi/crash", "42 CGI error: bad response header",
	    "scgi: a crashing app: 42");
	expect(s, "/scgi/big", "42 CGI error: too much output",
	    "scgi: a huge answer: 42");
	INT_EQ(at_once(s, 20, "/scgi/x", "PATH_INFO=/x"), 20,
	    "scgi: 20 requests at once, all served");
}

static void
test_errors(const struct e2e_server *s)
{
	struct buf	 out;
	const char	 req[] = "/fcgi/env\r\n";
	char		*g = NULL;

	expect(s, "/nobody/x", "43 Backend unavailable",
	    "no server on the socket: 43");
	OK(e2e_log_wait(s->log, "nobody.sock: connect:", 0),
	    "the failed connect logged");
	if (e2e_plain(s->gopher_port, req, sizeof(req) - 1, &out) == 0) {
		buf_addc(&out, '\0');
		g = buf_release(&out);
	}
	OK(g != NULL && strstr(g, "SCRIPT_NAME") == NULL,
	    "Gopher never reaches a backend");
	free(g);
	expect(s, "/", "20 text/gemini; charset=utf-8; lang=en", "the rest of the capsule is served");
}

static const struct harness_test tests[] = {
	NAMED("fastcgi"),
	NAMED("scgi"),
	NAMED("errors"),
};

int
main(int argc, char **argv)
{
	struct e2e_server	 s;
	char			 extra[2048], cmd[600];
	pid_t			 fw = -1, sc = -1;

	HARNESS_INIT(argc, argv, tests);

	make_capsule();
	ctx = e2e_client_ctx(0);
	if (!apps_have_fcgiwrap()) {
		skip("fcgiwrap is not installed (Debian package fcgiwrap)");
		goto out;
	}
	fw = apps_fcgiwrap(fsock, 8);
	sc = apps_scgi(ssock);
	OK(apps_socket_wait(fsock, 5000), "fcgiwrap listens");
	snprintf(extra, sizeof(extra),
	    "cgi_timeout: 2\ncgi_max_output: 8K\ncgi_max_programs: 40\n"
	    "fastcgi:\n"
	    "  - prefix: /fcgi/\n"
	    "    socket: unix:%s\n"
	    "    params: {SCRIPT_FILENAME: %s/app.sh, APP_NAME: guestbook}\n"
	    "    max_connections: 2\n"
	    "  - {prefix: /nobody, socket: 'unix:%s/nobody.sock'}\n"
	    "scgi:\n"
	    "  - {prefix: /scgi, socket: 'unix:%s', max_connections: 4}\n",
	    fsock, top, top, ssock);
	if (e2e_start(&s, capsule, extra) == -1) {
		OK(0, "server did not start");
		goto out;
	}
	RUN("fastcgi", test_fastcgi(&s));
	RUN("scgi", test_scgi(&s));
	RUN("errors", test_errors(&s));
	INT_EQ(e2e_stop(&s), 0, "exits 0 with connections kept open");
out:
	apps_kill(fw);
	apps_kill(sc);
	SSL_CTX_free(ctx);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	(void)!system(cmd);
	printf("%d passed, %d failed, %d skipped\n", harness_passed,
	    harness_failed, skipped);
	return harness_failed > 0;
}
