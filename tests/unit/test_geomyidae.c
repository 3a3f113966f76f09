/*
 * test_geomyidae.c -- site/geomyidae.c: a .gph menu read as geomyidae
 * reads it, line by line, as Gopher menu lines and as a gemtext page;
 * its bound.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/util.h"
#include "harness.h"
#include "site/geomyidae.h"
#include "site/page.h"

static const struct gophermap_env env = { .host = "example.org",
    .port = 7070, .dir = "/phlog/", .max = (size_t)1 << 20 };

#define INFO	"\tfake\t(NULL)\t0\r\n"
#define OURS	"\texample.org\t7070\r\n"

/* The Gopher menu lines of gph. */
static void
menu_is(const char *gph, const char *want, const char *what)
{
	struct buf	 out = BUF_INIT;

	geomyidae_render(&env, gph, strlen(gph), &out);
	buf_addc(&out, '\0');
	STR_EQ(out.data, want, what);
	buf_free(&out);
}

static void
test_lines(void)
{
	menu_is("[1|2020-02-26 A title|/2020/a-title|server|port]\n",
	    "12020-02-26 A title\t/2020/a-title" OURS, "an item, placeholders");
	menu_is("[0|Me|about/me.txt|server|port]\n[1|Up|..|server|port]\n"
	    "[1|Here|./|server|port]\n",
	    "0Me\t/phlog/about/me.txt" OURS "1Up\t/" OURS "1Here\t/phlog/"
	    OURS, "relative selectors, dot segments resolved");
	menu_is("[1|Deep|../../../x|server|port]\n", "1Deep\t/x" OURS,
	    "never above /");
	menu_is("[1|Abs|/../x/./y|server|port]\n", "1Abs\t/x/y" OURS,
	    "no dot segment in an absolute selector either");
	menu_is("[h|Web|URL:https://example.com/|server|port]\n",
	    "hWeb\tURL:https://example.com/" OURS, "an h item's URL: as is");
	menu_is("[1|Other|x/y|sdf.org|70]\n[1|Port|/|sdf.org|port]\n",
	    "1Other\tx/y\tsdf.org\t70\r\n1Port\t/\tsdf.org\t7070\r\n",
	    "another server's selector as written");
	menu_is("[0|a \\| b|c\\|d.txt|server|port]\n",
	    "0a | b\t/phlog/c|d.txt" OURS, "\\| is a bar");
	menu_is("Welcome\nthe t goes\nt[text]\n\n",
	    "iWelcome" INFO "ihe t goes" INFO "i[text]" INFO "i" INFO,
	    "text lines, a leading t dropped");
	menu_is("[bad|line]\n[|x|y|server|port]\n[1|a|b|c|d|e]\n"
	    "[1|no|end|server|port\n",
	    "i[bad|line]" INFO "i[|x|y|server|port]" INFO "i[1|a|b|c|d|e]"
	    INFO "i[1|no|end|server|port" INFO, "malformed: the line as text");
	menu_is("[1|a\tb|c|server|port]\n", "i[1|a b|c|server|port]" INFO,
	    "a TAB: the line as text");
	menu_is("[i|Info|Err|server|port]\r\n[3|Error|x|server|port]\n",
	    "iInfo\tErr" OURS "3Error\tx" OURS, "i and 3 kept, CRLF read");
	menu_is("[1x|Two|y|server|port]\n[1|Bad port|y|server|99999]\n"
	    "[1|Another port|y|server|99]\n",
	    "1Two\t/phlog/y" OURS "1Bad port\t/phlog/y" OURS
	    "1Another port\ty\texample.org\t99\r\n",
	    "the type's first byte; a bad port is ours; another port is "
	    "another server");
}

/* The same menu as a gemtext page (no base: paths from the top). */
static void
page_is(const char *gph, const char *want, const char *what)
{
	struct page		 p;
	struct page_target	 t;
	struct buf		 out = BUF_INIT;

	page_init(&p);
	geomyidae_page(&env, gph, strlen(gph), &p);
	memset(&t, 0, sizeof(t));
	t.format = FORMAT_GEMTEXT;
	t.host = "example.org";
	t.port = 1965;
	page_emit_gemtext(&p, &t, &out);
	buf_addc(&out, '\0');
	STR_EQ(out.data, want, what);
	buf_free(&out);
	page_free(&p);
}

static void
test_page(void)
{
	page_is("Hello\n[1|2020|2020/|server|port]\n[0|Me|me.txt|server|port]"
	    "\n[I|A pic|pic.png|server|port]\n",
	    "Hello\n=> /phlog/2020/ 2020\n=> /phlog/me.txt Me\n"
	    "=> /phlog/pic.png A pic\n", "text and this server's paths");
	page_is("[h|Web|URL:https://example.com/|server|port]\n"
	    "[1|Hole|/x|sdf.org|70]\n[0|Hole 2|/y|sdf.org|7071]\n"
	    "[i|Just text|Err|server|port]\n",
	    "=> https://example.com/ Web\n=> gopher://sdf.org/1/x Hole\n"
	    "=> gopher://sdf.org:7071/0/y Hole 2\nJust text\n",
	    "other servers, the web, info items");
	page_is("=> not a link\n# nor a heading\n",
	    " => not a link\n # nor a heading\n",
	    "text never becomes a gemtext line type");
}

static void
test_bound(void)
{
	struct gophermap_env	 small = env;
	struct buf		 out = BUF_INIT, in = BUF_INIT;
	size_t			 i;

	for (i = 0; i < 10000; i++)
		buf_addstr(&in, "[1|An item of a long menu|x|server|port]\n");
	small.max = 4096;
	geomyidae_render(&small, in.data, in.len, &out);
	OK(out.len >= 4096 && out.len < 4096 + 100 &&
	    out.data[out.len - 1] == '\n', "stops at a whole line past max "
	    "(%zu)", out.len);
	buf_free(&out);
	buf_free(&in);
}

static const struct harness_test tests[] = {
	TEST(test_lines),
	TEST(test_page),
	TEST(test_bound),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
