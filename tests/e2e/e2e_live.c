/*
 * e2e_live.c -- a live archive: edits show without a restart.
 *
 * The real server watches a temp capsule (watch_debounce: 50ms) while
 * this test edits it the ways editors and writers do: a new post,
 * truncate-and-write, write-a-temp-file-and-rename, two same-size edits
 * in a row, a tag and a series renamed, a post moved into and out of
 * draft, deleted, a gemtext post and a page bundle (its folder, its
 * index, an image beside it), a file beside the posts of posts/,
 * series/ and pages/ made after start,
 * posts/ replaced by a new directory, files under files/ (kept in
 * memory once served: file_cache_max) edited in place, by rename and
 * deep in a directory made after start, and a file over the limit
 * streamed whole.  Each change must show on every
 * page that lists it within a bounded time; editor droppings (.swp)
 * and files no capsule reads or serves must not cause a rebuild, and
 * a burst of saves must cause few.
 * Then SIGHUP: a broken configuration is refused with its file:line:col
 * and the old one keeps serving; a good one applies (title, cache
 * limit), a port change is refused as needing a restart.  Prints the
 * save-to-visible times it saw on stderr.
 */
#include "e2e.h"

static struct e2e_server srv;
static SSL_CTX	*ctx;
static char	 capsule[512];

/* Save the way many editors do: a temp file, then rename(2) over. */
static void
mk_rename(const char *rel, const char *text)
{
	char	 tmp[1024], path[1024];
	char	*slash;

	snprintf(path, sizeof(path), "%s/%s", capsule, rel);
	snprintf(tmp, sizeof(tmp), "%s", path);
	slash = strrchr(tmp, '/');
	snprintf(slash + 1, sizeof(tmp) - (size_t)(slash + 1 - tmp),
	    ".%s.tmp~", strrchr(path, '/') + 1);
	test_write(tmp, "%s", text);
	if (rename(tmp, path) == -1)
		perror(tmp);
}

static void
in_capsule(char *path, size_t len, const char *rel)
{
	snprintf(path, len, "%s/%s", capsule, rel);
}

static void
expect_soon(const char *what, const char *path, int status,
    const char *needle, int want)
{
	long	 ms = e2e_gemini_wait(srv.gemini_port, ctx, path, status,
	    needle, want, 5000);

	OK(ms >= 0, "%s: %s never answered %d %s \"%s\"", what, path,
	    status, want ? "with" : "without", needle ? needle : "");
	if (ms >= 0)
		fprintf(stderr, "visible after %4ld ms: %s\n", ms, what);
}

/* How many times the server's log has needle so far. */
static int
log_count(const char *needle)
{
	struct buf	 b = BUF_INIT;
	char		 chunk[8192], *p;
	size_t		 n;
	FILE		*f;
	int		 count = 0;

	if ((f = fopen(srv.log, "r")) == NULL)
		return -1;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_add(&b, chunk, n);
	fclose(f);
	for (p = b.data; p != NULL && (p = strstr(p, needle)) != NULL; p++)
		count++;
	buf_free(&b);
	return count;
}

/* Wait (bounded) until the log has needle more than before times. */
static int
log_wait(const char *needle, int before, unsigned limit_ms)
{
	uint64_t	 t0 = e2e_now_ms();

	while (log_count(needle) <= before) {
		if (e2e_now_ms() - t0 > limit_ms)
			return -1;
		e2e_sleep_ms(10);
	}
	return 0;
}

static void
make_capsule(const char *top)
{
	char	 path[1024];

	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	mkdir(capsule, 0755);
	in_capsule(path, sizeof(path), "posts");
	mkdir(path, 0755);
	/* No title in index.md: the configuration's title shows. */
	test_put(capsule, "index.md", "Welcome to a live capsule.\n");
	test_put(capsule, "posts/2024-01-02-steady.md",
	    "---\ntitle: Steady Post\n"
	    "tags: [keep]\n---\nAlways here.\n");
}

static void
test_posts(void)
{
	char	 path[1024];

	test_put(capsule, "posts/2025-01-01-fresh.md",
	    "---\ntitle: Fresh Arrival\n"
	    "tags: [alpha]\nseries: Old Series\n---\nNew words.\n");
	expect_soon("new post in /posts/", "/posts/", 20, "Fresh Arrival", 1);
	expect_soon("new post page", "/posts/fresh", 20, "New words.", 1);
	expect_soon("new post on the home page", "/", 20, "Fresh Arrival",
	    1);

	/* Truncate and write in place (same inode). */
	test_put(capsule, "posts/2025-01-01-fresh.md",
	    "---\ntitle: Fresh Edited\n"
	    "tags: [alpha]\nseries: Old Series\n---\nEdited words.\n");
	expect_soon("edit in place: /posts/", "/posts/", 20, "Fresh Edited",
	    1);
	expect_soon("edit in place: gone from /posts/", "/posts/", 20,
	    "Fresh Arrival", 0);
	expect_soon("edit in place: the post", "/posts/fresh", 20,
	    "Edited words.", 1);

	/* Save by rename (a new inode). */
	mk_rename("posts/2025-01-01-fresh.md", "---\ntitle: Renamed Save\n"
	    "tags: [alpha]\nseries: Old Series\n---\nRenamed words.\n");
	expect_soon("save by rename", "/posts/fresh", 20, "Renamed words.",
	    1);
	expect_soon("save by rename: atom", "/atom.xml", 20, "Renamed Save",
	    1);

	/* Two same-size edits in quick succession: the second must win. */
	test_put(capsule, "posts/2025-01-01-fresh.md",
	    "---\ntitle: Quick AAAA\n"
	    "tags: [alpha]\nseries: Old Series\n---\nBody AAAA.\n");
	expect_soon("quick edit 1", "/posts/fresh", 20, "Body AAAA.", 1);
	test_put(capsule, "posts/2025-01-01-fresh.md",
	    "---\ntitle: Quick BBBB\n"
	    "tags: [alpha]\nseries: Old Series\n---\nBody BBBB.\n");
	expect_soon("quick edit 2, same size", "/posts/fresh", 20,
	    "Body BBBB.", 1);

	/* A tag and a series renamed: every page that lists them. */
	expect_soon("tag page", "/tags/alpha/", 20, "Quick BBBB", 1);
	expect_soon("series page", "/series/old-series/", 20, "Quick BBBB",
	    1);
	test_put(capsule, "posts/2025-01-01-fresh.md",
	    "---\ntitle: Quick BBBB\n"
	    "tags: [beta]\nseries: New Series\n---\nBody BBBB.\n");
	expect_soon("tag renamed: new", "/tags/beta/", 20, "Quick BBBB", 1);
	expect_soon("tag renamed: old gone", "/tags/alpha/", 51, NULL, 1);
	expect_soon("tag renamed: tag index", "/tags/", 20, "alpha", 0);
	expect_soon("series renamed: new", "/series/new-series/", 20,
	    "Quick BBBB", 1);
	expect_soon("series renamed: old gone", "/series/old-series/", 51,
	    NULL, 1);
	expect_soon("series renamed: the post says so", "/posts/fresh", 20,
	    "New Series", 1);

	/* Into draft and out again. */
	test_put(capsule, "posts/2025-01-01-fresh.md",
	    "---\ntitle: Quick BBBB\n"
	    "draft: true\ntags: [beta]\nseries: New Series\n---\nBody.\n");
	expect_soon("draft: post gone", "/posts/fresh", 51, NULL, 1);
	expect_soon("draft: not listed", "/posts/", 20, "Quick BBBB", 0);
	test_put(capsule, "posts/2025-01-01-fresh.md",
	    "---\ntitle: Back Again\n"
	    "tags: [beta]\nseries: New Series\n---\nBody.\n");
	expect_soon("out of draft", "/posts/", 20, "Back Again", 1);

	/* Deleted. */
	in_capsule(path, sizeof(path), "posts/2025-01-01-fresh.md");
	unlink(path);
	expect_soon("deleted: post", "/posts/fresh", 51, NULL, 1);
	expect_soon("deleted: list", "/posts/", 20, "Back Again", 0);
	expect_soon("deleted: tag", "/tags/beta/", 51, NULL, 1);
}

/*
 * A gemtext post and a page bundle, live: a new .gmi file, a bundle's
 * folder made with its index, an image added beside it (served from
 * disk at once), one in a folder of it edited and removed (dropped from
 * memory at once), the index edited, the folder removed.
 */
static void
test_shapes(void)
{
	char	 path[1024];

	test_put(capsule, "posts/2025-05-05-gem.gmi",
	    "# Gemtext Arrival\nIn gemtext.\n");
	expect_soon("new .gmi post", "/posts/", 20, "Gemtext Arrival", 1);
	test_put(capsule, "posts/2025-05-05-gem.gmi",
	    "# Gemtext Edited\nIn gemtext.\n");
	expect_soon("edited .gmi post", "/posts/gem", 20, "Gemtext Edited",
	    1);
	/*
	 * A file beside the posts of posts/ is served as one of a
	 * single-file post's, and kept in memory as a bundle's is: as
	 * live.
	 */
	test_put(capsule, "posts/beside.txt", "BESIDE ONE");
	expect_soon("a file beside posts", "/posts/steady/beside.txt", 20,
	    "BESIDE ONE", 1);
	expect_soon("kept", "/posts/steady/beside.txt", 20, "BESIDE ONE", 1);
	test_put(capsule, "posts/beside.txt", "BESIDE TWO");
	expect_soon("a kept file beside posts edited",
	    "/posts/steady/beside.txt", 20, "BESIDE TWO", 1);
	in_capsule(path, sizeof(path), "posts/beside.txt");
	OK(unlink(path) == 0, "rm the file beside posts");
	expect_soon("a file beside posts removed", "/posts/steady/beside.txt",
	    51, NULL, 1);
	in_capsule(path, sizeof(path), "posts/2025-06-06-trip");
	OK(mkdir(path, 0755) == 0, "mkdir a bundle");
	test_put(capsule, "posts/2025-06-06-trip/index.md",
	    "# Bundle Arrival\n\n"
	    "![map](map.png)\n");
	expect_soon("new bundle", "/posts/", 20, "Bundle Arrival", 1);
	expect_soon("its image link", "/posts/trip", 20,
	    "=> /posts/trip/map.png map", 1);
	expect_soon("no image yet", "/posts/trip/map.png", 51, NULL, 1);
	test_put(capsule, "posts/2025-06-06-trip/map.png", "PNGDATA");
	expect_soon("image added", "/posts/trip/map.png", 20, "PNGDATA", 1);
	test_put(capsule, "posts/2025-06-06-trip/map.png", "PNGEDIT");
	expect_soon("image edited", "/posts/trip/map.png", 20, "PNGEDIT", 1);
	/* Deeper in the folder: kept in memory too, and as live. */
	in_capsule(path, sizeof(path), "posts/2025-06-06-trip/img");
	OK(mkdir(path, 0755) == 0, "mkdir the bundle's img/");
	in_capsule(path, sizeof(path), "posts/2025-06-06-trip/img/deep");
	OK(mkdir(path, 0755) == 0, "mkdir img/deep/");
	test_put(capsule, "posts/2025-06-06-trip/img/deep/x.png", "DEEPONE");
	expect_soon("deep image added", "/posts/trip/img/deep/x.png", 20,
	    "DEEPONE", 1);
	test_put(capsule, "posts/2025-06-06-trip/img/deep/x.png", "DEEPTWO");
	expect_soon("deep image edited", "/posts/trip/img/deep/x.png", 20,
	    "DEEPTWO", 1);
	in_capsule(path, sizeof(path), "posts/2025-06-06-trip/img/deep/x.png");
	OK(unlink(path) == 0, "rm the deep image");
	expect_soon("deep image removed", "/posts/trip/img/deep/x.png", 51,
	    NULL, 1);
	in_capsule(path, sizeof(path), "posts/2025-06-06-trip/img/deep");
	OK(rmdir(path) == 0, "rmdir img/deep/");
	in_capsule(path, sizeof(path), "posts/2025-06-06-trip/img");
	OK(rmdir(path) == 0, "rmdir img/");
	mk_rename("posts/2025-06-06-trip/index.md", "# Bundle Edited\n");
	expect_soon("bundle index edited", "/posts/trip", 20,
	    "Bundle Edited", 1);
	in_capsule(path, sizeof(path), "posts/2025-06-06-trip/map.png");
	unlink(path);
	in_capsule(path, sizeof(path), "posts/2025-06-06-trip/index.md");
	unlink(path);
	in_capsule(path, sizeof(path), "posts/2025-06-06-trip");
	OK(rmdir(path) == 0, "rmdir the bundle");
	expect_soon("bundle removed", "/posts/trip", 51, NULL, 1);
	in_capsule(path, sizeof(path), "posts/2025-05-05-gem.gmi");
	unlink(path);
	expect_soon(".gmi removed", "/posts/gem", 51, NULL, 1);
}

static void
test_dirs(void)
{
	char	 path[1024], old[1024];

	/* series/ and pages/ did not exist when the server started. */
	in_capsule(path, sizeof(path), "pages");
	OK(mkdir(path, 0755) == 0, "mkdir pages");
	test_put(capsule, "pages/about.md",
	    "---\ntitle: About Me\n---\nA page.\n");
	expect_soon("pages/ made after start", "/about", 20, "A page.", 1);
	in_capsule(path, sizeof(path), "series");
	OK(mkdir(path, 0755) == 0, "mkdir series");
	test_put(capsule, "posts/2025-02-02-part.md", "---\ntitle: A Part\n"
	    "series: Later\n---\nPart.\n");
	test_put(capsule, "series/later.md",
	    "---\ntitle: Later Series Title\n---\n"
	    "The intro.\n");
	expect_soon("series/ made after start", "/series/later/", 20,
	    "Later Series Title", 1);
	test_put(capsule, "series/later.md",
	    "---\ntitle: Later Retitled\n---\nIntro.\n");
	expect_soon("series file edited", "/series/", 20, "Later Retitled",
	    1);

	/* posts/ replaced by another directory. */
	in_capsule(old, sizeof(old), "posts.old");
	in_capsule(path, sizeof(path), "posts");
	OK(rename(path, old) == 0, "posts moved away");
	expect_soon("posts/ gone", "/posts/steady", 51, NULL, 1);
	OK(mkdir(path, 0755) == 0, "new posts/");
	test_put(capsule, "posts/2025-03-03-reborn.md",
	    "---\ntitle: Reborn\n---\nHi.\n");
	expect_soon("new posts/ watched", "/posts/", 20, "Reborn", 1);
	test_put(capsule, "posts/2025-03-03-reborn.md",
	    "---\ntitle: Reborn Twice\n---\n");
	expect_soon("new posts/ edited", "/posts/", 20, "Reborn Twice", 1);
	in_capsule(path, sizeof(path), "posts.old/2024-01-02-steady.md");
	in_capsule(old, sizeof(old), "posts/2024-01-02-steady.md");
	OK(rename(path, old) == 0, "moved back in");
	expect_soon("moved in", "/posts/steady", 20, "Always here.", 1);
}

/* The whole body of path: 20, and exactly want. */
static void
whole(const char *path, const struct buf *want)
{
	struct reply	 r = e2e_gemini_get(srv.gemini_port, ctx, "%s", path);

	OK(r.status == 20 && r.body.len == want->len &&
	    memcmp(r.body.data, want->data, want->len) == 0,
	    "%s: %zu bytes, want %zu, the same", path, r.body.len,
	    want->len);
	reply_free(&r);
}

static void
test_files(void)
{
	struct buf	 big = BUF_INIT;
	char		 path[1024];
	int		 i;

	/* files/ made after start; each file served twice: kept. */
	in_capsule(path, sizeof(path), "files");
	OK(mkdir(path, 0755) == 0, "mkdir files");
	test_put(capsule, "files/note.txt", "version one\n");
	expect_soon("files/ made after start", "/files/note.txt", 20,
	    "version one", 1);
	expect_soon("kept", "/files/note.txt", 20, "version one", 1);
	test_put(capsule, "files/note.txt", "version two\n");
	expect_soon("a kept file edited in place", "/files/note.txt", 20,
	    "version two", 1);
	mk_rename("files/note.txt", "version three\n");
	expect_soon("a kept file saved by rename", "/files/note.txt", 20,
	    "version three", 1);
	in_capsule(path, sizeof(path), "files/a");
	OK(mkdir(path, 0755) == 0, "mkdir files/a");
	in_capsule(path, sizeof(path), "files/a/b");
	OK(mkdir(path, 0755) == 0, "mkdir files/a/b");
	test_put(capsule, "files/a/b/deep.gmi", "# Deep one\n");
	expect_soon("a file deep in a new directory", "/files/a/b/deep.gmi",
	    20, "Deep one", 1);
	expect_soon("kept", "/files/a/b/deep.gmi", 20, "Deep one", 1);
	test_put(capsule, "files/a/b/deep.gmi", "# Deep two\n");
	expect_soon("a kept deep file edited", "/files/a/b/deep.gmi", 20,
	    "Deep two", 1);
	in_capsule(path, sizeof(path), "files/note.txt");
	OK(unlink(path) == 0, "a kept file removed");
	expect_soon("a kept file removed", "/files/note.txt", 51, NULL, 1);

	/* Over file_cache_max (64 KiB here): streamed, whole. */
	for (i = 0; big.len < (300u << 10); i++)
		buf_printf(&big, "line %d of a file too large to keep\n", i);
	in_capsule(path, sizeof(path), "files/big.txt");
	test_write(path, "%s", big.data);
	expect_soon("a large file", "/files/big.txt", 20, "line 0 of", 1);
	whole("/files/big.txt", &big);
	buf_printf(&big, "one more line\n");
	test_write(path, "%s", big.data);
	expect_soon("a large file grown", "/files/big.txt", 20,
	    "one more line", 1);
	whole("/files/big.txt", &big);
	buf_free(&big);
}

static void
test_quiet(void)
{
	int	 before, after, i;
	char	 rel[64], path[1024];

	/*
	 * Editor droppings and files no capsule reads or serves: no
	 * rebuild.  (A file beside posts in posts/, a backup "x.md~" as
	 * much as "notes.txt", is served, and kept: test_shapes().)
	 */
	e2e_sleep_ms(300);
	before = log_count("info: content:");
	test_put(capsule, "posts/.steady.md.swp", "swap");
	test_put(capsule, "index.md~", "backup");
	test_put(capsule, "notes.txt", "notes");
	test_put(capsule, "4913", "vim's probe");
	e2e_sleep_ms(300);
	after = log_count("info: content:");
	INT_EQ(after - before, 0, "rebuilds for non-content files");

	/* A burst of 40 saves: a few rebuilds, not 40. */
	before = after;
	for (i = 0; i < 40; i++) {
		snprintf(rel, sizeof(rel), "posts/2025-04-%02d-burst-%d.md",
		    i % 28 + 1, i);
		test_path(path, sizeof(path), capsule, rel);
		test_write(path, "---\ntitle: Burst %d\n---\nb\n", i);
	}
	expect_soon("burst visible", "/posts/", 20, "Burst 39", 1);
	e2e_sleep_ms(200);
	after = log_count("info: content:");
	OK(after - before >= 1 && after - before <= 3,
	    "40 saves made %d rebuilds", after - before);
}

/* The configuration e2e_start() was given, Gopher on port, plus extra. */
static void
write_config(int gopher_port, const char *extra)
{
	e2e_write_config(&srv, gopher_port, capsule,
	    "watch_debounce: 50ms\nrate_limit: off\n", extra);
}

static void
test_sighup(void)
{
	struct buf	 b;
	struct reply	 r;
	int		 n;

	/* Broken: refused with file:line:col; the old one serves on. */
	n = log_count("the running configuration stays");
	write_config(srv.gopher_port, "title: Good\nlatest_posts: many\n");
	kill(srv.pid, SIGHUP);
	OK(log_wait("the running configuration stays", n, 5000) == 0,
	    "bad config refused");
	OK(log_count("capsuled.yaml:13:15: latest_posts: expected an "
	    "integer") == 1,
	    "refusal names file:line:col");
	r = e2e_gemini_get(srv.gemini_port, ctx, "/");
	INT_EQ(r.status, 20, "still serving after a bad config");
	OK(r.close_notify, "close_notify after a bad config");
	reply_free(&r);

	/* Good: the new title shows. */
	n = log_count("reload: configuration");
	write_config(srv.gopher_port,
	    "title: Retitled Capsule\ncache_max_bytes: 1K\n");
	kill(srv.pid, SIGHUP);
	OK(log_wait("reload: configuration", n, 5000) == 0,
	    "good config loaded");
	expect_soon("config title", "/", 20, "Retitled Capsule", 1);
	/* A 1 KiB cache: every page is evicted soon after; all still fine. */
	for (n = 0; n < 20; n++) {
		r = e2e_gemini_get(srv.gemini_port, ctx, "%s",
		    n % 2 ? "/posts/" : "/posts/steady");
		OK(r.status == 20 && r.close_notify && r.body.len > 0,
		    "tiny cache: response %d", n);
		reply_free(&r);
	}

	/* watch: false -- changes wait for a SIGHUP. */
	n = log_count("reload: configuration");
	write_config(srv.gopher_port, "title: Retitled Capsule\n"
	    "watch: false\n");
	kill(srv.pid, SIGHUP);
	OK(log_wait("reload: configuration", n, 5000) == 0, "watch off");
	test_put(capsule, "posts/2025-05-05-unseen.md",
	    "---\ntitle: Unseen Yet\n---\n.\n");
	e2e_sleep_ms(400);
	r = e2e_gemini_get(srv.gemini_port, ctx, "/posts/");
	OK(r.body.data != NULL && strstr(r.body.data, "Unseen Yet") == NULL,
	    "not watched: not rebuilt");
	reply_free(&r);
	write_config(srv.gopher_port, "title: Retitled Capsule\n");
	kill(srv.pid, SIGHUP);
	expect_soon("SIGHUP rebuilds, watch back on", "/posts/", 20,
	    "Unseen Yet", 1);
	test_put(capsule, "posts/2025-05-05-unseen.md",
	    "---\ntitle: Seen Now\n---\n.\n");
	expect_soon("watched again", "/posts/", 20, "Seen Now", 1);

	/* A port change needs a restart: warned, old listeners kept. */
	n = log_count("needs a restart");
	write_config(1, "title: Retitled Capsule\n");
	kill(srv.pid, SIGHUP);
	OK(log_wait("needs a restart", n, 5000) == 0, "port change warned");
	OK(e2e_plain(srv.gopher_port, "/\r\n", 3, &b) == 0 && b.len > 0 &&
	    strstr(b.data, "Retitled Capsule") != NULL,
	    "gopher still on its port");
	/* Menus name the port that is served, not the one asked for. */
	OK(b.data != NULL && strstr(b.data, "\t1\r\n") == NULL,
	    "menus keep the running port");
	buf_free(&b);
}

static const struct harness_test tests[] = {
	NAMED("posts"),
	NAMED("shapes"),
	NAMED("dirs"),
	NAMED("files"),
	NAMED("quiet"),
	NAMED("sighup"),
};

int
main(int argc, char **argv)
{
	char	 top[64];
	char	 cmd[128];

	HARNESS_INIT(argc, argv, tests);

	snprintf(top, sizeof(top), "/tmp/capsuled-live.XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	make_capsule(top);
	ctx = e2e_client_ctx(0);
	if (e2e_start(&srv, capsule, "watch_debounce: 50ms\n"
	    "rate_limit: off\nfile_cache_max: 64KB\n") == -1) {
		OK(0, "server start");
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
		(void)!system(cmd);
		return harness_done();
	}
	/*
	 * The ports answer from bind(2) on, a moment before the watches
	 * start: a file written in that moment would be missed.
	 */
	OK(log_wait("debug: watch: ", 1, 5000) == 0,
	    "the capsule and posts/ watched");
	RUN("posts", test_posts());
	RUN("shapes", test_shapes());
	RUN("dirs", test_dirs());
	RUN("files", test_files());
	RUN("quiet", test_quiet());
	RUN("sighup", test_sighup());
	INT_EQ(e2e_stop(&srv), 0, "clean exit");
	SSL_CTX_free(ctx);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	(void)!system(cmd);
	return harness_done();
}
