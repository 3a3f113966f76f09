/*
 * test_bundle.c -- page bundles in the archive: posts/<folder>/index.md
 * (or index.gmi) is a post named and dated by its folder, and links in
 * it to the folder's files resolve to where they are served
 * (content/links.c); a change of the folder's files rewrites its
 * shortcodes in the next snapshot.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "content/archive.h"
#include "content/links.h"
#include "core/config.h"
#include "core/log.h"
#include "files.h"
#include "markdown/scan.h"
#include "harness.h"

static char	 top[64];

/* A configuration for the capsule in dir (borrowed). */
static void
config_at(struct config *c, char *dir)
{
	memset(c, 0, sizeof(*c));
	c->capsule_dir = dir;
	c->site_title = "Site";
	c->lang = "en";
	c->hostname = "localhost";
}

static struct archive *
load(void)
{
	struct config	 c;
	char		 path[256];

	test_mkdir(top, "posts");
	test_mkdir(top, "posts/2024-01-05-trip");
	test_put(top, "posts/2024-01-05-trip/index.md", "---\ntags: [travel]\n"
	    "---\n# The trip\n\n![map](map.png) and ![deep](img/a%20b.png)\n"
	    "[note](notes.md), [other](../2024-02-01-notes/), "
	    "[gmi](../2024-03-01-gem/index.gmi), [up](../2024-01-01-x.md)\n");
	test_put(top, "posts/2024-01-05-trip/map.png", "PNG");
	test_mkdir(top, "posts/2024-02-01-notes");
	test_put(top, "posts/2024-02-01-notes/index.md", "---\n"
	    "slug: Field Notes\ntitle: Notes\n---\nBody.\n");
	test_mkdir(top, "posts/2024-03-01-gem");
	test_put(top, "posts/2024-03-01-gem/index.gmi", "# Gemtext bundle\n"
	    "=> photo.jpg A photo\n=> ../2024-01-05-trip/ The trip\n");
	test_put(top, "posts/2024-01-01-x.md", "# X\n");
	test_put(top, "posts/2024-01-01-notes.md", "# Single notes\n");
	test_mkdir(top, "posts/2024-04-01-empty");	/* no index: no post */
	test_put(top, "posts/2024-04-01-empty/a.png", "PNG");
	test_mkdir(top, "posts/.2024-05-01-hidden");
	test_put(top, "posts/.2024-05-01-hidden/index.md", "# Hidden\n");
	test_mkdir(top, "elsewhere");
	test_put(top, "elsewhere/index.md", "---\ndate: 2024-06-01\n---\n"
	    "# Linked\n");
	snprintf(path, sizeof(path), "%s/posts/2024-06-01-linked", top);
	if (symlink("../elsewhere", path) == -1) {
		perror(path);
		exit(2);
	}
	config_at(&c, top);
	return archive_load(&c);
}

static void
resolves(const struct archive *a, const char *from, const char *url,
    const char *want)
{
	char	*got = links_resolve(a, from, url);

	if (want == NULL)
		OK(got == NULL, "%s in %s: left as written, got %s", url, from,
		    got ? got : "");
	else
		STR_EQ(got ? got : "(null)", want, url);
	free(got);
}

/*
 * A bundle's shortcodes read its folder's file list: an image added
 * to or removed from the folder, index.md untouched, makes the next
 * snapshot rewrite the post again, even from a record it trusts.
 */
static void
test_reload(void)
{
	struct timespec	 ts = { 2, 200 * 1000000L };
	struct config	 c;
	struct archive	*a1, *a2, *a3;
	struct post	*p;
	char		 dir[128], path[256];

	snprintf(dir, sizeof(dir), "%s/reload", top);
	test_put(dir, "posts/2024-07-01-album/index.md", "# Album\n\n"
	    "{{< gallery match=\"img/*\" >}}\n");
	test_put(dir, "posts/2024-07-01-album/img/a.png", "PNG");
	config_at(&c, dir);
	nanosleep(&ts, NULL);		/* past the racy window: trusted */
	a1 = archive_load(&c);
	p = a1 != NULL ? archive_post(a1, "album") : NULL;
	OK(p != NULL && strstr(p->src, "img/a.png") != NULL &&
	    strstr(p->src, "img/b.png") == NULL, "the gallery shows a.png");
	a2 = archive_reload(&c, a1);
	INT_EQ(a2 != NULL ? (long)a2->nread : -1, 0, "unchanged: the record reused");
	test_put(dir, "posts/2024-07-01-album/img/b.png", "PNG");
	snprintf(path, sizeof(path), "%s/posts/2024-07-01-album/img/a.png",
	    dir);
	unlink(path);
	a3 = archive_reload(&c, a2);
	p = a3 != NULL ? archive_post(a3, "album") : NULL;
	OK(p != NULL && strstr(p->src, "img/b.png") != NULL &&
	    strstr(p->src, "img/a.png") == NULL,
	    "a file added and one removed: the gallery follows");
	INT_EQ(a3 != NULL ? (long)a3->nread : -1, 1, "index.md read again");
	archive_unref(a1);
	archive_unref(a2);
	archive_unref(a3);
}

/*
 * A bundle's shortcodes are shown the files the server would serve of
 * its folder, no more (content/files.c): not a second hard link to a
 * file, unless files_hardlinks; in a user capsule, not a file group or
 * others may write.  Otherwise a gallery links what answers 51.
 */
static void
test_served_only(void)
{
	struct config	 c;
	struct archive	*a;
	struct post	*p;
	char		 dir[128], from[256], to[256], **names;
	size_t		 n;

	snprintf(dir, sizeof(dir), "%s/served", top);
	test_put(dir, "posts/2024-08-01-album/index.md", "# Album\n\n"
	    "{{< gallery match=\"img/*\" >}}\n");
	test_put(dir, "posts/2024-08-01-album/img/a.png", "PNG");
	test_put(dir, "elsewhere.png", "PNG");
	snprintf(from, sizeof(from), "%s/elsewhere.png", dir);
	snprintf(to, sizeof(to), "%s/posts/2024-08-01-album/img/linked.png",
	    dir);
	if (link(from, to) == -1) {
		perror(to);
		exit(2);
	}
	config_at(&c, dir);
	a = archive_load(&c);
	p = a != NULL ? archive_post(a, "album") : NULL;
	OK(p != NULL && strstr(p->src, "img/a.png") != NULL &&
	    strstr(p->src, "img/linked.png") == NULL,
	    "a second hard link is not offered: %s", p ? p->src : "");
	archive_unref(a);
	c.files_hardlinks = 1;
	a = archive_load(&c);
	p = a != NULL ? archive_post(a, "album") : NULL;
	OK(p != NULL && strstr(p->src, "img/linked.png") != NULL,
	    "with files_hardlinks it is");
	archive_unref(a);

	snprintf(to, sizeof(to), "%s/posts/2024-08-01-album", dir);
	n = archive_bundle_names(to, false, &names);
	OK(n == 1 && strcmp(names[0], "img/a.png") == 0,
	    "--render's list by the same rule: %zu", n);
	archive_bundle_names_free(names, n);

	/* A user capsule: a file others may write is not served. */
	snprintf(to, sizeof(to), "%s/posts/2024-08-01-album/img/w.png", dir);
	test_write_mode(to, 0666, "PNG", 3);
	if (chmod(to, 0666) == -1)
		perror(to);
	c.files_hardlinks = 1;
	c.owned = 1;
	c.owner_uid = getuid();
	a = archive_load(&c);
	p = a != NULL ? archive_post(a, "album") : NULL;
	OK(p != NULL && strstr(p->src, "img/a.png") != NULL &&
	    strstr(p->src, "img/w.png") == NULL,
	    "a user capsule: a file not the owner's alone is not offered");
	archive_unref(a);
}

static const struct harness_test tests[] = {
	NAMED("bundle"),
	NAMED("reload"),
	TEST(test_served_only),
};

int
main(int argc, char **argv)
{
	struct archive	*a;
	struct post	*p;

	HARNESS_INIT(argc, argv, tests);

	log_set_level(LOG_LEVEL_ERROR);
	snprintf(top, sizeof(top), "/tmp/capsuled-bundle-XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	if ((a = load()) == NULL) {
		OK(0, "archive_load");
		test_rm_tree(top);
		return harness_done();
	}
	INT_EQ(a->nposts, 5, "three bundles and two files; no empty, hidden "
	    "or linked folder");
	p = archive_post(a, "trip");
	OK(p != NULL && p->bundle && !p->gemtext &&
	    strcmp(p->path, "posts/2024-01-05-trip/index.md") == 0 &&
	    strcmp(p->date.ymd, "2024-01-05") == 0 &&
	    strcmp(p->title, "The trip") == 0 && p->ntags == 1,
	    "slug and date from the folder, the rest as any post");
	p = archive_post(a, "field-notes");
	OK(p != NULL && p->bundle && strcmp(p->title, "Notes") == 0,
	    "front matter's slug wins over the folder");
	OK(archive_post(a, "notes") != NULL &&
	    !archive_post(a, "notes")->bundle,
	    "a single file keeps the folder's name free for itself");
	p = archive_post(a, "gem");
	OK(p != NULL && p->bundle && p->gemtext &&
	    strcmp(p->title, "Gemtext bundle") == 0, "an index.gmi bundle");
	OK(archive_post(a, "empty") == NULL && archive_post(a, "linked") ==
	    NULL && archive_post(a, "hidden") == NULL,
	    "no index, a link, a hidden folder: no post");

	resolves(a, "posts/2024-01-05-trip/index.md", "map.png",
	    "/posts/trip/map.png");
	resolves(a, "posts/2024-01-05-trip/index.md", "img/a%20b.png",
	    "/posts/trip/img/a b.png");
	resolves(a, "posts/2024-01-05-trip/index.md", "./map.png?x#y",
	    "/posts/trip/map.png");
	resolves(a, "posts/2024-01-05-trip/index.md", "notes.md",
	    "/posts/notes");
	resolves(a, "posts/2024-01-05-trip/index.md", "../2024-02-01-notes/",
	    "/posts/field-notes");
	resolves(a, "posts/2024-01-05-trip/index.md",
	    "../2024-03-01-gem/index.gmi", "/posts/gem");
	resolves(a, "posts/2024-01-05-trip/index.md", "../2024-01-01-x.md",
	    "/posts/x");
	resolves(a, "posts/2024-03-01-gem/index.gmi", "photo.jpg",
	    "/posts/gem/photo.jpg");
	resolves(a, "posts/2024-01-01-x.md", "2024-01-05-trip/map.png",
	    "/posts/trip/map.png");
	resolves(a, "posts/2024-01-01-x.md", "/posts/2024-01-05-trip/index.md",
	    "/posts/trip");
	/* A file beside a single-file post is its post's, as a bundle's. */
	resolves(a, "posts/2024-01-01-x.md", "2024-04-01-empty/a.png",
	    "/posts/x/2024-04-01-empty/a.png");
	/* A relative link to no file: text, and said (links_check()). */
	resolves(a, "posts/2024-01-01-x.md", "2024-04-01-empty/b.png", "");
	resolves(a, "posts/2024-01-01-x.md", "2024-01-05-trip/nothing.png",
	    "/posts/trip/nothing.png");
	resolves(a, "posts/2024-01-05-trip/index.md", "https://a.example/x.png",
	    NULL);
	/*
	 * Every link names a post, but the two images that are in no
	 * bundle's folder ("img/a%20b.png", "photo.jpg"): relative links
	 * are checked too.
	 */
	INT_EQ(links_check(a), 2, "every link names a post or a file");
	OK(links_report(a, "posts/2024-01-01-x.md", (const struct scan_link[])
	    { { "/posts/trip/map.png", 1, 1 }, { "/posts/x/map.png", 2, 1 },
	    { "/posts/nope/map.png", 3, 1 } }, 3) == 2,
	    "a bundle's file by its path is found; not under another post");
	archive_unref(a);
	RUN("reload", test_reload());
	harness_run();
	test_rm_tree(top);
	return harness_done();
}
