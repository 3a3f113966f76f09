/*
 * test_http.c -- the web view's request head (proto/http.c) against
 * RFC 9112's grammar and its edge cases, its dates and entity tags; the
 * front end's answers (site/http_front.c: statuses, validators, HEAD,
 * keep-alive, robots) without a socket; and the HTML emitters
 * (site/page_html.c, markdown/render_html.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/cache.h"
#include "harness.h"
#include "markdown/render.h"
#include "proto/http.h"
#include "site/http_front.h"
#include "site/page.h"
#include "site/response.h"

#define H11	" HTTP/1.1\r\nHost: example.org\r\n\r\n"

struct row {
	const char	*in;		/* the head on the wire */
	int		 status;	/* 0: parsed */
	const char	*path;		/* when parsed */
	const char	*query;
	int		 keep;
};

static const struct row rows[] = {
	{ "GET /" H11, 0, "/", NULL, 1 },
	{ "HEAD /posts/x" H11, 0, "/posts/x", NULL, 1 },
	{ "GET /search?q=a+b" H11, 0, "/search", "q=a+b", 1 },
	{ "GET /caf%C3%A9" H11, 0, "/caf\xc3\xa9", NULL, 1 },
	{ "GET /a%20b" H11, 0, "/a b", NULL, 1 },
	{ "\r\n\r\nGET /" H11, 0, "/", NULL, 1 },	/* empty lines first */
	{ "GET / HTTP/1.1\nHost: h\n\n", 0, "/", NULL, 1 },	/* bare LF */
	{ "GET / HTTP/1.0\r\n\r\n", 0, "/", NULL, 0 },	/* no Host in 1.0 */
	{ "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", 0, "/", NULL,
	    1 },
	{ "GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n", 0, "/",
	    NULL, 0 },
	{ "GET / HTTP/1.1\r\nHost: h\r\nConnection: Upgrade, Close\r\n\r\n",
	    0, "/", NULL, 0 },
	{ "GET http://example.org/x HTTP/1.1\r\nHost: other\r\n\r\n", 0,
	    "/x", NULL, 1 },
	{ "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n", 0, "/",
	    NULL, 1 },
	{ "POST / HTTP/1.1\r\nHost: h\r\n\r\n", 0, "/", NULL, 1 },
	{ "OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n", 0, "/", NULL, 1 },
	/* the request line */
	{ "GET /\r\n\r\n", 400, NULL, NULL, 0 },		/* HTTP/0.9 */
	{ "GET  / HTTP/1.1\r\nHost: h\r\n\r\n", 400, NULL, NULL, 0 },
	{ "GET / HTTP/1.1 \r\nHost: h\r\n\r\n", 400, NULL, NULL, 0 },
	{ "G(T / HTTP/1.1\r\nHost: h\r\n\r\n", 400, NULL, NULL, 0 },
	{ "GET / HTTP/2.0\r\nHost: h\r\n\r\n", 505, NULL, NULL, 0 },
	{ "GET / HTTP/1.2\r\nHost: h\r\n\r\n", 505, NULL, NULL, 0 },
	{ "GET / HTTP/1\r\nHost: h\r\n\r\n", 400, NULL, NULL, 0 },
	{ "GET / http/1.1\r\nHost: h\r\n\r\n", 400, NULL, NULL, 0 },
	/* Host: one, and a host */
	{ "GET / HTTP/1.1\r\n\r\n", 400, NULL, NULL, 0 },
	{ "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, NULL, NULL, 0 },
	{ "GET / HTTP/1.1\r\nHost: a b\r\n\r\n", 400, NULL, NULL, 0 },
	{ "GET / HTTP/1.1\r\nHost: a:8x\r\n\r\n", 400, NULL, NULL, 0 },
	/* fields */
	{ "GET / HTTP/1.1\r\nHost : h\r\n\r\n", 400, NULL, NULL, 0 },
	{ "GET / HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n", 400, NULL, NULL,
	    0 },
	{ "GET / HTTP/1.1\r\nHost: h\r\nnocolon\r\n\r\n", 400, NULL, NULL,
	    0 },
	{ "GET / HTTP/1.1\r\nHost: h\r\nX: a\001b\r\n\r\n", 400, NULL, NULL,
	    0 },
	{ "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\n", 400,
	    NULL, NULL, 0 },
	{ "GET / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n",
	    501, NULL, NULL, 0 },
	/* the target */
	{ "GET x" H11, 400, NULL, NULL, 0 },
	{ "GET //x" H11, 400, NULL, NULL, 0 },
	{ "GET /../etc/passwd" H11, 400, NULL, NULL, 0 },
	{ "GET /a/%2e%2e/b" H11, 400, NULL, NULL, 0 },
	{ "GET /a%2fb" H11, 400, NULL, NULL, 0 },
	{ "GET /a%00b" H11, 400, NULL, NULL, 0 },
	{ "GET /a%0ab" H11, 400, NULL, NULL, 0 },
	{ "GET /%ff" H11, 400, NULL, NULL, 0 },
	{ "GET /%zz" H11, 400, NULL, NULL, 0 },
	{ "GET /a#frag" H11, 400, NULL, NULL, 0 },
};

static void
test_rows(void)
{
	static struct http_request req;
	const struct row	*w;
	const char		*err;
	ssize_t			 end;
	size_t			 i;
	int			 rv;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		w = &rows[i];
		end = http_request_end(w->in, strlen(w->in));
		INT_EQ(end, strlen(w->in), w->in);
		if (end < 0)
			continue;
		rv = http_request_parse(w->in, (size_t)end, &req, &err);
		INT_EQ(rv, w->status, w->in);
		if (rv != 0 || w->status != 0)
			continue;
		if (req.method == HTTP_OTHER)
			continue;
		STR_EQ(req.path, w->path, w->in);
		STR_EQ(req.query, w->query, w->in);
		INT_EQ(req.keep, w->keep, w->in);
	}
}

static void
test_fields(void)
{
	static struct http_request req;
	const char	*err, *in;

	in = "GET / HTTP/1.1\r\nhOsT: Example.ORG:8080\r\n"
	    "If-None-Match: W/\"a\", \"b\"\r\n"
	    "If-Modified-Since: Sun, 06 Nov 1994 08:49:37 GMT\r\n\r\n";
	INT_EQ(http_request_parse(in, strlen(in), &req, &err), 0, "fields");
	STR_EQ(req.host, "example.org", "lower case, no port");
	STR_EQ(req.etags, "W/\"a\", \"b\"", "If-None-Match kept");
	INT_EQ(req.since, 784111777, "If-Modified-Since");
	INT_EQ(req.method, HTTP_GET, "GET");
	in = "GET / HTTP/1.1\r\nHost: [::1]:80\r\n\r\n";
	INT_EQ(http_request_parse(in, strlen(in), &req, &err), 0, "IPv6");
	STR_EQ(req.host, "[::1]", "an IPv6 literal");
	in = "GET / HTTP/1.1\r\nHost: h\r\n"
	    "If-Modified-Since: Sunday, 06-Nov-94 08:49:37 GMT\r\n\r\n";
	INT_EQ(http_request_parse(in, strlen(in), &req, &err), 0, "old date");
	INT_EQ(req.since, -1, "only IMF-fixdate is read");
}

static void
test_bounds(void)
{
	static struct http_request req;
	struct buf	 b = BUF_INIT;
	const char	*err;
	int		 i;

	INT_EQ(http_request_end("GET / HTTP/1.1\r\nHost: h\r\n", 25),
	    HTTP_INCOMPLETE, "no blank line yet");
	INT_EQ(http_request_end("GET / HTTP/1.1\r\n\r\nGET /", 23), 18,
	    "a pipelined request starts after the blank line");
	buf_addstr(&b, "GET / HTTP/1.1\r\nHost: h\r\n");
	while (b.len < HTTP_HEAD_MAX)
		buf_addstr(&b, "X-Filler: aaaaaaaaaaaaaaaaaaaaaaaa\r\n");
	INT_EQ(http_request_end(b.data, b.len), HTTP_TOO_LONG,
	    "a head over the cap");
	buf_truncate(&b, 0);
	buf_addstr(&b, "GET / HTTP/1.1\r\nHost: h\r\n");
	for (i = 0; i < HTTP_FIELDS_MAX; i++)
		buf_addstr(&b, "X: y\r\n");
	buf_addstr(&b, "\r\n");
	INT_EQ(http_request_parse(b.data, b.len, &req, &err), 431,
	    "one field too many");
	buf_truncate(&b, 0);
	buf_addstr(&b, "GET /");
	for (i = 0; i < HTTP_TARGET_MAX; i++)
		buf_addc(&b, 'a');
	buf_addstr(&b, H11);
	INT_EQ(http_request_parse(b.data, b.len, &req, &err), 414,
	    "a target over the cap");
	buf_free(&b);
}

static void
test_dates(void)
{
	char	 d[32];

	http_date(784111777, d, sizeof(d));
	STR_EQ(d, "Sun, 06 Nov 1994 08:49:37 GMT", "IMF-fixdate");
	INT_EQ(http_date_parse(d, strlen(d)), 784111777, "and back");
	INT_EQ(http_date_parse("Sun, 06 Nov 1994 08:49:37 UTC", 29), -1,
	    "GMT only");
	INT_EQ(http_date_parse("Sun, 32 Nov 1994 08:49:37 GMT", 29), -1,
	    "a day out of range");
}

static void
test_etags(void)
{
	OK(http_etag_match("\"abc\"", "\"abc\""), "the same");
	OK(http_etag_match("W/\"abc\"", "\"abc\""), "weak comparison");
	OK(http_etag_match("\"x\", \"abc\"", "\"abc\""), "in a list");
	OK(http_etag_match("*", "\"abc\""), "any");
	OK(!http_etag_match("\"abd\"", "\"abc\""), "another");
	OK(!http_etag_match("\"abc", "\"abc\""), "unterminated");
	OK(!http_etag_match("", "\"abc\""), "none");
}

static void
test_header(void)
{
	static const struct { int status; const char *meta, *want; } h[] = {
		{ 20, "text/html; charset=utf-8; lang=en",
		    "Content-Type: text/html; charset=utf-8\r\n"
		    "Content-Language: en\r\n" },
		{ 31, "/posts/", "HTTP/1.1 301 Moved Permanently\r\n" },
		{ 30, "/new", "Location: /new\r\n" },
		{ 51, "Not found", "HTTP/1.1 404 Not Found\r\n" },
		{ 52, "Gone", "HTTP/1.1 410 Gone\r\n" },
		{ 60, "A certificate is needed", "X-Robots-Tag: noindex\r\n" },
		{ 61, "Not authorised", "HTTP/1.1 403 Forbidden\r\n" },
		{ 44, "Slow down", "HTTP/1.1 429 Too Many Requests\r\n" },
		{ 42, "CGI error", "HTTP/1.1 502 Bad Gateway\r\n" },
		{ 41, "Busy", "Connection: close\r\n" },
	};
	struct response	 r;
	char		 out[FRONT_HEADER_MAX + 1];
	size_t		 i, n;

	for (i = 0; i < sizeof(h) / sizeof(h[0]); i++) {
		response_init(&r);
		response_status(&r, h[i].status, "%s", h[i].meta);
		r.body = "body";
		r.bodylen = 4;
		n = http_front_header(&r, out, sizeof(out) - 1);
		out[n] = '\0';
		HAS(out, h[i].want, h[i].meta);
		OK(strstr(out, "\r\n\r\n") == out + n - 4, "one head");
		response_free(&r);
	}
}

/*
 * Validators: a cached page's tag (its bytes' hash, the same for the
 * same bytes) and time; without what answer() read (no request), a
 * plain GET whose connection closes.
 */
static void
test_validators(void)
{
	struct response	 r;
	char		 out[FRONT_HEADER_MAX + 1], first[FRONT_HEADER_MAX + 1];
	const char	*p;
	size_t		 n;
	int		 i;

	for (i = 0; i < 2; i++) {
		response_init(&r);
		response_set_body(&r, blob_new("<p>hi</p>", 9), "text/html",
		    "en", '0');
		n = http_front_header(&r, out, sizeof(out) - 1);
		out[n] = '\0';
		HAS(out, "HTTP/1.1 200 OK\r\n", "200");
		HAS(out, "Content-Length: 9\r\n", "its length");
		HAS(out, "Last-Modified: ", "a blob's time");
		HAS(out, "Connection: close\r\n", "no request: closed");
		OK(r.bodylen == 9 && !r.keep, "the body goes, then the end");
		p = strstr(out, "ETag: \"");
		OK(p != NULL && strlen(p) > 24 && p[23] == '"',
		    "an entity tag");
		if (i == 0 && p != NULL)
			snprintf(first, sizeof(first), "%.24s", p);
		else if (p != NULL)
			OK(strncmp(first, p, 24) == 0, "the same for the same "
			    "bytes");
		response_free(&r);
	}
}

static void
test_html(void)
{
	static const char	 md[] = "Hello *you*.\n\n"
	    "<script>alert(1)</script>\n\n[x](javascript:alert(1))\n";
	static const char	 gmi[] = "# G\n=> /posts/b Bee\n* item\n"
	    "> quote\n```alt\n<pre>\n```\n=> JavaScript:alert(2) Run me\n";
	struct page		 p;
	struct page_target	 t;
	struct buf		 out = BUF_INIT;

	page_init(&p);
	page_heading(&p, 1, "A <title> " PAGE_DOT " & more");
	page_text(&p, "Some \"text\".");
	page_link(&p, LINK_DOCUMENT, "/posts/a b", "2024-01-02", "A post");
	page_link(&p, LINK_EXTERNAL, "https://example.org/?a=1&b=2", NULL,
	    "Out");
	page_blank(&p);
	page_link(&p, LINK_PROMPT, "/search", NULL, "Search the archive");
	page_source(&p, md, strlen(md), 0);
	page_source(&p, gmi, strlen(gmi), 1);
	memset(&t, 0, sizeof(t));
	t.format = FORMAT_HTML;
	t.base = "/~ann";
	t.alt_gemini = "gemini://example.org/~ann/";
	t.lang = "pt-BR";
	page_emit_html(&p, &t, &out);
	buf_addc(&out, '\0');
	HAS(out.data, "<!DOCTYPE html>\n<html lang=\"pt-BR\">", "doctype");
	HAS(out.data, "<title>A &lt;title&gt; \xc2\xb7 &amp; more</title>",
	    "the title escaped, the mark spelled");
	HAS(out.data, "<p>Some &quot;text&quot;.</p>", "text escaped");
	HAS(out.data, "<li><time datetime=\"2024-01-02\">2024-01-02</time> "
	    "<a href=\"/~ann/posts/a%20b\">A post</a></li>",
	    "a link with the base, encoded");
	HAS(out.data, "href=\"https://example.org/?a=1&amp;b=2\"",
	    "an absolute URL as it is, escaped");
	HAS(out.data, "<form method=\"get\" role=\"search\" "
	    "action=\"/~ann/search\">", "the prompt is a form");
	HAS(out.data, "<p>Hello <em>you</em>.</p>", "Markdown");
	OK(strstr(out.data, "<script") == NULL, "no script");
	OK(strstr(out.data, "javascript:") == NULL &&
	    strstr(out.data, "JavaScript:") == NULL, "no javascript: URL");
	HAS(out.data, "<li>Run me</li>", "a gemtext link to a script: its text");
	HAS(out.data, "<h1>G</h1>", "gemtext heading");
	HAS(out.data, "<li><a href=\"/posts/b\">Bee</a></li>", "gemtext link");
	HAS(out.data, "<pre aria-label=\"alt\">&lt;pre&gt;\n</pre>",
	    "preformatted, escaped");
	HAS(out.data, "<blockquote>\n<p>quote</p>\n</blockquote>", "quote");
	HAS(out.data, "<link rel=\"alternate\" title=\"Gemini\" "
	    "href=\"gemini://example.org/~ann/\">", "the alternate");
	HAS(out.data, "This page on Gemini: <a", "and the visible line");
	page_free(&p);
	buf_free(&out);
}

static const struct harness_test tests[] = {
	TEST(test_rows),
	TEST(test_fields),
	TEST(test_bounds),
	TEST(test_dates),
	TEST(test_etags),
	TEST(test_header),
	TEST(test_validators),
	TEST(test_html),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
