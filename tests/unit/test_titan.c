/*
 * test_titan.c -- proto/titan.c: the request line and its parameters
 * as the Titan specification defines them, and who may write.
 * (content/publish.c, what an upload does to the capsule, is
 * test_publish.c.)
 *
 * The specification's rules, as tested here:
 *   1. the scheme is titan://, on the Gemini port, after TLS;
 *   2. parameters follow the path, ";key=value" each, not a query;
 *   3. size is required: the bytes that follow the request line;
 *   4. mime is optional (text/gemini when absent); token is optional;
 *   5. no other parameter is defined (we ignore others);
 *   6. size=0 deletes the resource;
 *   7. the answer is an ordinary Gemini response (tests/e2e/e2e_titan.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "harness.h"
#include "proto/titan.h"

static const struct gemini_host host = { "example.org", 1965, 0 };

static int
parse(const char *line, struct titan_request *req, const char **meta)
{
	*meta = NULL;
	return titan_request_parse(line, strlen(line), &host, 1, req, meta);
}

static void
test_parse(void)
{
	struct titan_request	 r;
	const char		*meta;

	INT_EQ(parse("titan://example.org/posts/hello;size=12;"
	    "mime=text/markdown;token=s%20cret", &r, &meta), 0, "full line");
	INT_EQ(r.size, 12, "size");
	STR_EQ(r.mime, "text/markdown", "mime");
	STR_EQ(r.token, "s cret", "token percent-decoded");
	STR_EQ(r.slug, "hello", "slug");
	STR_EQ(r.g.url.path, "/posts/hello", "path without parameters");
	INT_EQ(r.loglen, strlen("titan://example.org/posts/hello"),
	    "logged part stops before the parameters");

	INT_EQ(parse("TITAN://example.org:1965/posts/a-b-2;token=x;size=0",
	    &r, &meta), 0, "any order, any case, explicit port");
	INT_EQ(r.size, 0, "size 0: a delete");
	STR_EQ(r.mime, "", "mime absent");

	INT_EQ(parse("titan://example.org/posts/x;size=3;edit=1;;foo=bar",
	    &r, &meta), 0, "unknown parameters ignored");

	/* Rule 3: size is required and is one number. */
	INT_EQ(parse("titan://example.org/posts/x", &r, &meta), 59,
	    "no parameters");
	INT_EQ(parse("titan://example.org/posts/x;mime=text/plain", &r,
	    &meta), 59, "no size");
	HAS(meta, "size", "says size");
	INT_EQ(parse("titan://example.org/posts/x;size=", &r, &meta), 59,
	    "empty size");
	INT_EQ(parse("titan://example.org/posts/x;size=-1", &r, &meta), 59,
	    "negative size");
	INT_EQ(parse("titan://example.org/posts/x;size=1e3", &r, &meta), 59,
	    "not digits");
	INT_EQ(parse("titan://example.org/posts/x;size=99999999999999999999",
	    &r, &meta), 59, "size overflows");
	INT_EQ(parse("titan://example.org/posts/x;size=1;size=2", &r, &meta),
	    59, "size twice");
	INT_EQ(parse("titan://example.org/posts/x;size", &r, &meta), 59,
	    "parameter without =");
	/* Rule 2: parameters are not a query. */
	INT_EQ(parse("titan://example.org/posts/x?size=3", &r, &meta), 59,
	    "size in a query is no parameter");

	/* Not ours: other hosts and ports are 53, like gemini://. */
	INT_EQ(parse("titan://other.org/posts/x;size=1", &r, &meta), 53,
	    "other host");
	INT_EQ(parse("titan://example.org:1966/posts/x;size=1", &r, &meta),
	    53, "other port");
	INT_EQ(parse("gemini://example.org/posts/x;size=1", &r, &meta), 59,
	    "gemini:// is no upload");

	/* Only /posts/<slug>. */
	INT_EQ(parse("titan://example.org/pages/about;size=1", &r, &meta), 59,
	    "pages are not written");
	INT_EQ(parse("titan://example.org/posts/;size=1", &r, &meta), 59,
	    "no slug");
	INT_EQ(parse("titan://example.org/posts/Hello;size=1", &r, &meta), 59,
	    "slugs are lower-case");
	INT_EQ(parse("titan://example.org/posts/a/b;size=1", &r, &meta), 59,
	    "no sub-directories");
	INT_EQ(parse("titan://example.org/posts/%2e%2e;size=1", &r, &meta), 59,
	    "no dot segments");
	INT_EQ(parse("titan://example.org/posts/x%3By;size=1", &r, &meta), 59,
	    "an encoded ; is no slug");

	OK(titan_mime_ok("") && titan_mime_ok("text/markdown") &&
	    titan_mime_ok("TEXT/X-MARKDOWN") && titan_mime_ok("text/plain"),
	    "Markdown types");
	OK(titan_mime_ok("text/gemini"), "gemtext, for .gmi posts");
	OK(!titan_mime_ok("image/png") && !titan_mime_ok("text/html"),
	    "other types refused");
}

static void
test_writer(void)
{
	struct config	 c;
	char		*w[2];

	memset(&c, 0, sizeof(c));
	w[0] = "aa11";
	w[1] = "bb22";
	c.titan_writers = w;
	c.ntitan_writers = 2;
	OK(titan_writer(&c, "bb22"), "listed");
	OK(!titan_writer(&c, "cc33"), "not listed");
	OK(!titan_writer(&c, NULL), "no certificate");
	c.ntitan_writers = 0;
	OK(!titan_writer(&c, "aa11"), "no writers: nobody");
}

static const struct harness_test tests[] = {
	TEST(test_parse),
	TEST(test_writer),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
