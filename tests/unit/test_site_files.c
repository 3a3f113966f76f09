/*
 * test_site_files.c -- files served from memory held by the site
 * (site_file_slot(), router.c's serve_fd()), over a capsule made in a
 * temp directory.
 *
 * The slots: one per name, the same for every thread that asks, found
 * again among thousands, emptied by the memory bound like pages'.  The
 * router: a small file's bytes come from memory, read once (later
 * requests never look at the disk, which is what the watcher's new site
 * is for), deferred to response_render() when the caller can wait; a
 * file over file_cache_max, and every file with "watch: false" or
 * "follow_symlinks: any", is streamed; dot-files, hard links and links
 * a page bundle may not follow are refused before anything is kept.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "content/archive.h"
#include "core/cache.h"
#include "core/config.h"
#include "core/log.h"
#include "core/util.h"
#include "files.h"
#include "harness.h"
#include "proto/gopher.h"
#include "site/gopher_front.h"
#include "site/router.h"
#include "site/site.h"

#define NAMES	3000
#define THREADS	4

static char		 top[64];
static struct config	 cfg;
static struct site	*shared;
static struct slot	*seen[THREADS][NAMES];

static struct archive *
load(void)
{
	char	 a[256], b[256];
	char	 big[300 * 1024];

	test_mkdir(top, "posts");
	test_mkdir(top, "files");
	test_mkdir(top, "files/sub");
	test_mkdir(top, "posts/2024-01-01-b");
	test_put(top, "posts/2024-01-01-b/index.md", "# B\n\nA bundle.\n");
	test_put(top, "posts/2024-01-01-b/pic.txt", "bundle bytes\n");
	test_put(top, "files/a.txt", "small file\n");
	test_put(top, "files/sub/index.gmi", "# Sub\n");
	test_put(top, "files/.hidden", "secret\n");
	test_put(top, "files/orig.txt", "two names\n");
	test_path(a, sizeof(a), top, "files/orig.txt");
	test_path(b, sizeof(b), top, "files/link.txt");
	OK(link(a, b) == 0, "a hard link");
	test_path(b, sizeof(b), top, "posts/2024-01-01-b/sym.txt");
	test_path(a, sizeof(a), top, "files/a.txt");
	OK(symlink(a, b) == 0, "a symbolic link in a bundle");
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	test_put(top, "files/big.txt", big);
	memset(&cfg, 0, sizeof(cfg));
	cfg.capsule_dir = top;
	cfg.site_title = "Site";
	cfg.lang = "en";
	cfg.hostname = "localhost";
	cfg.port[SURFACE_GEMINI] = 1965;
	cfg.port[SURFACE_GOPHER] = 70;
	cfg.watch = 1;
	cfg.file_cache_max = 256 << 10;
	cfg.follow_symlinks = CONFIG_LINKS_INSIDE;
	return archive_load(&cfg);
}

static void *
adder(void *arg)
{
	size_t	 t = (size_t)arg, i;
	char	 name[32];

	for (i = 0; i < NAMES; i++) {
		snprintf(name, sizeof(name), "files/%zu", i);
		seen[t][i] = site_file_slot(shared, name, 1);
	}
	return NULL;
}

static void
test_slots(struct archive *a)
{
	pthread_t	 th[THREADS];
	struct slot	*x;
	struct blob	*b;
	size_t		 i, t, same = 0, distinct = 1;
	char		 name[32];

	shared = site_new(a, 0);
	OK(site_file_slot(shared, "files/a.txt", 0) == NULL,
	    "no slot before one is added");
	for (t = 0; t < THREADS; t++)
		OK(pthread_create(&th[t], NULL, adder, (void *)t) == 0,
		    "thread");
	for (t = 0; t < THREADS; t++)
		pthread_join(th[t], NULL);
	for (i = 0; i < NAMES; i++) {
		for (t = 1; t < THREADS; t++)
			same += seen[t][i] == seen[0][i];
		snprintf(name, sizeof(name), "files/%zu", i);
		if (site_file_slot(shared, name, 0) != seen[0][i])
			distinct = 0;
		if (i > 0 && seen[0][i] == seen[0][i - 1])
			distinct = 0;
	}
	INT_EQ(same, (size_t)NAMES * (THREADS - 1),
	    "every thread got the same slot for a name");
	OK(distinct, "a slot of its own per name, found again");
	x = site_file_slot(shared, "files/a.txt", 1);
	OK(x != NULL && x == site_file_slot(shared, "files/a.txt", 0),
	    "added, then found");

	/* The memory bound empties file slots as it does pages'. */
	shared->cache_max = 64 << 10;
	for (i = 0; i < 100; i++) {
		char		 buf[4096];

		memset(buf, 'a' + (int)(i % 26), sizeof(buf));
		b = site_cache_put(shared, seen[0][i], blob_new(buf,
		    sizeof(buf)));
		blob_unref(b);
	}
	OK(cache_bytes() <= (64 << 10), "held under the bound: %zu",
	    cache_bytes());
	b = cache_get(seen[0][99]);
	OK(b != NULL, "the newest kept");
	blob_unref(b);
	site_unref(shared);
}

static void
ask(struct site *s, enum surface proto, const char *path, int may_defer,
    struct response *r)
{
	struct router_req	 req = { proto, path, NULL, 0, NULL, NULL, 0 };

	response_init(r);
	r->may_defer = may_defer;
	router_handle(&cfg, s, &req, r);
}

/* path answers 20 with want from memory (a blob), not a descriptor. */
static void
kept(struct site *s, enum surface proto, const char *path, const char *want)
{
	struct response	 r;

	ask(s, proto, path, 0, &r);
	OK(r.status == 20 && r.fd == -1 && r.blob != NULL &&
	    r.bodylen == strlen(want) && memcmp(r.body, want,
	    r.bodylen) == 0, "%s: from memory, the file's bytes", path);
	response_free(&r);
}

static void
refused(struct site *s, const char *path)
{
	struct response	 r;

	ask(s, SURFACE_GEMINI, path, 0, &r);
	OK(r.status == 51 && r.blob == NULL && r.fd == -1,
	    "%s: not found (%d)", path, r.status);
	response_free(&r);
	ask(s, SURFACE_GEMINI, path, 0, &r);
	OK(r.status == 51, "%s: still not found once asked", path);
	response_free(&r);
}

/* As cfg is now, a small file streams from disk, even to a second ask. */
static void
streamed(struct archive *a, const char *what)
{
	struct site	*s = site_new(a, 0);
	struct response	 r;
	int		 i;

	for (i = 0; i < 2; i++) {
		ask(s, SURFACE_GEMINI, "/files/a.txt", 1, &r);
		OK(r.status == 20 && r.fd != -1 && r.blob == NULL &&
		    r.job == NULL, "%s: streamed from disk", what);
		response_free(&r);
	}
	site_unref(s);
}

static void
test_router(struct archive *a)
{
	struct site	*s = site_new(a, 0), *t;
	struct response	 r, r2;
	const void	*first;

	kept(s, SURFACE_GEMINI, "/files/a.txt", "small file\n");
	ask(s, SURFACE_GEMINI, "/files/a.txt", 0, &r);
	OK(strcmp(r.meta, "text/plain; charset=utf-8") == 0,
	    "typed by its extension: %s", r.meta);
	first = r.body;
	response_free(&r);
	kept(s, SURFACE_GOPHER, "/files/a.txt", "small file\n");
	INT_EQ(gopher_respond(&cfg, s, NULL, "/files/a.txt", 12, &r), 20,
	    "gopher: 20");
	OK(r.body == first && r.gopher_type == '0',
	    "gopher: the same bytes in memory");
	response_free(&r);

	/* Kept: the disk is not looked at again while this site lives. */
	test_put(top, "files/a.txt", "edited\n");
	kept(s, SURFACE_GEMINI, "/files/a.txt", "small file\n");
	t = site_new(a, 0);
	kept(t, SURFACE_GEMINI, "/files/a.txt", "edited\n");
	site_unref(t);

	/* A caller that can wait reads it on the pool: response_render(). */
	t = site_new(a, 0);
	ask(t, SURFACE_GEMINI, "/files/a.txt", 1, &r);
	OK(r.status == 20 && r.job != NULL && r.bodylen == 0 &&
	    strcmp(r.meta, "text/plain; charset=utf-8") == 0,
	    "deferred: a job, its META final");
	response_render(&r);
	OK(r.job == NULL && r.blob != NULL && r.bodylen == 7 &&
	    memcmp(r.body, "edited\n", 7) == 0, "read by the job");
	ask(t, SURFACE_GEMINI, "/files/a.txt", 1, &r2);
	OK(r2.job == NULL && r2.body == r.body, "then kept");
	response_free(&r2);
	response_free(&r);
	site_unref(t);

	/* A directory's index.gmi (Gemini) and a page bundle's file. */
	kept(s, SURFACE_GEMINI, "/files/sub/", "# Sub\n");
	kept(s, SURFACE_GEMINI, "/posts/b/pic.txt", "bundle bytes\n");

	/* Over file_cache_max: streamed, as long as it is. */
	ask(s, SURFACE_GEMINI, "/files/big.txt", 1, &r);
	OK(r.status == 20 && r.fd != -1 && r.filelen == 300 * 1024 - 1 &&
	    r.job == NULL && r.blob == NULL, "a large file streams");
	response_free(&r);

	/* Every refusal holds before anything is kept. */
	refused(s, "/files/.hidden");
	refused(s, "/files/orig.txt");
	refused(s, "/files/link.txt");
	refused(s, "/posts/b/sym.txt");
	refused(s, "/posts/b/index.md");
	OK(site_file_slot(s, "files/.hidden", 0) == NULL &&
	    site_file_slot(s, "files/link.txt", 0) == NULL &&
	    site_file_slot(s, "posts/2024-01-01-b/sym.txt", 0) == NULL,
	    "no slot for a refused file");
	cfg.files_hardlinks = 1;
	t = site_new(a, 0);
	kept(t, SURFACE_GEMINI, "/files/link.txt", "two names\n");
	site_unref(t);
	cfg.files_hardlinks = 0;
	site_unref(s);

	/* watch: false, or links out of the capsule: from disk each time. */
	cfg.watch = 0;
	streamed(a, "watch: false");
	cfg.watch = 1;
	cfg.follow_symlinks = CONFIG_LINKS_ANY;
	streamed(a, "follow_symlinks: any");
	cfg.follow_symlinks = CONFIG_LINKS_INSIDE;
	cfg.file_cache_max = 0;
	streamed(a, "file_cache_max: 0");
	cfg.file_cache_max = 256 << 10;
}

static const struct harness_test tests[] = {
	NAMED("slots"),
	NAMED("router"),
};

int
main(int argc, char **argv)
{
	struct archive	*a;
	size_t		 held;

	HARNESS_INIT(argc, argv, tests);

	log_set_level(LOG_LEVEL_ERROR);
	snprintf(top, sizeof(top), "/tmp/capsuled-sitefiles-XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	held = cache_bytes();
	if ((a = load()) == NULL) {
		OK(0, "archive_load");
		test_rm_tree(top);
		return harness_done();
	}
	RUN("slots", test_slots(a));
	RUN("router", test_router(a));
	INT_EQ(cache_bytes(), held, "every byte given back");
	archive_unref(a);
	test_rm_tree(top);
	return harness_done();
}
