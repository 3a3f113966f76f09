/*
 * e2e_types.c -- "mime_types", "default_type" and "path_meta" over the
 * real server, both protocols.
 *
 * A static tree with a file whose extension the configuration types
 * (.zine as gemtext, .log as binary, over the built-in table): Gemini
 * answers the configured type and Gopher lists and serves it with the
 * item type derived from it; a file of no known extension gets the
 * default type; a prefix's lang and another's charset show in the 20
 * headers of files and listings.
 */
#include "e2e.h"

static struct e2e_server srv;
static SSL_CTX	*ctx;
static char	 top[] = "/tmp/capsuled-e2e-types.XXXXXX";

/* Over Gemini, path answers 20 with header meta. */
static void
header(const char *path, const char *meta)
{
	struct reply	 r;

	r = e2e_gemini_get(srv.gemini_port, ctx, "%s", path);
	INT_EQ(r.status, 20, path);
	STR_EQ(r.header, meta, path);
	reply_free(&r);
}

static void
test_types(void)
{
	char		 cap[300], want[128];
	struct buf	 b = BUF_INIT;

	snprintf(cap, sizeof(cap), "%s/capsule", top);
	test_mkdir(top, "capsule");
	test_mkdir(cap, "site");
	test_mkdir(cap, "site/zines");
	test_mkdir(cap, "site/fr");
	test_mkdir(cap, "site/old");
	test_put(cap, "site/index.gmi", "# Home\n");
	test_put(cap, "site/zines/first.zine", "# The first zine\n");
	test_put(cap, "site/zines/server.log", "a log line\n");
	test_put(cap, "site/zines/notes.xyz", "what is this\n");
	test_put(cap, "site/fr/bonjour.gmi", "# Bonjour\n");
	test_put(cap, "site/old/latin.txt", "caf\xe9\n");
	if (e2e_start(&srv, cap, "root: site\nroot_listings: true\n"
	    "mime_types: {zine: text/gemini, log: application/octet-stream}\n"
	    "default_type: text/plain\n"
	    "path_meta:\n"
	    "  - {path: /fr/, lang: fr}\n"
	    "  - {path: /old/, charset: iso-8859-1}\n") == -1) {
		OK(0, "server did not start");
		return;
	}
	header("/zines/first.zine", "20 text/gemini; charset=utf-8; lang=en");
	header("/zines/server.log", "20 application/octet-stream");
	header("/zines/notes.xyz", "20 text/plain; charset=utf-8");
	header("/fr/bonjour.gmi", "20 text/gemini; charset=utf-8; lang=fr");
	header("/fr/", "20 text/gemini; charset=utf-8; lang=fr");
	header("/old/latin.txt", "20 text/plain; charset=iso-8859-1");

	snprintf(want, sizeof(want), "\tlocalhost\t%d\r\n", srv.gopher_port);
	INT_EQ(e2e_gopher_get(srv.gopher_port, &b, "/zines/"), 0, "menu");
	OK(strstr(b.data, "1first.zine\t/zines/first.zine/\t") != NULL &&
	    strstr(b.data, "9server.log\t/zines/server.log\t") != NULL &&
	    strstr(b.data, "0notes.xyz\t/zines/notes.xyz\t") != NULL &&
	    strstr(b.data, want) != NULL,
	    "the listing's item types follow the configured types:\n%s",
	    b.data);
	buf_free(&b);
	INT_EQ(e2e_gopher_get(srv.gopher_port, &b, "/zines/first.zine"), 0,
	    "file");
	/* Gemtext by its type: text as a gemtext post is, not a menu. */
	OK(strstr(b.data, "The first zine\r\n==============") != NULL &&
	    strstr(b.data, "\r\n.\r\n") == NULL,
	    "the zine is served as text, not a menu: %s", b.data);
	buf_free(&b);
	INT_EQ(e2e_stop(&srv), 0, "clean exit");
}

static const struct harness_test tests[] = {
	NAMED("types"),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	signal(SIGPIPE, SIG_IGN);
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	ctx = e2e_client_ctx(0);
	RUN("types", test_types());
	SSL_CTX_free(ctx);
	test_rm_tree(top);
	return harness_done();
}
