/*
 * test_bundle_index.c -- a page bundle with both index.md and
 * index.gmi: index.md is the post (content/dirscan.c), index.gmi is
 * warned about and served as no file of it (content/files.c), nor is
 * the post's own source.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "content/archive.h"
#include "core/config.h"
#include "core/log.h"
#include "files.h"
#include "harness.h"

static char	 top[64];
static char	 logpath[128];

/* Lines of the log so far that have needle. */
static int
logged(const char *needle)
{
	return test_count_lines(logpath, needle);
}

/* Can name beside p's index be opened as one of its files? */
static int
opens(const struct archive *a, const struct post *p, const char *name)
{
	struct stat	 st;
	int		 fd;

	if ((fd = archive_bundle_open(a, p, name, false, &st)) == -1)
		return 0;
	close(fd);
	return 1;
}

static void
test_both(void)
{
	struct config	 c;
	struct archive	*a;
	struct post	*p;

	test_mkdir(top, "posts");
	test_mkdir(top, "posts/2024-05-01-both");
	test_put(top, "posts/2024-05-01-both/index.md", "---\ntitle: The "
	    "Markdown one\n---\nBody.\n");
	test_put(top, "posts/2024-05-01-both/index.gmi", "# The gemtext one\n"
	    "Secret draft.\n");
	test_put(top, "posts/2024-05-01-both/pic.png", "PNG");
	memset(&c, 0, sizeof(c));
	c.capsule_dir = top;
	c.site_title = "T";
	c.lang = "en";
	c.hostname = "localhost";
	a = archive_load(&c);
	OK(a != NULL, "load");
	if (a == NULL)
		return;
	INT_EQ(a->nposts, 1, "one post");
	p = archive_post(a, "both");
	OK(p != NULL && !p->gemtext && strcmp(p->title, "The Markdown one") ==
	    0, "index.md is the post");
	OK(a->nwarnings >= 1 && logged("posts/2024-05-01-both/index.gmi:1:1:"
	    " index.md is this bundle's post") == 1, "the other warned about");
	if (p != NULL) {
		INT_EQ(opens(a, p, "index.gmi"), 0, "index.gmi not served");
		INT_EQ(opens(a, p, "index.md"), 0, "nor the post's source");
		INT_EQ(opens(a, p, "pic.png"), 1, "the bundle's files are");
	}
	archive_unref(a);
}

static const struct harness_test tests[] = {
	TEST(test_both),
};

int
main(int argc, char **argv)
{
	int	 rv;

	HARNESS_INIT(argc, argv, tests);
	snprintf(top, sizeof(top), "/tmp/capsuled-bundleidx-XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	snprintf(logpath, sizeof(logpath), "%s.log", top);
	if (log_open(logpath, LOG_LEVEL_WARN) == -1) {
		perror(logpath);
		return 2;
	}
	harness_run();
	rv = harness_done();
	log_open(NULL, LOG_LEVEL_WARN);
	test_rm_tree(top);
	unlink(logpath);
	return rv;
}
