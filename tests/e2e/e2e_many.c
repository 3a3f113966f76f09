/*
 * e2e_many.c -- many hosts, and an edit costs only its own capsule.
 *
 * The real server serves NHOSTS host names, each its own capsule but for
 * the last two, which share one.  Checked: every host answers with its
 * own content; a post saved in one capsule goes live over Gemini (with
 * that host's SNI), and the rebuild logged names that host only (a
 * content build loads only the changed capsules: app/reload.c); two
 * capsules changed together rebuild those two; a capsule shared by two
 * hosts rebuilds both; SIGHUP rebuilds every host.  The 1,000-capsule
 * figures are make bench's (bench/README.md).
 */
#include "e2e.h"

#define NHOSTS	24

static struct e2e_server srv;
static SSL_CTX	*ctx;
static char	 top[64];

/* Host i's name: localhost for 0 (the top-level one), else cNN.test. */
static const char *
host(int i)
{
	static char	 name[4][32];
	static int	 k;

	k = (k + 1) % 4;
	if (i == 0)
		snprintf(name[k], sizeof(name[k]), "localhost");
	else
		snprintf(name[k], sizeof(name[k]), "c%02d.test", i);
	return name[k];
}

/* Host i's capsule (the last two hosts share one). */
static const char *
capsule(int i)
{
	static char	 dir[2][128];
	static int	 k;

	if (i == NHOSTS - 1)
		i--;
	k = (k + 1) % 2;
	snprintf(dir[k], sizeof(dir[k]), "%s/cap%02d", top, i);
	return dir[k];
}

static void
mk(int i, const char *rel, const char *fmt, int n)
{
	char	 path[256];

	snprintf(path, sizeof(path), "%s/%s", capsule(i), rel);
	test_write(path, fmt, n, n);
}

static void
make_capsules(void)
{
	char	 path[256];
	int	 i;

	for (i = 0; i < NHOSTS - 1; i++) {
		mkdir(capsule(i), 0755);
		snprintf(path, sizeof(path), "%s/posts", capsule(i));
		mkdir(path, 0755);
		mk(i, "index.md", "Capsule number %d (%d).\n", i);
		mk(i, "posts/2024-01-01-first.md",
		    "---\ntitle: First of %d\n---\nBody %d.\n", i);
		mk(i, "posts/2024-01-02-second.md",
		    "---\ntitle: Second of %d\n---\nBody %d.\n", i);
	}
}

/* Does gemini://host(i)/path (with host(i)'s SNI) have needle? */
static int
has(int i, const char *path, const char *needle)
{
	struct reply	 r;
	char		 req[512];
	int		 len, ok;

	len = snprintf(req, sizeof(req), "gemini://%s:%d%s\r\n", host(i),
	    srv.gemini_port, path);
	if (e2e_gemini_raw(srv.gemini_port, req, (size_t)len, &r, ctx,
	    host(i)) == -1)
		return 0;
	ok = r.status == 20 && r.body.data != NULL &&
	    strstr(r.body.data, needle) != NULL;
	reply_free(&r);
	return ok;
}

/* Poll (bounded) until host(i)'s / has needle: the milliseconds, or -1. */
static int
live(int i, const char *needle, uint64_t t0)
{
	while (!has(i, "/", needle)) {
		if (e2e_now_ms() - t0 > 10000)
			return -1;
		e2e_sleep_ms(5);
	}
	return (int)(e2e_now_ms() - t0);
}

/* How many content builds have been logged for host(i). */
static int
built(int i)
{
	char	 needle[64];

	snprintf(needle, sizeof(needle), "content of %s:", host(i));
	return e2e_log_count(&srv, needle);
}

static int	 before[NHOSTS];

/* Each host's count of builds, for changed() to compare with. */
static void
snap(void)
{
	int	 i;

	for (i = 0; i < NHOSTS; i++)
		before[i] = built(i);
}

/*
 * Once no build has been logged for 300 ms (bounded): were hosts a and
 * b (-1: none) built again since snap(), and no other?  A fresh file
 * may take more than one build (one kept back while it is moments old):
 * the count of the changed ones is not fixed, the others' is.
 */
static int
changed(int a, int b)
{
	uint64_t	 t0 = e2e_now_ms();
	int		 i, n = -1, m, ok = 1;

	while ((m = e2e_log_count(&srv, "info: content of")) != n &&
	    e2e_now_ms() - t0 < 5000) {
		n = m;
		e2e_sleep_ms(300);
	}
	for (i = 0; i < NHOSTS; i++) {
		if ((i == a || i == b) != (built(i) > before[i])) {
			fprintf(stderr, "host %s: %d builds, %d before\n",
			    host(i), built(i), before[i]);
			ok = 0;
		}
	}
	return ok;
}

static void
test_each(void)
{
	char	 want[64];
	int	 i, bad = 0;

	for (i = 0; i < NHOSTS; i++) {
		snprintf(want, sizeof(want), "Second of %d",
		    i == NHOSTS - 1 ? i - 1 : i);
		bad += !has(i, "/", want);
	}
	OK(bad == 0, "each of %d hosts serves its own capsule (%d not)",
	    NHOSTS, bad);
	INT_EQ(e2e_log_count(&srv, "info: content of"), 0,
	    "no rebuild yet");
}

static void
test_one_edit(void)
{
	uint64_t	 t0 = e2e_now_ms();
	int		 ms;

	snap();
	mk(7, "posts/2024-02-01-fresh.md",
	    "---\ntitle: Fresh in %d\n---\nNew %d.\n", 7);
	ms = live(7, "Fresh in 7", t0);
	OK(ms >= 0, "an edit in one capsule of %d goes live (%d ms)",
	    NHOSTS, ms);
	OK(changed(7, -1), "the builds logged name the edited host and "
	    "no other");
	OK(!has(8, "/", "Fresh in 7"), "the other host does not serve it");
}

static void
test_two_edits(void)
{
	uint64_t	 t0 = e2e_now_ms();

	snap();
	mk(3, "posts/2024-02-02-both.md",
	    "---\ntitle: Both %d\n---\nNew %d.\n", 3);
	mk(15, "posts/2024-02-02-both.md",
	    "---\ntitle: Both %d\n---\nNew %d.\n", 15);
	OK(live(3, "Both 3", t0) >= 0 && live(15, "Both 15", t0) >= 0,
	    "two capsules changed together both go live");
	OK(changed(3, 15), "builds of those two hosts only");
}

static void
test_shared(void)
{
	uint64_t	 t0 = e2e_now_ms();
	int		 last = NHOSTS - 1;

	snap();
	mk(last - 1, "posts/2024-02-03-shared.md",
	    "---\ntitle: Shared %d\n---\nNew %d.\n", last);
	OK(live(last - 1, "Shared", t0) >= 0 && live(last, "Shared", t0) >=
	    0, "a capsule shared by two hosts goes live on both");
	OK(changed(last - 1, last), "builds of the two sharing it only");
}

static void
test_sighup(void)
{
	uint64_t	 t0;
	int		 i, all = 1;

	snap();
	kill(srv.pid, SIGHUP);
	t0 = e2e_now_ms();
	do {
		e2e_sleep_ms(20);
		for (i = 0, all = 1; i < NHOSTS; i++)
			all &= built(i) > before[i];
	} while (!all && e2e_now_ms() - t0 < 10000);
	OK(all, "SIGHUP rebuilds every host");
	OK(e2e_log_count(&srv, "reload: configuration") == 1,
	    "with the configuration read again");
	OK(has(3, "/", "Both 3") && has(12, "/", "Second of 12"),
	    "and serves them still");
	/* The watches kept across it: an edit after it goes live. */
	t0 = e2e_now_ms();
	mk(20, "posts/2024-02-04-after.md",
	    "---\ntitle: After %d\n---\nNew %d.\n", 20);
	OK(live(20, "After 20", t0) >= 0, "an edit after SIGHUP goes live");
}

static const struct harness_test tests[] = {
	NAMED("each"),
	NAMED("one_edit"),
	NAMED("two_edits"),
	NAMED("shared"),
	NAMED("sighup"),
};

int
main(int argc, char **argv)
{
	struct buf	 extra = BUF_INIT;
	char		 line[256], cmd[128];
	int		 i;

	HARNESS_INIT(argc, argv, tests);

	snprintf(top, sizeof(top), "/tmp/capsuled-many.XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	make_capsules();
	ctx = e2e_client_ctx(0);
	buf_addstr(&extra, "watch_debounce: 20ms\nrate_limit: off\n"
	    "hosts:\n");
	for (i = 1; i < NHOSTS; i++) {
		snprintf(line, sizeof(line), "  - hostname: %s\n"
		    "    capsule: %s\n", host(i), capsule(i));
		buf_addstr(&extra, line);
	}
	buf_add(&extra, "", 1);
	if (e2e_start(&srv, capsule(0), extra.data) == -1) {
		OK(0, "server start");
	} else {
		e2e_wait_serving(&srv);
		RUN("each", test_each());
		RUN("one_edit", test_one_edit());
		RUN("two_edits", test_two_edits());
		RUN("shared", test_shared());
		RUN("sighup", test_sighup());
		INT_EQ(e2e_stop(&srv), 0, "clean exit");
	}
	buf_free(&extra);
	SSL_CTX_free(ctx);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	(void)!system(cmd);
	return harness_done();
}
