/*
 * e2e_ops.c -- the operator's side of the real server over loopback:
 * "redirects:" (Gemini 31 or 30, Gopher served in place or named),
 * robots.txt from the configuration, a post's own "lang:" in the MIME
 * type, files/ directories (index.gmi as the Gemini page, listings on
 * and off), log_peer (full, anonymise, none) in the access log, and SIGUSR1
 * reopening a log file that logrotate moved away.
 *
 * Builds a small capsule in a temp directory (removed at the end).
 */
#include "e2e.h"

static SSL_CTX	*ctx;
static char	 capsule[] = "/tmp/capsuled-ops.XXXXXX";

static void
make_capsule(void)
{
	char	 p[512];

	if (mkdtemp(capsule) == NULL) {
		perror("mkdtemp");
		exit(1);
	}
	snprintf(p, sizeof(p), "%s/posts", capsule);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/index.md", capsule);
	test_write(p, "---\ntitle: Ops\nlang: en\n---\nHello.\n");
	snprintf(p, sizeof(p), "%s/posts/2024-01-01-deutsch.md", capsule);
	test_write(p, "---\ntitle: Auf Deutsch\nlang: de\n---\n"
	    "Ein Beitrag auf Deutsch.\n");
	snprintf(p, sizeof(p), "%s/posts/2024-01-02-plain.md", capsule);
	test_write(p, "---\ntitle: Plain\n---\nNo lang of its own.\n");
	snprintf(p, sizeof(p), "%s/posts/2024-01-03-quebec.md", capsule);
	test_write(p, "---\ntitle: Bonjour\nlanguage: fr-CA\n---\n"
	    "Un billet.\n");
	/* Old web URLs (link_aliases in server 1's config). */
	snprintf(p, sizeof(p), "%s/posts/2024-01-05-links.md", capsule);
	test_write(p, "---\ntitle: Links\n---\n"
	    "[moved](https://old.example/2023/12/deutsch.html)\n\n"
	    "[gone](https://old.example/gone.html)\n");
	/* Would put "; q=1" into the MIME type: skipped with a warning. */
	snprintf(p, sizeof(p), "%s/posts/2024-01-04-smuggle.md", capsule);
	test_write(p, "---\ntitle: Smuggle\nlang: \"de; q=1\"\n---\n"
	    "x\n");

	/*
	 * files/: a directory with its own page (index.gmi), one without,
	 * one whose "index.gmi" is a directory, one whose index.gmi is a
	 * second name of a file (not served: files_hardlinks is off).
	 */
	snprintf(p, sizeof(p), "%s/files", capsule);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/files/photos", capsule);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/files/photos/index.gmi", capsule);
	test_write(p, "# My photos\n=> cat.txt The cat\n");
	snprintf(p, sizeof(p), "%s/files/photos/cat.txt", capsule);
	test_write(p, "meow\n");
	snprintf(p, sizeof(p), "%s/files/raw", capsule);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/files/raw/b.txt", capsule);
	test_write(p, "bee\n");
	snprintf(p, sizeof(p), "%s/files/odd", capsule);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/files/odd/index.gmi", capsule);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/files/twice", capsule);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/files/twice/page.gmi", capsule);
	test_write(p, "# Twice\n");
	{
		char	 q[512];

		snprintf(q, sizeof(q), "%s/files/twice/index.gmi", capsule);
		(void)!link(p, q);
	}
	/*
	 * Enough names that readdir() fills several buffers: its last
	 * record in each is shorter than a struct dirent, and a listing
	 * that copied whole dirents read past the heap block (ASan).
	 */
	snprintf(p, sizeof(p), "%s/files/many", capsule);
	mkdir(p, 0755);
	for (int i = 0; i < 2000; i++) {
		snprintf(p, sizeof(p), "%s/files/many/note-%04d.txt",
		    capsule, i);
		test_write(p, "n\n");
	}
}

/*
 * files/ directories: index.gmi is the Gemini page of its directory;
 * Gopher lists it; without an index, listings decides.
 */
static void
test_files_dirs(const struct e2e_server *s, int listings)
{
	struct reply	 r;
	struct buf	 g;

	r = e2e_gemini_get(s->gemini_port, ctx, "/files/photos/");
	STR_EQ(r.header, "20 text/gemini; charset=utf-8; lang=en",
	    "index.gmi: served as the directory's page");
	STR_EQ(r.body.data, "# My photos\n=> cat.txt The cat\n",
	    "index.gmi: its bytes, not a listing");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/files/photos");
	STR_EQ(r.header, "31 /files/photos/", "index dir: slash added first");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/files/photos/index.gmi");
	INT_EQ(r.status, 20, "index.gmi: also by its own name");
	reply_free(&r);
	e2e_gopher_get(s->gopher_port, &g, "/files/photos/");
	HAS(g.data, "0cat.txt\t/files/photos/cat.txt\t",
	    "gopher: a directory with an index is listed");
	HAS(g.data, "\t/files/photos/index.gmi/\t",
	    "gopher: the index is listed");
	buf_free(&g);

	r = e2e_gemini_get(s->gemini_port, ctx, "/files/raw/");
	if (listings) {
		INT_EQ(r.status, 20, "no index: listed");
		HAS(r.body.data, "=> /files/raw/b.txt b.txt",
		    "no index: the listing");
	} else {
		STR_EQ(r.header, "51 Not found", "listings off: 51");
		INT_EQ(r.body.len, 0, "listings off: no body");
	}
	reply_free(&r);
	e2e_gopher_get(s->gopher_port, &g, "/files/raw/");
	if (listings)
		HAS(g.data, "0b.txt\t/files/raw/b.txt\t", "gopher: listed");
	else
		HAS(g.data, "3Not found\t",
		    "gopher: listings off: an error line");
	buf_free(&g);
	r = e2e_gemini_get(s->gemini_port, ctx, "/files/raw/b.txt");
	STR_EQ(r.body.data, "bee\n", "files still served by name");
	reply_free(&r);

	/* An index.gmi that is a directory, or a second name, is none. */
	r = e2e_gemini_get(s->gemini_port, ctx, "/files/odd/");
	if (listings)
		HAS(r.body.data, "=> /files/odd/index.gmi/ index.gmi/",
		    "index.gmi a directory: listed, not served");
	else
		INT_EQ(r.status, 51, "index.gmi a directory: no index");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/files/twice/");
	if (listings)
		HAS(r.body.data, "# Index of /files/twice/",
		    "index.gmi with two names: not the page");
	else
		INT_EQ(r.status, 51, "index.gmi with two names: no index");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/files/");
	INT_EQ(r.status, listings ? 20 : 51, "files/ itself: as any directory");
	reply_free(&r);

	r = e2e_gemini_get(s->gemini_port, ctx, "/files/many/");
	if (listings) {
		const char	*at = r.body.data ? r.body.data : "";
		int		 links = 0;

		INT_EQ(r.status, 20, "2,000 entries: listed");
		while ((at = strstr(at, "\n=> /files/many/note-")) != NULL) {
			links++;
			at++;
		}
		INT_EQ(links, 2000, "2,000 entries: every one listed");
		HAS(r.body.data, "=> /files/many/note-0000.txt note-0000.txt\n"
		    "=> /files/many/note-0001.txt", "2,000 entries: by name");
	} else
		INT_EQ(r.status, 51, "2,000 entries: listings off");
	reply_free(&r);
	e2e_gopher_get(s->gopher_port, &g, "/files/many/");
	if (listings)
		HAS(g.data, "0note-1999.txt\t/files/many/note-1999.txt\t",
		    "gopher: 2,000 entries listed");
	buf_free(&g);
}

static void
test_lang(const struct e2e_server *s)
{
	struct reply	 r;

	r = e2e_gemini_get(s->gemini_port, ctx, "/posts/deutsch");
	STR_EQ(r.header, "20 text/gemini; charset=utf-8; lang=de",
	    "post lang: de");
	HAS(r.body.data, "Ein Beitrag auf Deutsch", "post lang: body");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/posts/plain");
	STR_EQ(r.header, "20 text/gemini; charset=utf-8; lang=en",
	    "no post lang: the site's");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/posts/quebec");
	STR_EQ(r.header, "20 text/gemini; charset=utf-8; lang=fr-CA",
	    "post language: fr-CA");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/");
	STR_EQ(r.header, "20 text/gemini; charset=utf-8; lang=en",
	    "home: the site's lang");
	reply_free(&r);
	/* A lang that is no language tag is ignored: the post stays. */
	r = e2e_gemini_get(s->gemini_port, ctx, "/posts/smuggle");
	STR_EQ(r.header, "20 text/gemini; charset=utf-8; lang=en",
	    "a lang that is not a language tag: the site's");
	reply_free(&r);
	OK(e2e_log_wait(s->log,
	    "posts/2024-01-04-smuggle.md:3:7: lang: 'de; q=1'"
	    " is not a language tag", 1000), "ignored lang named in the log");
}

static void
test_redirects(const struct e2e_server *s)
{
	struct reply	 r;
	struct buf	 g;

	r = e2e_gemini_get(s->gemini_port, ctx, "/old");
	STR_EQ(r.header, "31 /posts/deutsch", "redirect to a path");
	INT_EQ(r.body.len, 0, "31 has no body");
	OK(r.close_notify, "31 ends with close_notify");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/gone/away");
	STR_EQ(r.header, "31 gemini://example.org/elsewhere?x=1",
	    "redirect to a URL");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/posts/plain");
	INT_EQ(r.status, 20, "content wins over a redirect of the same path");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "%s", "/caf%C3%A9");
	STR_EQ(r.header, "31 /posts/", "percent-decoded path matched");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/old/");
	INT_EQ(r.status, 51, "exact match only");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/posts/gone");
	STR_EQ(r.header, "31 /posts/plain", "an old post slug");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/now");
	STR_EQ(r.header, "30 /posts/deutsch", "temporary redirect: 30");
	INT_EQ(r.body.len, 0, "30 has no body");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/later");
	STR_EQ(r.header, "30 gemini://example.org/soon", "temporary to a URL");
	reply_free(&r);

	/* Gopher follows a path target in place, names a URL target. */
	e2e_gopher_get(s->gopher_port, &g, "/old");
	HAS(g.data, "Ein Beitrag auf Deutsch",
	    "gopher: redirect served in place");
	OK(g.data[0] != '3', "gopher: not an error");
	buf_free(&g);
	e2e_gopher_get(s->gopher_port, &g, "/caf\xc3\xa9");
	HAS(g.data, "\t/posts/deutsch/\t", "gopher: redirect to a menu served");
	buf_free(&g);
	e2e_gopher_get(s->gopher_port, &g, "/gone/away");
	HAS(g.data, "3Moved to gemini://example.org/elsewhere?x=1\t",
	    "gopher: URL target named in an error line");
	buf_free(&g);
	e2e_gopher_get(s->gopher_port, &g, "/now");
	HAS(g.data, "Ein Beitrag auf Deutsch",
	    "gopher: temporary served in place");
	OK(g.data[0] != '3', "gopher: temporary not an error");
	buf_free(&g);
	e2e_gopher_get(s->gopher_port, &g, "/later");
	HAS(g.data, "3Moved to gemini://example.org/soon\t",
	    "gopher: temporary URL target named in an error line");
	buf_free(&g);
	e2e_gopher_get(s->gopher_port, &g, "/nowhere");
	HAS(g.data, "3Not found\t", "gopher: not listed, not found");
	buf_free(&g);

	/* Prefix rules: the rest of the path carried over, encoded. */
	r = e2e_gemini_get(s->gemini_port, ctx, "/blog/deutsch");
	STR_EQ(r.header, "31 /posts/deutsch", "prefix rule: the rest kept");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/archive/deutsch");
	STR_EQ(r.header, "31 /posts/deutsch", "prefix rule with $1");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/blog/caf%%C3%%A9%%20x");
	STR_EQ(r.header, "31 /posts/caf%C3%A9%20x",
	    "prefix rule: the rest percent-encoded again");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/moved/a/b");
	STR_EQ(r.header, "31 gemini://example.org/new/moved/a/b",
	    "%p: the whole path");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/soon/deutsch");
	STR_EQ(r.header, "30 /posts/deutsch", "a temporary prefix rule: 30");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/umlaut");
	STR_EQ(r.header, "31 /posts/%C3%BCber",
	    "a non-ASCII target is percent-encoded, not sent raw");
	reply_free(&r);
	r = e2e_gemini_get(s->gemini_port, ctx, "/blog");
	INT_EQ(r.status, 51, "a prefix rule holds what is below its prefix");
	reply_free(&r);
	e2e_gopher_get(s->gopher_port, &g, "/blog/deutsch");
	HAS(g.data, "Ein Beitrag auf Deutsch",
	    "gopher: a prefix rule served in place");
	buf_free(&g);
	e2e_gopher_get(s->gopher_port, &g, "/soon/deutsch");
	HAS(g.data, "Ein Beitrag auf Deutsch",
	    "gopher: a temporary prefix rule served in place");
	buf_free(&g);
	e2e_gopher_get(s->gopher_port, &g, "/moved/x");
	HAS(g.data, "3Moved to gemini://example.org/new/moved/x\t",
	    "gopher: a prefix rule's URL named");
	buf_free(&g);
}

static void
test_robots(const struct e2e_server *s, const char *want)
{
	struct reply	 r;
	struct buf	 g;

	r = e2e_gemini_get(s->gemini_port, ctx, "/robots.txt");
	if (want == NULL) {
		INT_EQ(r.status, 51, "robots: ~ -> 51");
		reply_free(&r);
		e2e_gopher_get(s->gopher_port, &g, "robots.txt");
		HAS(g.data, "3Not found", "gopher robots.txt off");
		buf_free(&g);
		return;
	}
	STR_EQ(r.header, "20 text/plain; charset=utf-8", "robots.txt type");
	STR_EQ(r.body.data, want, "robots.txt body over Gemini");
	reply_free(&r);
	e2e_gopher_get(s->gopher_port, &g, "robots.txt");
	STR_EQ(g.data, want, "robots.txt over Gopher, selector without /");
	buf_free(&g);
	e2e_gopher_get(s->gopher_port, &g, "/robots.txt");
	STR_EQ(g.data, want, "robots.txt over Gopher, selector with /");
	buf_free(&g);
}

/* log_peer: anonymise; then SIGUSR1 after the log was moved away. */
static void
test_anonymise_and_reopen(struct e2e_server *s)
{
	struct reply	 r;
	char		 moved[400];
	struct buf	 g;
	char		*text;

	r = e2e_gemini_get(s->gemini_port, ctx, "/posts/deutsch?first");
	reply_free(&r);
	OK(e2e_log_wait(s->log, "/posts/deutsch?first", 5000),
	    "access line written");
	OK(e2e_log_wait(s->log, " 127.0.0.0 gemini \"gemini://localhost:", 100),
	    "anonymised peer: last octet zeroed, no port");
	text = test_read(s->log, "");
	OK(strstr(text, "127.0.0.1") == NULL, "no full address in the log");
	free(text);

	snprintf(moved, sizeof(moved), "%s.1", s->log);
	OK(rename(s->log, moved) == 0, "log moved away");
	e2e_gopher_get(s->gopher_port, &g, "/before-usr1");
	buf_free(&g);
	OK(e2e_log_wait(moved, "\"/before-usr1\" 51", 5000),
	    "before SIGUSR1: the moved file gets the line");
	OK(kill(s->pid, SIGUSR1) == 0, "SIGUSR1 sent");
	{
		uint64_t	 deadline = e2e_now_ms() + 5000;
		struct stat	 st;

		while (stat(s->log, &st) == -1 && e2e_now_ms() < deadline)
			e2e_sleep_ms(20);
		OK(stat(s->log, &st) == 0, "SIGUSR1 made a new log file");
	}
	e2e_gopher_get(s->gopher_port, &g, "/after-usr1");
	buf_free(&g);
	OK(e2e_log_wait(s->log, " gopher \"/after-usr1\" 51 ", 5000),
	    "after SIGUSR1: the new file gets the line");
	text = test_read(moved, "");
	OK(strstr(text, "after-usr1") == NULL, "old file: no later lines");
	free(text);
	unlink(moved);
}

/*
 * link_aliases and atom_full_content (server 1): an old web URL of a
 * post goes to the post on every protocol and in the feed, which
 * carries the bodies with absolute links; one naming no post is a
 * load-time warning.
 */
static void
test_aliases_and_full_feed(const struct e2e_server *s)
{
	struct reply	 r;
	struct buf	 text;
	char		 want[200];

	r = e2e_gemini_get(s->gemini_port, ctx, "/posts/links");
	INT_EQ(r.status, 20, "/posts/links");
	HAS(r.body.data, "=> /posts/deutsch moved", "old URL -> the post");
	HAS(r.body.data, "=> https://old.example/gone.html gone",
	    "an old URL naming no post is left as written");
	reply_free(&r);
	e2e_gopher_get(s->gopher_port, &text, "/posts/links");
	snprintf(want, sizeof(want), "gopher://localhost:%d/1/posts/deutsch/",
	    s->gopher_port);
	HAS(text.data, want, "Gopher: the same post");
	buf_free(&text);
	r = e2e_gemini_get(s->gemini_port, ctx, "/atom.xml");
	INT_EQ(r.status, 20, "/atom.xml");
	HAS(r.body.data, "<content type=\"text\">", "full content");
	snprintf(want, sizeof(want), "=&gt; gemini://localhost:%d/posts/"
	    "deutsch moved", s->gemini_port);
	HAS(r.body.data, want, "feed links absolute");
	reply_free(&r);
	OK(e2e_log_wait(s->log,
	    "posts/2024-01-05-links.md:6:8: link to missing "
	    "post https://old.example/gone.html", 1000),
	    "the missing one is logged with file and line");
}

static void
test_peer_mode(struct e2e_server *s, const char *want, const char *what)
{
	struct reply	 r;

	r = e2e_gemini_get(s->gemini_port, ctx, "/?peer");
	reply_free(&r);
	OK(e2e_log_wait(s->log, want, 5000), "%s: \"%s\" in the log", what,
	    want);
}

/*
 * A second capsuled on the ports of a running one must refuse to start:
 * with SO_REUSEPORT alone the kernel would let it join the port and take
 * half of the first one's connections.
 */
static void
test_port_in_use(struct e2e_server *s)
{
	const char	*bin = getenv("CAPSULED_BIN");
	char		 conf[400], out[400], cmd[1400];
	struct reply	 r;
	int		 rc;

	snprintf(conf, sizeof(conf), "%s/second.yaml", s->dir);
	snprintf(out, sizeof(out), "%s/second.out", s->dir);
	test_write(conf, "hostname: localhost\nbind: [127.0.0.1]\n"
	    "gemini_port: %d\ngopher_port: %d\ncapsule: %s\n"
	    "certs: certs\n", s->gemini_port, s->gopher_port, capsule);
	snprintf(cmd, sizeof(cmd), "timeout 20 '%s' --allow-root -c '%s' "
	    ">'%s' 2>&1", bin ? bin : "build/capsuled", conf, out);
	rc = system(cmd);
	OK(WIFEXITED(rc) && WEXITSTATUS(rc) == 1,
	    "a second server on a busy port exits 1 (status %d)", rc);
	OK(e2e_log_wait(out, "address already in use", 1000),
	    "and says the address is in use");
	r = e2e_gemini_get(s->gemini_port, ctx, "/");
	INT_EQ(r.status, 20, "the first server still answers");
	reply_free(&r);
}

/*
 * A capsule that is not there stops the start with an error, before a
 * key and certificate are made (where "certs" points: s.dir/certs).
 */
static void
test_no_capsule(void)
{
	struct e2e_server	 s;
	struct stat		 st;
	char			 missing[600], p[600], cmd[700];
	char			*text;

	snprintf(missing, sizeof(missing), "%s/no-such-capsule", capsule);
	OK(e2e_start(&s, missing, "") == -1, "no capsule: not started");
	text = test_read(s.log, "");
	HAS(text, " error: the capsule ", "no capsule: logged as an error");
	HAS(text, "no-such-capsule: No such file or directory",
	    "no capsule: named, with the reason");
	OK(strstr(text, " warn: ") == NULL, "no capsule: no warning before");
	free(text);
	snprintf(p, sizeof(p), "%s/certs", s.dir);
	OK(stat(p, &st) == -1 && errno == ENOENT,
	    "no capsule: no certificate directory made");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", s.dir);
	(void)!system(cmd);
}

static const struct harness_test tests[] = {
	NAMED("lang"),
	NAMED("aliases_and_full_feed"),
	NAMED("redirects"),
	NAMED("files_dirs"),
	NAMED("robots"),
	NAMED("anonymise_and_reopen"),
	NAMED("peer_mode_none"),
	NAMED("robots_off"),
	NAMED("files_dirs_unlisted"),
	NAMED("peer_mode_full"),
	NAMED("robots_default"),
	NAMED("port_in_use"),
	NAMED("no_capsule"),
};

int
main(int argc, char **argv)
{
	struct e2e_server	 s;
	char			 cmd[600];

	HARNESS_INIT(argc, argv, tests);

	make_capsule();
	ctx = e2e_client_ctx(0);

	/* 1: redirects, robots, lang, log_peer anonymise, SIGUSR1. */
	if (e2e_start(&s, capsule,
	    "atom_full_content: true\n"
	    "link_aliases: [\"https://old.example/\"]\n"
	    "log_peer: anonymise\n"
	    "redirects:\n"
	    "  /old: /posts/deutsch\n"
	    "  /gone/away: gemini://example.org/elsewhere?x=1\n"
	    "  /posts/plain: /posts/deutsch\n"
	    "  /posts/gone: /posts/plain\n"
	    "  \"/caf\\u00e9\": /posts/\n"
	    "  /blog/*: /posts/*\n"
	    "  /archive/*: /posts/$1\n"
	    "  /moved/*: gemini://example.org/new%p\n"
	    "  \"/umlaut\": \"/posts/\\u00fcber\"\n"
	    "  temporary:\n"
	    "    /now: /posts/deutsch\n"
	    "    /soon/*: /posts/*\n"
	    "    /later: gemini://example.org/soon\n"
	    "robots: |\n"
	    "  User-agent: archiver\n"
	    "  Disallow: /\n") == -1) {
		OK(0, "server 1 did not start");
		return harness_done();
	}
	RUN("lang", test_lang(&s));
	RUN("aliases_and_full_feed", test_aliases_and_full_feed(&s));
	RUN("redirects", test_redirects(&s));
	RUN("files_dirs", test_files_dirs(&s, 1));
	RUN("robots", test_robots(&s, "User-agent: archiver\nDisallow: /\n"));
	RUN("anonymise_and_reopen", test_anonymise_and_reopen(&s));
	INT_EQ(e2e_stop(&s), 0, "server 1 exits 0");

	/* 2: log_peer none, robots off, listings off. */
	if (e2e_start(&s, capsule, "log_peer: none\nrobots: ~\n"
	    "listings: false\n") == 0) {
		struct reply r = e2e_gemini_get(s.gemini_port, ctx,
		    "/atom.xml");

		OK(strstr(r.body.data, "<entry>") != NULL &&
		    strstr(r.body.data, "<content") == NULL,
		    "atom_full_content off: entries without bodies");
		reply_free(&r);
		RUN("peer_mode_none", test_peer_mode(&s,
		    " - gemini \"gemini://localhost:", "none"));
		RUN("robots_off", test_robots(&s, NULL));
		RUN("files_dirs_unlisted", test_files_dirs(&s, 0));
		INT_EQ(e2e_stop(&s), 0, "server 2 exits 0");
	} else
		OK(0, "server 2 did not start");

	/* 3: the defaults: full peers, the allow-all robots.txt. */
	if (e2e_start(&s, capsule, "") == 0) {
		RUN("peer_mode_full", test_peer_mode(&s, " 127.0.0.1:",
		    "full"));
		RUN("robots_default", test_robots(&s,
		    "User-agent: *\nDisallow:\n"));
		RUN("port_in_use", test_port_in_use(&s));
		INT_EQ(e2e_stop(&s), 0, "server 3 exits 0");
	} else
		OK(0, "server 3 did not start");

	RUN("no_capsule", test_no_capsule());

	SSL_CTX_free(ctx);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", capsule);
	(void)!system(cmd);
	return harness_done();
}
