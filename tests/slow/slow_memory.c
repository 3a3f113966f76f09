/*
 * slow_memory.c -- memory goes back to its baseline after 1,000
 * rebuilds (make test-slow).
 *
 * The real server serves a copy of the sample capsule.  After a warm-up
 * (pages requested, 20 rebuilds), its VmRSS is the baseline; then 1,000
 * rebuilds, alternately by SIGHUP (configuration, certificates and
 * content) and by saving a post (the watcher), each followed by a few
 * requests so every generation renders and caches pages before it is
 * replaced.  VmRSS at the end must be within 10% of the baseline, and
 * the server must exit 0 (under ASan, LeakSanitizer makes a leak a
 * non-zero exit; VmRSS is not checked there, ASan's quarantine holds
 * freed memory on purpose).  REBUILDS overrides the count.
 */
#include "e2e.h"

static struct e2e_server srv;
static SSL_CTX	*ctx;
static long	 log_off;		/* bytes of the log already read */
static int	 nbuilt;		/* "content:" lines seen so far */

/* Count the rebuilds logged since last time (reads only new bytes). */
static int
builds(void)
{
	char	 chunk[8192], *p;
	size_t	 n;
	FILE	*f;

	if ((f = fopen(srv.log, "r")) == NULL)
		return nbuilt;
	fseek(f, log_off, SEEK_SET);
	/* Lines are short: a match split over chunks is re-read next time. */
	while ((n = fread(chunk, 1, sizeof(chunk) - 1, f)) > 0) {
		chunk[n] = '\0';
		p = strrchr(chunk, '\n');
		if (p == NULL)
			break;
		p[1] = '\0';
		log_off += (long)(p + 1 - chunk);
		for (p = chunk; (p = strstr(p, "info: content:")); p++)
			nbuilt++;
		fseek(f, log_off, SEEK_SET);
	}
	fclose(f);
	return nbuilt;
}

static int
wait_builds(int n)
{
	uint64_t	 deadline = e2e_now_ms() + 10000;

	while (builds() < n)
		if (e2e_now_ms() > deadline)
			return -1;
		else
			e2e_sleep_ms(1);
	return 0;
}

static int
requests(void)
{
	static const char *const paths[] = { "/", "/posts/", "/tags/",
	    "/posts/gemtext-tips", "/atom.xml" };
	struct reply	 r;
	struct buf	 b;
	char		 req[256];
	size_t		 i;
	int		 len, bad = 0;

	for (i = 0; i < nitems(paths); i++) {
		len = snprintf(req, sizeof(req), "gemini://localhost:%d%s\r\n",
		    srv.gemini_port, paths[i]);
		if (e2e_gemini_raw(srv.gemini_port, req, (size_t)len, &r, ctx,
		    "localhost") == -1 || r.status != 20 || !r.close_notify)
			bad++;
		reply_free(&r);
		len = snprintf(req, sizeof(req), "%s\r\n", paths[i]);
		if (e2e_plain(srv.gopher_port, req, (size_t)len, &b) == -1 ||
		    b.len == 0)
			bad++;
		buf_free(&b);
	}
	return bad;
}

static const struct harness_test tests[] = {
	NAMED("memory"),
};

int
main(int argc, char **argv)
{
	const char	*topdir = getenv("CAPSULED_TOP");
	const char	*env = getenv("REBUILDS");
	char		 top[64], capsule[128], post[256], *cmd;
	long		 base, end, peak = 0, kib;
	int		 i, n = env ? atoi(env) : 1000, bad = 0, want;
	uint64_t	 t0;

	HARNESS_INIT(argc, argv, tests);

	snprintf(top, sizeof(top), "/tmp/capsuled-mem.XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	cmd = xasprintf("cp -r '%s/capsule' '%s'", topdir ? topdir : ".",
	    capsule);
	OK(system(cmd) == 0, "copy the sample capsule");
	free(cmd);
	snprintf(post, sizeof(post), "%s/posts/2030-01-01-memory.md", capsule);
	ctx = e2e_client_ctx(0);
	if (e2e_start(&srv, capsule, "rate_limit: off\naccess_log: false\n"
	    "watch_debounce: 0\n") == -1) {
		OK(0, "server start");
		cmd = xasprintf("rm -rf '%s'", top);
		(void)!system(cmd);
		free(cmd);
		return harness_done();
	}
	want = builds();
	for (i = 0; i < 20; i++) {		/* warm-up */
		bad += requests();
		kill(srv.pid, SIGHUP);
		OK(wait_builds(++want) == 0, "warm-up rebuild %d", i);
	}
	bad += requests();
	base = e2e_proc_status_kb(srv.pid, "VmRSS");
	t0 = e2e_now_ms();
	for (i = 0; i < n; i++) {
		if (i % 2)
			kill(srv.pid, SIGHUP);
		else
			test_write(post,
			    "---\ntitle: Memory %d\n---\n%*s\n", i, i % 500,
			    "x");
		want++;
		if (wait_builds(want) == -1) {
			OK(0, "rebuild %d never came", i);
			break;
		}
		bad += requests();
		if ((kib = e2e_proc_status_kb(srv.pid, "VmRSS")) > peak)
			peak = kib;
	}
	end = e2e_proc_status_kb(srv.pid, "VmRSS");
	fprintf(stderr, "FIGURE memory: VmRSS %ld KiB after warm-up, %ld KiB "
	    "after %d rebuilds (%+.1f%%), peak %ld KiB; %.1f s\n", base, end,
	    i, 100.0 * (double)(end - base) / (double)base, peak,
	    (double)(e2e_now_ms() - t0) / 1000);
	OK(i == n, "all rebuilds done");
#ifndef __SANITIZE_ADDRESS__
	OK(end <= base + base / 10, "VmRSS %ld KiB within 10%% of %ld KiB",
	    end, base);
#else
	/* ASan keeps freed memory in quarantine: only leaks count here. */
	fprintf(stderr, "(ASan build: VmRSS not checked)\n");
#endif
	INT_EQ(bad, 0, "failed requests");
	INT_EQ(e2e_stop(&srv), 0, "clean exit (LeakSanitizer quiet)");
	SSL_CTX_free(ctx);
	cmd = xasprintf("rm -rf '%s'", top);
	(void)!system(cmd);
	free(cmd);
	return harness_done();
}
