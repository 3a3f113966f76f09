/*
 * test_archive_limits.c -- max_post_size and max_archive_size: a file
 * over the first is skipped with a warning; past the second, the rest
 * of the archive is skipped with one warning; a reload that reuses
 * unchanged files counts them the same; a huge sparse file is refused
 * without being read.  Never a crash.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "content/archive.h"
#include "core/config.h"
#include "harness.h"
#include "core/log.h"
#include "core/util.h"

static char	 top[] = "/tmp/capsuled-test-alim.XXXXXX";
static char	 capsule[128];

/* A post of about len bytes (front matter included). */
static void
post(const char *name, size_t len)
{
	char	*path;
	FILE	*f;
	size_t	 i, n;

	path = xasprintf("%s/posts/%s", capsule, name);
	if ((f = fopen(path, "w")) == NULL) {
		perror(path);
		exit(2);
	}
	n = (size_t)fprintf(f, "---\ntitle: %s\n---\n", name);
	for (i = n; i + 1 < len; i++)
		fputc(i % 64 == 63 ? '\n' : 'a' + (int)(i % 26), f);
	fputc('\n', f);
	fclose(f);
	free(path);
}

static void
config_for(struct config *c)
{
	memset(c, 0, sizeof(*c));
	c->capsule_dir = capsule;
	c->site_title = "t";
	c->lang = "en";
	c->hostname = "localhost";
}

static void
test_post_size(void)
{
	struct config	 c;
	struct archive	*a;

	config_for(&c);
	c.max_post_size = 2000;
	c.max_archive_size = 1 << 20;
	a = archive_load(&c);
	OK(a != NULL, "loads");
	if (a == NULL)
		return;
	INT_EQ(a->nposts, 5, "four small posts and the page-sized one");
	INT_EQ(a->nskipped, 1, "the 3000-byte post skipped");
	OK(archive_post(a, "big") == NULL, "big is not served");
	OK(archive_post(a, "p1") != NULL, "p1 is");
	archive_unref(a);

	c.max_post_size = 0;		/* unset: the 8 MiB default */
	a = archive_load(&c);
	INT_EQ(a->nposts, 6, "default: every post");
	archive_unref(a);
}

static void
test_archive_size(void)
{
	struct config	 c;
	struct archive	*a, *b;

	config_for(&c);
	c.max_post_size = 4000;
	c.max_archive_size = 5000;	/* room for three 1500-byte posts */
	a = archive_load(&c);
	OK(a != NULL, "loads over the limit");
	if (a == NULL)
		return;
	/* Sorted by name: p1, p2, p3 fit; p4, p5, "big" do not. */
	INT_EQ(a->nposts, 3, "three posts fit");
	INT_EQ(a->nskipped, 4, "the rest skipped (3 posts and the page)");
	INT_EQ(a->ndocs, 0, "pages come after posts: skipped too");
	OK(archive_post(a, "p3") != NULL, "p3 in");
	OK(archive_post(a, "p4") == NULL, "p4 out");

	/* A reload reuses unchanged files: they still count. */
	b = archive_reload(&c, a);
	INT_EQ(b->nposts, 3, "reload: the same three");
	INT_EQ(b->nskipped, 4, "reload: the same skipped");
	archive_unref(b);
	archive_unref(a);
}

static void
test_sparse(void)
{
	struct config	 c;
	struct archive	*a;
	char		*path;
	int		 fd;

	path = xasprintf("%s/posts/zz-sparse.md", capsule);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	OK(fd != -1 && ftruncate(fd, (off_t)4 << 30) == 0,
	    "a 4 GiB sparse file");
	if (fd != -1)
		close(fd);
	config_for(&c);
	c.max_post_size = (size_t)1 << 30;
	c.max_archive_size = (size_t)2 << 30;
	a = archive_load(&c);
	OK(a != NULL && archive_post(a, "zz-sparse") == NULL,
	    "refused by max_post_size without reading it");
	INT_EQ(a ? a->nposts : 0, 6, "the rest loads");
	archive_unref(a);
	c.max_post_size = (size_t)8 << 30;	/* beyond the config's range */
	a = archive_load(&c);
	OK(a != NULL && archive_post(a, "zz-sparse") == NULL,
	    "refused by max_archive_size without reading it");
	archive_unref(a);
	unlink(path);
	free(path);
}

static const struct harness_test tests[] = {
	TEST(test_post_size),
	TEST(test_archive_size),
	TEST(test_sparse),
};

int
main(int argc, char **argv)
{
	char	*cmd, *dir;
	int	 i;

	HARNESS_INIT(argc, argv, tests);

	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	log_open(NULL, LOG_LEVEL_ERROR);
	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	mkdir(capsule, 0755);
	dir = xasprintf("%s/posts", capsule);
	mkdir(dir, 0755);
	free(dir);
	dir = xasprintf("%s/pages", capsule);
	mkdir(dir, 0755);
	free(dir);
	for (i = 1; i <= 5; i++) {
		char name[48];

		snprintf(name, sizeof(name), "2024-01-0%d-p%d.md", i, i);
		post(name, 1500);
	}
	post("2024-02-01-big.md", 3000);
	cmd = xasprintf("%s/pages/about.md", capsule);
	{
		FILE *f = fopen(cmd, "w");

		fputs("# About\n", f);
		fclose(f);
	}
	free(cmd);

	harness_run();

	cmd = xasprintf("rm -rf '%s'", top);
	(void)!system(cmd);
	free(cmd);
	return harness_done();
}
