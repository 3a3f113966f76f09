/*
 * test_atom.c -- Atom feeds: required elements, escaping, absolute ids,
 * RFC 3339 dates, and well-formedness checked by xmllint when it is
 * installed (reported as skipped otherwise).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "content/archive.h"
#include "core/buf.h"
#include "core/date.h"
#include "site/atom.h"
#include "harness.h"
#include "core/util.h"

#define XMLLINT	"/usr/bin/xmllint"

static int	 skipped;
static char	 tmpdir[] = "/tmp/test_atom.XXXXXX";

static struct post *
mkpost(const char *slug, const char *title, const char *date)
{
	struct post	*p;
	const char	*err;

	p = xcalloc(1, sizeof(*p));
	p->slug = xstrdup(slug);
	p->title = xstrdup(title);
	if (date_parse(date, strlen(date), &p->date, &err) == -1)
		abort();
	p->updated = p->date;
	p->reading_min = 1;
	return p;
}

static void
post_free(struct post *p)
{
	free(p->slug);
	free(p->title);
	free(p->summary);
	free(p->author);
	free(p->src);
	free(p);
}

/* xmllint --noout on the document: 1 well-formed, 0 not, -1 skipped. */
static int
xml_ok(const char *doc, size_t len)
{
	char	 path[64], cmd[128];
	FILE	*f;
	int	 rc;

	if (access(XMLLINT, X_OK) != 0)
		return -1;
	snprintf(path, sizeof(path), "%s/feed.xml", tmpdir);
	if ((f = fopen(path, "w")) == NULL)
		return 0;
	fwrite(doc, 1, len, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), XMLLINT " --noout %s", path);
	rc = system(cmd);
	unlink(path);
	return rc == 0;
}

static void
check_xml(const struct buf *b, const char *what)
{
	int	 r;

	r = xml_ok(b->data, b->len);
	if (r == -1) {
		skipped++;
		return;
	}
	OK(r == 1, "%s: not well-formed:\n%s", what, b->data);
}

/* 2024-05-02T12:00:00Z or ...+02:00: exactly RFC 3339 date-time. */
static int
rfc3339(const char *s, size_t len)
{
	static const char	 shape[] = "dddd-dd-ddTdd:dd:dd";
	size_t			 i;

	if (len < 20)
		return 0;
	for (i = 0; i < 19; i++)
		if (shape[i] == 'd' ? !(s[i] >= '0' && s[i] <= '9') :
		    s[i] != shape[i])
			return 0;
	if (len == 20)
		return s[19] == 'Z';
	return len == 25 && (s[19] == '+' || s[19] == '-') &&
	    s[22] == ':';
}

/* Every <name>...</name> value passes fn; returns how many there were. */
static int
each(const char *doc, const char *name, int (*fn)(const char *, size_t),
    int *bad)
{
	char		 open[32], close[32];
	const char	*s = doc, *e;
	int		 n = 0;

	snprintf(open, sizeof(open), "<%s>", name);
	snprintf(close, sizeof(close), "</%s>", name);
	while ((s = strstr(s, open)) != NULL) {
		s += strlen(open);
		if ((e = strstr(s, close)) == NULL)
			break;
		if (!fn(s, (size_t)(e - s))) {
			fprintf(stderr, "bad <%s>: %.*s\n", name, (int)(e - s),
			    s);
			(*bad)++;
		}
		n++;
		s = e;
	}
	return n;
}

static int
absolute(const char *s, size_t len)
{
	return len > 9 && strncmp(s, "gemini://", 9) == 0 &&
	    memchr(s, ' ', len) == NULL;
}

static int
count(const char *hay, const char *needle)
{
	int	 n = 0;

	while ((hay = strstr(hay, needle)) != NULL) {
		n++;
		hay += strlen(needle);
	}
	return n;
}

static void
test_feed(void)
{
	struct post	*p[3];
	struct atom_feed f;
	struct buf	 b = BUF_INIT;
	int		 bad = 0;

	p[0] = mkpost("cats-and-c", "Cats & C <3 \"quotes\"",
	    "2024-05-02T14:00:00+02:00");
	p[0]->summary = xstrdup("A summary\x01 with a control\x7f char");
	p[0]->author = xstrdup("Bob");
	p[1] = mkpost("tofu", "TOFU \xff explained", "2024-04-11");
	{
		const char	*err;

		date_parse("2024-06-01", 10, &p[1]->updated, &err);
	}
	p[2] = mkpost("a b", "Space in slug \xef\xbf\xbe", "2023-01-01");

	memset(&f, 0, sizeof(f));
	f.host = "example.org";
	f.port = 1965;
	f.self = "/atom.xml";
	f.alternate = "/gemlog/";
	f.title = "Alice's gemlog";
	f.subtitle = "Notes about cats & C";
	f.author = "Alice";
	f.lang = "en";
	f.posts = p;
	f.nposts = 3;
	atom_feed(&b, &f);

	check_xml(&b, "feed");
	OK(strncmp(b.data, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed "
	    "xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"en\">\n", 93) ==
	    0, "prolog and namespace: %.100s", b.data);
	HAS(b.data, "\n  <id>gemini://example.org/gemlog/</id>\n", "feed id");
	HAS(b.data, "\n  <title>Alice's gemlog</title>\n", "feed title");
	HAS(b.data, "<subtitle>Notes about cats &amp; C</subtitle>",
	    "subtitle escaped");
	HAS(b.data, "\n  <author><name>Alice</name></author>\n",
	    "feed author");
	HAS(b.data, "<link rel=\"self\" type=\"application/atom+xml\" "
	    "href=\"gemini://example.org/atom.xml\"/>", "self link");
	HAS(b.data, "<link rel=\"alternate\" type=\"text/gemini\" "
	    "href=\"gemini://example.org/gemlog/\"/>", "alternate link");
	/* Feed updated: the latest entry updated (p[1], 2024-06-01). */
	HAS(b.data, "\n  <updated>2024-06-01T12:00:00Z</updated>\n",
	    "feed updated = max");
	HAS(b.data, "<title>Cats &amp; C &lt;3 &quot;quotes&quot;</title>",
	    "title escaped");
	HAS(b.data, "<summary>A summary with a control\x7f char</summary>",
	    "control char dropped");
	HAS(b.data, "<title>TOFU \xef\xbf\xbd explained</title>",
	    "invalid UTF-8 replaced");
	HAS(b.data, "<title>Space in slug </title>", "U+FFFE dropped");
	HAS(b.data, "<id>gemini://example.org/posts/a%20b</id>",
	    "id percent-encoded");
	HAS(b.data, "<updated>2024-05-02T14:00:00+02:00</updated>\n"
	    "    <published>2024-05-02T14:00:00+02:00</published>",
	    "entry dates with the written offset");
	HAS(b.data, "<updated>2024-06-01T12:00:00Z</updated>\n"
	    "    <published>2024-04-11T12:00:00Z</published>",
	    "updated and published differ");
	HAS(b.data, "<author><name>Bob</name></author>", "entry author");
	INT_EQ(count(b.data, "<author>"), 2, "authors: feed + Bob");
	INT_EQ(count(b.data, "<entry>"), 3, "entries");
	INT_EQ(count(b.data, "<link rel=\"alternate\""), 4,
	    "alternate per entry");
	INT_EQ(each(b.data, "updated", rfc3339, &bad), 4, "updated count");
	INT_EQ(each(b.data, "published", rfc3339, &bad), 3, "published");
	INT_EQ(each(b.data, "id", absolute, &bad), 4, "ids");
	INT_EQ(bad, 0, "dates RFC 3339, ids absolute");
	OK(strstr(b.data, "<content") == NULL, "summaries only");
	OK(strstr(b.data, "\x01") == NULL, "no C0 control");
	buf_free(&b);

	/* Full content: the body as gemtext, escaped. */
	p[0]->src = xstrdup("---\ntitle: x\n---\nFish & chips\n\n"
	    "[a tag](/tags/x/)\n\n[a picture](img.png)\n\n"
	    "[elsewhere](https://e.org/)\n");
	p[0]->srclen = strlen(p[0]->src);
	p[0]->body_off = strlen("---\ntitle: x\n---\n");
	f.full = 1;
	f.nposts = 1;
	atom_feed(&b, &f);
	check_xml(&b, "full feed");
	HAS(b.data, "<content type=\"text\">", "content element");
	HAS(b.data, "Fish &amp; chips", "content escaped");
	OK(strstr(b.data, "title: x") == NULL, "no front matter in content");
	HAS(b.data, "=&gt; gemini://example.org/tags/x/ a tag",
	    "a link to one of our pages made absolute");
	HAS(b.data, "=&gt; img.png a picture", "relative link as written");
	HAS(b.data, "=&gt; https://e.org/ elsewhere", "external as written");
	buf_free(&b);

	/* Empty: updated = now, author still there. */
	f.posts = NULL;
	f.nposts = 0;
	f.author = NULL;
	f.now = 1714651200;		/* 2024-05-02T12:00:00Z */
	atom_feed(&b, &f);
	check_xml(&b, "empty feed");
	HAS(b.data, "<updated>2024-05-02T12:00:00Z</updated>",
	    "empty: updated = now");
	HAS(b.data, "<author><name>Alice's gemlog</name></author>",
	    "empty: author falls back to the title");
	INT_EQ(count(b.data, "<entry>"), 0, "no entries");
	buf_free(&b);

	/* Author and lang from the snapshot when the feed has none. */
	{
		struct archive	 a;

		memset(&a, 0, sizeof(a));
		a.author = "Carol";
		a.lang = "de-CH";
		f.archive = &a;
		f.lang = NULL;
		atom_feed(&b, &f);
		check_xml(&b, "archive fallbacks");
		HAS(b.data, "<author><name>Carol</name></author>",
		    "author from the archive");
		HAS(b.data, " xml:lang=\"de-CH\">", "lang from the archive");
		buf_free(&b);
	}

	post_free(p[0]);
	post_free(p[1]);
	post_free(p[2]);
}

static void
test_base(void)
{
	char	*s;

	s = atom_base("example.org", 1965);
	STR_EQ(s, "gemini://example.org", "default port omitted");
	free(s);
	s = atom_base("example.org", 1966);
	STR_EQ(s, "gemini://example.org:1966", "other port");
	free(s);
	s = atom_base("::1", 1965);
	STR_EQ(s, "gemini://[::1]", "IPv6 literal");
	free(s);
	s = atom_base(NULL, 0);
	STR_EQ(s, "gemini://localhost", "no host");
	free(s);
}

static void
test_site(void)
{
	struct archive	 a;
	struct series	 s;
	struct tag	 t;
	struct post	*posts[25];
	struct buf	 b = BUF_INIT;
	char		 slug[16], date[16];
	size_t		 i;

	for (i = 0; i < nitems(posts); i++) {
		snprintf(slug, sizeof(slug), "p%zu", i);
		snprintf(date, sizeof(date), "2024-01-%02zu", 25 - i);
		posts[i] = mkpost(slug, slug, date);
	}
	memset(&a, 0, sizeof(a));
	a.title = "Site & co";
	a.author = "Alice";
	a.posts = posts;
	a.nposts = nitems(posts);
	atom_site(&b, &a, "h", 1966);
	check_xml(&b, "site feed");
	INT_EQ(count(b.data, "<entry>"), ATOM_MAX_ENTRIES, "site: latest N");
	HAS(b.data, "<id>gemini://h:1966/gemlog/</id>", "site id");
	HAS(b.data, "href=\"gemini://h:1966/atom.xml\"", "site self");
	HAS(b.data, "<updated>2024-01-25T12:00:00Z</updated>\n  <author>",
	    "site updated");
	OK(strstr(b.data, "/posts/p20<") == NULL, "21st post left out");
	buf_free(&b);

	memset(&s, 0, sizeof(s));
	s.slug = "gem";
	s.title = "Gemini";
	s.summary = "A <series>";
	s.parts = posts;
	s.nparts = 3;
	atom_series(&b, &a, &s, "h", 1965);
	check_xml(&b, "series feed");
	HAS(b.data, "<id>gemini://h/series/gem/</id>", "series id");
	HAS(b.data, "href=\"gemini://h/series/gem/atom.xml\"", "series self");
	HAS(b.data, "<title>Site &amp; co: Gemini</title>", "series title");
	HAS(b.data, "<subtitle>A &lt;series&gt;</subtitle>", "series sub");
	INT_EQ(count(b.data, "<entry>"), 3, "series: every part");
	buf_free(&b);

	memset(&t, 0, sizeof(t));
	t.slug = "node.js";
	t.name = "Node.js";
	t.posts = posts;
	t.nposts = 25;
	atom_tag(&b, &a, &t, "h", 0);
	check_xml(&b, "tag feed");
	HAS(b.data, "<id>gemini://h/tags/node.js/</id>", "tag id");
	HAS(b.data, "Node.js\xe2\x80\x9d</title>", "tag title");
	INT_EQ(count(b.data, "<entry>"), ATOM_MAX_ENTRIES, "tag: latest N");
	buf_free(&b);

	/* Tags on entries become categories. */
	{
		struct tag	*tp = &t;
		char		*name = "Node.js";

		posts[0]->tags = &tp;
		posts[0]->tagnames = &name;
		posts[0]->ntags = 1;
		atom_tag(&b, &a, &t, "h", 0);
		HAS(b.data, "<category term=\"node.js\" label=\"Node.js\"/>",
		    "category");
		check_xml(&b, "categories");
		posts[0]->tags = NULL;
		posts[0]->tagnames = NULL;
		posts[0]->ntags = 0;
		buf_free(&b);
	}
	for (i = 0; i < nitems(posts); i++)
		post_free(posts[i]);
}

static const struct harness_test tests[] = {
	TEST(test_base),
	TEST(test_feed),
	TEST(test_site),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	if (mkdtemp(tmpdir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	harness_run();
	rmdir(tmpdir);
	if (skipped > 0) {
		printf("%d passed, %d failed, %d skipped\n", harness_passed,
		    harness_failed, skipped);
		return harness_failed == 0 ? 0 : 1;
	}
	return harness_done();
}
