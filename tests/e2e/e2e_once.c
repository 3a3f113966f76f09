/*
 * e2e_once.c -- each problem of a capsule said once (issue 34, item 4;
 * docs/logging.md, "Diagnostics"), over the real server at the operator's
 * log level (info), on a 509-post archive:
 *
 *  - the first start says a count per kind, the first few lines and the
 *    command that lists them all, not a line per problem;
 *  - a save that touches one post and changes nothing logs no line about
 *    any post;
 *  - a one-line edit of one post logs that post's lines, at most as many
 *    as `--check` lists for it, and no other post's.
 *
 * On an archive generated here (every post with a link to nothing, a
 * template construct removed and a front matter value ignored), and on
 * the handed real one (18F's blog: $CAPSULED_CORPUS, else
 * shared/corpus/18f beside the checkout) when there is one.
 */
#include "e2e.h"

#define POSTS	509		/* the handed archive's count */
#define FIRST	5		/* lines of the summary, at most */

static char	 top[] = "/tmp/capsuled-once.XXXXXX";

/* Lines of text, from line skip on, that have needle. */
static int
lines_from(const char *text, int skip, const char *needle)
{
	const char	*p = text, *e;
	int		 line = 0, n = 0;
	size_t		 len = strlen(needle);

	for (; *p != '\0'; p = *e != '\0' ? e + 1 : e, line++) {
		e = strchrnul(p, '\n');
		if (line < skip || (size_t)(e - p) < len)
			continue;
		if (memmem(p, (size_t)(e - p), needle, len) != NULL)
			n++;
	}
	return n;
}

static int
count_lines(const char *text)
{
	int	 n = 0;

	for (; *text != '\0'; text++)
		n += *text == '\n';
	return n;
}

/* A capsule of POSTS posts, each with three problems. */
static void
generate(const char *cap)
{
	char	 name[64];
	int	 i;

	for (i = 0; i < POSTS; i++) {
		snprintf(name, sizeof(name), "posts/2020-01-01-post-%03d.md",
		    i);
		test_put(cap, name, i % 2 == 0 ?
		    "---\ntitle: A post\npart: two\n---\n"
		    "Read [the about page](/about/).\n\n"
		    "{{ \"ann\" | team_link }} wrote it.\n\nThe end.\n" :
		    "---\ntitle: Another\n---\n"
		    "See [the team](/team/) and {{ page.image }}.\n");
	}
}

/*
 * A file of the capsule that --check names often (the most in one run
 * of lines), into rel, and *nsaid: the lines --check has for it.
 */
static int
most_said(const char *conf, char *rel, size_t size, int *nsaid)
{
	struct buf	 out = BUF_INIT;
	char		 cmd[600], line[4096], cur[4096] = "", *p, *colon;
	FILE		*f;
	int		 n = 0, max = 0;

	snprintf(cmd, sizeof(cmd), "'%s' -c '%s' --check 2>/dev/null",
	    getenv("CAPSULED_BIN"), conf);
	if ((f = popen(cmd, "r")) == NULL)
		return -1;
	rel[0] = '\0';
	while (fgets(line, sizeof(line), f) != NULL) {
		buf_addstr(&out, line);
		for (p = line; *p == ' '; p++)
			;
		if (strncmp(p, "posts/", 6) != 0 ||
		    (colon = strstr(p, ".md:")) == NULL)
			continue;
		colon[4] = '\0';		/* "posts/x.md:" */
		if (strcmp(cur, p) != 0) {
			snprintf(cur, sizeof(cur), "%s", p);
			n = 0;
		}
		if (++n > max && strlen(cur) < size) {
			max = n;
			memcpy(rel, cur, strlen(cur) + 1);
		}
	}
	pclose(f);
	buf_addc(&out, '\0');
	*nsaid = max > 0 ? lines_from(out.data, 0, rel) : 0;
	buf_free(&out);
	if (max == 0)
		return -1;
	rel[strlen(rel) - 1] = '\0';	/* without its ':' */
	return 0;
}

/* Wait for the reload after a save: "content:" lines past n. */
static int
reloaded(const struct e2e_server *s, int n)
{
	uint64_t	 deadline;

	deadline = e2e_now_ms() + 1000 * harness_time_bound(10);

	while (e2e_now_ms() < deadline) {
		if (e2e_log_count(s, "info: content: ") > n)
			return 1;
		e2e_sleep_ms(50);
	}
	return 0;
}

static void
one_archive(const char *cap, const char *what)
{
	struct e2e_server	 s;
	struct timespec		 now[2] = { { 0, UTIME_NOW },
				    { 0, UTIME_NOW } };
	char			 rel[512], conf[400];
	char			*path;
	char			*text, *src, *nl;
	int			 nsaid, before, reloads;

	if (e2e_start(&s, cap, "log_level: info\n") == -1) {
		OK(0, "%s: the server did not start", what);
		return;
	}
	e2e_wait_serving(&s);
	text = test_read(s.log, "");
	OK(lines_from(text, 0, " links to nothing") == 1 &&
	    lines_from(text, 0, " template constructs removed") == 1,
	    "%s: the first start counts each kind", what);
	OK(lines_from(text, 0, ".md:") <= FIRST, "%s: the first start shows "
	    "the first few lines, not each (%d)", what,
	    lines_from(text, 0, ".md:"));
	snprintf(conf, sizeof(conf), "all of them: capsuled -c %s/"
	    "capsuled.yaml --check --report", s.dir);
	HAS(text, conf, "and the command that lists them all");
	OK(count_lines(text) < 30, "%s: %d lines in all before serving",
	    what, count_lines(text));
	free(text);

	snprintf(conf, sizeof(conf), "%s/capsuled.yaml", s.dir);
	if (most_said(conf, rel, sizeof(rel), &nsaid) == -1) {
		OK(0, "%s: --check names a post", what);
		e2e_stop(&s);
		return;
	}
	path = xasprintf("%s/%s", cap, rel);

	/*
	 * Touched, unchanged: no line about any post.  (The start may
	 * have seen files made just before it: a reload of its own first.)
	 */
	e2e_sleep_ms(500);
	reloads = e2e_log_count(&s, "info: content: ");
	before = count_lines(text = test_read(s.log, ""));
	free(text);
	OK(utimensat(AT_FDCWD, path, now, 0) == 0, "%s: touched", what);
	OK(reloaded(&s, reloads), "%s: the touch reloaded", what);
	text = test_read(s.log, "");
	INT_EQ(lines_from(text, before, "posts/"), 0,
	    "touching one unchanged post logs no line about any post");
	free(text);

	/* One line of it edited: that post's lines alone, at most all. */
	reloads = e2e_log_count(&s, "info: content: ");
	before = count_lines(text = test_read(s.log, ""));
	free(text);
	src = test_read(path, "");
	if ((nl = strrchr(src, '\n')) != NULL && nl > src) {
		*nl = '\0';		/* the last line, made another */
		test_write(path, "%s (edited)\n", src);
	}
	free(src);
	OK(reloaded(&s, reloads), "%s: the edit reloaded", what);
	text = test_read(s.log, "");
	OK(lines_from(text, before, "posts/") > 0 &&
	    lines_from(text, before, "posts/") ==
	    lines_from(text, before, rel), "%s: the edited post's lines "
	    "alone (%d of %d)", what, lines_from(text, before, rel),
	    lines_from(text, before, "posts/"));
	OK(lines_from(text, before, rel) <= nsaid, "%s: at most its %d "
	    "(--check's), %d", what, nsaid, lines_from(text, before, rel));
	free(text);
	OK(e2e_stop(&s) == 0, "%s: the server exits 0", what);
	free(path);
}

static void
test_generated(void)
{
	char	 cap[300];

	snprintf(cap, sizeof(cap), "%s/generated", top);
	generate(cap);
	one_archive(cap, "generated");
}

static void
test_corpus(void)
{
	char	*dir, cap[300], cmd[1200];

	if ((dir = test_corpus_dir()) == NULL) {
		harness_skip("no handed archive ($CAPSULED_CORPUS, "
		    "shared/corpus/18f): the generated one stands in");
		return;
	}
	snprintf(cap, sizeof(cap), "%s/corpus", top);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s' && cp -R '%s/posts' '%s/'",
	    cap, dir, cap);
	free(dir);
	if (system(cmd) != 0) {
		OK(0, "the handed archive copied");
		return;
	}
	one_archive(cap, "the handed archive");
}

static const struct harness_test tests[] = {
	TEST(test_generated),
	TEST(test_corpus),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	harness_run();
	test_rm_tree(top);
	return harness_done();
}
