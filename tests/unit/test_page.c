/*
 * test_page.c -- the page model and its three emitters.
 *
 * Builds pages block by block and checks the bytes: gemtext line by
 * line, every gophermap line against the menu grammar (checker below),
 * and the plain text of post headers and footers.
 */
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "harness.h"
#include "site/page.h"

static struct page_target	 target = {
	.format = FORMAT_GOPHER, .host = "gopher.example.org", .port = 7070,
	.width = 70,
};

/* Line n (0-based) of s into a static buffer; NULL past the end. */
static const char *
line(const char *s, int n)
{
	static char	 l[1024];
	const char	*nl;
	size_t		 len;

	for (; n > 0; n--) {
		if ((nl = strchr(s, '\n')) == NULL)
			return NULL;
		s = nl + 1;
	}
	if (*s == '\0')
		return NULL;
	nl = strchr(s, '\n');
	len = nl ? (size_t)(nl - s) : strlen(s);
	if (len >= sizeof(l))
		len = sizeof(l) - 1;
	memcpy(l, s, len);
	l[len] = '\0';
	return l;
}

static int
nlines(const char *s)
{
	int	 n = 0;

	for (; *s != '\0'; s++)
		if (*s == '\n')
			n++;
	return n;
}

static size_t
u8cols(const char *s, size_t len)
{
	size_t	 i, n = 0;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			n++;
	return n;
}

/*
 * Check a whole menu: CRLF everywhere, three TABs per line, a valid
 * type, display within width, no stray bytes, ".\r\n" last.  Returns the
 * number of problems (each also reported).
 */
static int
gophermap_check(const char *m, unsigned width, const char *what)
{
	const char	*s = m, *crlf, *t1, *t2, *t3;
	int		 bad = 0, nl = 0, tabs;
	size_t		 len, i;

	while (*s != '\0') {
		nl++;
		if ((crlf = strstr(s, "\r\n")) == NULL) {
			fprintf(stderr, "%s: line %d: no CRLF\n", what, nl);
			return bad + 1;
		}
		len = (size_t)(crlf - s);
		if (len == 1 && s[0] == '.') {
			if (crlf[2] != '\0') {
				fprintf(stderr, "%s: bytes after .\n", what);
				bad++;
			}
			return bad;
		}
		for (i = 0, tabs = 0; i < len; i++) {
			if (s[i] == '\t')
				tabs++;
			else if (s[i] == '\r' || s[i] == '\n')
				bad++;
		}
		if (tabs != 3 || len == 0 ||
		    strchr("0123456789+TgIihsdp:;<", s[0]) == NULL) {
			fprintf(stderr, "%s: line %d: bad: %.*s\n", what, nl,
			    (int)len, s);
			bad++;
		} else {
			t1 = memchr(s, '\t', len);
			t2 = memchr(t1 + 1, '\t', (size_t)(crlf - t1 - 1));
			t3 = memchr(t2 + 1, '\t', (size_t)(crlf - t2 - 1));
			if (u8cols(s + 1, (size_t)(t1 - s - 1)) > width) {
				fprintf(stderr, "%s: line %d: too wide\n",
				    what, nl);
				bad++;
			}
			if (t3 + 1 == crlf || t3 == t2 + 1) {
				fprintf(stderr, "%s: line %d: no host/port\n",
				    what, nl);
				bad++;
			}
			if (s[0] == 'i' && (size_t)(crlf - t1) !=
			    strlen("\tfake\t(NULL)\t0")) {
				fprintf(stderr, "%s: line %d: info fields\n",
				    what, nl);
				bad++;
			}
		}
		s = crlf + 2;
	}
	fprintf(stderr, "%s: no final .\n", what);
	return bad + 1;
}

static void
test_gemtext_lines(void)
{
	struct page	 p;
	struct buf	 out = BUF_INIT;

	page_init(&p);
	page_blank(&p);			/* nothing before it: dropped */
	page_heading(&p, 1, "Title %d", 1);
	page_heading(&p, 0, "clamped up");
	page_heading(&p, 9, "clamped down");
	page_text(&p, "=> not a link");
	page_text(&p, "# not a heading");
	page_text(&p, "* not an item");
	page_text(&p, "*emphasis is fine");
	page_text(&p, "> not a quote");
	page_text(&p, "```not a toggle");
	page_text(&p, "two\nlines\tand tab");
	page_blank(&p);
	page_blank(&p);			/* collapses */
	page_link(&p, LINK_DOCUMENT, "/posts/a b", "2024-05-01", "A %s",
	    "post");
	page_link(&p, LINK_EXTERNAL, "https://example.net/x y", NULL,
	    "Elsewhere");
	page_link(&p, LINK_MENU, "/tags/", NULL, "%s", "");
	page_link(&p, LINK_MENU, "", NULL, "=> no url");
	page_link(&p, LINK_DOCUMENT, "/p", "2024-01-02", "label\nwith LF");
	page_heading(&p, 2, "   ");	/* empty: dropped */
	page_emit_gemtext(&p, &target, &out);

	STR_EQ(line(out.data, 0), "# Title 1", "h1");
	STR_EQ(line(out.data, 1), "# clamped up", "level 0 -> 1");
	STR_EQ(line(out.data, 2), "### clamped down", "level 9 -> 3");
	STR_EQ(line(out.data, 3), " => not a link", "=> neutralised");
	STR_EQ(line(out.data, 4), " # not a heading", "# neutralised");
	STR_EQ(line(out.data, 5), " * not an item", "* neutralised");
	STR_EQ(line(out.data, 6), "*emphasis is fine", "*x kept");
	STR_EQ(line(out.data, 7), " > not a quote", "> neutralised");
	STR_EQ(line(out.data, 8), " ```not a toggle", "``` neutralised");
	STR_EQ(line(out.data, 9), "two lines and tab", "one line");
	STR_EQ(line(out.data, 10), "", "one blank");
	STR_EQ(line(out.data, 11), "=> /posts/a%20b 2024-05-01 A post",
	    "dated link, encoded path");
	STR_EQ(line(out.data, 12), "=> https://example.net/x%20y Elsewhere",
	    "absolute URL: space encoded");
	STR_EQ(line(out.data, 13), "=> /tags/", "no label");
	STR_EQ(line(out.data, 14), " => no url", "URL-less link as text");
	STR_EQ(line(out.data, 15), "=> /p 2024-01-02 label with LF",
	    "label one line");
	INT_EQ(nlines(out.data), 16, "line count");
	OK(out.data[out.len - 1] == '\n', "ends with newline");
	OK(strstr(out.data, "\n\n\n") == NULL, "no two blank lines");
	buf_free(&out);
	page_free(&p);
	INT_EQ(p.n, 0, "page_free resets");
}

static void
test_gemtext_append(void)
{
	struct page	 p;
	struct buf	 out = BUF_INIT;

	page_init(&p);
	page_blank(&p);
	page_link(&p, LINK_MENU, "/", NULL, "Home");

	buf_addstr(&out, "body");	/* no newline yet */
	page_emit_gemtext(&p, &target, &out);
	STR_EQ(out.data, "body\n\n=> / Home\n", "blank kept after body");

	buf_truncate(&out, 0);
	buf_addstr(&out, "body\n\n");
	page_emit_gemtext(&p, &target, &out);
	STR_EQ(out.data, "body\n\n=> / Home\n", "no second blank");

	buf_free(&out);
	page_emit_gemtext(&p, &target, &out);
	STR_EQ(out.data, "=> / Home\n", "no leading blank");
	buf_free(&out);
	page_free(&p);

	/* An empty page emits nothing. */
	page_init(&p);
	page_emit_gemtext(&p, &target, &out);
	INT_EQ(out.len, 0, "empty page");
	page_emit_gophermap(&p, &target, &out);
	STR_EQ(out.data, ".\r\n", "empty menu");
	buf_free(&out);
	page_free(&p);
}

static void
test_gophermap(void)
{
	struct page	 p;
	struct buf	 out = BUF_INIT, big = BUF_INIT;
	int		 i;

	for (i = 0; i < 100; i++)
		buf_addstr(&big, "\xc3\xa9");	/* é: 2 bytes, 1 column */
	page_init(&p);
	page_heading(&p, 1, "Hello");
	page_heading(&p, 2, "Sub");
	page_text(&p, "A paragraph that is long enough to be wrapped onto "
	    "more than one informational line at seventy columns wide.");
	page_blank(&p);
	page_link(&p, LINK_MENU, "/tags/", NULL, "Tags");
	page_link(&p, LINK_DOCUMENT, "/posts/x", "2024-05-01", "Post\tTab");
	page_link(&p, LINK_FILE, "/files/cat.png", NULL, "Cat");
	page_link(&p, LINK_EXTERNAL, "gemini://example.org/", NULL, "Gem");
	page_link(&p, LINK_SEARCH, "/search", NULL, "Search");
	page_link(&p, LINK_EXTERNAL, "gopher://other.org:71/0/a%20b", NULL,
	    "Other");
	page_link(&p, LINK_DOCUMENT, "/long", NULL, "%s", big.data);
	page_link(&p, LINK_DOCUMENT, "https://x.org/a\tb", NULL, "T");
	page_emit_gophermap(&p, &target, &out);

	INT_EQ(gophermap_check(out.data, 70, "menu"), 0, "menu syntax");
	OK(strncmp(out.data, "iHello\tfake\t(NULL)\t0\r\n"
	    "i=====\tfake\t(NULL)\t0\r\n"
	    "iSub\tfake\t(NULL)\t0\r\n"
	    "i---\tfake\t(NULL)\t0\r\n", 80) == 0, "headings underlined: %s",
	    out.data);
	HAS(out.data, "iA paragraph that is long enough to be wrapped onto "
	    "more than one\tfake", "wrapped at a word");
	HAS(out.data, "\r\ni\tfake\t(NULL)\t0\r\n1Tags\t/tags/\t"
	    "gopher.example.org\t7070\r\n", "blank info, menu item");
	HAS(out.data, "\r\n02024-05-01 Post Tab\t/posts/x\tgopher.example.org"
	    "\t7070\r\n", "document with date, TAB replaced");
	HAS(out.data, "\r\nICat\t/files/cat.png\t", "file type from mime");
	HAS(out.data, "\r\nhGem\tURL:gemini://example.org/\tgopher.example.org"
	    "\t7070\r\n", "external: h URL:");
	HAS(out.data, "\r\n7Search\t/search\t", "search");
	HAS(out.data, "\r\n0Other\t/a b\tother.org\t71\r\n",
	    "gopher URL: a real item");
	HAS(out.data, "\xc3\xa9...\t/long\t",
	    "cut with \"...\": the server's word, in ASCII");
	HAS(out.data, "\r\nhT\tURL:https://x.org/a%09b\t", "TAB in URL");
	OK(out.len > 5 && strcmp(out.data + out.len - 5, "\r\n.\r\n") == 0,
	    "ends with .");
	buf_free(&out);

	/* Narrow: everything still fits, long words split. */
	target.width = 12;
	page_text(&p, "Supercalifragilisticexpialidocious word");
	page_heading(&p, 1, "A heading longer than twelve");
	page_emit_gophermap(&p, &target, &out);
	INT_EQ(gophermap_check(out.data, 12, "narrow"), 0, "narrow syntax");
	HAS(out.data, "iSupercalifra\tfake", "hard split");
	HAS(out.data, "igilisticexpi\t", "hard split 2");
	target.width = 70;
	buf_free(&out);
	buf_free(&big);
	page_free(&p);
}

static void
test_text(void)
{
	struct page	 p;
	struct buf	 out = BUF_INIT;

	page_init(&p);
	page_heading(&p, 1, "Why my server died");
	page_text(&p, "2024-05-02 \xc2\xb7 4 min read");
	page_link(&p, LINK_MENU, "/series/gem/", NULL, "Part 3 of 3 in Gem");
	page_link(&p, LINK_DOCUMENT, "/posts/a-rather-long-slug-indeed", NULL,
	    "A label long enough that the URL cannot share its line");
	page_blank(&p);
	page_blank(&p);
	page_link(&p, LINK_EXTERNAL, "https://example.net/", NULL, "Web");
	page_emit_text(&p, &target, &out);
	STR_EQ(line(out.data, 0), "Why my server died", "heading");
	STR_EQ(line(out.data, 1), "==================", "underline");
	STR_EQ(line(out.data, 2), "2024-05-02 \xc2\xb7 4 min read", "text");
	STR_EQ(line(out.data, 3), "Part 3 of 3 in Gem: "
	    "gopher://gopher.example.org:7070/1/series/gem/", "menu URL");
	STR_EQ(line(out.data, 4), "A label long enough that the URL cannot "
	    "share its line:", "label alone");
	STR_EQ(line(out.data, 5), "  gopher://gopher.example.org:7070/0/posts/"
	    "a-rather-long-slug-indeed", "URL on its own line");
	STR_EQ(line(out.data, 6), "", "blank");
	STR_EQ(line(out.data, 7), "Web: https://example.net/", "external");
	INT_EQ(nlines(out.data), 8, "text lines");
	buf_free(&out);

	target.port = 70;
	page_free(&p);
	page_link(&p, LINK_DOCUMENT, "/posts/x", "2024-01-01", "X");
	page_emit_text(&p, &target, &out);
	STR_EQ(out.data,
	    "2024-01-01 X: gopher://gopher.example.org/0/posts/x\n",
	    "port 70 omitted");
	target.port = 7070;
	buf_free(&out);
	page_free(&p);
}

static void
test_markdown(void)
{
	static const char	 md[] = "Hello *world*.\n\nSecond paragraph.\n";
	struct page		 p;
	struct buf		 out = BUF_INIT;

	page_init(&p);
	page_heading(&p, 1, "T");
	page_blank(&p);
	page_source(&p, md, sizeof(md) - 1, 0);
	page_blank(&p);
	page_link(&p, LINK_MENU, "/", NULL, "Home");
	page_source(&p, NULL, 0, 0);		/* nothing */
	page_source(&p, "", 0, 0);		/* fuzz: NULL + 0 */
	page_emit_gemtext(&p, &target, &out);
	HAS(out.data, "world", "markdown rendered");
	HAS(out.data, "Second paragraph.\n\n=> / Home\n", "one blank after");
	OK(strstr(out.data, "\n\n\n") == NULL, "no double blank: %s",
	    out.data);
	OK(strncmp(out.data, "# T\n\nHello", 10) == 0, "one blank before");
	buf_free(&out);

	page_emit_gophermap(&p, &target, &out);
	INT_EQ(gophermap_check(out.data, 70, "md menu"), 0, "md menu syntax");
	HAS(out.data, "iSecond paragraph.\tfake\t(NULL)\t0\r\n", "md as info");
	buf_free(&out);

	page_emit_text(&p, &target, &out);
	HAS(out.data, "Second paragraph.\n\nHome: gopher://", "md in text");
	buf_free(&out);
	page_free(&p);
}

/*
 * Links that can be followed: a post's links go to its menu over
 * Gopher, and the links of Markdown in a menu are items after it,
 * numbered as in the text, with no "References" list.
 */
static void
test_followable(void)
{
	static const char	 md[] = "See [the other](/posts/y) and "
	    "[the web](https://example.net/) or ![](/files/c.png).\n";
	struct page		 p;
	struct buf		 out = BUF_INIT;

	page_init(&p);
	page_link(&p, LINK_TEXT, "/posts/x", "2024-01-01", "X");
	page_source(&p, md, sizeof(md) - 1, 0);
	page_source_links(&p, md, sizeof(md) - 1, 0);
	page_emit_gophermap(&p, &target, &out);
	INT_EQ(gophermap_check(out.data, 70, "links"), 0, "links syntax");
	HAS(out.data, "12024-01-01 X\t/posts/x/\t", "a post: its menu");
	HAS(out.data, "iSee the other[1] and the web[2] or c.png[3].\t",
	    "numbers in the text");
	/* "Link N:", not "[N]": numbered clients add their own "[M]". */
	HAS(out.data, "\r\n0Link 1: the other\t/posts/y\t", "[1] an item");
	HAS(out.data, "\r\nhLink 2: the web\tURL:https://example.net/\t",
	    "[2] an item");
	HAS(out.data, "\r\nILink 3: c.png\t/files/c.png\t", "[3] an item");
	OK(strstr(out.data, "References") == NULL, "no reference list");
	OK(strstr(strstr(out.data, "Link 3: c.png") + 1, "Link 3: c.png") !=
	    NULL, "links only: the items again");
	buf_free(&out);

	page_emit_text(&p, &target, &out);
	HAS(out.data, "2024-01-01 X: gopher://gopher.example.org:7070/1/posts/"
	    "x/\n", "a post in text: its menu's URL");
	HAS(out.data, "References", "the text keeps its reference list");
	HAS(out.data, "Link 1: the other: gopher://gopher.example.org:7070/0/"
	    "posts/y\n", "links only, as text");
	buf_free(&out);

	page_emit_gemtext(&p, &target, &out);
	HAS(out.data, "=> /posts/x 2024-01-01 X\n", "a post over Gemini");
	HAS(out.data, "=> https://example.net/ Link 2: the web\n",
	    "links only, as gemtext");
	buf_free(&out);
	page_free(&p);
}

/* gopher_charset: ascii -- every byte ASCII, cuts with "...". */
static void
test_ascii(void)
{
	static const char	 md[] = "Caf\xc3\xa9 \xe2\x80\x94 "
	    "\xe2\x80\x9cna\xc3\xafve\xe2\x80\x9d [link](/posts/x).\n";
	struct page_target	 t = target;
	struct page		 p;
	struct buf		 out = BUF_INIT;
	size_t			 i;

	t.ascii = 1;
	t.ropts.ascii = 1;
	page_init(&p);
	page_heading(&p, 1, "\xc3\x89mile \xc2\xb7 \xc3\x86sop");
	page_link(&p, LINK_DOCUMENT, "/posts/a", "2024-05-01", "%s",
	    "\xc3\x9c" "ber a title that is long enough to be cut short "
	    "right here (12 min)");
	page_link(&p, LINK_MENU, "/series/s/", NULL,
	    "%s", "Short \xe2\x86\x92 (3 parts, 9 min)");
	page_link(&p, LINK_EXTERNAL, "https://x.org/caf\xc3\xa9", NULL,
	    "Web");
	page_source(&p, md, sizeof(md) - 1, 0);
	page_emit_gophermap(&p, &t, &out);
	INT_EQ(gophermap_check(out.data, 70, "ascii menu"), 0, "ascii syntax");
	for (i = 0; i < out.len; i++)
		if ((unsigned char)out.data[i] >= 0x80)
			break;
	OK(i == out.len, "every byte ASCII: %s", out.data);
	HAS(out.data, "iEmile - AEsop\t", "letters folded with their case");
	HAS(out.data, "02024-05-01 Uber a title that is long enough to be "
	    "cut shor... (12 min)\t/posts/a\t", "cut with ... keeps the time");
	HAS(out.data, "1Short -> (3 parts, 9 min)\t", "arrow spelled");
	HAS(out.data, "\tURL:https://x.org/caf%C3%A9\t", "URL encoded");
	HAS(out.data, "iCafe -- \"naive\" link[1].\t", "markdown spelled");
	buf_free(&out);

	page_emit_text(&p, &t, &out);
	for (i = 0; i < out.len; i++)
		if ((unsigned char)out.data[i] >= 0x80)
			break;
	OK(i == out.len, "text: every byte ASCII: %s", out.data);
	HAS(out.data, "Emile - AEsop\n=============", "text heading");
	buf_free(&out);
	page_free(&p);
}

static const struct harness_test tests[] = {
	TEST(test_gemtext_lines),
	TEST(test_gemtext_append),
	TEST(test_gophermap),
	TEST(test_text),
	TEST(test_markdown),
	TEST(test_followable),
	TEST(test_ascii),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
