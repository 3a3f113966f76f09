/*
 * test_nex.c -- the Nex request (proto/nex.c) as clients send it (the
 * checklist's table: LF or CRLF, the leading '/' optional, blanks
 * around, a "?query", escapes decoded once) and what it is refused for;
 * the directory emitter's lines (site/page.c, page_emit() of a Nex directory).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "harness.h"
#include "proto/nex.h"
#include "site/page.h"

#define BAD	((const char *)1)

struct row {
	const char	*in;		/* on the wire */
	const char	*path;		/* BAD: refused */
	const char	*query;
};

static const struct row rows[] = {
	{ "\n", "/", NULL },
	{ "\r\n", "/", NULL },
	{ "/\n", "/", NULL },
	{ "sub\n", "/sub", NULL },
	{ "/sub/\n", "/sub/", NULL },
	{ "sub/\r\n", "/sub/", NULL },
	{ " /notes/ \n", "/notes/", NULL },
	{ "/a%20b.txt\n", "/a b.txt", NULL },
	{ "/caf%C3%A9\n", "/caf\xc3\xa9", NULL },
	{ "/search?gemini%20gopher\n", "/search", "gemini gopher" },
	{ "hello-world.txt\r\n", "/hello-world.txt", NULL },
	{ "/../etc/passwd\n", BAD, NULL },
	{ "/%2e%2e/x\n", BAD, NULL },
	{ "/x%00\n", BAD, NULL },
	{ "/a%2fb\n", BAD, NULL },
	{ "/a\tb/..\n", BAD, NULL },
	{ "/%ff\n", BAD, NULL },
	{ "/a\x01\n", BAD, NULL },
};

static void
test_rows(void)
{
	struct nex_request	 req;
	const char		*err;
	ssize_t			 end;
	size_t			 i;
	int			 rv;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		end = nex_request_end(rows[i].in, strlen(rows[i].in));
		OK(end >= 0, "%zu: a whole line", i);
		if (end < 0)
			continue;
		rv = nex_request_parse(rows[i].in, (size_t)end, &req, &err);
		if (rows[i].path == BAD) {
			OK(rv == -1, "%zu: refused", i);
			continue;
		}
		OK(rv == 0, "%zu: parsed", i);
		if (rv != 0)
			continue;
		STR_EQ(req.path, rows[i].path, rows[i].in);
		STR_EQ(req.query, rows[i].query, rows[i].in);
	}
}

static void
test_end(void)
{
	char	 big[NEX_REQUEST_MAX + 8];

	INT_EQ(nex_request_end("/a", 2), NEX_INCOMPLETE, "no end yet");
	INT_EQ(nex_request_end("/a\r\n", 4), 2, "CRLF");
	memset(big, 'a', sizeof(big));
	INT_EQ(nex_request_end(big, sizeof(big)), NEX_TOO_LONG,
	    "2 KiB without LF: too long");
	big[NEX_LINE_MAX + 1] = '\n';
	INT_EQ(nex_request_end(big, NEX_LINE_MAX + 2), NEX_TOO_LONG,
	    "a line over the cap");
}

/* A directory: "=> " links, text lines that never read as links. */
static void
test_emit(void)
{
	struct page		 p;
	struct page_target	 t;
	struct buf		 out = BUF_INIT;

	memset(&t, 0, sizeof(t));
	t.format = FORMAT_NEX;
	t.host = "localhost";
	t.port = 1900;
	t.width = 70;
	t.base = "/~ann";
	page_init(&p);
	page_heading(&p, 1, "Posts");
	page_text(&p, "=> not a link");
	page_blank(&p);
	page_link(&p, LINK_TEXT, "/posts/a b", "2024-01-02", "A post");
	page_link(&p, LINK_MENU, "/tags/", NULL, "Tags");
	page_link(&p, LINK_EXTERNAL, "https://example.com/", NULL, "Web");
	page_emit(&p, &t, 0, &out);
	buf_addc(&out, '\0');
	STR_EQ(out.data, "Posts\n=====\n => not a link\n\n"
	    "=> /~ann/posts/a%20b/ 2024-01-02 A post\n"
	    "=> /~ann/tags/ Tags\n"
	    "=> https://example.com/ Web\n", "a directory");
	page_free(&p);
	buf_free(&out);
}

static const struct harness_test tests[] = {
	TEST(test_rows),
	TEST(test_end),
	TEST(test_emit),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
