/*
 * e2e_crawl.c -- every surface crawled, every link answering: one
 * server serves a capsule over Gemini, Gopher, Spartan, Nex and Finger,
 * and tests/lib/smallweb.c follows every link of ours from the top of
 * each surface (Finger: every address the plan gives, on its surface).
 * A link that answers a failure is a dead link, and fails the test with
 * where it was found.  Three capsules:
 *
 *  - the sample capsule of the repository (capsule/);
 *  - a static tree at "/" beside the generated pages under "/gemlog/"
 *    (root and mount): index files, a listing, a gophermap, a file;
 *  - the handed 509-post archive (shared/corpus/18f beside the
 *    checkout, or $CAPSULED_CORPUS; skipped, saying so, without it),
 *    also timed: its figures are printed.
 */
#include "e2e.h"
#include "smallweb.h"

static SSL_CTX	*anon;

/* Ports of the surfaces the e2e server does not give itself. */
struct ports {
	int	 spartan, nex, finger;
};

static void
crawl_one(enum sw_surface sf, int port, const char *start, const char *what,
    size_t min)
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
	sw_crawl(&c, start);
	printf("crawl: %s: %zu requests, %zu documents read, %zu dead, "
	    "%.0f ms\n", what, c.asked, c.documents, c.dead,
	    harness_now_msf() - t0);
	OK(c.dead == 0, "%s: %zu dead links", what, c.dead);
	for (i = 0; i < c.dead && i < SW_DEAD_SHOWN; i++)
		fprintf(stderr, "  dead: %s\n", c.shown[i]);
	OK(c.asked >= min, "%s: %zu requests, at least %zu", what, c.asked,
	    min);
	OK(c.asked < c.max, "%s: the crawl ended", what);
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

/*
 * Serve capsule with extra on every surface, and crawl each from the
 * top, and from also (a path; NULL: none) too.
 */
static void
crawl_all(const char *capsule, const char *extra, const char *what,
    size_t min, const char *also)
{
	struct e2e_server s;
	struct ports	 p;
	char		*conf, label[200], start[200];

	p.spartan = e2e_free_port();
	p.nex = e2e_free_port();
	p.finger = e2e_free_port();
	conf = xasprintf("spartan_port: %d\nnex_port: %d\nfinger_port: %d\n"
	    "rate_limit: 0\nmax_connections_per_ip: 0\n%s", p.spartan, p.nex,
	    p.finger, extra);
	if (e2e_start(&s, capsule, conf) == -1) {
		OK(0, "%s: the server did not start", what);
		free(conf);
		return;
	}
	free(conf);
	snprintf(label, sizeof(label), "%s over Gemini", what);
	crawl_one(SW_GEMINI, s.gemini_port, "/", label, min);
	snprintf(label, sizeof(label), "%s over Gopher", what);
	crawl_one(SW_GOPHER, s.gopher_port, "1", label, min);
	snprintf(label, sizeof(label), "%s over Spartan", what);
	crawl_one(SW_SPARTAN, p.spartan, "/", label, min);
	snprintf(label, sizeof(label), "%s over Nex", what);
	crawl_one(SW_NEX, p.nex, "/", label, min);
	if (also != NULL) {
		snprintf(label, sizeof(label), "%s, from %s, over Gemini", what,
		    also);
		crawl_one(SW_GEMINI, s.gemini_port, also, label, min);
		snprintf(label, sizeof(label), "%s, from %s, over Gopher", what,
		    also);
		snprintf(start, sizeof(start), "1%s", also);
		crawl_one(SW_GOPHER, s.gopher_port, start, label, min);
		snprintf(label, sizeof(label), "%s, from %s, over Spartan",
		    what, also);
		crawl_one(SW_SPARTAN, p.spartan, also, label, min);
		snprintf(label, sizeof(label), "%s, from %s, over Nex", what,
		    also);
		crawl_one(SW_NEX, p.nex, also, label, min);
	}
	finger_plan(&s, &p, what);
	OK(e2e_stop(&s) == 0, "%s: the server exits 0", what);
}

static void
test_sample(void)
{
	const char	*top = getenv("CAPSULED_TOP");
	char		*dir = xasprintf("%s/capsule", top != NULL ? top : ".");

	crawl_all(dir, "", "the sample capsule", 40, NULL);
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
	    "/gemlog/");
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
	    "the 509-post archive", 509, NULL);
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
