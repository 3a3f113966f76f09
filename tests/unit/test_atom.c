/*
 * test_atom.c -- Atom feeds: required elements, escaping, absolute ids,
 * RFC 3339 dates, and well-formedness checked by xmllint when it is
 * installed (reported as skipped otherwise); and the three feeds the
 * server publishes, compared byte for byte with what the router sends.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "content/archive.h"
#include "core/buf.h"
#include "core/config.h"
#include "core/date.h"
#include "core/log.h"
#include "core/util.h"
#include "site/atom.h"
#include "site/router.h"
#include "site/site.h"
#include "files.h"
#include "harness.h"

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

/* What the router answers for path over proto: its body, malloc'd. */
static char *
served(const struct config *cfg, struct site *s, enum surface proto,
    const char *path, size_t *lenp)
{
	struct router_req	 req = { proto, path, NULL, 0, NULL, NULL, 0 };
	struct response		 r;
	char			*body;

	response_init(&r);
	router_handle(cfg, s, &req, &r);
	OK(r.status == 20 && strcmp(r.meta, "application/atom+xml") == 0 &&
	    r.gopher_type == '0', "%s: 20 application/atom+xml, type 0 "
	    "(%d %s)", path, r.status, r.meta);
	body = xmalloc(r.bodylen + 1);
	memcpy(body, r.body != NULL ? r.body : "", r.bodylen);
	body[r.bodylen] = '\0';
	*lenp = r.bodylen;
	response_free(&r);
	return body;
}

/*
 * The server sends what atom.c builds: path's body over both protocols
 * is want's bytes, which are returned (freed by the caller's buf_free).
 */
static void
same(const struct config *cfg, struct site *s, const char *path,
    const struct buf *want)
{
	char	*got;
	size_t	 len;
	int	 proto;

	for (proto = SURFACE_GEMINI; proto <= SURFACE_GOPHER; proto++) {
		got = served(cfg, s, proto, path, &len);
		OK(len == want->len && memcmp(got, want->data, len) == 0,
		    "%s (%s): the router sends what atom.c builds:\n%s\n---\n"
		    "%s", path, proto == SURFACE_GEMINI ? "gemini" : "gopher",
		    got, want->data);
		free(got);
	}
}

/* A capsule of 52 posts tagged "c", two of them a series. */
static struct archive *
capsule(char *top, struct config *cfg)
{
	char	 rel[64], text[256];
	int	 i;

	test_mkdir(top, "posts");
	test_mkdir(top, "series");
	for (i = 0; i < 52; i++) {
		snprintf(rel, sizeof(rel), "posts/2024-01-%02d-p%d.md",
		    1 + i % 28, i);
		snprintf(text, sizeof(text), "---\ntitle: Post %d\n"
		    "date: 2024-%02d-%02d\ntags: [C]\n%s---\nBody %d & "
		    "[a link](/tags/c/).\n", i, 1 + i / 28, 1 + i % 28,
		    i < 2 ? "series: Gemini\n" : "", i);
		test_put(top, rel, text);
	}
	test_put(top, "series/gemini.md", "---\ntitle: Gemini\nsummary: A "
	    "<series>\n---\nIntro.\n");
	memset(cfg, 0, sizeof(*cfg));
	cfg->capsule_dir = top;
	cfg->site_title = "Site & co";
	cfg->site_subtitle = "Notes";
	cfg->author = "Alice";
	cfg->lang = "en";
	cfg->hostname = "h";
	cfg->port[SURFACE_GEMINI] = 1966;
	cfg->port[SURFACE_GOPHER] = 70;
	return archive_load(cfg);
}

/*
 * The three feeds the server publishes: what the router sends for
 * /atom.xml (and /gemlog/atom.xml), a series' and a tag's is what
 * atom_site(), atom_series() and atom_tag() build, with one entry limit
 * (ATOM_MAX_ENTRIES, for the site's and a tag's: a tag's was unbounded
 * before they were one path) and one title rule.
 */
static void
test_site(void)
{
	char			 top[] = "/tmp/test_atom_site.XXXXXX";
	struct config		 cfg;
	struct archive		*a;
	struct site		*s;
	struct atom_target	 t;
	struct buf		 b = BUF_INIT;
	int			 full;

	if (mkdtemp(top) == NULL) {
		OK(0, "mkdtemp");
		return;
	}
	if ((a = capsule(top, &cfg)) == NULL) {
		OK(0, "archive_load");
		test_rm_tree(top);
		return;
	}
	INT_EQ(a->nposts, 52, "posts");
	INT_EQ(a->nseries, 1, "one series");
	INT_EQ(a->ntags, 1, "one tag");
	for (full = 0; full <= 1; full++) {
		cfg.atom_full_content = full;
		cfg.base = full ? "/~me" : NULL;
		t = (struct atom_target){ cfg.hostname, cfg.base,
		    cfg.port[SURFACE_GEMINI], full };
		s = site_new(a, 0);

		atom_site(&b, a, &t);
		check_xml(&b, "site feed");
		same(&cfg, s, "/atom.xml", &b);
		same(&cfg, s, "/gemlog/atom.xml", &b);
		INT_EQ(count(b.data, "<entry>"), ATOM_MAX_ENTRIES,
		    "site: the latest ATOM_MAX_ENTRIES");
		INT_EQ(ATOM_MAX_ENTRIES, 50, "the limit the server had");
		HAS(b.data, "\n  <title>Site &amp; co</title>\n", "site title");
		HAS(b.data, "<subtitle>Notes</subtitle>", "site subtitle");
		HAS(b.data, "<author><name>Alice</name></author>", "author");
		HAS(b.data, full ? "<id>gemini://h:1966/~me/gemlog/</id>" :
		    "<id>gemini://h:1966/gemlog/</id>", "site id");
		HAS(b.data, full ? "href=\"gemini://h:1966/~me/atom.xml\"" :
		    "href=\"gemini://h:1966/atom.xml\"", "site self");
		HAS(b.data, "<category term=\"c\" label=\"C\"/>", "category");
		OK((strstr(b.data, "<content type=\"text\">Body 51 &amp; ") !=
		    NULL) == full, "content only with atom_full_content");
		OK((strstr(b.data, "=&gt; gemini://h:1966/~me/tags/c/ "
		    "a link") != NULL) == full,
		    "its links absolute, in the user's capsule");
		buf_free(&b);

		atom_series(&b, a, a->series[0], &t);
		check_xml(&b, "series feed");
		same(&cfg, s, "/series/gemini/atom.xml", &b);
		INT_EQ(count(b.data, "<entry>"), 2, "series: every part");
		/* Feed titles: "Site: name"; the site's subtitle. */
		HAS(b.data, "\n  <title>Site &amp; co: Gemini</title>\n",
		    "series title: the site's, then the series', as a tag's");
		HAS(b.data, "<subtitle>Notes</subtitle>", "series subtitle");
		HAS(b.data, "/series/gemini/</id>", "series id");
		buf_free(&b);

		atom_tag(&b, a, a->tags[0], &t);
		check_xml(&b, "tag feed");
		same(&cfg, s, "/tags/c/atom.xml", &b);
		INT_EQ(count(b.data, "<entry>"), ATOM_MAX_ENTRIES,
		    "tag: the latest ATOM_MAX_ENTRIES, as the site's");
		HAS(b.data, "\n  <title>Site &amp; co: C</title>\n",
		    "tag title: the site's, then the tag's name");
		HAS(b.data, "<subtitle>Notes</subtitle>", "tag subtitle");
		HAS(b.data, "/tags/c/</id>", "tag id");
		buf_free(&b);
		site_unref(s);
	}
	INT_EQ(atom_entries(3), 3, "fewer posts: all of them");
	INT_EQ(atom_entries(ATOM_MAX_ENTRIES + 1), ATOM_MAX_ENTRIES,
	    "more: the limit");
	archive_unref(a);
	test_rm_tree(top);
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

	log_set_level(LOG_LEVEL_ERROR);
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
