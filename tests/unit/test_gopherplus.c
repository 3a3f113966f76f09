/*
 * test_gopherplus.c -- the Gopher+ forms of an answer (the Gopher+
 * document of 1993), made from RFC 1436 answers built by hand: length
 * lines, "TAB +" on our items only, +INFO/+ADMIN/+VIEWS blocks, one
 * block asked for, the Gopher+ error.  The classic client that reads
 * them is driven in tests/e2e/clients.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/buf.h"
#include "site/gopher_front.h"
#include "site/router.h"
#include "harness.h"

#define I(s)	"i" s "\tfake\t(NULL)\t0\r\n"

static const char menu[] =
    I("Notes")
    I("")
    "0A post\t/posts/a\texample.org\t7070\r\n"
    "1Tags\t/tags/\texample.org\t7070\r\n"
    "7Search\t/search\texample.org\t7070\r\n"
    "hWeb\tURL:https://example.com/\texample.org\t7070\r\n"
    "1Elsewhere\t/\tother.example\t70\r\n"
    ".\r\n";

static long long
fake_size(void *ctx, const char *path)
{
	(*(int *)ctx)++;
	return strcmp(path, "/posts/a") == 0 ? 3000 : 100;
}

static int			 nsize;
static const struct gopherplus_site site = {
	"example.org", 7070, "Jo Writer", NULL, fake_size, &nsize,
};

/* A response as the router leaves it: owned bytes, 20, a type. */
static void
answer_of(struct response *r, const char *body, char type, const char *mime)
{
	response_init(r);
	buf_addstr(&r->owned, body);
	response_use_owned(r);
	r->gopher_type = type;
	response_status(r, 20, "%s", mime);
}

static void
test_data(void)
{
	struct response	 r;

	answer_of(&r, menu, '1', "text/gemini; charset=utf-8");
	gopherplus_answer(&site, GOPHERPLUS_DATA, NULL, NULL, "/", "/", &r);
	STR_EQ(r.body, "+-1\r\n"
	    I("Notes")
	    I("")
	    "0A post\t/posts/a\texample.org\t7070\t+\r\n"
	    "1Tags\t/tags/\texample.org\t7070\t+\r\n"
	    "7Search\t/search\texample.org\t7070\t+\r\n"
	    "hWeb\tURL:https://example.com/\texample.org\t7070\t+\r\n"
	    "1Elsewhere\t/\tother.example\t70\r\n"
	    ".\r\n", "a menu: +-1, our items marked, others not");
	INT_EQ(r.bodylen, strlen(r.body), "bodylen");
	response_free(&r);

	answer_of(&r, "Title\r\n=====\r\n\r\nText.\r\n", '0',
	    "text/gemini; charset=utf-8");
	gopherplus_answer(&site, GOPHERPLUS_DATA, "text/plain", NULL,
	    "/posts/a", "/posts/a", &r);
	STR_EQ(r.body, "+23\r\nTitle\r\n=====\r\n\r\nText.\r\n",
	    "a text: its length, then the bytes");
	response_free(&r);

	/* A file: the length counts it; the body is the length line. */
	answer_of(&r, "", 'I', "image/png");
	r.fd = dup(0);
	r.filelen = 123456;
	gopherplus_answer(&site, GOPHERPLUS_DATA, NULL, NULL, "/files/a.png",
	    "/files/a.png", &r);
	STR_EQ(r.body, "+123456\r\n", "a file: its length first");
	OK(r.fd != -1, "the file is still sent");
	response_free(&r);

	/* The Gopher+ menu view is the menu with every item's blocks. */
	answer_of(&r, menu, '1', "text/gemini");
	gopherplus_answer(&site, GOPHERPLUS_DATA, "application/gopher+-menu",
	    NULL, "/", "/", &r);
	HAS(r.body, "+INFO: 1Tags\t/tags/\texample.org\t7070\t+\r\n",
	    "menu view: +INFO blocks");
	response_free(&r);
}

static void
test_dir(void)
{
	struct response	 r;

	nsize = 0;
	answer_of(&r, menu, '1', "text/gemini");
	gopherplus_answer(&site, GOPHERPLUS_DIR, NULL, NULL, "", "/", &r);
	STR_EQ(r.body, "+-1\r\n"
	    "+INFO: " I("Notes")
	    "+INFO: " I("")
	    "+INFO: 0A post\t/posts/a\texample.org\t7070\t+\r\n"
	    "+ADMIN:\r\n Admin: Jo Writer\r\n"
	    "+VIEWS:\r\n text/plain: <3k>\r\n"
	    "+INFO: 1Tags\t/tags/\texample.org\t7070\t+\r\n"
	    "+ADMIN:\r\n Admin: Jo Writer\r\n"
	    "+VIEWS:\r\n application/gopher+-menu:\r\n"
	    "+INFO: 7Search\t/search\texample.org\t7070\t+\r\n"
	    "+ADMIN:\r\n Admin: Jo Writer\r\n"
	    "+VIEWS:\r\n application/gopher+-menu:\r\n"
	    "+INFO: hWeb\tURL:https://example.com/\texample.org\t7070\t+\r\n"
	    "+ADMIN:\r\n Admin: Jo Writer\r\n"
	    "+VIEWS:\r\n text/html: <100b>\r\n"
	    "+INFO: 1Elsewhere\t/\tother.example\t70\r\n"
	    ".\r\n", "a menu as +INFO blocks; only ours have the others");
	INT_EQ(nsize, 2, "only what is not a menu is measured");
	response_free(&r);

	answer_of(&r, menu, '1', "text/gemini");
	gopherplus_answer(&site, GOPHERPLUS_DIR, NULL, "info", "", "/", &r);
	OK(strstr(r.body, "+ADMIN") == NULL && strstr(r.body, "+VIEWS") ==
	    NULL, "$+INFO: the +INFO blocks alone");
	HAS(r.body, "+INFO: 0A post\t", "$+INFO: still every item");
	response_free(&r);

	/* "$" on what is not a menu: the item's own blocks. */
	answer_of(&r, "Title\r\n", '0', "text/gemini");
	gopherplus_answer(&site, GOPHERPLUS_DIR, NULL, NULL, "/posts/a",
	    "/posts/a", &r);
	HAS(r.body, "+INFO: 0Title\t/posts/a\texample.org\t7070\t+\r\n",
	    "$ on a text: as !");
	response_free(&r);
}

static void
test_info(void)
{
	struct response	 r;

	answer_of(&r, menu, '1', "text/gemini");
	gopherplus_answer(&site, GOPHERPLUS_INFO, NULL, NULL, "", "/", &r);
	STR_EQ(r.body, "+-1\r\n"
	    "+INFO: 1Notes\t\texample.org\t7070\t+\r\n"
	    "+ADMIN:\r\n Admin: Jo Writer\r\n"
	    "+VIEWS:\r\n application/gopher+-menu: <221b>\r\n"
	    ".\r\n", "a menu's own blocks, titled by its first line");
	response_free(&r);

	answer_of(&r, "\r\n  Long title\r\n====\r\nText\r\n", '0',
	    "text/gemini; charset=utf-8; lang=en");
	gopherplus_answer(&site, GOPHERPLUS_INFO, NULL, "VIEWS", "posts/a",
	    "/posts/a", &r);
	STR_EQ(r.body, "+-1\r\n+VIEWS:\r\n text/plain: <28b>\r\n.\r\n",
	    "!+VIEWS: that block alone; Gopher text is text/plain");
	response_free(&r);
	answer_of(&r, "\r\n  Long title\r\n====\r\nText\r\n", '0',
	    "text/gemini; charset=utf-8; lang=en");
	gopherplus_answer(&site, GOPHERPLUS_INFO, NULL, "INFO", "posts/a",
	    "/posts/a", &r);
	STR_EQ(r.body, "+-1\r\n"
	    "+INFO: 0Long title\tposts/a\texample.org\t7070\t+\r\n.\r\n",
	    "a text: titled by its first line; the selector as sent");
	response_free(&r);

	answer_of(&r, "", 'I', "image/png");
	r.fd = dup(0);
	r.filelen = 2048;
	gopherplus_answer(&site, GOPHERPLUS_INFO, NULL, NULL, "/files/a b.png",
	    "/files/a b.png", &r);
	STR_EQ(r.body, "+-1\r\n"
	    "+INFO: Ia b.png\t/files/a b.png\texample.org\t7070\t+\r\n"
	    "+ADMIN:\r\n Admin: Jo Writer\r\n"
	    "+VIEWS:\r\n image/png: <2k>\r\n"
	    ".\r\n", "a file: named by its path, its MIME type and size");
	INT_EQ(r.fd, -1, "the file itself is not sent");
	response_free(&r);

	answer_of(&r, "x", '0', "text/plain");
	gopherplus_answer(&site, GOPHERPLUS_INFO, NULL, "ABSTRACT", "/x",
	    "/x", &r);
	STR_EQ(r.body, "+-1\r\n.\r\n", "a block we do not have: none");
	response_free(&r);
}

static void
test_error(void)
{
	struct response			 r;
	struct gopherplus_site		 anon = site;

	answer_of(&r, menu, '1', "text/gemini");
	gopherplus_error(&site, "Not found", &r);
	STR_EQ(r.body, "--1\r\n1 Jo Writer\r\nNot found\r\n.\r\n",
	    "error 1, the admin, the message");
	response_free(&r);

	anon.admin = NULL;
	response_init(&r);
	gopherplus_error(&anon, "bad\r\nline\t", &r);
	STR_EQ(r.body, "--1\r\n1 example.org\r\nbad  line \r\n.\r\n",
	    "no admin: the host; the message on one line");
	response_free(&r);
}

static const struct harness_test tests[] = {
	TEST(test_data),
	TEST(test_dir),
	TEST(test_info),
	TEST(test_error),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
