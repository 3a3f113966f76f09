/*
 * e2e_crawl.c -- every surface crawled, every link answering, the same
 * navigation everywhere: one server serves a capsule over Gemini,
 * Gopher, Spartan, Nex, Finger and the web view (http_port), and
 * tests/lib/smallweb.c follows every link of ours from the top of each
 * surface (Finger: every address the plan gives, on its surface).  A
 * link that answers a failure is a dead link, and fails the test with
 * where it was found; on the web view so is an answer whose length is
 * not its Content-Length, and a page's alternate (<link
 * rel="alternate">) that names another port or another page.  Three
 * capsules:
 *
 *  - the sample capsule of the repository (capsule/);
 *  - a static tree at "/" beside the generated pages under "/gemlog/"
 *    (root and mount): index files, a listing, a gophermap, a file;
 *  - the handed 509-post archive (shared/corpus/18f beside the
 *    checkout, or $CAPSULED_CORPUS; skipped, saying so, without it),
 *    also timed: its figures are printed.
 *
 * The same navigation (issue 35, "Done when"): the pages each crawl
 * reached from the top, as site paths, are the Gemini crawl's, no more
 * and no fewer, and where two surfaces say a type it is the same (HTML
 * on the web view for gemtext).  What differs by design, and how it is
 * told apart:
 *
 *  - Gopher and Nex reach a post (a page, a tree's gemtext file)
 *    through its menu ("1/posts/x/", "/posts/x/") and its text
 *    ("0/posts/x", "/posts/x"): one page, the slash at the end dropped;
 *  - Gemini's search is a prompt (10), Spartan's an "=:" line, Gopher's
 *    a type-7 item, the web view's a form: each reaches "/search";
 *  - Gopher alone reaches a gemtext file as written ("x.gmi/raw") and a
 *    directory's index file by its name (a listing names it, where
 *    Gemini serves it as the directory): gopher_only();
 *  - Gopher and Nex say no type: only Spartan's and the web view's are
 *    compared with Gemini's; the feeds are Atom on all three (the web
 *    view serves atom.xml as a file, application/atom+xml);
 *  - Finger is no crawl: its plan lists the latest posts only, and
 *    finger_plan() follows each address it gives on its own surface;
 *  - Titan uploads are Gemini's alone, and none of these capsules
 *    offers them.
 */
#include "e2e.h"
#include "smallweb.h"

static SSL_CTX	*anon;

/* Ports of the surfaces the e2e server does not give itself. */
struct ports {
	int	 spartan, nex, finger, http;
	int	 gemini, gopher;		/* the server's own */
};

/* A page a crawl reached: its site path and the type it said. */
struct seen_page {
	char	*path;		/* owned */
	char	*type;		/* owned; "" when the surface says none */
};

/* The pages one crawl reached, sorted by path, each once. */
struct reach {
	enum sw_surface	 sf;
	struct seen_page *v;	/* owned */
	size_t		 n;
};

/*
 * The site path a surface's reference names: a Gopher selector without
 * its item type, no query, no slash at the end but the top's; so that
 * a post's menu and its text (Gopher "1/posts/x/" and "0/posts/x", Nex
 * "/posts/x/" and "/posts/x") are one page, as the tags' "/tags/c/" is
 * on every surface.
 */
static char *
site_path(enum sw_surface sf, const char *ref)
{
	char	*p;
	size_t	 n;

	if (sf == SW_GOPHER && *ref != '\0')
		ref++;
	p = xasprintf("/%s", ref + (*ref == '/'));
	p[strcspn(p, "?")] = '\0';
	if ((n = strlen(p)) > 1 && p[n - 1] == '/')
		p[n - 1] = '\0';
	return p;
}

static void
note(void *arg, const char *ref, const char *type)
{
	struct reach	*r = arg;

	r->v = xreallocarray(r->v, r->n + 1, sizeof(*r->v));
	r->v[r->n].path = site_path(r->sf, ref);
	r->v[r->n].type = xstrdup(type);
	r->n++;
}

static int
by_path(const void *a, const void *b)
{
	return strcmp(((const struct seen_page *)a)->path,
	    ((const struct seen_page *)b)->path);
}

/* Sorted, each path once (the first type it said). */
static void
reach_sort(struct reach *r)
{
	size_t	 i, n = 0;

	qsort(r->v, r->n, sizeof(*r->v), by_path);
	for (i = 0; i < r->n; i++) {
		if (n > 0 && strcmp(r->v[n - 1].path, r->v[i].path) == 0) {
			free(r->v[i].path);
			free(r->v[i].type);
			continue;
		}
		r->v[n++] = r->v[i];
	}
	r->n = n;
}

static void
reach_free(struct reach *r)
{
	size_t	 i;

	for (i = 0; i < r->n; i++) {
		free(r->v[i].path);
		free(r->v[i].type);
	}
	free(r->v);
	r->v = NULL;
	r->n = 0;
}

static void
crawl_one(const struct ports *p, enum sw_surface sf, int port,
    const char *start, const char *what, size_t min, struct reach *r)
{
	struct sw_crawl	 c;
	double		 t0 = harness_now_msf();
	size_t		 i;

	memset(&c, 0, sizeof(c));
	c.surface = sf;
	c.port = port;
	c.host = "localhost";
	c.ctx = anon;
	c.max = 20000;
	c.alt_gemini = p->gemini;
	c.alt_gopher = p->gopher;
	if (r != NULL) {
		r->sf = sf;
		c.reached = note;
		c.arg = r;
	}
	sw_crawl(&c, start);
	printf("crawl: %s: %zu requests, %zu documents read, %zu dead, "
	    "%.0f ms", what, c.asked, c.documents, c.dead,
	    harness_now_msf() - t0);
	if (sf == SW_HTTP)
		printf(", %zu alternates", c.alternates);
	printf("\n");
	OK(c.dead == 0, "%s: %zu dead links", what, c.dead);
	for (i = 0; i < c.dead && i < SW_DEAD_SHOWN; i++)
		fprintf(stderr, "  dead: %s\n", c.shown[i]);
	OK(c.asked >= min, "%s: %zu requests, at least %zu", what, c.asked,
	    min);
	OK(c.asked < c.max, "%s: the crawl ended", what);
	/* Every page names its Gemini and Gopher addresses. */
	if (sf == SW_HTTP)
		OK(c.alternates >= 2 * c.documents, "%s: %zu alternates for "
		    "%zu pages", what, c.alternates, c.documents);
}

/* Every address the plan gives answers on its own surface. */
static void
finger_plan(const struct e2e_server *s, const struct ports *p,
    const char *what)
{
	static const struct { const char *scheme; enum sw_surface sf; } sch[] = {
		{ "gemini://", SW_GEMINI }, { "gopher://", SW_GOPHER },
		{ "spartan://", SW_SPARTAN }, { "nex://", SW_NEX },
	};
	struct sw_crawl	 c;
	struct buf	 b;
	const char	*u, *path;
	char		 url[1024], start[1024], label[1200];
	size_t		 i, n = 0, dead = 0, len;
	int		 port;

	if (sw_finger(p->finger, "", &b) == -1) {
		OK(0, "%s: finger: no answer", what);
		return;
	}
	OK(strstr(b.data, "\r\n") != NULL, "%s: the plan in CRLF lines",
	    what);
	for (u = b.data; (u = strstr(u, "://")) != NULL; u += 3) {
		for (i = 0; i < nitems(sch); i++) {
			len = strlen(sch[i].scheme) - 3;
			if ((size_t)(u - b.data) >= len &&
			    strncmp(u - len, sch[i].scheme, len + 3) == 0)
				break;
		}
		if (i == nitems(sch))
			continue;
		len = strcspn(u - (strlen(sch[i].scheme) - 3), " \t\r\n");
		snprintf(url, sizeof(url), "%.*s", (int)len,
		    u - (strlen(sch[i].scheme) - 3));
		/* scheme://localhost:port/path */
		if (sscanf(url + strlen(sch[i].scheme), "localhost:%d", &port)
		    != 1 || (path = strchr(url + strlen(sch[i].scheme), '/'))
		    == NULL)
			continue;
		memset(&c, 0, sizeof(c));
		c.surface = sch[i].sf;
		c.port = port;
		c.host = "localhost";
		c.ctx = anon;
		c.max = 1;
		/* A Gopher URL's path is the item type, then the selector. */
		snprintf(start, sizeof(start), "%s", sch[i].sf == SW_GOPHER ?
		    (path[1] != '\0' ? path + 1 : "1") : path);
		sw_crawl(&c, start);
		n++;
		if (c.dead > 0) {
			dead++;
			snprintf(label, sizeof(label), "%s: %s", what, url);
			OK(0, "%s: dead: %s", label, c.shown[0]);
		}
	}
	buf_free(&b);
	OK(n >= 4, "%s: the plan gives the surfaces' addresses (%zu)", what, n);
	OK(dead == 0, "%s: %zu addresses of the plan do not answer", what,
	    dead);
	(void)s;
}

/* The surfaces crawled, in the order their figures are printed. */
static const struct {
	enum sw_surface	 sf;
	const char	*name;
} surfaces[] = {
	{ SW_GEMINI, "Gemini" }, { SW_GOPHER, "Gopher" },
	{ SW_SPARTAN, "Spartan" }, { SW_NEX, "Nex" }, { SW_HTTP, "the web" },
};

static int
port_of(const struct ports *p, enum sw_surface sf)
{
	switch (sf) {
	case SW_GEMINI:
		return p->gemini;
	case SW_GOPHER:
		return p->gopher;
	case SW_SPARTAN:
		return p->spartan;
	case SW_NEX:
		return p->nex;
	case SW_HTTP:
		return p->http;
	}
	return -1;
}

/* A type's MIME type alone, HTML for gemtext: what the web view says. */
static void
mime_of(const char *type, int web, char *out, size_t size)
{
	snprintf(out, size, "%.*s", (int)strcspn(type, "; "), type);
	if (web && strcmp(out, "text/gemini") == 0)
		snprintf(out, size, "text/html");
}

/*
 * A page only Gopher reaches, by design (docs/operating.md, "Static
 * trees"): a gemtext file's menu offers the file as written
 * ("x.gmi/raw"), and a directory's listing names its index file, which
 * Gemini serves as the directory itself.
 */
static int
gopher_only(const char *path)
{
	const char	*name = strrchr(path, '/') + 1;
	size_t		 n = strlen(path);

	return strcmp(name, "index.gmi") == 0 || (n > 8 &&
	    strcmp(path + n - 8, ".gmi/raw") == 0);
}

/*
 * The same navigation: every page the Gemini crawl reached (r[0]) the
 * others reached too, and nothing else but what gopher_only() says;
 * where both said a type, the same (the web view's HTML for gemtext).
 */
static void
same_navigation(struct reach *r, size_t n, const char *what)
{
	char	 t0[128], t1[128];
	size_t	 i, a, b, missing, wrong, own;
	int	 cmp;

	for (i = 0; i < n; i++)
		reach_sort(&r[i]);
	for (i = 1; i < n; i++) {
		missing = wrong = own = 0;
		for (a = b = 0; a < r[0].n || b < r[i].n; ) {
			cmp = a == r[0].n ? 1 : b == r[i].n ? -1 :
			    strcmp(r[0].v[a].path, r[i].v[b].path);
			if (cmp > 0 && r[i].sf == SW_GOPHER &&
			    gopher_only(r[i].v[b].path)) {
				own++;
				b++;
				continue;
			}
			if (cmp != 0) {
				missing++;
				OK(0, "%s: %s reached over %s only", what,
				    cmp < 0 ? r[0].v[a].path : r[i].v[b].path,
				    surfaces[cmp < 0 ? 0 : i].name);
				if (cmp < 0)
					a++;
				else
					b++;
				continue;
			}
			mime_of(r[0].v[a].type, r[i].sf == SW_HTTP, t0,
			    sizeof(t0));
			mime_of(r[i].v[b].type, 0, t1, sizeof(t1));
			if (*t0 != '\0' && *t1 != '\0' && strcmp(t0, t1) != 0) {
				wrong++;
				OK(0, "%s: %s is %s over %s, %s over Gemini",
				    what, r[0].v[a].path, t1, surfaces[i].name,
				    t0);
			}
			a++;
			b++;
		}
		printf("navigation: %s: %zu pages over Gemini, %zu over %s "
		    "(%zu its own by design), %zu on one only, %zu of another "
		    "type\n", what, r[0].n, r[i].n, surfaces[i].name, own,
		    missing, wrong);
		OK(missing == 0 && wrong == 0, "%s: the same navigation over "
		    "Gemini and %s", what, surfaces[i].name);
	}
}

/*
 * Serve capsule with extra on every surface, and crawl each from the
 * top, and from also (a path; NULL: none) too; with same, the pages
 * reached from the top must be the same on each.
 */
static void
crawl_all(const char *capsule, const char *extra, const char *what,
    size_t min, const char *also, int same)
{
	struct e2e_server s;
	struct ports	 p;
	struct reach	 r[nitems(surfaces)];
	char		*conf, label[200], start[200];
	const char	*from;
	size_t		 i, k;

	memset(r, 0, sizeof(r));
	p.spartan = e2e_free_port();
	p.nex = e2e_free_port();
	p.finger = e2e_free_port();
	p.http = e2e_free_port();
	conf = xasprintf("spartan_port: %d\nnex_port: %d\nfinger_port: %d\n"
	    "http_port: %d\nrate_limit: 0\nmax_connections_per_ip: 0\n%s",
	    p.spartan, p.nex, p.finger, p.http, extra);
	if (e2e_start(&s, capsule, conf) == -1) {
		OK(0, "%s: the server did not start", what);
		free(conf);
		return;
	}
	free(conf);
	p.gemini = s.gemini_port;
	p.gopher = s.gopher_port;
	for (k = 0; k < (also != NULL ? 2 : 1); k++)
		for (i = 0; i < nitems(surfaces); i++) {
			from = k == 0 ? "/" : also;
			if (k == 0)
				snprintf(label, sizeof(label), "%s over %s",
				    what, surfaces[i].name);
			else
				snprintf(label, sizeof(label), "%s, from %s, "
				    "over %s", what, also, surfaces[i].name);
			/* Gopher: the item type, then the selector. */
			snprintf(start, sizeof(start), "%s%s",
			    surfaces[i].sf == SW_GOPHER ? "1" : "",
			    surfaces[i].sf == SW_GOPHER && k == 0 ? "" : from);
			crawl_one(&p, surfaces[i].sf, port_of(&p,
			    surfaces[i].sf), start, label, min, same && k == 0 ?
			    &r[i] : NULL);
		}
	if (same)
		same_navigation(r, nitems(r), what);
	for (i = 0; i < nitems(r); i++)
		reach_free(&r[i]);
	finger_plan(&s, &p, what);
	OK(e2e_stop(&s) == 0, "%s: the server exits 0", what);
}

static void
test_sample(void)
{
	const char	*top = getenv("CAPSULED_TOP");
	char		*dir = xasprintf("%s/capsule", top != NULL ? top : ".");

	crawl_all(dir, "", "the sample capsule", 40, NULL, 1);
	free(dir);
}

static void
test_tree(const char *tmp)
{
	char	*dir = xasprintf("%s/tree", tmp);

	test_put(dir, "index.md", "---\ntitle: Tree and gemlog\n---\n"
	    "The gemlog of a tree. [Notes](/notes/), [the tree](/).\n");
	test_put(dir, "posts/2024-05-01-first.md", "---\ntitle: First\n"
	    "tags: [trees]\n---\nSee [the notes](/notes/one.gmi) and "
	    "[the picture](/pics/dot.png).\n");
	test_put(dir, "site/index.gmi", "# A hand-written tree\n"
	    "=> notes/ Notes\n=> gemlog/ The gemlog\n=> pics/ Pictures\n"
	    "=> /plain.txt Plain text\n");
	test_put(dir, "site/notes/index.gmi", "# Notes\n=> one.gmi One\n"
	    "=> ../ Up\n");
	test_put(dir, "site/notes/one.gmi", "# One\n=> /notes/ Back\n"
	    "=> ../pics/dot.png A picture\n");
	test_put(dir, "site/notes/gophermap",
	    "iNotes, by hand\tfake\t(NULL)\t0\n0One\t/notes/one.gmi\n"
	    "1Up\t/\n");
	test_put(dir, "site/pics/dot.png", "\x89PNG\r\n\x1a\n");
	test_put(dir, "site/pics/more.txt", "more\n");
	test_put(dir, "site/plain.txt", "Plain.\n");
	crawl_all(dir, "root: site\nmount: gemlog\n", "a static tree", 8,
	    "/gemlog/", 1);
	free(dir);
}

static char *
find_corpus(void)
{
	const char	*env = getenv("CAPSULED_CORPUS");
	const char	*top = getenv("CAPSULED_TOP");
	static const char *const up[] = { "..", "../.." };
	char		 path[4096];
	struct stat	 st;
	size_t		 i;

	if (env != NULL && *env != '\0')
		return xstrdup(env);
	for (i = 0; i < nitems(up); i++) {
		snprintf(path, sizeof(path), "%s/%s/shared/corpus/18f/posts",
		    top != NULL ? top : ".", up[i]);
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			path[strlen(path) - strlen("/posts")] = '\0';
			return realpath(path, NULL);
		}
	}
	return NULL;
}

static void
test_corpus(void)
{
	char	*dir;

	if ((dir = find_corpus()) == NULL) {
		harness_skip("the 509-post archive: no shared/corpus/18f "
		    "beside the checkout (CAPSULED_CORPUS unset)");
		return;
	}
	crawl_all(dir, "web_url: https://18f.gsa.gov\nwatch: false\n",
	    "the 509-post archive", 509, NULL, 1);
	free(dir);
}

static const struct harness_test tests[] = {
	NAMED("sample"),
	NAMED("tree"),
	NAMED("corpus"),
};

int
main(int argc, char **argv)
{
	char	 tmp[] = "/tmp/capsuled-e2e-crawl.XXXXXX", cmd[80];

	HARNESS_INIT(argc, argv, tests);
	signal(SIGPIPE, SIG_IGN);
	if (mkdtemp(tmp) == NULL)
		return 1;
	anon = e2e_client_ctx(0);
	RUN("sample", test_sample());
	RUN("tree", test_tree(tmp));
	RUN("corpus", test_corpus());
	SSL_CTX_free(anon);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	(void)!system(cmd);
	return harness_done();
}
