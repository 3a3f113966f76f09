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
#include "core/buf.h"
#include "core/config.h"
#include "core/log.h"
#include "core/robots.h"
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
	cfg.robots = &(struct robots){ .text = (char *)"User-agent: *\n" };
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
	    "1A trip\t/notes/2024/trip.gmi/\tlocalhost\t70\r\n");
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
	    strstr(body, "1Alpha\t/notes/a.gmi/\tlocalhost\t70\r\n") != NULL &&
	    strstr(body, "1" "2024\t/notes/2024/\tlocalhost\t70\r\n") != NULL,
	    "'*' appends the listing (a directory's name without the '/' "
	    "a Gopher client adds itself)");
	OK(strstr(body, "b.txt") == NULL, "'-b.txt' hides it");
	OK(strstr(body, "after the listing") == NULL, "'*' ends the map");
	free(body);
	response_free(&r);
	expect(&cfg, s, SURFACE_GOPHER, "/gophermap", 51, NULL);
	site_unref(s);
}

/* n files f00000.gmi... in the directory dir of top, each titled. */
static void
many(const char *dir, int n)
{
	char	 p[512];
	int	 i;

	for (i = 0; i < n; i++) {
		snprintf(p, sizeof(p), "%s/%s/f%05d.gmi", top, dir, i);
		test_write(p, "# Title %d\n", i);
	}
}

/* How many times what is in s. */
static int
count(const char *s, const char *what)
{
	int	 n = 0;

	while ((s = strstr(s, what)) != NULL) {
		n++;
		s += strlen(what);
	}
	return n;
}

/*
 * A directory's listing or menu is kept for every reader while the
 * watcher follows its tree (files/, and the root when it is files/),
 * each URL, protocol and kind in a slot of its own, and made again
 * only by a new site; an unwatched tree's is made at every request.
 */
static void
test_kept(struct archive *a)
{
	struct site	*s = site_new(a, 0);
	struct response	 r, r2;
	char		*body, p[256];

	config_init(&cfg, top);
	cfg.root = "site";
	test_put(top, "files/k/a.gmi", "# Kept\n");
	ask(&cfg, s, SURFACE_GEMINI, "/files/k/", &r);
	ask(&cfg, s, SURFACE_GEMINI, "/files/k/", &r2);
	OK(r.status == 20 && r.blob != NULL && r.blob == r2.blob,
	    "a listing of files/: made once, the same bytes for the next");
	response_free(&r2);
	test_put(top, "files/k/late.gmi", "# Late\n");
	without(&cfg, s, SURFACE_GEMINI, "/files/k/", "late.gmi");
	ask(&cfg, s, SURFACE_GOPHER, "/files/k/", &r2);
	body = xstrndup(r2.body, r2.bodylen);
	OK(r2.blob != r.blob && strstr(body, "1Kept\t/files/k/a.gmi/\t") !=
	    NULL && strstr(body, "1Late\t") != NULL,
	    "Gopher's menu: a slot of its own, made as the tree is now");
	free(body);
	response_free(&r2);
	response_free(&r);
	site_unref(s);
	/* The watcher's new site: the new file is listed. */
	s = site_new(a, 0);
	expect(&cfg, s, SURFACE_GEMINI, "/files/k/", 20, "late.gmi Late");
	/* Not watched, nothing kept: watch: false. */
	cfg.watch = 0;
	test_put(top, "files/k/later.gmi", "# Later\n");
	expect(&cfg, s, SURFACE_GEMINI, "/files/k/", 20, "later.gmi Later");
	cfg.watch = 1;
	/* A root tree other than files/: read at every request. */
	expect(&cfg, s, SURFACE_GEMINI, "/notes/", 20, "a.gmi Alpha");
	test_put(top, "site/notes/d.gmi", "# Delta\n");
	expect(&cfg, s, SURFACE_GEMINI, "/notes/", 20, "d.gmi Delta");
	test_path(p, sizeof(p), top, "site/notes/d.gmi");
	OK(unlink(p) == 0, "rm d.gmi");
	without(&cfg, s, SURFACE_GEMINI, "/notes/", "Delta");
	site_unref(s);
	/* One directory, two URLs (root: files): each its own links. */
	s = site_new(a, 0);
	cfg.root = "files";
	expect(&cfg, s, SURFACE_GEMINI, "/files/k/", 20, "=> /files/k/a.gmi");
	expect(&cfg, s, SURFACE_GEMINI, "/k/", 20, "=> /k/a.gmi Kept");
	without(&cfg, s, SURFACE_GEMINI, "/k/", "/files/");
	expect(&cfg, s, SURFACE_GEMINI, "/files/k/", 20, "=> /files/k/a.gmi");
	site_unref(s);
}

/*
 * Made on the pool when the caller can wait (r.may_defer, as conn.c
 * sets it): the status now, the body from response_render(); kept, the
 * next one is there at once.
 */
static void
test_deferred(struct archive *a)
{
	struct site		*s = site_new(a, 0);
	struct router_req	 req = { SURFACE_GEMINI, "/files/k/", NULL, 0,
				    NULL, NULL, 0 };
	struct response		 r, q[3];
	int			 i;

	config_init(&cfg, top);
	cfg.root = "site";
	response_init(&r);
	r.may_defer = 1;
	router_handle(&cfg, s, &req, &r);
	OK(r.status == 20 && r.job != NULL && r.bodylen == 0,
	    "a listing not kept yet: 20 now, the body on the pool");
	response_render(&r);
	OK(r.job == NULL && r.body != NULL &&
	    strstr(r.body, "=> /files/k/a.gmi Kept") != NULL,
	    "response_render() made it");
	response_free(&r);
	response_init(&r);
	r.may_defer = 1;
	router_handle(&cfg, s, &req, &r);
	OK(r.job == NULL && r.body != NULL &&
	    strstr(r.body, "=> /files/k/a.gmi Kept") != NULL,
	    "then kept: no job");
	response_free(&r);
	/*
	 * A tree not watched: a job at every request, made for one; two
	 * at once at most, and the pool's other threads stay free.
	 */
	req.path = "/notes/";
	for (i = 0; i < 3; i++) {
		response_init(&q[i]);
		q[i].may_defer = 1;
		router_handle(&cfg, s, &req, &q[i]);
	}
	OK(q[0].job != NULL && q[1].job != NULL, "the root tree's listing: "
	    "a job at every request");
	OK(q[2].status == 41 && q[2].job == NULL && strstr(q[2].meta,
	    "busy") != NULL, "a third at once: 41, the server is busy");
	response_free(&q[0]);		/* never made: the job goes too */
	response_free(&q[2]);
	response_init(&q[2]);
	q[2].may_defer = 1;
	router_handle(&cfg, s, &req, &q[2]);
	OK(q[2].status == 20 && q[2].job != NULL, "one done: a job again");
	response_render(&q[2]);
	HAS(q[2].body, "=> /notes/a.gmi Alpha", "made");
	response_free(&q[1]);
	response_free(&q[2]);
	site_unref(s);
}

/*
 * What a gophermap may read and write, each limit told by a line: 64
 * includes, 4 deep, 1 MiB read by includes, 1 MiB written.
 */
static void
test_map_limits(struct archive *a)
{
	struct site	*s = site_new(a, 0);
	struct response	 r;
	struct buf	 b = BUF_INIT;
	char		*body;
	int		 i;

	config_init(&cfg, top);
	cfg.root = "site";
	for (i = 0; i < 70; i++)
		buf_addstr(&b, "=one.txt\n");
	test_put(top, "site/lim/count/gophermap", b.data);
	test_put(top, "site/lim/count/one.txt", "one line\n");
	ask(&cfg, s, SURFACE_GOPHER, "/lim/count/", &r);
	body = xstrndup(r.body, r.bodylen);
	INT_EQ(count(body, "ione line\t"), 64, "64 includes read");
	INT_EQ(count(body, "is not included: a menu has 64 includes at "
	    "most"), 1, "the 65th told, once");
	free(body);
	response_free(&r);
	/* inc.map includes itself: 4 deep, then told. */
	cfg.mount = "/gemlog";
	cfg.base = cfg.mount;
	ask(&cfg, s, SURFACE_GOPHER, "/", &r);
	cfg.mount = NULL;
	cfg.base = NULL;
	body = xstrndup(r.body, r.bodylen);
	INT_EQ(count(body, "iIncluded line\t"), 4, "4 deep");
	HAS(body, "(\"=inc.map\" is not included: includes nest 4 deep at "
	    "most)", "the fifth told");
	free(body);
	response_free(&r);
	/* 600 KB and 600 KB: the second is over what includes read. */
	buf_truncate(&b, 0);
	for (i = 0; i < 600000 / 60; i++)
		buf_printf(&b, "%059d\n", i);
	test_put(top, "site/lim/read/a.txt", b.data);
	test_put(top, "site/lim/read/b.txt", b.data);
	test_put(top, "site/lim/read/gophermap", "=a.txt\n=b.txt\nend\n");
	ask(&cfg, s, SURFACE_GOPHER, "/lim/read/", &r);
	body = xstrndup(r.body, r.bodylen);
	HAS(body, "(\"=b.txt\" is not included: a menu's includes read "
	    "1024 KiB at most)", "an include over what includes read: told");
	OK(strstr(body, "iend\t") != NULL && r.bodylen < (1 << 20),
	    "the map goes on after it");
	free(body);
	response_free(&r);
	/* A map that writes more than 1 MiB: cut at a line, told. */
	buf_truncate(&b, 0);
	for (i = 0; i < 6500; i++)	/* under 1 MiB, a menu over it */
		buf_printf(&b, "1Menu %070d\t%070d/\n", i, i);
	test_put(top, "site/lim/big/gophermap", b.data);
	ask(&cfg, s, SURFACE_GOPHER, "/lim/big/", &r);
	body = xstrndup(r.body, r.bodylen);
	OK(r.bodylen <= (1 << 20) && r.bodylen > (1 << 20) - 4096,
	    "1 MiB at most, and about that (%zu bytes)", r.bodylen);
	OK(r.bodylen > 40 && strcmp(body + r.bodylen - 3, ".\r\n") == 0 &&
	    strstr(body + r.bodylen - 120, "\r\ni(The rest of this menu is "
	    "not shown: a menu holds 1 MiB at most.)\tfake\t(NULL)\t0\r\n"
	    ".\r\n") != NULL, "cut after a whole line, told, and closed");
	free(body);
	response_free(&r);
	buf_free(&b);
	site_unref(s);
}

/*
 * A listing shows LISTING_MAX (10,000) entries at most, the first by
 * name, and says there are more; with titles, read for those shown.
 */
static void
test_listing_max(struct archive *a)
{
	struct site	*s = site_new(a, 0);
	struct response	 r;
	char		*body;

	config_init(&cfg, top);
	cfg.root = "site";
	test_mkdir(top, "site/many");
	many("site/many", 10001);
	ask(&cfg, s, SURFACE_GEMINI, "/many/", &r);
	body = xstrndup(r.body, r.bodylen);
	INT_EQ(count(body, "\n=> /many/f"), 10000, "10,000 entries");
	OK(strstr(body, "=> /many/f09999.gmi Title 9999\n") != NULL &&
	    strstr(body, "f10000") == NULL, "the first by name, titled");
	HAS(body, "\n(The first 10000 entries only: the directory has "
	    "more.)\n", "and says so");
	free(body);
	response_free(&r);
	site_unref(s);
}

/*
 * Bodies made for one request (a tree the watcher does not follow)
 * share one budget: past it, an answer is cut at RESPONSE_HOLD_FREE,
 * told; the budget comes back as responses go.
 */
static void
test_budget(struct archive *a)
{
	struct site	*s = site_new(a, 0);
	struct response	 r[16];
	struct buf	 b = BUF_INIT;
	int		 i, whole = 0, cut = 0;

	config_init(&cfg, top);
	cfg.root = "site";
	for (i = 0; i < 700000 / 60; i++)	/* about 800 KB of menu */
		buf_printf(&b, "%059d\n", i);
	test_put(top, "site/budget/a.txt", b.data);
	test_put(top, "site/budget/gophermap", "=a.txt\n");
	buf_free(&b);
	INT_EQ((long long)response_held(), 0, "nothing held yet");
	for (i = 0; i < 16; i++) {
		ask(&cfg, s, SURFACE_GOPHER, "/budget/", &r[i]);
		if (r[i].bodylen > RESPONSE_HOLD_BUDGET / 16)
			whole++;
		else if (r[i].bodylen <= RESPONSE_HOLD_FREE &&
		    strstr(r[i].body, "\r\ni(The rest is not shown now: the "
		    "server is busy. Ask again soon.)\tfake\t(NULL)\t0\r\n"
		    ".\r\n") != NULL)
			cut++;
	}
	OK(response_held() <= RESPONSE_HOLD_BUDGET, "held: %zu bytes at most "
	    "%zu", response_held(), RESPONSE_HOLD_BUDGET);
	OK(whole >= 9 && whole <= 11 && cut >= 4 && whole + cut >= 15,
	    "the first whole (%d), then cut at 64 KiB and told (%d)", whole,
	    cut);
	for (i = 0; i < 16; i++)
		response_free(&r[i]);
	INT_EQ((long long)response_held(), 0, "all of it back");
	ask(&cfg, s, SURFACE_GOPHER, "/budget/", &r[0]);
	OK(r[0].bodylen > RESPONSE_HOLD_BUDGET / 16, "whole again");
	response_free(&r[0]);
	site_unref(s);
}

static void
test_sort(struct archive *a)
{
	struct site	*s = site_new(a, 0);
	struct timespec	 ts[2];
	struct response	 r;
	char		 p[256], *body, *x, *y, *z;

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

	/* listing_reverse: molly-brown's DirectoryReverse, either order. */
	cfg.listing_reverse = 1;
	s = site_new(a, 0);
	ask(&cfg, s, SURFACE_GEMINI, "/notes/", &r);
	body = xstrndup(r.body, r.bodylen);
	x = strstr(body, "c.gmi");
	y = strstr(body, "a.gmi 2001-09-09 Alpha");
	OK(x != NULL && y != NULL && y < x, "reversed: oldest first");
	free(body);
	response_free(&r);
	site_unref(s);
	cfg.listing_sort = CONFIG_SORT_NAME;
	s = site_new(a, 0);
	ask(&cfg, s, SURFACE_GEMINI, "/notes/", &r);
	body = xstrndup(r.body, r.bodylen);
	x = strstr(body, "=> /notes/c.gmi ");
	y = strstr(body, "=> /notes/a.gmi ");
	z = strstr(body, "=> /notes/b.txt ");
	OK(x != NULL && z != NULL && y != NULL && x < z && z < y,
	    "reversed: by name, z to a");
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
	    "1My plain capsule\t/~u/index.gmi/\tlocalhost\t70\r\n");
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
	tc.robots = &(struct robots){ .text = (char *)
	    "User-agent: *\nDisallow:\n" };
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
	expect(&tc, s, SURFACE_GOPHER, "/", 20, "1Tree home\t/index.gmi/\t");
	tc.mount = "/gemlog";
	tc.base = tc.mount;
	expect(&tc, s, SURFACE_GEMINI, "/", 20, "# Tree home");
	expect(&tc, s, SURFACE_GEMINI, "/gemlog/", 51, NULL);
	expect(&tc, s, SURFACE_GEMINI, "/x", 31, "/x/");
	site_unref(s);
	archive_unref(a);
}

/*
 * A user's Gopher+ attributes are the user's, not the operator's: the
 * admin, and the date (the user's file's, not the newest post of the
 * main capsule, 2024-01-01 12:00); a user of a long name is reached as
 * listed.
 */
static void
test_users(struct archive *top_a)
{
	struct config		 uc[1];
	struct site		*sites[1], *ts;
	struct router_users	 users;
	struct archive		*ua;
	struct response		 r;
	/* 2021-05-06 07:08:09 UTC, a date no post of the tests has. */
	struct timespec		 when[2] = { { 1620284889, 0 },
				    { 1620284889, 0 } };
	char			 base[320], line[400], file[128], *body;
	size_t			 i;

	test_path(file, sizeof(file), plain, "index.gmi");
	OK(utimensat(AT_FDCWD, file, when, 0) == 0, "the user's file dated");
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
	HAS(body, "Mod-Date: Thu May 06 07:08:09 2021 <20210506070809>",
	    "and is dated by its file");
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
	NAMED("kept"),
	NAMED("deferred"),
	NAMED("map_limits"),
	NAMED("listing_max"),
	NAMED("budget"),
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
	RUN("kept", test_kept(a));
	RUN("deferred", test_deferred(a));
	RUN("map_limits", test_map_limits(a));
	RUN("listing_max", test_listing_max(a));
	RUN("budget", test_budget(a));
	archive_unref(a);
	test_rm_tree(top);
	test_rm_tree(plain);
	test_rm_tree(treeonly);
	return harness_done();
}
