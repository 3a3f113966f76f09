/*
 * test_dirwalk.c -- the one tree walk (core/dirwalk.c): hidden names
 * never handed out, links never followed (not even a folder swapped
 * for one after it was listed), folders in name order when asked, the
 * depth and entry budgets, every folder gone into left once, and a
 * call back that skips or stops.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/dirwalk.h"
#include "files.h"
#include "harness.h"

static char	 top[64];

/* What a walk saw, one line per event: "E 2019/x.md f" and the like. */
struct seen {
	struct buf	 log;
	int		 open;		/* folders in, not yet out */
	const char	*enter_not;	/* a folder not gone into */
	const char	*skip;		/* a folder skipped at DIRWALK_IN */
	const char	*swap;		/* replaced by a link before entering */
	const char	*swap_rel;	/* the same beneath top */
	const char	*stop_at;	/* the walk ends at this entry */
};

static enum dirwalk_answer
record(void *arg, struct dirwalk_entry *e)
{
	static const char	 types[] = "fdlo";
	struct seen		*s = arg;
	char			 path[PATH_MAX];

	switch (e->event) {
	case DIRWALK_ENTRY:
		buf_printf(&s->log, "E %s %c\n", e->path, types[e->type]);
		if (s->stop_at != NULL && strcmp(e->path, s->stop_at) == 0)
			return DIRWALK_STOP;
		if (s->swap != NULL && strcmp(e->path, s->swap) == 0) {
			test_path(path, sizeof(path), top, s->swap_rel);
			test_rm_tree(path);
			if (symlink("../outside", path) == -1)
				perror(path);
		}
		if (s->enter_not != NULL && strcmp(e->path, s->enter_not) == 0)
			return DIRWALK_NEXT;
		return DIRWALK_ENTER;
	case DIRWALK_IN:
		buf_printf(&s->log, "IN %s\n", e->path);
		s->open++;
		e->data = (void *)e->path;	/* checked at its entries */
		return s->skip != NULL && strcmp(e->path, s->skip) == 0 ?
		    DIRWALK_SKIP : DIRWALK_NEXT;
	case DIRWALK_OUT:
		buf_printf(&s->log, "OUT %s\n", e->path);
		s->open--;
		return DIRWALK_NEXT;
	case DIRWALK_DEEP:
		buf_printf(&s->log, "DEEP %s\n", e->path);
		return DIRWALK_NEXT;
	case DIRWALK_FAIL:
		buf_printf(&s->log, "FAIL %s %s\n", e->path,
		    e->err == ELOOP || e->err == ENOTDIR ? "refused" :
		    strerror(e->err));
		return DIRWALK_NEXT;
	case DIRWALK_FULL:
		buf_printf(&s->log, "FULL %s\n", e->path);
		return DIRWALK_NEXT;
	}
	return DIRWALK_NEXT;
}

/* Walk dir (beneath top) with w's budgets; the log, malloc'd. */
static char *
walk(struct dirwalk *w, struct seen *s, const char *dir, const char *path)
{
	char	 p[PATH_MAX];
	int	 fd, rv;

	test_path(p, sizeof(p), top, dir);
	if ((fd = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1) {
		perror(p);
		exit(2);
	}
	w->fn = record;
	w->arg = s;
	buf_init(&s->log);
	s->open = 0;
	rv = dirwalk_run(w, fd, path, NULL);
	OK(rv == 0, "dirwalk_run: %s", strerror(errno));
	INT_EQ(s->open, 0, "every folder gone into is left once");
	close(fd);
	buf_addc(&s->log, '\0');
	return buf_release(&s->log);
}

static void
make_tree(void)
{
	test_put(top, "t/b.md", "b");
	test_put(top, "t/a.md", "a");
	test_put(top, "t/.hidden.md", "h");
	test_put(top, "t/.git/config", "g");
	test_put(top, "t/c/x.md", "x");
	test_put(top, "t/c/d/e/f.md", "f");
	test_put(top, "t/c-d.md", "c-d");
	test_put(top, "outside/secret", "s");
	test_mkdir(top, "t/empty");
}

static void
test_order(void)
{
	struct dirwalk	 w = { .max_depth = 8, .max_entries = 100,
	    .sorted = true };
	struct seen	 s = { 0 };
	char		*log, path[PATH_MAX];

	test_path(path, sizeof(path), top, "t/link");
	if (symlink("../outside", path) == -1 && errno != EEXIST)
		perror(path);
	log = walk(&w, &s, "t", "");
	STR_EQ(log,
	    "E a.md f\n"
	    "E b.md f\n"
	    "E c d\n"
	    "IN c\n"
	    "E c/d d\n"
	    "IN c/d\n"
	    "E c/d/e d\n"
	    "IN c/d/e\n"
	    "E c/d/e/f.md f\n"
	    "OUT c/d/e\n"
	    "OUT c/d\n"
	    "E c/x.md f\n"
	    "OUT c\n"
	    "E c-d.md f\n"
	    "E empty d\n"
	    "IN empty\n"
	    "OUT empty\n"
	    "E link l\n",
	    "sorted, depth first, nothing hidden, the link not followed");
	INT_EQ(w.nentries, 10, "entries handed out");
	OK(!w.full, "not full");
	free(log);

	w.sorted = false;
	log = walk(&w, &s, "t", "posts");
	HAS(log, "E posts/c/d/e/f.md f\n", "unsorted: the same entries, "
	    "after the path given");
	OK(strstr(log, "secret") == NULL && strstr(log, ".git") == NULL,
	    "nothing hidden or out of the tree:\n%s", log);
	INT_EQ(w.nentries, 10, "unsorted: the same count");
	free(log);
}

static void
test_budgets(void)
{
	struct dirwalk	 w = { .max_depth = 1, .max_entries = 100,
	    .sorted = true };
	struct seen	 s = { 0 };
	char		*log, name[32];
	int		 i;

	log = walk(&w, &s, "t", "");
	HAS(log, "IN c\nE c/d d\nDEEP c/d\nE c/x.md f\nOUT c\n",
	    "a folder past max_depth is said, not opened");
	OK(strstr(log, "f.md") == NULL, "nothing read below it");
	free(log);

	w.max_depth = 8;
	w.max_entries = 3;
	log = walk(&w, &s, "t", "");
	STR_EQ(log, "E a.md f\nE b.md f\nE c d\nIN c\nFULL c\nOUT c\n",
	    "the entry budget ends the walk, said once, where");
	OK(w.full && w.nentries == 3, "full after 3: %zu", w.nentries);
	free(log);

	/* A folder over the budget: the same names every run. */
	for (i = 49; i >= 0; i--) {
		snprintf(name, sizeof(name), "big/n%02d", i);
		test_put(top, name, "x");
	}
	w.max_entries = 10;
	log = walk(&w, &s, "big", "");
	HAS(log, "E n00 f\n", "the smallest name first");
	HAS(log, "E n09 f\nFULL \n", "then the next nine, and no more");
	free(log);

	w.max_entries = 0;
	log = walk(&w, &s, "t", "top");
	STR_EQ(log, "FULL top\n", "no room at all");
	free(log);
}

static void
test_answers(void)
{
	struct dirwalk	 w = { .max_depth = 8, .max_entries = 100,
	    .sorted = true };
	struct seen	 s = { 0 };
	char		*log;

	s.enter_not = "c";
	s.skip = "empty";
	log = walk(&w, &s, "t", "");
	OK(strstr(log, "IN c\n") == NULL && strstr(log, "c/x.md") == NULL,
	    "a folder not asked for is not gone into");
	HAS(log, "IN empty\nOUT empty\n", "a skipped folder is still left");
	free(log);

	s.enter_not = s.skip = NULL;
	s.stop_at = "c/d";
	log = walk(&w, &s, "t", "");
	STR_EQ(log, "E a.md f\nE b.md f\nE c d\nIN c\nE c/d d\nOUT c\n",
	    "DIRWALK_STOP ends it, the open folders left");
	free(log);

	/* A folder replaced by a link between its listing and its open. */
	s.stop_at = NULL;
	test_put(top, "swap/a/inner", "i");
	s.swap = "a";
	s.swap_rel = "swap/a";
	log = walk(&w, &s, "swap", "");
	STR_EQ(log, "E a d\nFAIL a refused\n",
	    "a folder swapped for a link leads nowhere");
	free(log);
}

static const struct harness_test tests[] = {
	TEST(test_order),
	TEST(test_budgets),
	TEST(test_answers),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	snprintf(top, sizeof(top), "/tmp/capsuled-dirwalk-XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	make_tree();
	harness_run();
	test_rm_tree(top);
	return harness_done();
}
