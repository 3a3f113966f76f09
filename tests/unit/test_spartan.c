/*
 * test_spartan.c -- the Spartan request (proto/spartan.c) against the
 * specification's grammar and its edge cases: where a request ends with
 * its data block, what it is refused for, and the status line; and the
 * front end's statuses (site/spartan_front.c), without a socket.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "proto/spartan.h"
#include "site/response.h"
#include "site/spartan_front.h"

#define BAD	((const char *)1)	/* refused */

struct row {
	const char	*in;		/* on the wire */
	const char	*host;		/* BAD: refused */
	const char	*path;
	const char	*data;
};

static const struct row rows[] = {
	{ "localhost / 0\r\n", "localhost", "/", "" },
	{ "localhost / 0\n", "localhost", "/", "" },	/* a bare LF */
	{ "Example.COM /a/b 0\r\n", "example.com", "/a/b", "" },
	{ "[::1] /x 0\r\n", "[::1]", "/x", "" },
	{ "::1 /x 0\r\n", "::1", "/x", "" },
	{ "h /search 11\r\nhello world", "h", "/search", "hello world" },
	{ "h /search 3\r\nabcEXTRA", "h", "/search", "abc" },
	{ "h /a%20b 0\r\n", "h", "/a b", "" },
	{ "h /caf%C3%A9 0\r\n", "h", "/caf\xc3\xa9", "" },
	/* three fields, single spaces */
	{ "h / \r\n", BAD, NULL, NULL },
	{ "h  / 0\r\n", BAD, NULL, NULL },
	{ "h / 0 \r\n", BAD, NULL, NULL },
	{ "h /\r\n", BAD, NULL, NULL },
	{ "\r\n", BAD, NULL, NULL },
	{ " / 0\r\n", BAD, NULL, NULL },
	/* the length */
	{ "h / -1\r\n", BAD, NULL, NULL },
	{ "h / 1e3\r\n", BAD, NULL, NULL },
	{ "h / 0x10\r\n", BAD, NULL, NULL },
	{ "h / 2000\r\n", BAD, NULL, NULL },
	{ "h / 99999999999\r\n", BAD, NULL, NULL },
	/* the path */
	{ "h x 0\r\n", BAD, NULL, NULL },
	{ "h //x 0\r\n", BAD, NULL, NULL },
	{ "h /../etc/passwd 0\r\n", BAD, NULL, NULL },
	{ "h /a/%2e%2e/b 0\r\n", BAD, NULL, NULL },
	{ "h /a%2fb 0\r\n", BAD, NULL, NULL },
	{ "h /a%2Fb 0\r\n", BAD, NULL, NULL },
	{ "h /a%00b 0\r\n", BAD, NULL, NULL },
	{ "h /a%0ab 0\r\n", BAD, NULL, NULL },
	{ "h /%ff 0\r\n", BAD, NULL, NULL },
	{ "h /%zz 0\r\n", BAD, NULL, NULL },
	/* bytes of the line */
	{ "h /caf\xc3\xa9 0\r\n", BAD, NULL, NULL },
	{ "h /a\tb 0\r\n", BAD, NULL, NULL },
};

static void
test_rows(void)
{
	struct spartan_request	 req;
	const struct row	*w;
	const char		*err;
	ssize_t			 end;
	size_t			 i;
	int			 rv;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		w = &rows[i];
		end = spartan_request_end(w->in, strlen(w->in));
		OK(end >= 0, "%zu: a whole request: %zd", i, end);
		if (end < 0)
			continue;
		rv = spartan_request_parse(w->in, (size_t)end, &req, &err);
		if (w->host == BAD) {
			OK(rv == -1 && err != NULL && *err != '\0',
			    "%zu: refused", i);
			continue;
		}
		OK(rv == 0, "%zu: parsed", i);
		if (rv != 0)
			continue;
		STR_EQ(req.host, w->host, w->in);
		STR_EQ(req.path, w->path, w->in);
		OK(req.datalen == strlen(w->data) &&
		    memcmp(req.data, w->data, req.datalen) == 0,
		    "%zu: the data block", i);
	}
}

static void
test_end(void)
{
	char	 big[SPARTAN_LINE_MAX + 16];

	INT_EQ(spartan_request_end("loc", 3), SPARTAN_INCOMPLETE,
	    "no line yet");
	INT_EQ(spartan_request_end("h / 5\r\nab", 9), SPARTAN_INCOMPLETE,
	    "the data block still coming");
	INT_EQ(spartan_request_end("h / 5\r\nabcde", 12), 5,
	    "the data block whole");
	INT_EQ(spartan_request_end("h / 2000\r\n", 10), 8,
	    "too much data: the line alone, refused at once");
	INT_EQ(spartan_request_end("h / x\r\n", 7), 5,
	    "no length: the line alone, refused");
	memset(big, 'a', sizeof(big));
	INT_EQ(spartan_request_end(big, sizeof(big)), SPARTAN_TOO_LONG,
	    "a line over the cap, no end");
	big[SPARTAN_LINE_MAX + 1] = '\n';
	INT_EQ(spartan_request_end(big, SPARTAN_LINE_MAX + 2),
	    SPARTAN_TOO_LONG, "a line over the cap, ended");
}

static void
test_status(void)
{
	char	 out[64];

	spartan_status_line(out, sizeof(out), 2, "text/gemini");
	STR_EQ(out, "2 text/gemini\r\n", "2");
	spartan_status_line(out, sizeof(out), 3, "/new/");
	STR_EQ(out, "3 /new/\r\n", "3");
	spartan_status_line(out, sizeof(out), 4, "");
	STR_EQ(out, "4 Error\r\n", "a message is never empty");
	spartan_status_line(out, sizeof(out), 5, "caf\xc3\xa9\r\nx");
	STR_EQ(out, "5 caf????x\r\n", "ASCII and one line");
}

/* The front end's status lines for the router's statuses. */
static void
test_header(void)
{
	static const struct { int status; const char *meta, *want; } h[] = {
		{ 20, "text/gemini; charset=utf-8; lang=en",
		    "2 text/gemini; charset=utf-8\r\n" },
		{ 20, "text/gemini; lang=pt-BR; charset=utf-8",
		    "2 text/gemini; charset=utf-8\r\n" },
		{ 20, "image/png", "2 image/png\r\n" },
		{ 31, "/posts/", "3 /posts/\r\n" },
		{ 51, "Not found", "4 Not found\r\n" },
		{ 59, "Bad request", "4 Bad request\r\n" },
		{ 53, "No proxying to other hosts",
		    "4 No proxying to other hosts\r\n" },
		{ 60, "This area needs a client certificate",
		    "4 This area needs a client certificate\r\n" },
		{ 44, "Too many requests", "5 Too many requests\r\n" },
		{ 42, "CGI error", "5 CGI error\r\n" },
		{ 50, "Failure", "5 Failure\r\n" },
	};
	struct response	 r;
	char		 out[256];
	size_t		 i;

	for (i = 0; i < sizeof(h) / sizeof(h[0]); i++) {
		response_init(&r);
		response_status(&r, h[i].status, "%s", h[i].meta);
		r.body = "body";
		r.bodylen = 4;
		spartan_front_header(&r, out, sizeof(out));
		STR_EQ(out, h[i].want, h[i].meta);
		OK((r.bodylen > 0) == (h[i].status / 10 == 2),
		    "%d: only 2 has a body", h[i].status);
		response_free(&r);
	}
}

static const struct harness_test tests[] = {
	TEST(test_rows),
	TEST(test_end),
	TEST(test_status),
	TEST(test_header),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
