/*
 * e2e_moving.c -- what an operator moving a gmid or molly-brown capsule
 * relies on, over the real server (issue 34, items 1 to 3;
 * docs/moving.md, "Moving from another server"):
 *
 *  - prefix redirects in the layout docs/moving.md recommends for a moved
 *    capsule ("root: files" and a mount, here "mount: gemlog"): "/old/"
 *    "*" to "/new%p", to "/new/" "*", to an absolute URL, and temporary
 *    ones, over Gemini (31, 30) and Gopher (a path served in place, a URL
 *    named); they were 51 once a mount was set;
 *  - "redirects_first": a rule over what is on disk (an empty old/
 *    directory, a file), gmid's "block return"; without it content
 *    wins;
 *  - molly-brown's suffix redirect ("^/blog/(.*)\.gmi$" to "/posts/$1")
 *    as the pattern "/blog/" "*.gmi";
 *  - molly-brown's CertificateZones "^/diary/.*\.gmi$" as the zone
 *    "/diary/" "*.gmi": a certificate asked for the diary's pages, not
 *    its photos, by either URL of the root tree.
 *
 * Builds a capsule in a temp directory (removed at the end).
 */
#include "e2e.h"

static SSL_CTX	*ctx;
static char	 top[] = "/tmp/capsuled-moving.XXXXXX";
static char	 cap[300];

static void
make_capsule(void)
{
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		exit(2);
	}
	snprintf(cap, sizeof(cap), "%s/capsule", top);
	test_put(cap, "posts/2024-01-01-hello.md",
	    "---\ntitle: Hello\n---\nHello from the gemlog.\n");
	/* gmid's document root, moved in as files/ (docs/moving.md). */
	test_put(cap, "files/index.gmi", "# My capsule\n=> /gemlog/ Gemlog\n");
	test_put(cap, "files/about.gmi", "# About\n");
	test_put(cap, "files/kept/page.gmi", "# Kept\n");
	/* What a move leaves behind: an empty folder, an old file. */
	test_mkdir(cap, "files/old");
	test_put(cap, "files/stale.gmi", "# Stale\n");
	test_put(cap, "files/diary/monday.gmi", "# Monday\n");
	test_put(cap, "files/diary/photo.jpg", "not really a JPEG\n");
}

/* The rules of both servers: those of a gmid.conf's "location"s. */
#define RULES								\
	"root: files\n"							\
	"mount: gemlog\n"						\
	"redirects:\n"							\
	"  /old/*: /new%p\n"						\
	"  /log/*: /gemlog/posts/*\n"					\
	"  /away/*: gemini://elsewhere.example/$1\n"			\
	"  /blog/*.gmi: /gemlog/posts/$1\n"				\
	"  /stale.gmi: /about.gmi\n"					\
	"  temporary:\n"						\
	"    /soon/*: /gemlog/posts/*\n"

/* Item 1: prefix rules with a mount, both protocols. */
static void
test_mount_prefix(const struct e2e_server *s)
{
	struct reply	 r;
	struct buf	 g;

	r = e2e_gemini_get(s->gemini_port, ctx, "/old/thing.gmi");
	STR_EQ(r.header, "31 /new/old/thing.gmi", "mount: %p prefix rule");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/log/hello");
	STR_EQ(r.header, "31 /gemlog/posts/hello", "mount: '*' prefix rule");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/away/x/y");
	STR_EQ(r.header, "31 gemini://elsewhere.example/x/y",
	    "mount: a prefix rule to a URL");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/soon/hello");
	STR_EQ(r.header, "30 /gemlog/posts/hello",
	    "mount: a temporary prefix rule");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/blog/hello.gmi");
	STR_EQ(r.header, "31 /gemlog/posts/hello",
	    "a suffix pattern: the suffix stripped");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/blog/hello.txt");
	INT_EQ(r.status, 51, "a suffix pattern holds its suffix only");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/kept/page.gmi");
	INT_EQ(r.status, 20, "the tree still answers its own paths");
	reply_free(&r);

	e2e_gopher_get(s->gopher_port, &g, "/log/hello");
	HAS(g.data, "Hello from the gemlog.",
	    "gopher, mount: a prefix rule's path served in place");
	buf_free(&g);
	e2e_gopher_get(s->gopher_port, &g, "/soon/hello");
	HAS(g.data, "Hello from the gemlog.",
	    "gopher, mount: a temporary prefix rule served in place");
	buf_free(&g);
	e2e_gopher_get(s->gopher_port, &g, "/blog/hello.gmi");
	HAS(g.data, "Hello from the gemlog.",
	    "gopher: a suffix pattern served in place");
	buf_free(&g);
	e2e_gopher_get(s->gopher_port, &g, "/away/x");
	HAS(g.data, "3Moved to gemini://elsewhere.example/x\t",
	    "gopher, mount: a prefix rule's URL named");
	buf_free(&g);
}

/* Item 2, default: what is on disk is served, the rule answers 51s. */
static void
test_content_wins(const struct e2e_server *s)
{
	struct reply	 r;

	r = e2e_gemini_get(s->gemini_port, ctx, "/old/");
	INT_EQ(r.status, 20, "content wins: old/ is listed");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/stale.gmi");
	STR_EQ(r.body.data, "# Stale\n", "content wins: the old file");
	reply_free(&r);
}

/* Item 2, redirects_first: gmid's "block return" over what is there. */
static void
test_redirects_first(const struct e2e_server *s)
{
	struct reply	 r;
	struct buf	 g;

	r = e2e_gemini_get(s->gemini_port, ctx, "/old/");
	STR_EQ(r.header, "31 /new/old/", "redirects_first: over a listing");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/stale.gmi");
	STR_EQ(r.header, "31 /about.gmi", "redirects_first: over a file");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/kept/page.gmi");
	INT_EQ(r.status, 20, "redirects_first: no rule, the file");
	reply_free(&r);
	e2e_gopher_get(s->gopher_port, &g, "/stale.gmi");
	/* A gemtext file reaches Gopher as text: its heading's words. */
	OK(g.data != NULL && strncmp(g.data, "About", 5) == 0 &&
	    strstr(g.data, "# About") == NULL, "gopher, redirects_first: the "
	    "target served in place");
	buf_free(&g);
}

/*
 * A zone on a pattern (molly-brown's CertificateZones): a zone's path
 * is a path rule (core/pathrule.h), matched on the URL and on the file.
 */
static void
test_zone_pattern(const struct e2e_server *s)
{
	struct reply	 r;
	struct buf	 g;

	r = e2e_gemini_get(s->gemini_port, ctx, "/diary/monday.gmi");
	INT_EQ(r.status, 60, "a zone on /diary/*.gmi: a page asks");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/files/diary/monday.gmi");
	INT_EQ(r.status, 60, "and by the tree's other URL");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/diary/photo.jpg");
	INT_EQ(r.status, 20, "a photo beside it does not");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/diary/");
	INT_EQ(r.status, 20, "nor its directory");
	OK(r.body.data != NULL && strstr(r.body.data, "monday") == NULL &&
	    strstr(r.body.data, "photo.jpg") != NULL,
	    "whose listing leaves the guarded page out");
	reply_free(&r);
	e2e_gopher_get(s->gopher_port, &g, "/diary/monday.gmi");
	OK(strstr(g.data, "# Monday") == NULL, "gopher: the page withheld");
	buf_free(&g);
}

static const struct harness_test tests[] = {
	NAMED("mount_prefix"),
	NAMED("content_wins"),
	NAMED("redirects_first"),
	NAMED("zone_pattern"),
};

int
main(int argc, char **argv)
{
	struct e2e_server	 s;

	HARNESS_INIT(argc, argv, tests);
	make_capsule();
	ctx = e2e_client_ctx(0);

	if (e2e_start(&s, cap, RULES) == 0) {
		RUN("mount_prefix", test_mount_prefix(&s));
		RUN("content_wins", test_content_wins(&s));
		INT_EQ(e2e_stop(&s), 0, "server 1 exits 0");
	} else
		OK(0, "server 1 did not start");
	if (e2e_start(&s, cap, RULES "redirects_first: true\n") == 0) {
		RUN("mount_prefix", test_mount_prefix(&s));
		RUN("redirects_first", test_redirects_first(&s));
		INT_EQ(e2e_stop(&s), 0, "server 2 exits 0");
	} else
		OK(0, "server 2 did not start");
	if (e2e_start(&s, cap, "root: files\n"
	    "cert_zones: [{path: /diary/*.gmi}]\n") == 0) {
		RUN("zone_pattern", test_zone_pattern(&s));
		INT_EQ(e2e_stop(&s), 0, "server 3 exits 0");
	} else
		OK(0, "server 3 did not start");

	SSL_CTX_free(ctx);
	test_rm_tree(top);
	return harness_done();
}
