/*
 * test_gopher.c -- gopher_request_end() and gopher_request_parse()
 * against RFC 1436 and common practice: terminators, the length cap, search
 * strings, Gopher+ fields, HTTP request lines, selectors as paths; and
 * gopher_respond()'s answers that need no router (the router's own go
 * through tests/e2e/e2e_gopher.c and e2e_ops.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/config.h"
#include "proto/gopher.h"
#include "site/gopher_front.h"
#include "site/router.h"
#include "harness.h"
#include "core/util.h"

#define BAD	((const char *)1)	/* row must be rejected */

struct row {
	const char	*in;		/* on the wire, terminator included */
	const char	*path;		/* BAD: rejected */
	const char	*selector;
	const char	*search;	/* NULL: none */
	int		 is_http;
};

static const struct row rows[] = {
	/* empty selector = root; CRLF or bare LF */
	{ "\r\n", "/", "", NULL, 0 },
	{ "\n", "/", "", NULL, 0 },
	{ "/\r\n", "/", "/", NULL, 0 },
	{ "/posts/\r\n", "/posts/", "/posts/", NULL, 0 },
	{ "/posts/hello\n", "/posts/hello", "/posts/hello", NULL, 0 },
	{ "posts/\r\n", "/posts/", "posts/", NULL, 0 },
	{ "caps.txt\r\n", "/caps.txt", "caps.txt", NULL, 0 },
	{ "/1/posts/\r\n", "/1/posts/", "/1/posts/", NULL, 0 },
	/* opaque: no decoding; '?', '#', '%', spaces, UTF-8 kept */
	{ "/a b?c#d%2e%2e\r\n", "/a b?c#d%2e%2e", "/a b?c#d%2e%2e", NULL, 0 },
	{ "/%2e%2e/x\r\n", "/%2e%2e/x", "/%2e%2e/x", NULL, 0 },
	{ "/caf\xC3\xA9\r\n", "/caf\xC3\xA9", "/caf\xC3\xA9", NULL, 0 },
	{ "/...\r\n", "/...", "/...", NULL, 0 },
	{ "//x//\r\n", "//x//", "//x//", NULL, 0 },
	/* the bytes after the first LF are not part of the request */
	{ "/a\r\n/b\r\n", "/a", "/a", NULL, 0 },
	{ "/a\n\r\n", "/a", "/a", NULL, 0 },
	/* a CR only right before the LF is stripped */
	{ "/a\r\r\n", BAD, NULL, NULL, 0 },
	{ "/a\rb\n", BAD, NULL, NULL, 0 },

	/* search strings */
	{ "/search\tcats\r\n", "/search", "/search", "cats", 0 },
	{ "/search\tcats and dogs\r\n", "/search", "/search", "cats and dogs",
	    0 },
	{ "/search\t\r\n", "/search", "/search", "", 0 },
	{ "\tcats\r\n", "/", "", "cats", 0 },
	{ "/search\t+cats\r\n", "/search", "/search", "+cats", 0 },
	{ "/search\tcaf\xC3\xA9\r\n", "/search", "/search", "caf\xC3\xA9",
	    0 },
	{ "/search\tcats\tmore\r\n", "/search", "/search", "cats", 0 },
	/* the field does not make a bad selector good */
	{ "/a/..\t$\r\n", BAD, NULL, NULL, 0 },
	{ "/search\t\xFF\t+\r\n", BAD, NULL, NULL, 0 },

	/* URL: links (the 'h' item convention) */
	{ "URL:https://example.org/\r\n", "/URL:https://example.org/",
	    "URL:https://example.org/", NULL, 0 },

	/* HTTP request lines */
	{ "GET / HTTP/1.1\r\n", "/", "/", NULL, 1 },
	{ "GET / HTTP/1.0\n", "/", "/", NULL, 1 },
	{ "HEAD /posts/?x=1#f HTTP/1.1\r\n", "/posts/", "/posts/?x=1#f", NULL,
	    1 },
	{ "GET /caf%C3%A9 HTTP/1.1\r\n", "/caf\xC3\xA9", "/caf%C3%A9", NULL,
	    1 },
	{ "GET http://example.org:70/a HTTP/1.1\r\n", "/a",
	    "http://example.org:70/a", NULL, 1 },
	{ "GET http://example.org HTTP/1.1\r\n", "/", "http://example.org",
	    NULL, 1 },
	{ "POST /x HTTP/2\r\n", "/x", "/x", NULL, 1 },
	{ "GET /../etc/passwd HTTP/1.1\r\n", BAD, NULL, NULL, 1 },
	{ "GET /%2e%2e/etc/passwd HTTP/1.1\r\n", BAD, NULL, NULL, 1 },
	{ "GET /a%2f..%2f..%2fb HTTP/1.1\r\n", BAD, NULL, NULL, 1 },
	{ "GET /%00 HTTP/1.1\r\n", BAD, NULL, NULL, 1 },
	{ "GET /%zz HTTP/1.1\r\n", BAD, NULL, NULL, 1 },
	{ "GET /%ff HTTP/1.1\r\n", BAD, NULL, NULL, 1 },
	{ "PRI * HTTP/2.0\r\n", BAD, NULL, NULL, 1 },
	{ "CONNECT example.org:443 HTTP/1.1\r\n", BAD, NULL, NULL, 1 },
	/* not HTTP: these are selectors */
	{ "GET /\r\n", "/GET /", "GET /", NULL, 0 },
	{ "get / HTTP/1.1\r\n", "/get / HTTP/1.1", "get / HTTP/1.1", NULL, 0 },
	{ "GET / HTTP/x\r\n", "/GET / HTTP/x", "GET / HTTP/x", NULL, 0 },
	{ "GET  / HTTP/1.1\r\n", "/GET  / HTTP/1.1", "GET  / HTTP/1.1", NULL,
	    0 },
	{ "GET / HTTP/1.1 x\r\n", "/GET / HTTP/1.1 x", "GET / HTTP/1.1 x",
	    NULL, 0 },

	/* never a path outside the capsule */
	{ "..\r\n", BAD, NULL, NULL, 0 },
	{ ".\r\n", BAD, NULL, NULL, 0 },
	{ "/..\r\n", BAD, NULL, NULL, 0 },
	{ "/../etc/passwd\r\n", BAD, NULL, NULL, 0 },
	{ "../etc/passwd\r\n", BAD, NULL, NULL, 0 },
	{ "/a/./b\r\n", BAD, NULL, NULL, 0 },
	{ "/a/..\r\n", BAD, NULL, NULL, 0 },
	{ "/a/..\tq\r\n", BAD, NULL, NULL, 0 },
	{ "URL:http://x/../y\r\n", BAD, NULL, NULL, 0 },
	/* bad bytes */
	{ "/a\xDC\r\n", BAD, NULL, NULL, 0 },
	{ "/a\xC0\xAF\r\n", BAD, NULL, NULL, 0 },
	{ "\xEF\xBB\xBF/\r\n", "/\xEF\xBB\xBF/", "\xEF\xBB\xBF/", NULL, 0 },
	{ "/search\t\xFF\r\n", BAD, NULL, NULL, 0 },
	{ "/a\x1B[0m\r\n", BAD, NULL, NULL, 0 },
	{ "/a\x7F\r\n", BAD, NULL, NULL, 0 },
	{ "/search\tx\x01\r\n", BAD, NULL, NULL, 0 },
};

/* Gopher+ fields (the Gopher+ document of 1993): what they ask for. */
struct plusrow {
	const char	*in;
	const char	*path;
	const char	*selector;
	const char	*search;	/* NULL: none */
	enum gopherplus_form form;
	const char	*view;		/* NULL: none */
	const char	*block;		/* NULL: none */
};

#define DATA	GOPHERPLUS_DATA
#define INFO	GOPHERPLUS_INFO
#define DIR	GOPHERPLUS_DIR

static const struct plusrow plus_rows[] = {
	{ "/about\t+\r\n", "/about", "/about", NULL, DATA, NULL, NULL },
	{ "/about\t!\r\n", "/about", "/about", NULL, INFO, NULL, NULL },
	{ "/about\t$\r\n", "/about", "/about", NULL, DIR, NULL, NULL },
	{ "\t$\r\n", "/", "", NULL, DIR, NULL, NULL },
	{ "\t!\r\n", "/", "", NULL, INFO, NULL, NULL },
	{ "/about\t+text/plain\r\n", "/about", "/about", NULL, DATA,
	    "text/plain", NULL },
	{ "/about\t+text/plain En_US\r\n", "/about", "/about", NULL,
	    DATA, "text/plain En_US", NULL },
	{ "/\t+application/gopher+-menu\r\n", "/", "/", NULL, DATA,
	    "application/gopher+-menu", NULL },
	{ "/about\t!+ABSTRACT\r\n", "/about", "/about", NULL, INFO, NULL,
	    "ABSTRACT" },
	{ "/about\t$+VIEWS\r\n", "/about", "/about", NULL, DIR, NULL,
	    "VIEWS" },
	/* the ASK data flag after the field: not served, ignored */
	{ "/about\t+\t1\r\n", "/about", "/about", NULL, DATA, NULL,
	    NULL },
	/* a search string, then the field (a Gopher+ search) */
	{ "/search\tcats\t+\r\n", "/search", "/search", "cats", DATA,
	    NULL, NULL },
	{ "/search\tcats\t$\r\n", "/search", "/search", "cats", DIR, NULL,
	    NULL },
	{ "/search\tcats\t+text/plain\r\n", "/search", "/search", "cats",
	    DATA, "text/plain", NULL },
	{ "/search\tcats\t$\tmore\r\n", "/search", "/search", "cats",
	    DIR, NULL, NULL },
	{ "/search\t\t$\r\n", "/search", "/search", "", DIR, NULL, NULL },
	/* what only looks like a field is a search string */
	{ "/search\t+text\r\n", "/search", "/search", "+text", 0, NULL,
	    NULL },
	{ "/search\t!x\r\n", "/search", "/search", "!x", 0, NULL, NULL },
	{ "/search\t$+\r\n", "/search", "/search", "$+", 0, NULL, NULL },
	{ "/search\t+a/b c d\r\n", "/search", "/search", "+a/b c d", 0,
	    NULL, NULL },
};

static void
test_plus_rows(void)
{
	struct gopher_request	 req;
	const char		*err;
	char			 line[GOPHER_REQUEST_MAX], what[160];
	size_t			 i, wlen;
	ssize_t			 n;

	for (i = 0; i < nitems(plus_rows); i++) {
		const struct plusrow *pr = &plus_rows[i];

		snprintf(what, sizeof(what), "Gopher+ row %zu \"%.*s\"", i,
		    (int)strcspn(pr->in, "\r\n"), pr->in);
		wlen = strlen(pr->in);
		memcpy(line, pr->in, wlen);
		n = gopher_request_end(line, wlen);
		OK(n >= 0, "%s: end %zd", what, n);
		if (n < 0)
			continue;
		err = NULL;
		INT_EQ(gopher_request_parse(line, (size_t)n, &req, &err), 0,
		    what);
		STR_EQ(req.path, pr->path, what);
		STR_EQ(req.selector, pr->selector, what);
		STR_EQ(req.search, pr->search, what);
		INT_EQ(req.form, pr->form, what);
		STR_EQ(req.view, pr->view, what);
		STR_EQ(req.block, pr->block, what);
	}
}

static void
test_rows(void)
{
	struct gopher_request	 req;
	const char		*err;
	char			 line[GOPHER_REQUEST_MAX], what[160];
	size_t			 i, wlen;
	ssize_t			 n;
	int			 rv;

	for (i = 0; i < nitems(rows); i++) {
		snprintf(what, sizeof(what), "row %zu \"%.*s\"", i,
		    (int)strcspn(rows[i].in, "\r\n"), rows[i].in);
		wlen = strlen(rows[i].in);
		memcpy(line, rows[i].in, wlen);
		n = gopher_request_end(line, wlen);
		OK(n >= 0, "%s: end %zd", what, n);
		if (n < 0)
			continue;
		err = NULL;
		rv = gopher_request_parse(line, (size_t)n, &req, &err);
		INT_EQ(req.is_http, rows[i].is_http, what);
		if (rows[i].path == BAD) {
			INT_EQ(rv, -1, what);
			OK(err != NULL && err[0] != '\0', "%s: errstr", what);
			continue;
		}
		INT_EQ(rv, 0, what);
		if (rv != 0) {
			fprintf(stderr, "  %s: %s\n", what, err);
			continue;
		}
		STR_EQ(req.path, rows[i].path, what);
		STR_EQ(req.selector, rows[i].selector, what);
		STR_EQ(req.search, rows[i].search, what);
		INT_EQ(req.form, GOPHERPLUS_NONE, what);
	}
}

static void
test_end(void)
{
	char	 w[2048];
	size_t	 i;

	INT_EQ(gopher_request_end("", 0), GOPHER_INCOMPLETE, "nothing");
	INT_EQ(gopher_request_end("/a", 2), GOPHER_INCOMPLETE, "no LF");
	INT_EQ(gopher_request_end("/a\r", 3), GOPHER_INCOMPLETE, "CR only");
	INT_EQ(gopher_request_end("/a\r\n", 4), 2, "CRLF");
	INT_EQ(gopher_request_end("/a\n", 3), 2, "LF");
	INT_EQ(gopher_request_end("\n", 1), 0, "empty LF");
	INT_EQ(gopher_request_end("\r\n", 2), 0, "empty CRLF");
	INT_EQ(gopher_request_end("a\nb\r\n", 5), 1, "first LF wins");

	/* 1024 bytes of line are fine with either terminator, 1025 not. */
	memset(w, 's', sizeof(w));
	for (i = 1020; i <= 1030; i++) {
		memcpy(w + i, "\r\n", 2);
		INT_EQ(gopher_request_end(w, i + 2),
		    i <= GOPHER_LINE_MAX ? (ssize_t)i : GOPHER_TOO_LONG,
		    "CRLF cap");
		w[i] = '\n';
		INT_EQ(gopher_request_end(w, i + 1),
		    i <= GOPHER_LINE_MAX ? (ssize_t)i : GOPHER_TOO_LONG,
		    "LF cap");
		memset(w + i, 's', 2);
	}
	INT_EQ(gopher_request_end(w, 1025), GOPHER_INCOMPLETE, "1025 no LF");
	INT_EQ(gopher_request_end(w, 1026), GOPHER_TOO_LONG, "1026 no LF");
	INT_EQ(gopher_request_end(w, 2048), GOPHER_TOO_LONG, "2048 no LF");
}

static void
test_long(void)
{
	struct gopher_request	 req;
	const char		*err;
	char			 w[GOPHER_REQUEST_MAX + 8];

	/* A 1024-byte selector without a leading '/' still fits. */
	memset(w, 'x', sizeof(w));
	w[1024] = '\n';
	INT_EQ(gopher_request_end(w, 1025), 1024, "1024 end");
	INT_EQ(gopher_request_parse(w, 1024, &req, &err), 0, "1024 parse");
	INT_EQ(strlen(req.path), 1025, "1024 path");
	OK(req.path[0] == '/' && req.path[1] == 'x', "1024 path start");
	memset(w, 'x', sizeof(w));
	INT_EQ(gopher_request_parse(w, 1025, &req, &err), -1, "1025 parse");
	HAS(err, "too long", "1025 errstr");
	/* A NUL anywhere in the line. */
	memcpy(w, "/a\0b", 4);
	INT_EQ(gopher_request_parse(w, 4, &req, &err), -1, "NUL");
	HAS(err, "NUL", "NUL errstr");
	INT_EQ(req.is_http, 0, "NUL: not http");
}

static void
test_error_menu(void)
{
	struct buf	 b = BUF_INIT;
	char		 big[200];

	gopher_error_menu(&b, "Not found");
	STR_EQ(b.data, "3Not found\tfake\t(NULL)\t0\r\n.\r\n", "menu");
	buf_truncate(&b, 0);
	gopher_error_menu(&b, NULL);
	STR_EQ(b.data, "3Error\tfake\t(NULL)\t0\r\n.\r\n", "NULL");
	buf_truncate(&b, 0);
	gopher_error_menu(&b, "");
	STR_EQ(b.data, "3Error\tfake\t(NULL)\t0\r\n.\r\n", "empty");
	buf_truncate(&b, 0);
	gopher_error_menu(&b, "a\tb\r\nc\x7F\xDC\xC3\xA9");
	STR_EQ(b.data, "3a b  c ?\xC3\xA9\tfake\t(NULL)\t0\r\n.\r\n",
	    "cleaned");
	/* cut at 70 bytes, not inside a character */
	buf_truncate(&b, 0);
	memset(big, 'x', sizeof(big));
	big[69] = '\xC3';
	big[70] = '\xA9';
	big[71] = '\0';
	gopher_error_menu(&b, big);
	INT_EQ(strcspn(b.data, "\t"), 1 + 69, "cut before 2-byte char");
	big[69] = 'x';
	big[100] = '\0';
	buf_truncate(&b, 0);
	gopher_error_menu(&b, big);
	INT_EQ(strcspn(b.data, "\t"), 1 + 70, "cut at 70");
	/* the buffer is appended to */
	buf_truncate(&b, 0);
	buf_addstr(&b, "i\tfake\t(NULL)\t0\r\n");
	gopher_error_menu(&b, "x");
	STR_EQ(b.data, "i\tfake\t(NULL)\t0\r\n3x\tfake\t(NULL)\t0\r\n.\r\n",
	    "appended");
	buf_free(&b);
}

static void
test_http_reply(void)
{
	struct buf	 b = BUF_INIT;
	const char	*body;
	char		 want[64];

	gopher_http_reply(&b, "example.org", 70);
	OK(strncmp(b.data, "HTTP/1.0 400 Bad Request\r\n", 26) == 0,
	    "status line: %s", b.data);
	HAS(b.data, "\r\nContent-Type: text/plain; charset=utf-8\r\n", "type");
	HAS(b.data, "\r\nConnection: close\r\n", "close");
	HAS(b.data, "gopher://example.org/ ", "URL, port 70 left out");
	body = strstr(b.data, "\r\n\r\n");
	OK(body != NULL, "end of headers");
	if (body != NULL) {
		body += 4;
		snprintf(want, sizeof(want), "\r\nContent-Length: %zu\r\n",
		    strlen(body));
		HAS(b.data, want, "Content-Length matches the body");
	}
	buf_truncate(&b, 0);
	gopher_http_reply(&b, "::1", 7070);
	HAS(b.data, "gopher://[::1]:7070/ ", "IPv6 bracketed, port");
	buf_truncate(&b, 0);
	gopher_http_reply(&b, "[::1]", 7070);
	HAS(b.data, "gopher://[::1]:7070/ ", "already bracketed");
	buf_free(&b);
}

/* The answers gopher_respond() gives before the router has a say. */
static void
test_respond(void)
{
	struct config	 host;
	struct response	 r;
	char		 line[GOPHER_LINE_MAX + 2], body[2048];

	memset(&host, 0, sizeof(host));
	host.hostname = "example.org";
	host.port[SURFACE_GOPHER] = 7070;

	response_init(&r);
	INT_EQ(gopher_respond(&host, NULL, NULL, "/a\0b", 4, &r), 59, "NUL: 59");
	STR_EQ(r.body, "3NUL in selector\tfake\t(NULL)\t0\r\n.\r\n",
	    "NUL: a type-3 menu");
	INT_EQ(r.bodylen, r.owned.len, "the body is owned");
	response_free(&r);

	response_init(&r);
	snprintf(line, sizeof(line), "GET /x HTTP/1.1");
	INT_EQ(gopher_respond(&host, NULL, NULL, line, strlen(line), &r), 59,
	    "HTTP: 59");
	OK(r.body != NULL && strncmp(r.body, "HTTP/1.0 400 Bad Request\r\n",
	    26) == 0, "HTTP: answered in HTTP");
	HAS(r.body, "gopher://example.org:7070/ ", "HTTP: the Gopher URL");
	STR_EQ(line, "GET /x HTTP/1.1", "the caller's line stays whole");
	response_free(&r);

	host.public_port[SURFACE_GOPHER] = 70;
	response_init(&r);
	INT_EQ(gopher_respond(&host, NULL, NULL, "GET / HTTP/1.0", 14, &r), 59,
	    "HTTP, public port: 59");
	HAS(r.body, "gopher://example.org/ ", "HTTP: the public port");
	response_free(&r);

	response_init(&r);
	snprintf(line, sizeof(line), "URL:https://example.org/a?b=1&c\tx");
	INT_EQ(gopher_respond(&host, NULL, NULL, line, strlen(line), &r), 20,
	    "URL: 20");
	HAS(r.body, "<a href=\"https://example.org/a?b=1&amp;c\">",
	    "URL: a page that links on");
	response_free(&r);

	response_init(&r);
	memset(body, 'a', sizeof(body));
	INT_EQ(gopher_respond(&host, NULL, NULL, body, GOPHER_LINE_MAX + 1, &r), 59,
	    "too long: 59");
	HAS(r.body, "3Selector too long\t", "too long: a type-3 menu");
	response_free(&r);
}

/* caps.txt: the keys clients read, the encoding from gopher_charset. */
static void
test_caps(void)
{
	struct config	 c;
	struct buf	 b = BUF_INIT;

	config_defaults(&c, NULL);
	gopher_caps(&b, &c, "A\tsite", NULL);
	OK(strncmp(b.data, "CAPS\r\n", 6) == 0, "CAPS first");
	HAS(b.data, "\r\nPathDelimeter=/\r\n", "delimiter");
	HAS(b.data, "\r\nServerDefaultEncoding=UTF-8\r\n", "utf-8");
	HAS(b.data, "\r\nServerDescription=A site\r\n", "one line");
	OK(strstr(b.data, "ServerAdmin=") == NULL, "no admin given");
	buf_free(&b);
	c.gopher_charset = CONFIG_CHARSET_ASCII;
	gopher_caps(&b, &c, NULL, "Ada");
	HAS(b.data, "\r\nServerDefaultEncoding=US-ASCII\r\n", "ascii");
	HAS(b.data, "\r\nServerAdmin=Ada\r\n", "admin");
	buf_free(&b);
	config_free(&c);
}

static const struct harness_test tests[] = {
	TEST(test_caps),
	TEST(test_rows),
	TEST(test_plus_rows),
	TEST(test_end),
	TEST(test_long),
	TEST(test_error_menu),
	TEST(test_http_reply),
	TEST(test_respond),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
