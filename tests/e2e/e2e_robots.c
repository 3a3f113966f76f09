/*
 * e2e_robots.c -- robots.txt per surface over the real server (the
 * robots setting as rules, core/robots.h):
 *
 *  - Gemini and Spartan serve the groups of Gemini's virtual agents,
 *    Nex the same, Gopher the indexer's rules for Veronica under the
 *    "robots.txt" selector and "/robots.txt" alike; each text/plain, a
 *    type 0 text over Gopher;
 *  - a static tree at "/" (no mount) with a robots.txt of its own: the
 *    writer's file wins over the generated one, on every surface; the
 *    text form of the setting is served as written everywhere.
 */
#include "e2e.h"

static char		 capsule[512];
static SSL_CTX		*anon;

/* What surface port answers to line, NUL-terminated. */
static void
plain(int port, const char *line, struct buf *out)
{
	buf_init(out);
	if (e2e_plain(port, line, strlen(line), out) == -1 || out->data == NULL)
		buf_add(out, "", 0);
	buf_addc(out, '\0');
}

static void
test_rules(int sport, int nport)
{
	struct e2e_server s;
	struct reply	 r;
	struct buf	 b;
	char		 extra[400];
	const char	*head = "2 text/plain; charset=utf-8\r\n";
	size_t		 n;

	snprintf(extra, sizeof(extra), "spartan_port: %d\nnex_port: %d\n"
	    "robots:\n  disallow: /drafts/\n  agents:\n    webproxy: /\n"
	    "    indexer: /tags/\n", sport, nport);
	if (e2e_start(&s, capsule, extra) == -1) {
		OK(0, "server did not start");
		return;
	}
	r = e2e_gemini_get(s.gemini_port, anon, "/robots.txt");
	STR_EQ(r.header, "20 text/plain; charset=utf-8", "Gemini: its type");
	STR_EQ(r.body.data, "User-agent: webproxy\nDisallow: /\n"
	    "Disallow: /drafts/\n\n"
	    "User-agent: indexer\nDisallow: /tags/\nDisallow: /drafts/\n\n"
	    "User-agent: *\nDisallow: /drafts/\n", "Gemini: virtual agents");
	plain(sport, "localhost /robots.txt 0\r\n", &b);
	n = strlen(head);
	OK(r.body.data != NULL && strncmp(b.data, head, n) == 0 &&
	    strcmp(b.data + n, r.body.data) == 0,
	    "Spartan: the same as Gemini: %s", b.data);
	buf_free(&b);
	plain(nport, "/robots.txt\n", &b);
	STR_EQ(b.data, r.body.data, "Nex: the same as Gemini");
	buf_free(&b);
	reply_free(&r);
	e2e_gopher_get(s.gopher_port, &b, "robots.txt");
	STR_EQ(b.data, "User-agent: veronica\nDisallow: /tags/\n"
	    "Disallow: /drafts/\n\nUser-agent: *\nDisallow: /drafts/\n",
	    "Gopher: Veronica reads the indexer's rules");
	buf_free(&b);
	e2e_gopher_get(s.gopher_port, &b, "/robots.txt");
	HAS(b.data, "User-agent: veronica\n", "Gopher: with a slash too");
	buf_free(&b);
	e2e_gopher_get(s.gopher_port, &b, "%s", "/");
	OK(strstr(b.data, "robots") == NULL, "no menu lists it");
	buf_free(&b);
	INT_EQ(e2e_stop(&s), 0, "server exits 0");
}

static void
test_tree_wins(int sport)
{
	struct e2e_server s;
	struct reply	 r;
	struct buf	 b;
	char		 extra[300], path[600];
	const char	*own = "User-agent: *\nDisallow: /mine/\n";

	test_put(capsule, "site/robots.txt", own);
	test_put(capsule, "site/hello.gmi", "# Hi\n");
	snprintf(extra, sizeof(extra), "spartan_port: %d\nroot: site\n"
	    "robots:\n  disallow: /generated/\n", sport);
	if (e2e_start(&s, capsule, extra) == -1) {
		OK(0, "server did not start");
		return;
	}
	r = e2e_gemini_get(s.gemini_port, anon, "/robots.txt");
	STR_EQ(r.body.data, own, "Gemini: the tree's own robots.txt");
	reply_free(&r);
	e2e_gopher_get(s.gopher_port, &b, "robots.txt");
	STR_EQ(b.data, own, "Gopher: the tree's own");
	buf_free(&b);
	plain(sport, "localhost /robots.txt 0\r\n", &b);
	HAS(b.data, own, "Spartan: the tree's own");
	buf_free(&b);
	INT_EQ(e2e_stop(&s), 0, "server exits 0");

	/* Without the file, the generated one; the text form as written. */
	snprintf(path, sizeof(path), "%s/site/robots.txt", capsule);
	unlink(path);
	if (e2e_start(&s, capsule, "root: site\nrobots: |\n  User-agent: "
	    "webproxy\n  Disallow: /\n") == -1) {
		OK(0, "server did not start");
		return;
	}
	r = e2e_gemini_get(s.gemini_port, anon, "/robots.txt");
	STR_EQ(r.body.data, "User-agent: webproxy\nDisallow: /\n",
	    "Gemini: the text as written");
	reply_free(&r);
	e2e_gopher_get(s.gopher_port, &b, "robots.txt");
	STR_EQ(b.data, "User-agent: webproxy\nDisallow: /\n",
	    "Gopher: the text as written");
	buf_free(&b);
	INT_EQ(e2e_stop(&s), 0, "server exits 0");
}

static const struct harness_test tests[] = {
	NAMED("rules"),
	NAMED("tree_wins"),
};

int
main(int argc, char **argv)
{
	char	 top[] = "/tmp/capsuled-e2e-robots.XXXXXX", cmd[600];
	int	 sport, nport;

	HARNESS_INIT(argc, argv, tests);
	signal(SIGPIPE, SIG_IGN);
	if (mkdtemp(top) == NULL)
		return 1;
	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	mkdir(capsule, 0755);
	test_put(capsule, "index.md", "---\ntitle: Robots test\n---\nHi.\n");
	test_put(capsule, "posts/2024-01-02-hello.md",
	    "---\ntitle: Hello\ntags: [a]\n---\nHello there.\n");
	anon = e2e_client_ctx(0);
	sport = e2e_free_port();
	nport = e2e_free_port();
	RUN("rules", test_rules(sport, nport));
	RUN("tree_wins", test_tree_wins(sport));
	SSL_CTX_free(anon);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	(void)!system(cmd);
	return harness_done();
}
