/*
 * e2e_spartan.c -- the Spartan surface (spartan_port) over the real
 * server, beside Gemini and Gopher, with raw requests on a socket:
 *
 *  - the home page in gemtext, "2 text/gemini" without lang; a directory
 *    without its slash "3 /path/"; not found, a bad request, another
 *    host, a path with dot segments: "4 ..." and no body;
 *  - search: no data is a page with the prompt line "=: /search" (which
 *    Gemini never sees: it asks with 10), the data block is the query;
 *  - a certificate zone: "4 ...", its content never sent, its page in no
 *    list;
 *  - a data block announced and never sent whole, a line too long, a
 *    length over the cap: the server answers or closes, and serves on;
 *  - the access log names the surface.
 */
#include "e2e.h"

static char		 capsule[512];
static struct e2e_server srv;
static int		 sport;
static SSL_CTX		*anon;

/* Send req as is; what came back, NUL-terminated (buf_free it). */
static void
ask(const char *req, size_t len, struct buf *out)
{
	if (e2e_plain(sport, req, len, out) == -1 || out->data == NULL)
		buf_add(out, "", 0);
	buf_addc(out, '\0');
}

/* The first line of an answer to "localhost path 0". */
static void
expect(const char *path, const char *want, const char *what)
{
	struct buf	 b;
	char		*req;

	req = xasprintf("localhost %s 0\r\n", path);
	ask(req, strlen(req), &b);
	OK(strncmp(b.data, want, strlen(want)) == 0, "%s: %s: got \"%.60s\"",
	    what, path, b.data);
	/* Only 2 has a body. */
	if (b.data[0] != '2')
		OK(strchr(b.data, '\n') == b.data + strlen(b.data) - 1,
		    "%s: no body after the status line", what);
	buf_free(&b);
	free(req);
}

static void
test_pages(void)
{
	struct buf	 b;

	ask("localhost / 0\r\n", 15, &b);
	HAS(b.data, "2 text/gemini; charset=utf-8\r\n", "the home page: 2");
	HAS(b.data, "# Spartan test", "the home page: its title");
	OK(strstr(b.data, "lang=") == NULL, "no lang parameter");
	OK(strstr(b.data, "Private") == NULL, "a zone's page in no list");
	buf_free(&b);
	ask("localhost /posts/hello 0\n", 25, &b);	/* a bare LF */
	HAS(b.data, "Hello there", "a post, with a bare LF");
	buf_free(&b);
	expect("/posts", "3 /posts/\r\n", "a directory without its slash");
	expect("/files/a.txt", "2 text/plain", "a file");
	expect("/nope", "4 ", "not found");
	expect("/../etc/passwd", "4 ", "a dot segment");
	expect("/a%2fb", "4 ", "an encoded slash");
	expect("/private", "4 ", "a certificate zone");
	ask("other.example / 0\r\n", 19, &b);
	HAS(b.data, "4 No proxying to other hosts", "another host");
	buf_free(&b);
	ask("localhost  / 0\r\n", 16, &b);
	OK(b.data[0] == '4', "two spaces: 4");
	buf_free(&b);
	ask("localhost /private 0\r\n", 22, &b);
	OK(strstr(b.data, "secret") == NULL, "the zone's content never sent");
	buf_free(&b);
}

static void
test_search(void)
{
	struct reply	 r;
	struct buf	 b;

	ask("localhost /search 0\r\n", 21, &b);
	HAS(b.data, "2 text/gemini", "search without data: a page");
	HAS(b.data, "\n=: /search ", "with the prompt line");
	buf_free(&b);
	ask("localhost /search 5\r\nhello", 26, &b);
	HAS(b.data, "Results for: hello", "the data block is the query");
	HAS(b.data, "=> /posts/hello", "and finds the post");
	buf_free(&b);
	ask("localhost /search 3\r\nabcEXTRA", 30, &b);
	HAS(b.data, "Results for: abc", "exactly the length announced");
	buf_free(&b);
	ask("localhost /search 2\r\n\xff\xfe", 23, &b);
	OK(b.data[0] == '4', "data that is not UTF-8 text: 4");
	buf_free(&b);
	r = e2e_gemini_get(srv.gemini_port, anon, "/search");
	INT_EQ(r.status, 10, "Gemini asks with 10");
	OK(r.body.data == NULL || strstr(r.body.data, "=:") == NULL,
	    "and never sees a prompt line");
	reply_free(&r);
}

static void
test_hostile(void)
{
	struct buf	 b;
	char		*line;
	uint64_t	 t0;
	int		 fd, closed = 0;

	/* Announced, never sent whole: nothing answered, no crash. */
	if ((fd = e2e_connect(sport, 2000)) != -1) {
		(void)!write(fd, "localhost /search 5\r\nab", 23);
		shutdown(fd, SHUT_WR);
		t0 = e2e_now_ms();
		while (!(closed = e2e_peer_closed(fd)) &&
		    e2e_now_ms() - t0 < 3000)
			e2e_sleep_ms(20);
		OK(closed, "a short data block: closed, unanswered");
		close(fd);
	}
	ask("localhost /search 5000\r\n", 24, &b);
	HAS(b.data, "4 Request too large", "a length over the cap, at once");
	buf_free(&b);
	line = xmalloc(3000);
	memset(line, 'a', 3000);
	memcpy(line, "localhost /", 11);
	ask(line, 3000, &b);
	HAS(b.data, "4 Request too long", "a line over the cap");
	buf_free(&b);
	free(line);
	expect("/", "2 text/gemini", "still serving");
	OK(e2e_log_wait(srv.log, "spartan \"localhost / 0\" 20", 3000) == 1,
	    "the access log names the surface");
}

static const struct harness_test tests[] = {
	NAMED("pages"),
	NAMED("search"),
	NAMED("hostile"),
};

int
main(int argc, char **argv)
{
	char	 top[] = "/tmp/capsuled-e2e-spartan.XXXXXX", cmd[600];
	char	 extra[300];

	HARNESS_INIT(argc, argv, tests);
	signal(SIGPIPE, SIG_IGN);
	if (mkdtemp(top) == NULL)
		return 1;
	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	mkdir(capsule, 0755);
	test_put(capsule, "index.md", "---\ntitle: Spartan test\n---\nHi.\n");
	test_put(capsule, "posts/2024-01-02-hello.md",
	    "---\ntitle: Hello\n---\nHello there.\n");
	test_put(capsule, "pages/private.md",
	    "---\ntitle: Private\n---\nA secret.\n");
	test_put(capsule, "files/a.txt", "a file\n");
	sport = e2e_free_port();
	snprintf(extra, sizeof(extra), "spartan_port: %d\n"
	    "cert_zones:\n  - path: /private\n", sport);
	anon = e2e_client_ctx(0);
	if (e2e_start(&srv, capsule, extra) == -1) {
		OK(0, "server did not start");
		return harness_done();
	}
	RUN("pages", test_pages());
	RUN("search", test_search());
	RUN("hostile", test_hostile());
	INT_EQ(e2e_stop(&srv), 0, "server exits 0");
	SSL_CTX_free(anon);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", srv.dir, top);
	(void)!system(cmd);
	return harness_done();
}
