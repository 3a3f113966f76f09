/*
 * slow_live.c -- the live archive's figures on a generated archive (make
 * test-slow): N posts (SLOW_POSTS, default 10000) made by
 * bench/genarchive into a temp dir (CAPSULED_GENARCHIVE, else beside
 * CAPSULED_BIN: BUILD/bench/genarchive, which make test-slow builds).
 *
 *   1. In process: the time to build a snapshot from nothing
 *      (archive_load), from the previous one with nothing changed, and
 *      with one post changed (archive_reload); median of 5 each.
 *   2. The real server (watch_debounce 100ms): the time from a post's
 *      save to its new title on /posts/, 10 times, on the big archive
 *      and on a copy of the sample capsule.  /posts/ was rendered and
 *      cached before each save, so the time includes the rebuild, the
 *      publish and rendering /posts/ again.
 *
 * Lines starting "FIGURE" on stderr are the results (tests/slow/run.sh
 * shows them).  Checks: an incremental rebuild reads only the changed
 * file, and save-to-visible stays under the debounce plus 250 ms.
 */
#include <stdatomic.h>

#include "e2e.h"
#include "content/archive.h"
#include "core/config.h"
#include "core/log.h"

#define TRIALS		10
#define DEBOUNCE_MS	100

static SSL_CTX	*ctx;

/* CPU time of this process: what a build costs, whatever the load. */
static double
cpu_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
cmp_double(const void *x, const void *y)
{
	double	 a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return v[n / 2];
}

/* Rewrite a post with title (in place, as most editors do). */
static void
save_post(const char *path, const char *title, int n)
{
	test_write(path, "---\ntitle: %s\ndate: 2024-12-30\n"
	    "tags: [edited]\n---\nEdited %d times.\n", title, n);
}

static void
in_process(const char *capsule, int nposts)
{
	struct config	 c;
	struct archive	*a, *b;
	struct timespec	 settle = { 2, 300 * 1000000L };
	double		 t[5], u[5], t0, u0;
	char		*path;
	int		 i;

	memset(&c, 0, sizeof(c));
	c.capsule_dir = (char *)capsule;
	c.site_title = "t";
	c.lang = "en";
	c.hostname = "localhost";
	c.max_post_size = 8 << 20;
	c.max_archive_size = (size_t)1 << 40;
	nanosleep(&settle, NULL);	/* past the racy window: trusted */
	for (i = 0; i < 5; i++) {
		t0 = harness_now_msf();
		u0 = cpu_ms();
		a = archive_load(&c);
		t[i] = harness_now_msf() - t0;
		u[i] = cpu_ms() - u0;
		OK(a != NULL && (int)a->nposts == nposts, "full load");
		archive_unref(a);
	}
	fprintf(stderr, "FIGURE %d posts: full build %.1f ms wall, %.1f ms "
	    "CPU (medians of 5)\n", nposts, median(t, 5), median(u, 5));
	a = archive_load(&c);
	for (i = 0; i < 5; i++) {
		t0 = harness_now_msf();
		u0 = cpu_ms();
		b = archive_reload(&c, a);
		t[i] = harness_now_msf() - t0;
		u[i] = cpu_ms() - u0;
		INT_EQ(b->nread, 0, "nothing changed: nothing read");
		archive_unref(a);
		a = b;
	}
	fprintf(stderr, "FIGURE %d posts: rebuild, nothing changed %.1f ms "
	    "wall, %.1f ms CPU\n", nposts, median(t, 5), median(u, 5));
	path = xasprintf("%s/posts/2024-12-30-edited.md", capsule);
	for (i = 0; i < 5; i++) {
		save_post(path, "In process", i);
		t0 = harness_now_msf();
		u0 = cpu_ms();
		b = archive_reload(&c, a);
		t[i] = harness_now_msf() - t0;
		u[i] = cpu_ms() - u0;
		INT_EQ(b->nread, 1, "one post changed: one read");
		archive_unref(a);
		a = b;
	}
	fprintf(stderr, "FIGURE %d posts: rebuild, one post changed %.1f ms "
	    "wall, %.1f ms CPU\n", nposts, median(t, 5), median(u, 5));
	archive_unref(a);
	unlink(path);
	free(path);
}

/* Poll /posts/ until it has needle; ms, or -1 after 10 s. */
static double
until_listed(struct e2e_server *s, const char *needle, double t0)
{
	struct reply	 r;
	char		 req[256];
	int		 len, found;

	len = snprintf(req, sizeof(req), "gemini://localhost:%d/posts/\r\n",
	    s->gemini_port);
	for (;;) {
		if (e2e_gemini_raw(s->gemini_port, req, (size_t)len, &r, ctx,
		    "localhost") == -1)
			r.status = -1;
		found = r.status == 20 && r.body.data != NULL &&
		    strstr(r.body.data, needle) != NULL;
		reply_free(&r);
		if (found)
			return harness_now_msf() - t0;
		if (harness_now_msf() - t0 > 10000)
			return -1;
		/* Not faster: the poller must not starve the server. */
		e2e_sleep_ms(10);
	}
}

static void
save_to_visible(const char *what, const char *capsule)
{
	struct e2e_server s;
	double		 t[TRIALS], t0;
	char		*path, title[64];
	int		 i;

	if (e2e_start(&s, capsule, "rate_limit: off\naccess_log: false\n"
	    "watch_debounce: 100ms\n") == -1) {
		OK(0, "%s: server start", what);
		return;
	}
	path = xasprintf("%s/posts/2024-12-30-edited.md", capsule);
	for (i = 0; i < TRIALS; i++) {
		/* /posts/ rendered and cached before the save. */
		OK(until_listed(&s, "=>", harness_now_msf()) >= 0, "warm");
		snprintf(title, sizeof(title), "Saved title %d", i);
		t0 = harness_now_msf();
		save_post(path, title, i);
		t[i] = until_listed(&s, title, t0);
		OK(t[i] >= 0, "%s: save %d never visible", what, i);
		e2e_sleep_ms(150);
	}
	qsort(t, TRIALS, sizeof(*t), cmp_double);
	/* The median: one slow save on a busy host is not a failure. */
	OK(t[TRIALS / 2] < DEBOUNCE_MS + 250, "%s: median save to visible "
	    "%.0f ms, target under %d", what, t[TRIALS / 2],
	    DEBOUNCE_MS + 250);
	fprintf(stderr, "FIGURE %s: save to visible in /posts/ (debounce "
	    "%d ms included): median %.0f ms, min %.0f, max %.0f (%d "
	    "saves)\n", what, DEBOUNCE_MS, t[TRIALS / 2], t[0],
	    t[TRIALS - 1], TRIALS);
	INT_EQ(e2e_stop(&s), 0, "clean exit");
	unlink(path);
	free(path);
}

static const struct harness_test tests[] = {
	NAMED("live"),
};

int
main(int argc, char **argv)
{
	const char	*env = getenv("SLOW_POSTS");
	const char	*topdir = getenv("CAPSULED_TOP");
	const char	*gen = getenv("CAPSULED_GENARCHIVE");
	const char	*bin = getenv("CAPSULED_BIN");
	char		 top[64], *big, *sample, *cmd, *genpath = NULL;
	int		 nposts = env ? atoi(env) : 10000;

	HARNESS_INIT(argc, argv, tests);

	log_open(NULL, LOG_LEVEL_ERROR);
	snprintf(top, sizeof(top), "/tmp/capsuled-slow.XXXXXX");
	if (mkdtemp(top) == NULL || nposts <= 0) {
		perror("mkdtemp");
		return 1;
	}
	big = xasprintf("%s/big", top);
	sample = xasprintf("%s/sample", top);
	if (gen == NULL) {
		/* BUILD/capsuled -> BUILD/bench/genarchive */
		genpath = xasprintf("%.*s/bench/genarchive",
		    bin != NULL && strrchr(bin, '/') != NULL ?
		    (int)(strrchr(bin, '/') - bin) : 5,
		    bin != NULL && strrchr(bin, '/') != NULL ? bin : "build");
		gen = genpath;
	}
	/*
	 * Posts of about 2,700 bytes of Markdown, as the figures were first
	 * measured on (the benchmark's default is 6,000).
	 */
	cmd = xasprintf("'%s' -o '%s' -n %d -m 2700 >/dev/null && "
	    "cp -r '%s/capsule' '%s'", gen, big, nposts,
	    topdir ? topdir : ".", sample);
	OK(system(cmd) == 0, "generate %d posts (%s)", nposts, gen);
	free(cmd);
	free(genpath);
	ctx = e2e_client_ctx(0);

	in_process(big, nposts);
	save_to_visible("sample capsule", sample);
	{
		char what[64];

		snprintf(what, sizeof(what), "%d posts", nposts);
		save_to_visible(what, big);
	}

	SSL_CTX_free(ctx);
	cmd = xasprintf("rm -rf '%s'", top);
	(void)!system(cmd);
	free(cmd);
	free(big);
	free(sample);
	return harness_done();
}
