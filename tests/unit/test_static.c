/*
 * test_static.c -- static trees through the router (site/static.c,
 * site/router.c), over capsules made in a temp directory.
 *
 * The "root" tree beside the generated pages, which win, each conflict
 * counted at load; "mount" moving the generated pages under a prefix
 * with their links and redirects, the tree keeping "/"; index files,
 * listings with titles, sorted by name or date, that leave out what a
 * request would not get (dot-files, gophermaps, links out or into
 * posts/); Gopher menus from gophermaps in every shape site/gophermap.c
 * reads (info lines with and without TABs, relative and absolute
 * selectors, missing host and port, "." and "*", "-name", "=file"
 * includes, none leaving the tree); a user capsule without the layout
 * served as a tree under its base.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "content/archive.h"
#include "core/config.h"
#include "core/buf.h"
#include "core/log.h"
#include "core/util.h"
#include "files.h"
#include "harness.h"
#include "site/gopher_front.h"
#include "site/router.h"
#include "site/site.h"
#include "site/static.h"

static char		 top[64], plain[64], treeonly[64];
static struct config	 cfg;

static void
config_init(struct config *c, const char *dir)
{
	memset(c, 0, sizeof(*c));
	c->capsule_dir = (char *)dir;
	c->site_title = "Site";
	c->lang = "en";
	c->hostname = "localhost";
	c->port[SURFACE_GEMINI] = 1965;
	c->port[SURFACE_GOPHER] = 70;
	c->watch = 1;
	c->file_cache_max = 256 << 10;
	c->follow_symlinks = CONFIG_LINKS_INSIDE;
	c->listings = 1;
	c->root_listings = 1;
	c->listing_titles = 1;
	c->index = "index.gmi";
}

static void
make_capsule(void)
{
	char	 a[256], b[256];

	test_mkdir(top, "posts");
	test_mkdir(top, "pages");
	test_put(top, "posts/2024-01-01-hello.md", "# Hello\n\nA post.\n");
	test_put(top, "pages/about.md", "# About\n\nThe page.\n");
	test_mkdir(top, "site");
	test_mkdir(top, "site/notes");
	test_mkdir(top, "site/notes/2024");
	test_mkdir(top, "site/posts");
	test_put(top, "site/index.gmi", "# Home\n=> notes/ Notes\n");
	test_put(top, "site/hello.gmi", "# Hello world\n\nHi.\n");
	test_put(top, "site/about", "the file about\n");
	test_put(top, "site/.secret", "secret\n");
	test_put(top, "site/notes/a.gmi", "# Alpha\n");
	test_put(top, "site/notes/c.gmi", "intro\n## Gamma\n");
	test_put(top, "site/notes/b.txt", "bee\n");
	test_put(top, "site/notes/2024/trip.gmi", "# A trip\n");
	test_put(top, "site/gophermap",
	    "!The hole\n"
	    "# a comment\n"
	    "Welcome, written without a tab\n"
	    "\n"
	    "1Notes\tnotes/\n"
	    "0Hello\t/hello.gmi\n"
	    "0Trip\tnotes/2024/../2024/trip.gmi\n"
	    "1Elsewhere\t/\tgopher.example\t70\n"
	    "hWeb\tURL:https://example.org/\n"
	    "iTabbed info\tfake\t(NULL)\t0\n"
	    "0Same name\t\n"
	    "=inc.map\n"
	    "=/../../etc/passwd\n"
	    "=notes/b.txt\n"
	    "~\n"
	    ":png=g\n"
	    ".\n"
	    "never shown\n");
	test_put(top, "site/inc.map", "Included line\n=inc.map\n");
	test_put(top, "site/notes/gophermap",
	    "Notes menu\n-b.txt\n*\nafter the listing\n");
	/* Links: out of the capsule, into posts/, and one that stays. */
	test_path(b, sizeof(b), top, "site/link-out");
	OK(symlink("/etc/passwd", b) == 0, "a link out");
	test_path(b, sizeof(b), top, "site/link-posts");
	OK(symlink("../posts", b) == 0, "a link into posts/");
	test_path(b, sizeof(b), top, "site/notes/link-in.gmi");
	OK(symlink("a.gmi", b) == 0, "a link that stays");
	test_path(a, sizeof(a), top, "site/hello.gmi");
	test_path(b, sizeof(b), top, "site/abs-in.gmi");
	OK(symlink(a, b) == 0, "an absolute link that stays");
	test_path(a, sizeof(a), top, "posts/2024-01-01-hello.md");
	test_path(b, sizeof(b), top, "site/abs-posts.md");
	OK(symlink(a, b) == 0, "an absolute link into posts/");
	/* A user capsule without the layout. */
	test_put(plain, "index.gmi", "# My plain capsule\n");
	test_mkdir(plain, "x");
	test_put(plain, "x/y.gmi", "# Why\n");
}

static void
ask(const struct config *c, struct site *s, enum surface proto,
    const char *path, struct response *r)
{
	struct router_req	 req = { proto, path, NULL, 0, NULL, NULL, 0 };

	response_init(r);
	router_handle(c, s, &req, r);
}

/* r's body, and the file it streams: malloc'd. */
static char *
body_of(struct response *r)
{
	struct buf	 b = BUF_INIT;
	char		 chunk[4096];
	ssize_t		 n;

	buf_add(&b, r->body != NULL ? r->body : "", r->bodylen);
	if (r->fd != -1)
		while ((n = read(r->fd, chunk, sizeof(chunk))) > 0)
			buf_add(&b, chunk, (size_t)n);
	buf_addc(&b, '\0');
	return buf_release(&b);
}

/* path answers status; with want, a body that contains it. */
static void
expect(const struct config *c, struct site *s, enum surface proto,
    const char *path, int status, const char *want)
{
	struct response	 r;
	char		*body;

	ask(c, s, proto, path, &r);
	body = body_of(&r);
	if (r.status / 10 == 3 && want != NULL)
		STR_EQ(r.meta, want, path);
	else
		OK(r.status == status && (want == NULL ||
		    strstr(body, want) != NULL), "%s %s: %d (want %d) %s%s",
		    proto == SURFACE_GEMINI ? "gemini" : "gopher", path,
		    r.status, status, want != NULL ? "with " : "",
		    want != NULL ? want : "");
	INT_EQ(r.status, status, path);
	free(body);
	response_free(&r);
}

/* path's body does not contain what. */
static void
without(const struct config *c, struct site *s, enum surface proto,
    const char *path, const char *what)
{
	struct response	 r;
	char		*body;

	ask(c, s, proto, path, &r);
	body = body_of(&r);
	OK(r.status == 20 && strstr(body, what) == NULL, "%s: no '%s'", path,
	    what);
	free(body);
	response_free(&r);
}

static void
test_root(struct archive *a)
{
	struct site	*s = site_new(a, 0);

	config_init(&cfg, top);
	cfg.root = "site";
	/* Generated pages win; the tree has the rest. */
	expect(&cfg, s, SURFACE_GEMINI, "/", 20, "# Site");
	without(&cfg, s, SURFACE_GEMINI, "/", "# Home");
	expect(&cfg, s, SURFACE_GEMINI, "/about", 20, "The page.");
	expect(&cfg, s, SURFACE_GEMINI, "/posts/hello", 20, "A post.");
	expect(&cfg, s, SURFACE_GEMINI, "/hello.gmi", 20, "Hi.");
	expect(&cfg, s, SURFACE_GEMINI, "/notes", 31, "/notes/");
	expect(&cfg, s, SURFACE_GEMINI, "/notes/2024/trip.gmi", 20, "A trip");
	expect(&cfg, s, SURFACE_GEMINI, "/files/", 51, NULL);
	/* Never served: dot-files, gophermaps, links that lead away. */
	expect(&cfg, s, SURFACE_GEMINI, "/.secret", 51, NULL);
	expect(&cfg, s, SURFACE_GEMINI, "/gophermap", 51, NULL);
	expect(&cfg, s, SURFACE_GEMINI, "/link-out", 51, NULL);
	expect(&cfg, s, SURFACE_GEMINI, "/link-posts/", 51, NULL);
	expect(&cfg, s, SURFACE_GEMINI, "/nothing", 51, NULL);
	/* Without openat2 (old kernels, valgrind) no link is followed. */
	expect(&cfg, s, SURFACE_GEMINI, "/notes/link-in.gmi",
	    have_openat2() ? 20 : 51, have_openat2() ? "Alpha" : NULL);
	/* A listing: titles, no link a request could not follow. */
	expect(&cfg, s, SURFACE_GEMINI, "/notes/", 20, "=> /notes/a.gmi Alpha");
	expect(&cfg, s, SURFACE_GEMINI, "/notes/", 20, "=> /notes/c.gmi Gamma");
	expect(&cfg, s, SURFACE_GEMINI, "/notes/", 20, "=> /notes/b.txt b.txt");
	expect(&cfg, s, SURFACE_GEMINI, "/notes/", 20, "=> /notes/2024/ 2024/");
	without(&cfg, s, SURFACE_GEMINI, "/notes/", "gophermap");
	cfg.root_listings = 0;
	expect(&cfg, s, SURFACE_GEMINI, "/notes/", 51, NULL);
	cfg.root_listings = 1;
	cfg.listing_titles = 0;
	expect(&cfg, s, SURFACE_GEMINI, "/notes/", 20, "=> /notes/a.gmi a.gmi");
	cfg.listing_titles = 1;
	/* index.gmi, gophermap, about, posts/: shadowed, each reported. */
	INT_EQ((int)static_conflicts(&cfg, a), 4, "four conflicts at load");
	site_unref(s);
}

/*
 * A listing shows what a request gets: no link out or into posts/, and
 * a link that stays inside (relative or absolute) as it is answered.
 */
static void
test_listing_links(struct archive *a)
{
	struct site	*s = site_new(a, 0);
	struct response	 r;
	char		*body;
	int		 abs_status;

	config_init(&cfg, top);
	cfg.root = "site";
	cfg.mount = "/gemlog";
	cfg.base = cfg.mount;
	cfg.index = "none.gmi";
	ask(&cfg, s, SURFACE_GEMINI, "/abs-in.gmi", &r);
	abs_status = r.status;
	response_free(&r);
	INT_EQ(abs_status, have_openat2() ? 20 : 51,
	    "an absolute link that stays inside: followed (with openat2)");
	expect(&cfg, s, SURFACE_GEMINI, "/abs-posts.md", 51, NULL);
	without(&cfg, s, SURFACE_GEMINI, "/", "abs-posts");
	ask(&cfg, s, SURFACE_GEMINI, "/", &r);
	body = body_of(&r);
	OK(strstr(body, "=> /hello.gmi Hello world") != NULL, "a file, titled");
	OK(strstr(body, "link-out") == NULL, "a link out: not listed");
	OK(strstr(body, "link-posts") == NULL, "a link into posts/: not listed");
	OK(strstr(body, ".secret") == NULL, "a dot-file: not listed");
	OK((strstr(body, "abs-in.gmi") != NULL) == (abs_status == 20),
	    "an absolute link: listed as it is answered");
	free(body);
	response_free(&r);
	ask(&cfg, s, SURFACE_GEMINI, "/notes/", &r);
	body = body_of(&r);
	OK((strstr(body, "=> /notes/link-in.gmi Alpha") != NULL) ==
	    have_openat2(), "a link that stays: listed as it is answered");
	free(body);
	response_free(&r);
	site_unref(s);
}

static void
test_mount(struct archive *a)
{
	struct site	*s = site_new(a, 0);

	config_init(&cfg, top);
	cfg.root = "site";
	cfg.mount = "/gemlog";
	cfg.base = cfg.mount;
	cfg.robots = "User-agent: *\n";
	expect(&cfg, s, SURFACE_GEMINI, "/", 20, "# Home");
	expect(&cfg, s, SURFACE_GEMINI, "/about", 20, "the file about");
	expect(&cfg, s, SURFACE_GEMINI, "/gemlog", 31, "/gemlog/");
	expect(&cfg, s, SURFACE_GEMINI, "/gemlog/", 20, "=> /gemlog/posts/");
	expect(&cfg, s, SURFACE_GEMINI, "/gemlog/posts", 31, "/gemlog/posts/");
	expect(&cfg, s, SURFACE_GEMINI, "/gemlog/posts/hello", 20, "A post.");
	expect(&cfg, s, SURFACE_GEMINI, "/gemlog/about", 20, "The page.");
	expect(&cfg, s, SURFACE_GEMINI, "/posts/hello", 51, NULL);
	expect(&cfg, s, SURFACE_GEMINI, "/robots.txt", 20, "User-agent");
	/* The tree's links and redirects carry no mount. */
	expect(&cfg, s, SURFACE_GEMINI, "/notes", 31, "/notes/");
	expect(&cfg, s, SURFACE_GEMINI, "/notes/", 20, "=> /notes/a.gmi");
	expect(&cfg, s, SURFACE_GOPHER, "/notes/2024/", 20,
	    "0A trip\t/notes/2024/trip.gmi\tlocalhost\t70\r\n");
	INT_EQ((int)static_conflicts(&cfg, a), 0, "no conflict with a mount");
	site_unref(s);
}

static void
test_gophermap(struct archive *a)
{
	struct site	*s = site_new(a, 0);
	struct response	 r;
	char		*body;

	config_init(&cfg, top);
	cfg.root = "site";
	cfg.mount = "/gemlog";
	cfg.base = cfg.mount;
	ask(&cfg, s, SURFACE_GOPHER, "/", &r);
	body = xstrndup(r.body != NULL ? r.body : "", r.bodylen);
	INT_EQ(r.status, 20, "the gophermap is the menu");
	OK(strstr(body, "iThe hole\tfake\t(NULL)\t0\r\n") != NULL, "!title");
	OK(strstr(body, "a comment") == NULL, "# comments dropped");
	OK(strstr(body, "iWelcome, written without a tab\tfake\t(NULL)\t0\r\n"
	    "i\tfake\t(NULL)\t0\r\n") != NULL, "info lines without a tab");
	OK(strstr(body, "1Notes\t/notes/\tlocalhost\t70\r\n") != NULL,
	    "a relative selector, host and port filled in");
	OK(strstr(body, "0Hello\t/hello.gmi\tlocalhost\t70\r\n") != NULL,
	    "an absolute selector");
	OK(strstr(body, "0Trip\t/notes/2024/trip.gmi\tlocalhost\t70\r\n") !=
	    NULL, "dot segments resolved");
	OK(strstr(body, "1Elsewhere\t/\tgopher.example\t70\r\n") != NULL,
	    "another server's item as written");
	OK(strstr(body, "hWeb\tURL:https://example.org/\tlocalhost\t70\r\n") !=
	    NULL, "a URL: item");
	OK(strstr(body, "iTabbed info\tfake\t(NULL)\t0\r\n") != NULL,
	    "an info item keeps its fields");
	OK(strstr(body, "0Same name\t/Same name\tlocalhost\t70\r\n") != NULL,
	    "no selector: the name's");
	OK(strstr(body, "iIncluded line\tfake\t(NULL)\t0\r\n") != NULL,
	    "=file included");
	OK(strstr(body, "root:") == NULL, "no include out of the tree");
	OK(strstr(body, "ibee\t") != NULL, "=file of the tree: included");
	OK(strstr(body, "never shown") == NULL, "'.' ends the map");
	OK(strstr(body, "png") == NULL, "unsupported lines dropped");
	OK(r.bodylen >= 3 && strcmp(body + r.bodylen - 3, ".\r\n") == 0,
	    "one closing '.'");
	free(body);
	response_free(&r);

	ask(&cfg, s, SURFACE_GOPHER, "/notes/", &r);
	body = xstrndup(r.body != NULL ? r.body : "", r.bodylen);
	OK(strstr(body, "iNotes menu") != NULL &&
	    strstr(body, "0Alpha\t/notes/a.gmi\tlocalhost\t70\r\n") != NULL &&
	    strstr(body, "1" "2024/\t/notes/2024/\tlocalhost\t70\r\n") != NULL,
	    "'*' appends the listing");
	OK(strstr(body, "b.txt") == NULL, "'-b.txt' hides it");
	OK(strstr(body, "after the listing") == NULL, "'*' ends the map");
	free(body);
	response_free(&r);
	expect(&cfg, s, SURFACE_GOPHER, "/gophermap", 51, NULL);
	site_unref(s);
}

static void
test_sort(struct archive *a)
{
	struct site	*s = site_new(a, 0);
	struct timespec	 ts[2];
	struct response	 r;
	char		 p[256], *body, *x, *y;

	config_init(&cfg, top);
	cfg.root = "site";
	cfg.listing_sort = CONFIG_SORT_DATE;
	test_path(p, sizeof(p), top, "site/notes/a.gmi");
	ts[0].tv_sec = ts[1].tv_sec = 1000000000;
	ts[0].tv_nsec = ts[1].tv_nsec = 0;
	OK(utimensat(AT_FDCWD, p, ts, 0) == 0, "a.gmi made old");
	ask(&cfg, s, SURFACE_GEMINI, "/notes/", &r);
	body = xstrndup(r.body, r.bodylen);
	x = strstr(body, "c.gmi");
	y = strstr(body, "a.gmi 2001-09-09 Alpha");
	OK(x != NULL && y != NULL && x < y, "newest first, dated");
	free(body);
	response_free(&r);
	site_unref(s);
}

static void
test_plain(void)
{
	struct config	 pc;
	struct archive	*a;
	struct site	*s;

	config_init(&pc, plain);
	pc.root = "site";		/* the operator's: not the user's */
	pc.owned = 1;
	pc.owner_uid = getuid();
	pc.base = "/~u";
	if ((a = archive_load(&pc)) == NULL) {
		OK(0, "archive_load");
		return;
	}
	OK(static_plain(a), "no layout");
	s = site_new(a, 0);
	expect(&pc, s, SURFACE_GEMINI, "/", 20, "# My plain capsule");
	expect(&pc, s, SURFACE_GEMINI, "/x", 31, "/~u/x/");
	expect(&pc, s, SURFACE_GEMINI, "/x/", 20, "=> /~u/x/y.gmi Why");
	expect(&pc, s, SURFACE_GEMINI, "/x/y.gmi", 20, "# Why");
	expect(&pc, s, SURFACE_GOPHER, "/", 20,
	    "0My plain capsule\t/~u/index.gmi\tlocalhost\t70\r\n");
	expect(&pc, s, SURFACE_GEMINI, "/posts/", 51, NULL);
	site_unref(s);
	archive_unref(a);
}

/*
 * The CGI directory's files are programs, run and never served, even
 * when a tree reaches them (a configuration config.c would refuse, made
 * here by hand): 51 over both protocols, and the generated pages stay.
 */
static void
test_cgi_dir(struct archive *a)
{
	struct site	*s = site_new(a, 0);
	struct config	 cc;

	config_init(&cc, top);
	cc.root = "site";
	cc.cgi = "site";
	expect(&cc, s, SURFACE_GEMINI, "/hello.gmi", 51, NULL);
	expect(&cc, s, SURFACE_GOPHER, "/hello.gmi", 51, NULL);
	expect(&cc, s, SURFACE_GEMINI, "/notes/", 51, NULL);
	expect(&cc, s, SURFACE_GEMINI, "/posts/hello", 20, "A post.");
	cc.root = NULL;
	cc.cgi = "files";		/* Gopher: no programs, no files */
	expect(&cc, s, SURFACE_GOPHER, "/files/", 51, NULL);
	site_unref(s);
}

/*
 * A host whose capsule has no layout (no index.md, posts or pages) and a
 * "root" serves its tree alone: "/" is the tree's, no generated page
 * (no gemlog, feed, search or archive, no "Site" title), mount or not.
 */
static void
test_tree_only(void)
{
	struct config	 tc;
	struct archive	*a;
	struct site	*s;

	test_put(treeonly, "site/index.gmi", "# Tree home\n");
	test_put(treeonly, "site/x/y.gmi", "# Why\n");
	test_put(treeonly, "site/robots.txt", "User-agent: *\nDisallow: /x/\n");
	config_init(&tc, treeonly);
	tc.root = "site";
	tc.robots = "User-agent: *\nDisallow:\n";
	if ((a = archive_load(&tc)) == NULL) {
		OK(0, "archive_load");
		return;
	}
	OK(static_plain(a), "no layout");
	INT_EQ((long long)static_conflicts(&tc, a), 0,
	    "no generated page shadows the tree");
	s = site_new(a, 0);
	expect(&tc, s, SURFACE_GEMINI, "/", 20, "# Tree home");
	without(&tc, s, SURFACE_GEMINI, "/", "Site");
	expect(&tc, s, SURFACE_GEMINI, "/x/", 20, "=> /x/y.gmi Why");
	expect(&tc, s, SURFACE_GEMINI, "/gemlog/", 51, NULL);
	expect(&tc, s, SURFACE_GEMINI, "/atom.xml", 51, NULL);
	expect(&tc, s, SURFACE_GEMINI, "/posts/", 51, NULL);
	expect(&tc, s, SURFACE_GEMINI, "/search", 51, NULL);
	expect(&tc, s, SURFACE_GEMINI, "/robots.txt", 20, "Disallow: /x/");
	expect(&tc, s, SURFACE_GOPHER, "/", 20, "0Tree home\t/index.gmi\t");
	tc.mount = "/gemlog";
	tc.base = tc.mount;
	expect(&tc, s, SURFACE_GEMINI, "/", 20, "# Tree home");
	expect(&tc, s, SURFACE_GEMINI, "/gemlog/", 51, NULL);
	expect(&tc, s, SURFACE_GEMINI, "/x", 31, "/x/");
	site_unref(s);
	archive_unref(a);
}

/*
 * A user's Gopher+ attributes are the user's, not the operator's; a
 * user of a long name is reached as listed.
 */
static void
test_users(struct archive *top_a)
{
	struct config		 uc[1];
	struct site		*sites[1], *ts;
	struct router_users	 users;
	struct archive		*ua;
	struct response		 r;
	char			 base[320], line[400], *body;
	size_t			 i;

	config_init(&cfg, top);
	cfg.author = "The Operator";
	cfg.userdirs = "public_gemini";
	config_init(&uc[0], plain);
	strcpy(base, "/~");
	for (i = 2; i < 302; i++)
		base[i] = 'u';
	base[i] = '\0';
	uc[0].owned = 1;
	uc[0].owner_uid = getuid();
	uc[0].base = base;
	if ((ua = archive_load(&uc[0])) == NULL) {
		OK(0, "archive_load");
		return;
	}
	sites[0] = site_new(ua, 0);
	ts = site_new(top_a, 0);
	users.n = 1;
	users.cfgs = uc;
	users.sites = sites;

	/* The 300-letter name of /~/ answers. */
	{
		struct router_req req = { SURFACE_GEMINI, NULL, NULL, 0,
		    &users, NULL, 0 };
		char path[400];

		snprintf(path, sizeof(path), "%s/index.gmi", base);
		req.path = path;
		response_init(&r);
		router_handle(&cfg, ts, &req, &r);
		INT_EQ(r.status, 20, "a 300-letter user's capsule answers");
		response_free(&r);
		req.path = "/~/";
		response_init(&r);
		router_handle(&cfg, ts, &req, &r);
		body = xstrndup(r.body, r.bodylen);
		OK(strstr(body, base) != NULL, "and is listed");
		free(body);
		response_free(&r);
	}
	/* Gopher+: the user's item, with the user as admin. */
	snprintf(line, sizeof(line), "%s/index.gmi\t!", base);
	response_init(&r);
	gopher_respond(&cfg, ts, &users, line, strlen(line), &r);
	body = xstrndup(r.body != NULL ? r.body : "", r.bodylen);
	OK(strstr(body, "+ADMIN") != NULL && strstr(body, "The Operator") ==
	    NULL && strstr(body, base + 2) != NULL,
	    "Gopher+: a user's item names the user, not the operator");
	OK(strstr(body, "Mod-Date") != NULL, "and is dated by its file");
	free(body);
	response_free(&r);
	site_unref(ts);
	site_unref(sites[0]);
	archive_unref(ua);
}

/* yaml loads as a configuration: 0, or -1 with err's text. */
static int
load(struct config *c, const char *yaml, char *err, size_t errlen)
{
	return config_load_buffer(c, "/tmp/t.yaml", yaml, strlen(yaml), err,
	    errlen);
}

/* The keys of static trees, as config.c reads them. */
static void
test_config(void)
{
	struct config	 c;
	char		 err[512];

	OK(load(&c, "", err, sizeof(err)) == 0 && c.root == NULL &&
	    c.mount == NULL && c.base == NULL && strcmp(c.index,
	    "index.gmi") == 0 && c.root_listings && c.listing_titles &&
	    c.listing_sort == CONFIG_SORT_NAME, "the defaults");
	config_free(&c);
	OK(load(&c, "root: site/\nmount: /gemlog/\nindex: home.gmi\n"
	    "root_listings: false\nlisting_titles: false\n"
	    "listing_sort: date\n", err, sizeof(err)) == 0, "every key: %s",
	    err);
	OK(c.root != NULL && strcmp(c.root, "site") == 0 && c.mount != NULL &&
	    strcmp(c.mount, "/gemlog") == 0 && c.base == c.mount &&
	    strcmp(c.index, "home.gmi") == 0 && !c.root_listings &&
	    !c.listing_titles && c.listing_sort == CONFIG_SORT_DATE,
	    "read as written; the mount is the base");
	config_free(&c);
	OK(load(&c, "root: posts\n", err, sizeof(err)) == -1 &&
	    strstr(err, "holds the archive's sources") != NULL,
	    "root: posts/ refused (%s)", err);
	OK(load(&c, "root: ../etc\n", err, sizeof(err)) == -1,
	    "root: out of the capsule refused");
	OK(load(&c, "mount: a/b\n", err, sizeof(err)) == -1,
	    "mount: one segment only");
	OK(load(&c, "index: ~\n", err, sizeof(err)) == -1,
	    "index: a name is needed");
	OK(load(&c, "listing_sort: size\n", err, sizeof(err)) == -1 &&
	    strstr(err, "name or date") != NULL, "listing_sort: %s", err);
}

static const struct harness_test tests[] = {
	TEST(test_config),
	NAMED("root"),
	NAMED("listing_links"),
	NAMED("mount"),
	NAMED("gophermap"),
	NAMED("sort"),
	NAMED("cgi_dir"),
	NAMED("plain"),
	NAMED("tree_only"),
	NAMED("users"),
};

int
main(int argc, char **argv)
{
	struct archive	*a;

	HARNESS_INIT(argc, argv, tests);
	log_set_level(LOG_LEVEL_ERROR);
	snprintf(top, sizeof(top), "/tmp/capsuled-static-XXXXXX");
	snprintf(plain, sizeof(plain), "/tmp/capsuled-plain-XXXXXX");
	snprintf(treeonly, sizeof(treeonly), "/tmp/capsuled-tree-XXXXXX");
	if (mkdtemp(top) == NULL || mkdtemp(plain) == NULL ||
	    mkdtemp(treeonly) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	harness_run();			/* the TEST() entries */
	make_capsule();
	config_init(&cfg, top);
	if ((a = archive_load(&cfg)) == NULL) {
		OK(0, "archive_load");
		test_rm_tree(top);
		return harness_done();
	}
	RUN("root", test_root(a));
	RUN("listing_links", test_listing_links(a));
	RUN("mount", test_mount(a));
	RUN("gophermap", test_gophermap(a));
	RUN("sort", test_sort(a));
	RUN("cgi_dir", test_cgi_dir(a));
	RUN("plain", test_plain());
	RUN("tree_only", test_tree_only());
	RUN("users", test_users(a));
	archive_unref(a);
	test_rm_tree(top);
	test_rm_tree(plain);
	test_rm_tree(treeonly);
	return harness_done();
}
