/*
 * e2e_http.c -- the web view (http_port) over the real server, beside
 * Gemini and Gopher, with raw requests on a socket:
 *
 *  - pages in HTML (home, a post, a listing, a gemtext file of files/
 *    converted), a file with its type, the feed as Atom; a directory
 *    without its slash 301 with Location; not found 404 as a small page;
 *    a certificate zone 403 with X-Robots-Tag and its content never
 *    sent; a path robots.txt keeps out X-Robots-Tag; another Host 421;
 *    POST 405 with Allow; HEAD the header alone;
 *  - ETag and Last-Modified, and 304 for each;
 *  - keep-alive: requests in turn and pipelined on one connection, the
 *    close a client asks for (1.0, "Connection: close"), the limit of
 *    requests a connection;
 *  - bounded heads (size, fields), a slow client closed at the request
 *    timeout while others are served;
 *  - the access log names the surface, one line per request.
 */
#include "e2e.h"
#include "proto/http.h"
#include "site/http_front.h"

static char		 capsule[512];
static struct e2e_server srv;
static int		 hport;

/* One answer read off a connection: its head and body. */
struct answer {
	int		 status;	/* -1: none */
	char		 head[4096];
	struct buf	 body;
};

/* The value of field name in a's head, copied into v; 0 if absent. */
static int
field(const struct answer *a, const char *name, char *v, size_t size)
{
	char	 want[64];
	const char *p, *e;

	snprintf(want, sizeof(want), "\r\n%s: ", name);
	if ((p = strcasestr(a->head, want)) == NULL)
		return 0;
	p += strlen(want);
	e = strstr(p, "\r\n");
	snprintf(v, size, "%.*s", (int)(e != NULL ? e - p : 0), p);
	return 1;
}

/*
 * Read one answer from fd: the head, then as many body bytes as it
 * says (none after HEAD or a 304).  -1 when the connection closed first.
 */
static int
read_answer(int fd, int head_only, struct answer *a)
{
	static char	 pend[65536];
	static size_t	 npend;
	static int	 pfd = -1;
	char		 chunk[16384], cl[32];
	char		*e;
	size_t		 want, hlen;
	ssize_t		 n;

	if (pfd != fd)
		npend = 0;
	pfd = fd;
	a->status = -1;
	a->head[0] = '\0';
	buf_init(&a->body);
	for (;;) {
		pend[npend] = '\0';
		if ((e = strstr(pend, "\r\n\r\n")) != NULL)
			break;
		if ((n = read(fd, chunk, sizeof(chunk))) <= 0)
			return -1;
		if (npend + (size_t)n >= sizeof(pend) - 1)
			return -1;
		memcpy(pend + npend, chunk, (size_t)n);
		npend += (size_t)n;
	}
	hlen = (size_t)(e + 4 - pend);
	snprintf(a->head, sizeof(a->head), "%.*s", (int)hlen, pend);
	a->status = atoi(pend + 9);
	memmove(pend, pend + hlen, npend - hlen);
	npend -= hlen;
	want = 0;
	if (!head_only && a->status != 304 && field(a, "Content-Length", cl,
	    sizeof(cl)))
		want = (size_t)strtoull(cl, NULL, 10);
	while (npend < want) {
		if ((n = read(fd, chunk, sizeof(chunk))) <= 0)
			return -1;
		memcpy(pend + npend, chunk, (size_t)n);
		npend += (size_t)n;
	}
	buf_add(&a->body, pend, want);
	buf_addc(&a->body, '\0');
	memmove(pend, pend + want, npend - want);
	npend -= want;
	return 0;
}

/* GET path on a new connection that closes after it. */
static void
get(const char *path, const char *fields, struct answer *a)
{
	char	*req;
	int	 fd;

	a->status = -1;
	buf_init(&a->body);
	req = xasprintf("GET %s HTTP/1.1\r\nHost: localhost\r\n%s"
	    "Connection: close\r\n\r\n", path, fields != NULL ? fields : "");
	if ((fd = e2e_connect(hport, 5000)) != -1) {
		if (write(fd, req, strlen(req)) == (ssize_t)strlen(req))
			(void)read_answer(fd, 0, a);
		close(fd);
	}
	if (a->body.data == NULL)
		buf_addc(&a->body, '\0');
	free(req);
}

static void
expect(const char *path, int status, const char *has, const char *what)
{
	struct answer	 a;

	get(path, NULL, &a);
	INT_EQ(a.status, status, what);
	if (has != NULL)
		HAS(a.head, has, what);
	buf_free(&a.body);
}

static void
test_pages(void)
{
	struct answer	 a;
	char		 v[256];

	get("/", NULL, &a);
	INT_EQ(a.status, 200, "the home page");
	HAS(a.head, "Content-Type: text/html; charset=utf-8\r\n", "in HTML");
	HAS(a.head, "Content-Language: en\r\n", "its language");
	HAS(a.body.data, "<title>Web test</title>", "its title");
	HAS(a.body.data, "<link rel=\"alternate\" title=\"Gemini\" "
	    "href=\"gemini://localhost:", "its Gemini address");
	HAS(a.body.data, "<link rel=\"alternate\" title=\"Gopher\" "
	    "href=\"gopher://localhost:", "its Gopher address");
	OK(strstr(a.body.data, "<script") == NULL, "no script");
	OK(strstr(a.body.data, "Private") == NULL, "a zone's page unlisted");
	buf_free(&a.body);
	get("/posts/hello", NULL, &a);
	HAS(a.body.data, "<p>Hello <strong>there</strong>.</p>",
	    "a post's Markdown as HTML");
	HAS(a.body.data, "href=\"/posts/second\"", "a link to a .md post");
	buf_free(&a.body);
	get("/posts", NULL, &a);
	INT_EQ(a.status, 301, "a directory without its slash");
	OK(field(&a, "Location", v, sizeof(v)) && strcmp(v, "/posts/") == 0,
	    "Location: /posts/");
	buf_free(&a.body);
	get("/nope", NULL, &a);
	INT_EQ(a.status, 404, "not found");
	HAS(a.body.data, "<h1>404 Not Found</h1>", "a small page");
	buf_free(&a.body);
	get("/private", NULL, &a);
	INT_EQ(a.status, 403, "a certificate zone: 403");
	HAS(a.head, "X-Robots-Tag: noindex\r\n", "kept from indexes");
	OK(strstr(a.body.data, "secret") == NULL, "its content never sent");
	buf_free(&a.body);
	expect("/files/a.txt", 200, "Content-Type: text/plain", "a file");
	get("/files/page.gmi", NULL, &a);
	HAS(a.head, "Content-Type: text/html", "a gemtext file, converted");
	HAS(a.body.data, "<h1>A gemtext page</h1>", "its heading");
	HAS(a.body.data, "<li><a href=\"/posts/hello\">Hello</a></li>",
	    "its links");
	buf_free(&a.body);
	get("/files/", NULL, &a);
	HAS(a.body.data, "<h1>Index of /files/</h1>", "a listing");
	buf_free(&a.body);
	expect("/atom.xml", 200, "Content-Type: application/atom+xml",
	    "the feed");
	get("/robots.txt", NULL, &a);
	HAS(a.body.data, "Disallow: /secret-notes", "robots.txt");
	buf_free(&a.body);
	expect("/secret-notes/", 404, "X-Robots-Tag: noindex",
	    "what robots.txt keeps out: noindex");
	expect("/posts/hello", 200, NULL, "a page robots.txt allows");
	get("/posts/hello", NULL, &a);
	OK(strstr(a.head, "X-Robots-Tag") == NULL, "and no X-Robots-Tag");
	buf_free(&a.body);
	get("/search?q=hello", NULL, &a);
	HAS(a.body.data, "href=\"/posts/hello\"", "a search by form");
	buf_free(&a.body);
	get("/search", NULL, &a);
	HAS(a.body.data, "<form method=\"get\" role=\"search\" "
	    "action=\"/search\">", "the search's form");
	buf_free(&a.body);
}

/* One raw request on a new connection; what came back (until close). */
static void
raw_n(const char *req, size_t len, struct buf *out)
{
	if (e2e_plain(hport, req, len, out) == -1 || out->data == NULL)
		buf_add(out, "", 0);
	buf_addc(out, '\0');
}

static void
raw(const char *req, struct buf *out)
{
	raw_n(req, strlen(req), out);
}

/* Send s on fd. */
static void
say(int fd, const char *s)
{
	(void)!write(fd, s, strlen(s));
}

static void
test_refusals(void)
{
	struct buf	 b;
	struct answer	 a;
	int		 fd;

	raw("GET / HTTP/1.1\r\nHost: other.example\r\nConnection: close\r\n"
	    "\r\n", &b);
	HAS(b.data, "HTTP/1.1 421 ", "another host: 421, no proxying");
	buf_free(&b);
	raw("GET http://other.example/ HTTP/1.1\r\nHost: localhost\r\n"
	    "Connection: close\r\n\r\n", &b);
	HAS(b.data, "HTTP/1.1 421 ", "an absolute URL of another host: 421");
	buf_free(&b);
	raw("POST / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
	    "\r\n", &b);
	HAS(b.data, "HTTP/1.1 405 ", "POST: 405");
	HAS(b.data, "Allow: GET, HEAD\r\n", "with Allow");
	buf_free(&b);
	raw("GET / HTTP/1.1\r\n\r\n", &b);
	HAS(b.data, "HTTP/1.1 400 ", "1.1 without Host: 400");
	HAS(b.data, "Connection: close\r\n", "and the connection closes");
	buf_free(&b);
	raw("GET / HTTP/2.0\r\nHost: localhost\r\n\r\n", &b);
	HAS(b.data, "HTTP/1.1 505 ", "HTTP/2.0: 505");
	buf_free(&b);
	/* HEAD: the header of GET's answer, no body. */
	if ((fd = e2e_connect(hport, 5000)) != -1) {
		say(fd, "HEAD /posts/hello HTTP/1.1\r\nHost: localhost"
		    "\r\n\r\nGET /files/a.txt HTTP/1.1\r\nHost: localhost\r\n"
		    "\r\n");
		OK(read_answer(fd, 1, &a) == 0 && a.status == 200, "HEAD: 200");
		HAS(a.head, "Content-Length: ", "HEAD: the length of the body");
		buf_free(&a.body);
		OK(read_answer(fd, 0, &a) == 0 && a.status == 200 &&
		    strcmp(a.body.data, "a file\n") == 0,
		    "the next answer right after: no body was sent");
		buf_free(&a.body);
		close(fd);
	}
}

static void
test_conditional(void)
{
	struct answer	 a, b;
	char		 etag[128], lm[64], f[256];

	get("/posts/hello", NULL, &a);
	OK(field(&a, "ETag", etag, sizeof(etag)), "an ETag");
	OK(field(&a, "Last-Modified", lm, sizeof(lm)), "a Last-Modified");
	snprintf(f, sizeof(f), "If-None-Match: %s\r\n", etag);
	get("/posts/hello", f, &b);
	INT_EQ(b.status, 304, "If-None-Match: 304");
	OK(b.body.len <= 1, "no body");
	HAS(b.head, etag, "the tag again");
	buf_free(&b.body);
	get("/posts/hello", "If-None-Match: \"other\"\r\n", &b);
	INT_EQ(b.status, 200, "another tag: 200");
	buf_free(&b.body);
	snprintf(f, sizeof(f), "If-Modified-Since: %s\r\n", lm);
	get("/posts/hello", f, &b);
	INT_EQ(b.status, 304, "If-Modified-Since: 304");
	buf_free(&b.body);
	get("/posts/hello", "If-Modified-Since: Sun, 06 Nov 1994 08:49:37 GMT"
	    "\r\n", &b);
	INT_EQ(b.status, 200, "modified since: 200");
	buf_free(&b.body);
	get("/files/a.txt", NULL, &b);
	OK(field(&b, "ETag", etag, sizeof(etag)), "a file's ETag");
	buf_free(&b.body);
	snprintf(f, sizeof(f), "If-None-Match: W/%s\r\n", etag);
	get("/files/a.txt", f, &b);
	INT_EQ(b.status, 304, "a file, weakly compared: 304");
	buf_free(&b.body);
	buf_free(&a.body);
}

static void
test_keepalive(void)
{
	struct answer	 a;
	struct buf	 b, pipe = BUF_INIT;
	char		 v[64];
	int		 fd, i, n, closed;
	uint64_t	 t0;

	if ((fd = e2e_connect(hport, 5000)) == -1) {
		OK(0, "connect");
		return;
	}
	/* In turn on one connection. */
	for (i = 0; i < 3; i++) {
		say(fd, "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
		OK(read_answer(fd, 0, &a) == 0 && a.status == 200,
		    "request %d on one connection", i + 1);
		OK(!field(&a, "Connection", v, sizeof(v)), "kept");
		buf_free(&a.body);
	}
	/* Pipelined: five at once, five answers in order. */
	for (i = 0; i < 5; i++)
		buf_printf(&pipe, "GET /%s HTTP/1.1\r\nHost: localhost\r\n\r\n",
		    i % 2 ? "files/a.txt" : "posts/hello");
	(void)!write(fd, pipe.data, pipe.len);
	for (i = 0, n = 0; i < 5; i++) {
		if (read_answer(fd, 0, &a) == 0 && a.status == 200 &&
		    (i % 2 ? strcmp(a.body.data, "a file\n") == 0 :
		    strstr(a.body.data, "Hello") != NULL))
			n++;
		buf_free(&a.body);
	}
	INT_EQ(n, 5, "five pipelined requests, five answers in order");
	/* Connection: close ends it. */
	say(fd, "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: "
	    "close\r\n\r\n");
	OK(read_answer(fd, 0, &a) == 0 && field(&a, "Connection", v,
	    sizeof(v)) && strcmp(v, "close") == 0, "close asked, said");
	buf_free(&a.body);
	t0 = e2e_now_ms();
	while (!(closed = e2e_peer_closed(fd)) && e2e_now_ms() - t0 < 3000)
		e2e_sleep_ms(10);
	OK(closed, "and done");
	close(fd);
	buf_free(&pipe);
	/* HTTP/1.0 without keep-alive closes. */
	raw("GET /files/a.txt HTTP/1.0\r\n\r\n", &b);
	HAS(b.data, "Connection: close\r\n", "1.0: closed after one");
	buf_free(&b);
	/* The limit of requests on one connection. */
	if ((fd = e2e_connect(hport, 5000)) == -1)
		return;
	for (i = 0, n = 0; i < HTTP_KEEP_MAX; i++) {
		say(fd, "GET /files/a.txt HTTP/1.1\r\nHost: localhost\r\n"
		    "\r\n");
		if (read_answer(fd, 0, &a) == -1)
			break;
		n += field(&a, "Connection", v, sizeof(v));
		buf_free(&a.body);
	}
	INT_EQ(i, HTTP_KEEP_MAX, "HTTP_KEEP_MAX requests answered");
	INT_EQ(n, 1, "the last one says close");
	close(fd);
}

static void
test_bounds(void)
{
	struct buf	 req = BUF_INIT, b;
	uint64_t	 t0;
	int		 fd, closed, i;

	buf_addstr(&req, "GET / HTTP/1.1\r\nHost: localhost\r\n");
	while (req.len < HTTP_HEAD_MAX + 100)
		buf_addstr(&req, "X-Filler: aaaaaaaaaaaaaaaaaaaaaaaa\r\n");
	buf_addstr(&req, "\r\n");
	raw_n(req.data, req.len, &b);
	HAS(b.data, "HTTP/1.1 431 ", "a head over 4 KiB: 431");
	buf_free(&b);
	buf_truncate(&req, 0);
	buf_addstr(&req, "GET / HTTP/1.1\r\nHost: localhost\r\n");
	for (i = 0; i <= HTTP_FIELDS_MAX; i++)
		buf_addstr(&req, "X: y\r\n");
	buf_addstr(&req, "\r\n");
	raw_n(req.data, req.len, &b);
	HAS(b.data, "HTTP/1.1 431 ", "too many fields: 431");
	buf_free(&b);
	buf_free(&req);
	/* A slow client: half a head, then nothing: closed, unanswered. */
	if ((fd = e2e_connect(hport, 5000)) != -1) {
		say(fd, "GET / HTTP/1.1\r\nHost: loc");
		expect("/files/a.txt", 200, NULL, "others served meanwhile");
		t0 = e2e_now_ms();
		while (!(closed = e2e_peer_closed(fd)) &&
		    e2e_now_ms() - t0 < 5000)
			e2e_sleep_ms(20);
		OK(closed && e2e_now_ms() - t0 < 4000,
		    "a slow client: closed at the request timeout");
		close(fd);
	}
	/* An idle kept connection is closed at the request timeout too. */
	if ((fd = e2e_connect(hport, 5000)) != -1) {
		struct answer a;

		say(fd, "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
		OK(read_answer(fd, 0, &a) == 0, "an answer");
		buf_free(&a.body);
		t0 = e2e_now_ms();
		while (!(closed = e2e_peer_closed(fd)) &&
		    e2e_now_ms() - t0 < 5000)
			e2e_sleep_ms(20);
		OK(closed, "an idle kept connection: closed in time");
		close(fd);
	}
	expect("/", 200, NULL, "still serving");
	OK(e2e_log_wait(srv.log, "http \"GET /files/a.txt HTTP/1.1\" 20",
	    3000) == 1, "the access log names the surface and the line");
}

static const struct harness_test tests[] = {
	NAMED("pages"),
	NAMED("refusals"),
	NAMED("conditional"),
	NAMED("keepalive"),
	NAMED("bounds"),
};

int
main(int argc, char **argv)
{
	char	 top[] = "/tmp/capsuled-e2e-http.XXXXXX", cmd[600];
	char	 extra[400];

	HARNESS_INIT(argc, argv, tests);
	signal(SIGPIPE, SIG_IGN);
	if (mkdtemp(top) == NULL)
		return 1;
	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	mkdir(capsule, 0755);
	test_put(capsule, "index.md", "---\ntitle: Web test\n---\nHi.\n");
	test_put(capsule, "posts/2024-01-02-hello.md", "---\ntitle: Hello\n"
	    "---\nHello **there**.\n\nSee [the second](2024-01-03-second.md)."
	    "\n");
	test_put(capsule, "posts/2024-01-03-second.md",
	    "---\ntitle: Second\n---\nA second post.\n");
	test_put(capsule, "pages/private.md",
	    "---\ntitle: Private\n---\nA secret.\n");
	test_put(capsule, "files/a.txt", "a file\n");
	test_put(capsule, "files/page.gmi",
	    "# A gemtext page\n=> /posts/hello Hello\n");
	hport = e2e_free_port();
	snprintf(extra, sizeof(extra), "http_port: %d\nrequest_timeout: 2\n"
	    "rate_limit: 0\n"
	    "robots: |\n  User-agent: *\n  Disallow: /secret-notes\n"
	    "cert_zones:\n  - path: /private\n", hport);
	if (e2e_start(&srv, capsule, extra) == -1) {
		OK(0, "server did not start");
		return harness_done();
	}
	RUN("pages", test_pages());
	RUN("refusals", test_refusals());
	RUN("conditional", test_conditional());
	RUN("keepalive", test_keepalive());
	RUN("bounds", test_bounds());
	INT_EQ(e2e_stop(&srv), 0, "server exits 0");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", srv.dir, top);
	(void)!system(cmd);
	return harness_done();
}
