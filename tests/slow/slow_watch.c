/*
 * slow_watch.c -- live editing in a capsule with very many directories
 * (make test-slow): SLOW_DIRS (default 20000 and 50000, each in turn)
 * folders under files/ of a copy of the sample capsule, watched by the
 * real server (watch_debounce 100ms).
 *
 *   1. The time from a post's save to its new title on /posts/, 10
 *      times: a save costs the watch no walk of the folders.
 *   2. The same after a folder is made under files/ with each save: a
 *      pass over all the folders (app/watch.c), once per build.
 *
 * Lines starting "FIGURE" on stderr are the results (tests/slow/run.sh
 * shows them).  Checks: the median save to visible stays under the
 * debounce plus 250 ms (a watch quadratic in the folders took seconds).
 */
#include "e2e.h"
#include "core/log.h"

#define TRIALS		10
#define DEBOUNCE_MS	100

static SSL_CTX	*ctx;

static int
cmp_double(const void *x, const void *y)
{
	double	 a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

/* Rewrite a post with title (in place, as most editors do). */
static void
save_post(const char *path, const char *title, int n)
{
	char	 body[256];

	snprintf(body, sizeof(body), "---\ntitle: %s\ndate: 2024-12-30\n"
	    "---\n\nSaved %d.\n", title, n);
	test_write(path, "%s", body);
}

static void
measure(const char *capsule, int ndirs, int mkdirs)
{
	struct e2e_server s;
	double		 t[TRIALS], t0;
	char		*path, *dir, title[64];
	int		 i;

	if (e2e_start(&s, capsule, "rate_limit: off\naccess_log: false\n"
	    "watch_debounce: 100ms\n") == -1) {
		OK(0, "server start");
		return;
	}
	path = xasprintf("%s/posts/2024-12-30-edited.md", capsule);
	for (i = 0; i < TRIALS; i++) {
		/* /posts/ rendered and cached before the save. */
		OK(e2e_gemini_wait(s.gemini_port, ctx, "/posts/", 20, "=>", 1,
		    5000) >= 0, "warm");
		snprintf(title, sizeof(title), "Saved title %d %d", mkdirs, i);
		t0 = harness_now_msf();
		if (mkdirs) {
			dir = xasprintf("%s/files/new-%d", capsule, i);
			OK(mkdir(dir, 0755) == 0, "mkdir %s", dir);
			free(dir);
		}
		save_post(path, title, i);
		t[i] = e2e_gemini_wait(s.gemini_port, ctx, "/posts/", 20,
		    title, 1, 20000) < 0 ? -1 : harness_now_msf() - t0;
		OK(t[i] >= 0, "save %d never visible", i);
		e2e_sleep_ms(150);
	}
	qsort(t, TRIALS, sizeof(*t), cmp_double);
	OK(t[TRIALS / 2] < DEBOUNCE_MS + 250, "%d folders%s: median save to "
	    "visible %.0f ms, target under %d", ndirs, mkdirs ? " + mkdir" :
	    "", t[TRIALS / 2], DEBOUNCE_MS + 250);
	fprintf(stderr, "FIGURE %d folders under files/%s: save to visible "
	    "in /posts/ (debounce %d ms included): median %.0f ms, min %.0f, "
	    "max %.0f (%d saves)\n", ndirs, mkdirs ? ", a folder made with "
	    "each save" : "", DEBOUNCE_MS, t[TRIALS / 2], t[0],
	    t[TRIALS - 1], TRIALS);
	INT_EQ(e2e_stop(&s), 0, "clean exit");
	unlink(path);
	free(path);
}

static void
run_one(const char *top, const char *topdir, int ndirs)
{
	char	*capsule, *cmd;

	capsule = xasprintf("%s/c%d", top, ndirs);
	cmd = xasprintf("cp -r '%s/capsule' '%s' && mkdir -p '%s/files' && "
	    "cd '%s/files' && seq -f 'd%%g' 1 %d | xargs mkdir", topdir,
	    capsule, capsule, capsule, ndirs);
	OK(system(cmd) == 0, "%d folders", ndirs);
	free(cmd);
	measure(capsule, ndirs, 0);
	measure(capsule, ndirs, 1);
	free(capsule);
}

static const struct harness_test tests[] = {
	NAMED("watch"),
};

int
main(int argc, char **argv)
{
	const char	*env = getenv("SLOW_DIRS");
	const char	*topdir = getenv("CAPSULED_TOP");
	char		 top[64], *cmd;

	HARNESS_INIT(argc, argv, tests);
	log_open(NULL, LOG_LEVEL_ERROR);
	snprintf(top, sizeof(top), "/tmp/capsuled-slow.XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	ctx = e2e_client_ctx(0);
	if (env != NULL)
		RUN("watch", run_one(top, topdir ? topdir : ".", atoi(env)));
	else
		RUN("watch", (run_one(top, topdir ? topdir : ".", 20000),
		    run_one(top, topdir ? topdir : ".", 50000)));
	SSL_CTX_free(ctx);
	cmd = xasprintf("rm -rf '%s'", top);
	(void)!system(cmd);
	free(cmd);
	return harness_done();
}
