/*
 * e2e_finger.c -- the Finger surface (finger_port) over the real server,
 * as RFC 1288 and the checklist's edge cases say:
 *
 *  - an empty query and "/W": the site's plan (title, subtitle, author,
 *    the latest posts with their dates and gemini:// URLs, the home on
 *    each surface that listens), CRLF lines, no control character even
 *    when a title holds an ESC, the server closing first;
 *  - a user nobody publishes as: "no such user"; a query outside the
 *    grammar likewise, never looked up; any '@': forwarding denied;
 *  - a query too long; a zone over the whole host: the plan is not
 *    public;
 *  - the access log names the surface.
 */
#include "e2e.h"

static char		 capsule[512];
static struct e2e_server srv;
static int		 fport;

static void
ask(int port, const char *req, struct buf *out)
{
	if (e2e_plain(port, req, strlen(req), out) == -1 || out->data == NULL)
		buf_add(out, "", 0);
	buf_addc(out, '\0');
}

/* Every line of s ends in CRLF; no control byte but CR, LF, TAB. */
static int
clean_crlf(const char *s)
{
	const char	*p;

	for (p = s; *p != '\0'; p++) {
		if (*p == '\n' && (p == s || p[-1] != '\r'))
			return 0;
		if (*p == '\r' && p[1] != '\n')
			return 0;
		if ((unsigned char)*p < 0x20 && *p != '\r' && *p != '\n' &&
		    *p != '\t')
			return 0;
	}
	return p > s && p[-1] == '\n';
}

static void
test_plan(void)
{
	struct buf	 a, b;
	char		 want[200];

	ask(fport, "\r\n", &a);
	HAS(a.data, "Finger test\r\n", "the plan: the title");
	HAS(a.data, "A capsule to finger\r\n", "its subtitle");
	HAS(a.data, "By Ann\r\n", "its author");
	HAS(a.data, "2024-01-02 Hello", "a post with its date");
	snprintf(want, sizeof(want), "gemini://localhost:%d/posts/hello",
	    srv.gemini_port);
	HAS(a.data, want, "and its gemini:// URL");
	snprintf(want, sizeof(want), "Gopher: gopher://localhost:%d/1/",
	    srv.gopher_port);
	HAS(a.data, want, "the home on Gopher");
	OK(strstr(a.data, "Finger: ") == NULL, "not on Finger itself");
	OK(clean_crlf(a.data), "CRLF lines, no control character");
	OK(strstr(a.data, "\x1b") == NULL, "an ESC in a title never sent");
	OK(strstr(a.data, "Secret") == NULL, "a zone's post in no plan");
	ask(fport, "/W \r\n", &b);
	STR_EQ(b.data, a.data, "/W: the same plan");
	buf_free(&b);
	ask(fport, "\n", &b);
	STR_EQ(b.data, a.data, "a bare LF: the same plan");
	buf_free(&b);
	buf_free(&a);
}

static void
test_refusals(void)
{
	struct buf	 a;
	char		*line;

	ask(fport, "nobody\r\n", &a);
	STR_EQ(a.data, "finger: nobody: no such user.\r\n", "nobody");
	buf_free(&a);
	ask(fport, "../etc/passwd\r\n", &a);
	STR_EQ(a.data, "finger: no such user.\r\n", "outside the grammar");
	buf_free(&a);
	ask(fport, "alice@localhost\r\n", &a);
	STR_EQ(a.data, "Finger forwarding service denied\r\n", "forwarding");
	buf_free(&a);
	ask(fport, "@127.0.0.1\r\n", &a);
	STR_EQ(a.data, "Finger forwarding service denied\r\n",
	    "forwarding to an address");
	buf_free(&a);
	line = xmalloc(700);
	memset(line, 'a', 699);
	line[699] = '\0';
	ask(fport, line, &a);
	STR_EQ(a.data, "finger: query too long.\r\n", "600 bytes, no newline");
	buf_free(&a);
	free(line);
	OK(e2e_log_wait(srv.log, "finger \"\" 20", 3000) == 1,
	    "the access log names the surface");
}

/* A zone over the whole host: the plan is not public. */
static void
test_zone(void)
{
	struct e2e_server	 z;
	struct buf		 a;
	char			 extra[200];
	int			 port = e2e_free_port();

	snprintf(extra, sizeof(extra), "finger_port: %d\ncert_zones:\n"
	    "  - path: /\n", port);
	if (e2e_start(&z, capsule, extra) == -1) {
		OK(0, "server did not start");
		return;
	}
	ask(port, "\r\n", &a);
	STR_EQ(a.data, "finger: this plan is not public.\r\n",
	    "a zone over the host");
	buf_free(&a);
	INT_EQ(e2e_stop(&z), 0, "server exits 0");
}

static const struct harness_test tests[] = {
	NAMED("plan"),
	NAMED("refusals"),
	NAMED("zone"),
};

int
main(int argc, char **argv)
{
	char	 top[] = "/tmp/capsuled-e2e-finger.XXXXXX", cmd[600];
	char	 extra[300];

	HARNESS_INIT(argc, argv, tests);
	signal(SIGPIPE, SIG_IGN);
	if (mkdtemp(top) == NULL)
		return 1;
	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	mkdir(capsule, 0755);
	test_put(capsule, "index.md", "---\ntitle: Finger test\nsubtitle: "
	    "A capsule to finger\nauthor: Ann\n---\nHi.\n");
	test_put(capsule, "posts/2024-01-02-hello.md",
	    "---\ntitle: Hello\n---\nHello there.\n");
	test_put(capsule, "posts/2024-01-01-esc.md",
	    "---\ntitle: \"An \\e[2J escape\"\n---\nHi.\n");
	test_put(capsule, "posts/2024-01-03-secret.md",
	    "---\ntitle: Secret\n---\nHush.\n");
	fport = e2e_free_port();
	snprintf(extra, sizeof(extra), "finger_port: %d\nspartan_port: 0\n"
	    "cert_zones:\n  - path: /posts/secret\n", fport);
	if (e2e_start(&srv, capsule, extra) == -1) {
		OK(0, "server did not start");
		return harness_done();
	}
	RUN("plan", test_plan());
	RUN("refusals", test_refusals());
	INT_EQ(e2e_stop(&srv), 0, "server exits 0");
	RUN("zone", test_zone());
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", srv.dir, top);
	(void)!system(cmd);
	return harness_done();
}
