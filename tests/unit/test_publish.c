/*
 * test_publish.c -- content/publish.c: what a Titan upload does to the
 * capsule: upload checks, the file a slug names, atomic writes (also
 * under concurrent writers), the owner kept, and the trash.  The
 * request line is test_titan.c's.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "content/archive.h"
#include "content/publish.h"
#include "core/buf.h"
#include "core/config.h"
#include "harness.h"
#include "core/log.h"
#include "core/util.h"
#include "files.h"

static char	 top[64];

static int
check(const char *data, const char *slug, const char *name, int *draft,
    char *why)
{
	return publish_check(data, strlen(data), slug, name, draft, why, 200);
}

static void
test_check(void)
{
	char	 why[200];
	int	 draft;

	OK(check("---\ntitle: Hi\ndate: 2024-05-01\n---\nBody\n", "hi",
	    "hi.md", &draft, why) == 0 && !draft, "good upload");
	OK(check("No front matter at all.\n", "hi", "2024-01-02-hi.md",
	    &draft, why) == 0, "dated file name is a date");
	OK(check("No front matter at all.\n", "hi", "hi.md", &draft, why) ==
	    -1, "no date");
	HAS(why, "date", "says date");
	OK(check("---\ntitle: x\ndraft: true\n---\n", "hi", "hi.md", &draft,
	    why) == 0 && draft, "an undated draft is fine");
	OK(check("---\ntitle: [unclosed\n---\nx\n", "hi", "hi.md", &draft,
	    why) == -1, "bad front matter");
	HAS(why, "front matter, line", "says where");
	OK(check("---\ndate: 2024-01-01\nslug: other\n---\n", "hi", "hi.md",
	    &draft, why) == -1, "slug mismatch");
	OK(check("---\ndate: 2024-01-01\nslug: Hi\n---\n", "hi", "hi.md",
	    &draft, why) == 0, "slug as written, slugified");
	OK(check("---\ndate: 2024-01-01\n---\n", "hi", "old-name.md", &draft,
	    why) == -1, "file keeps a slug from its front matter");
	HAS(why, "slug: hi", "says what to keep");
	OK(publish_check("---\ndate: 2024-01-01\n---\na\0b", 28, "hi", "hi.md",
	    &draft, why, sizeof(why)) == -1, "NUL");
	OK(check("---\ndate: 2024-01-01\n---\n\xff\xfe", "hi", "hi.md", &draft,
	    why) == -1, "bad UTF-8");
	HAS(why, "UTF-8", "says UTF-8");
}

/* The bytes of the first file in dir whose name starts with prefix. */
static char *
slurp_prefix(const char *dir, const char *prefix)
{
	DIR		*d;
	struct dirent	*e;
	char		*path, *got = NULL;

	if ((d = opendir(dir)) == NULL)
		return NULL;
	while (got == NULL && (e = readdir(d)) != NULL)
		if (strncmp(e->d_name, prefix, strlen(prefix)) == 0) {
			path = xasprintf("%s/%s", dir, e->d_name);
			got = test_read(path, NULL);
			free(path);
		}
	closedir(d);
	return got;
}

/* Files in dir whose names start with prefix. */
static int
count_prefix(const char *dir, const char *prefix)
{
	DIR		*d;
	struct dirent	*e;
	int		 n = 0;

	if ((d = opendir(dir)) == NULL)
		return -1;
	while ((e = readdir(d)) != NULL)
		if (strncmp(e->d_name, prefix, strlen(prefix)) == 0)
			n++;
	closedir(d);
	return n;
}

struct racer {
	const char	*capsule;
	char		 body[8192];
	int		 rv;
};

static void *
race(void *arg)
{
	struct racer	*r = arg;
	char		 why[200];
	int		 i;

	r->rv = 0;
	for (i = 0; i < 20; i++)
		if (publish_store(r->capsule, "race.md", "race", r->body,
		    strlen(r->body), why, sizeof(why)) == -1)
			r->rv = -1;
	return NULL;
}

static void
test_store(void)
{
	struct racer	 rc[4];
	pthread_t	 th[4];
	struct stat	 st;
	char		*capsule, *posts, *path, *got, *trash, why[200];
	int		 i, whole;

	capsule = xasprintf("%s/capsule", top);
	posts = xasprintf("%s/posts", capsule);
	mkdir(capsule, 0755);

	/* posts/ is made when missing. */
	OK(publish_store(capsule, "new.md", "new", "one\n", 4, why,
	    sizeof(why)) == 0, "store: %s", why);
	path = xasprintf("%s/new.md", posts);
	got = test_read(path, NULL);
	STR_EQ(got, "one\n", "written");
	free(got);
	chmod(path, 0600);
	OK(publish_store(capsule, "new.md", "new", "two, longer\n", 12, why,
	    sizeof(why)) == 0, "overwrite");
	got = test_read(path, NULL);
	STR_EQ(got, "two, longer\n", "replaced whole");
	free(got);
	OK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600,
	    "mode kept");
	trash = xasprintf("%s/.trash", capsule);
	got = slurp_prefix(trash, "new.md.20");
	STR_EQ(got, "one\n", "the replaced bytes kept in .trash/, time-stamped");
	free(got);
	INT_EQ(count_prefix(posts, ".titan-"), 0, "no temporary file left");
	OK(publish_store(capsule, "../x.md", "x", "x", 1, why, sizeof(why)) ==
	    -1,
	    "no path out of posts/");
	OK(publish_store(capsule, ".hidden.md", "hidden", "x", 1, why,
	    sizeof(why)) == -1,
	    "no hidden name");
	OK(publish_store("/nonexistent/capsule", "a.md", "a", "x", 1, why,
	    sizeof(why)) == -1 && why[0] != '\0', "no capsule: why");

	/* Concurrent writers of one post: each write whole, one wins. */
	for (i = 0; i < 4; i++) {
		rc[i].capsule = capsule;
		memset(rc[i].body, 'a' + i, sizeof(rc[i].body) - 1);
		rc[i].body[sizeof(rc[i].body) - 1] = '\0';
		pthread_create(&th[i], NULL, race, &rc[i]);
	}
	for (i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	for (i = 0; i < 4; i++)
		INT_EQ(rc[i].rv, 0, "racer stored");
	free(path);
	path = xasprintf("%s/race.md", posts);
	got = test_read(path, NULL);
	for (i = 0, whole = 0; got != NULL && i < 4; i++)
		if (strcmp(got, rc[i].body) == 0)
			whole = 1;
	OK(whole, "the post is one writer's bytes, whole");
	free(got);
	INT_EQ(count_prefix(posts, ".titan-"), 0, "no temporary file left");

	/* Delete: into .trash/, twice with the same name, never lost. */
	OK(publish_trash(capsule, "new.md", "new", why, sizeof(why)) == 0,
	    "trash");
	OK(access(path, F_OK) == 0, "other posts stay");
	free(path);
	path = xasprintf("%s/new.md", posts);
	OK(access(path, F_OK) == -1, "gone from posts/");
	free(path);
	path = xasprintf("%s/.trash", capsule);
	INT_EQ(count_prefix(path, "new.md."), 2,
	    "in .trash/, beside the bytes the overwrite replaced");
	OK(publish_store(capsule, "new.md", "new", "three\n", 6, why,
	    sizeof(why)) == 0 && publish_trash(capsule, "new.md", "new", why,
	    sizeof(why)) == 0,
	    "again");
	INT_EQ(count_prefix(path, "new.md."), 3, "all kept in .trash/");
	INT_EQ(publish_trash(capsule, "new.md", "new", why, sizeof(why)),
	    PUBLISH_NONE, "absent");
	free(path);
	free(trash);
	free(posts);
	free(capsule);
}

/*
 * A file name is no slug: posts/foo2.md holding "slug: bar" is bar's,
 * and an upload or delete of foo2 never touches it.
 */
static void
test_owner(void)
{
	static const char bar[] = "---\ndate: 2024-01-01\nslug: bar\n---\n"
	    "The bar post.\n";
	char	*capsule, *posts, *path, *trash, *got, why[300];

	capsule = xasprintf("%s/owner", top);
	posts = xasprintf("%s/posts", capsule);
	trash = xasprintf("%s/.trash", capsule);
	path = xasprintf("%s/foo2.md", posts);
	mkdir(capsule, 0755);
	mkdir(posts, 0755);
	test_put(posts, "foo2.md", bar);
	INT_EQ(publish_store(capsule, "foo2.md", "foo2", "---\ndate: "
	    "2024-02-02\n---\nfoo2\n", 25, why, sizeof(why)), PUBLISH_TAKEN,
	    "another post's file: taken");
	HAS(why, "slug \"bar\"", "says whose");
	got = test_read(path, NULL);
	STR_EQ(got, bar, "left as it was");
	free(got);
	INT_EQ(count_prefix(posts, ".titan-"), 0, "no temporary file left");
	INT_EQ(publish_trash(capsule, "foo2.md", "foo2", why, sizeof(why)),
	    PUBLISH_TAKEN, "delete: taken");
	got = test_read(path, NULL);
	STR_EQ(got, bar, "still there");
	free(got);
	OK(access(trash, F_OK) == -1, "nothing in .trash/");

	/* bar itself may be written there, the old bytes kept. */
	OK(publish_store(capsule, "foo2.md", "bar", "---\ndate: 2024-01-01\n"
	    "slug: bar\n---\nNew bar.\n", 40, why, sizeof(why)) == 0,
	    "its own post: written (%s)", why);
	got = slurp_prefix(trash, "foo2.md.20");
	STR_EQ(got, bar, "the old bar kept in .trash/");
	free(got);

	/* A file whose front matter is broken is the name's. */
	free(path);
	path = xasprintf("%s/broken.md", posts);
	test_put(posts, "broken.md", "---\ntitle: [\n---\n");
	OK(publish_store(capsule, "broken.md", "broken", "fixed\n", 6, why,
	    sizeof(why)) == 0, "a broken file is replaced (%s)", why);
	got = slurp_prefix(trash, "broken.md.20");
	STR_EQ(got, "---\ntitle: [\n---\n", "and kept");
	free(got);

	/* Not a regular file: never. */
	free(path);
	path = xasprintf("%s/dir.md", posts);
	mkdir(path, 0755);
	INT_EQ(publish_store(capsule, "dir.md", "dir", "x\n", 2, why,
	    sizeof(why)), PUBLISH_TAKEN, "a directory: taken");
	free(path);
	free(trash);
	free(posts);
	free(capsule);
}

static void
test_target(void)
{
	struct config	 c;
	struct archive	*a;
	char		*capsule, name[256];

	capsule = xasprintf("%s/t", top);
	mkdir(capsule, 0755);
	{
		char *d = xasprintf("%s/posts", capsule);
		FILE *f;
		char *p;

		mkdir(d, 0755);
		p = xasprintf("%s/2024-01-02-dated.md", d);
		f = fopen(p, "w");
		fputs("Body.\n", f);
		fclose(f);
		free(p);
		p = xasprintf("%s/odd-name.md", d);
		f = fopen(p, "w");
		fputs("---\ndate: 2024-01-01\nslug: nice\n---\n", f);
		fclose(f);
		free(p);
		p = xasprintf("%s/wip.md", d);
		f = fopen(p, "w");
		fputs("---\ndraft: true\n---\n", f);
		fclose(f);
		free(p);
		free(d);
		/* A bundle, a post in a folder and a gemtext one. */
		test_put(capsule, "posts/2024/trip/index.md",
		    "---\ndate: 2024-03-02\n---\nTrip.\n");
		test_put(capsule, "posts/2019/deep.md",
		    "---\ndate: 2019-01-01\n---\nDeep.\n");
		test_put(capsule, "posts/kept-in-gemtext.gmi",
		    "---\ndate: 2024-01-01\n---\n# Gemtext\n");
	}
	config_defaults(&c, "/nonexistent");
	free(c.capsule_dir);
	c.capsule_dir = xstrdup(capsule);
	a = archive_load(&c);
	OK(a != NULL, "load");
	publish_target(a, "dated", 0, name, sizeof(name));
	STR_EQ(name, "2024-01-02-dated.md", "dated name kept");
	publish_target(a, "nice", 0, name, sizeof(name));
	STR_EQ(name, "odd-name.md", "front-matter slug's file");
	publish_target(a, "wip", 0, name, sizeof(name));
	STR_EQ(name, "wip.md", "a draft's file");
	publish_target(a, "brand-new", 0, name, sizeof(name));
	STR_EQ(name, "brand-new.md", "a new post");
	publish_target(NULL, "x", 0, name, sizeof(name));
	STR_EQ(name, "x.md", "no snapshot");
	publish_target(a, "trip", 0, name, sizeof(name));
	STR_EQ(name, "2024/trip/index.md", "a bundle's index, at depth");
	publish_target(a, "deep", 0, name, sizeof(name));
	STR_EQ(name, "2019/deep.md", "a post in a folder");
	publish_target(a, "kept-in-gemtext", 0, name, sizeof(name));
	STR_EQ(name, "kept-in-gemtext.gmi", "a gemtext post keeps .gmi");
	publish_target(a, "brand-new", 1, name, sizeof(name));
	STR_EQ(name, "brand-new.gmi", "a new gemtext post");
	archive_unref(a);
	config_free(&c);
	free(capsule);
}

/*
 * Posts beneath posts/: a bundle's index is replaced in its folder, a
 * delete moves the whole bundle to .trash/ (flat names), a gemtext
 * post is its own slug's, and no part of a name leaves posts/.
 */
static void
test_nested(void)
{
	static const char trip[] = "---\ndate: 2024-03-02\n---\nTrip.\n";
	static const char edited[] = "---\ndate: 2024-03-02\n---\nEdited.\n";
	static const char gmi[] = "---\ndate: 2024-01-01\n---\n# New\n";
	char	*capsule, *path, *got, *trash, why[200];

	capsule = xasprintf("%s/nested", top);
	mkdir(capsule, 0755);
	test_put(capsule, "posts/2024/trip/index.md", trip);
	test_put(capsule, "posts/2024/trip/img/a.png", "PNG");
	test_put(capsule, "posts/kept.gmi", "---\ndate: 2024-01-01\n---\n"
	    "# Gemtext\n");
	trash = xasprintf("%s/.trash", capsule);

	OK(publish_store(capsule, "2024/trip/index.md", "trip", edited,
	    strlen(edited), why, sizeof(why)) == 0,
	    "bundle: %s", why);
	path = xasprintf("%s/posts/2024/trip/index.md", capsule);
	got = test_read(path, NULL);
	STR_EQ(got, edited, "the bundle's index replaced in place");
	free(got);
	free(path);
	got = slurp_prefix(trash, "2024_trip_index.md.20");
	STR_EQ(got, trip, "its old bytes in .trash/, flat");
	free(got);
	INT_EQ(publish_store(capsule, "2024/trip/index.md", "other", "x", 1,
	    why, sizeof(why)), PUBLISH_TAKEN, "another slug: taken");
	HAS(why, "slug \"trip\"", "names the bundle's slug");

	INT_EQ(publish_store(capsule, "kept.gmi", "kept-gmi", "x", 1, why,
	    sizeof(why)), PUBLISH_TAKEN, "no .gmi in a gemtext slug");
	HAS(why, "slug \"kept\"", "the refusal names the real slug");
	OK(publish_store(capsule, "kept.gmi", "kept", gmi, strlen(gmi), why,
	    sizeof(why)) == 0,
	    "gemtext replaced: %s", why);

	INT_EQ(publish_trash(capsule, "2024/trip/index.md", "nope", why,
	    sizeof(why)), PUBLISH_TAKEN, "another slug: not trashed");
	OK(publish_trash(capsule, "2024/trip/index.md", "trip", why,
	    sizeof(why)) == 0, "bundle trashed: %s", why);
	path = xasprintf("%s/posts/2024/trip", capsule);
	OK(access(path, F_OK) == -1, "the bundle's folder is gone");
	free(path);
	path = xasprintf("%s/posts/2024", capsule);
	OK(access(path, F_OK) == 0, "its parent stays");
	free(path);
	INT_EQ(count_prefix(trash, "2024_trip.20"), 1, "the folder in .trash/");
	INT_EQ(publish_trash(capsule, "2024/trip/index.md", "trip", why,
	    sizeof(why)), PUBLISH_NONE, "then absent");
	OK(publish_trash(capsule, "kept.gmi", "kept", why, sizeof(why)) == 0,
	    "gemtext trashed");

	OK(publish_store(capsule, "2024/../x.md", "x", "x", 1, why,
	    sizeof(why)) == -1, "no .. part");
	OK(publish_store(capsule, "2024//x.md", "x", "x", 1, why,
	    sizeof(why)) == -1, "no empty part");
	OK(publish_store(capsule, "2024/.x/index.md", "x", "x", 1, why,
	    sizeof(why)) == -1, "no hidden part");
	OK(publish_store(capsule, "nowhere/x.md", "x", gmi, strlen(gmi), why,
	    sizeof(why)) == -1,
	    "no folder made beneath posts/");
	free(trash);
	free(capsule);
}

static const struct harness_test tests[] = {
	TEST(test_check),
	TEST(test_store),
	TEST(test_owner),
	TEST(test_target),
	TEST(test_nested),
};

int
main(int argc, char **argv)
{
	char	*cmd;

	HARNESS_INIT(argc, argv, tests);

	log_set_level(LOG_LEVEL_ERROR);
	snprintf(top, sizeof(top), "/tmp/capsuled-titan-XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	harness_run();
	cmd = xasprintf("rm -rf '%s'", top);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", top);
	free(cmd);
	return harness_done();
}
