/*
 * test_links_log.c -- what the link check (content/links.c) writes to
 * the log: at most LINKS_WARN_MAX warnings per file and a total, each
 * once (archive_say()): not again by every snapshot that reads the same
 * file (reused, or touched and read again), again when its file's bytes
 * change, and a line that is new when another file comes or goes.
 */
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "content/archive.h"
#include "content/links.h"
#include "core/buf.h"
#include "core/config.h"
#include "core/log.h"
#include "core/util.h"
#include "files.h"
#include "harness.h"

static char	 top[64];
static char	 logpath[128];

static void
config_for(struct config *c, const char *dir)
{
	memset(c, 0, sizeof(*c));
	c->capsule_dir = (char *)dir;
	c->site_title = "Config title";
	c->lang = "en";
	c->hostname = "localhost";
}

/* Lines of the log so far that have needle. */
static int
logged(const char *needle)
{
	return test_count_lines(logpath, needle);
}

/* A post with n links to posts that are not there (to's). */
static void
dead_links(const char *dir, const char *rel, int n, const char *title,
    const char *to)
{
	struct buf	 b;
	int		 i;

	buf_init(&b);
	buf_printf(&b, "---\ntitle: %s\n---\n\n", title);
	for (i = 0; i < n; i++)
		buf_printf(&b, "See [%d](%s-%d.md).\n\n", i, to, i);
	test_put(dir, rel, b.data);
	buf_free(&b);
}

static void
test_capped_once(void)
{
	struct config	 c;
	struct archive	*a1, *a2, *a3, *a4;
	char		*dir;
	int		 la, lb, lmore;

	dir = xasprintf("%s/capsule", top);
	test_mkdir(top, "capsule");
	test_mkdir(dir, "posts");
	dead_links(dir, "posts/2024-01-01-a.md", LINKS_WARN_MAX + 10, "A", "missing");
	dead_links(dir, "posts/2024-01-02-b.md", 1, "B", "gone");
	/*
	 * Aged, so that the next snapshots reuse the records (a file
	 * changed in the last two seconds is read again: record.c).
	 */
	usleep(2100 * 1000);
	config_for(&c, dir);
	a1 = archive_load(&c);
	OK(a1 != NULL, "load");
	if (a1 == NULL)
		return;
	INT_EQ(links_check(a1), LINKS_WARN_MAX + 11, "every dead link counted");
	la = logged("posts/2024-01-01-a.md:");
	lb = logged("posts/2024-01-02-b.md:");
	lmore = logged("... and 10 more links that name nothing (30 in all)");
	INT_EQ(la, LINKS_WARN_MAX + 1, "a: the first 20 logged, then the "
	    "total");
	INT_EQ(lmore, 1, "the total line");
	INT_EQ(lb, 1, "b: its one");

	/* Nothing changed: counted again, logged no more. */
	a2 = archive_reload(&c, a1);
	INT_EQ(links_check(a2), LINKS_WARN_MAX + 11, "still counted");
	INT_EQ(a2->nwarnings >= LINKS_WARN_MAX + 11, 1, "in the warnings");
	INT_EQ(logged("posts/2024-01-01-a.md:"), la, "a: not logged again");
	INT_EQ(logged("posts/2024-01-02-b.md:"), lb, "b: not logged again");

	/*
	 * A post a names appears: what a says is new only past the cap
	 * (missing-20 now shown) and in its total; the rest was said.
	 */
	test_put(dir, "posts/2024-01-03-missing-0.md", "---\ntitle: M\n---\n"
	    "Here.\n");
	a3 = archive_reload(&c, a2);
	INT_EQ(links_check(a3), LINKS_WARN_MAX + 10, "one fewer");
	INT_EQ(logged("posts/2024-01-01-a.md:"), la + 2, "a: its new lines "
	    "alone");
	INT_EQ(logged("missing-20.md"), 1, "the line shown now");
	INT_EQ(logged("... and 9 more links that name nothing (29 in all)"),
	    1, "with the new total");
	INT_EQ(logged("posts/2024-01-02-b.md:"), lb, "b: not again");
	la += 2;

	/* b touched (read again, the same bytes): nothing said. */
	{
		char	*p = xasprintf("%s/posts/2024-01-02-b.md", dir);

		OK(utimensat(AT_FDCWD, p, NULL, 0) == 0, "b touched");
		free(p);
	}
	a4 = archive_reload(&c, a3);
	INT_EQ(links_check(a4), LINKS_WARN_MAX + 10, "counted");
	OK(a4->nread >= 1, "b read again");
	INT_EQ(logged("posts/2024-01-02-b.md:"), lb, "b touched: not again");
	archive_unref(a3);
	a3 = a4;

	/* b edited: b's logged again, a's not. */
	dead_links(dir, "posts/2024-01-02-b.md", 1, "B two", "gone");
	a4 = archive_reload(&c, a3);
	INT_EQ(links_check(a4), LINKS_WARN_MAX + 10, "counted");
	INT_EQ(logged("posts/2024-01-02-b.md:"), lb + 1, "b changed: logged "
	    "again, the same line");
	INT_EQ(logged("posts/2024-01-01-a.md:"), la, "a unchanged: not");
	archive_unref(a1);
	archive_unref(a2);
	archive_unref(a3);
	archive_unref(a4);
	free(dir);
}

static const struct harness_test tests[] = {
	TEST(test_capped_once),
};

int
main(int argc, char **argv)
{
	int	 rv;

	HARNESS_INIT(argc, argv, tests);
	snprintf(top, sizeof(top), "/tmp/capsuled-linkslog-XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	snprintf(logpath, sizeof(logpath), "%s/log", top);
	if (log_open(logpath, LOG_LEVEL_WARN) == -1) {
		perror(logpath);
		return 2;
	}
	harness_run();
	rv = harness_done();
	log_open(NULL, LOG_LEVEL_WARN);
	test_rm_tree(top);
	return rv;
}
