/*
 * slow_settle.c -- the reload stress, 30 s (make test-slow): file
 * operations against four request loops, and not one page half-written.
 *
 * The real server (watch_debounce 100ms, two workers) serves a capsule
 * of STABLE posts that never change and CHURN posts that four writer
 * threads keep rewriting the ways writers and their tools do:
 *
 *   - in place, through one open file, in 2 to 4 pieces with pauses of
 *     20 to 400 ms between them (most longer than the debounce);
 *   - a temp file renamed over the post (editors, rsync, Titan);
 *   - deleted, then made again in pieces;
 *   - touched (mtime only).
 *
 * Meanwhile two Gemini and two Gopher loops ask for random posts and for
 * /posts/.  Every answer is judged: a stable post must be whole and
 * itself; a churn post whole in one version (its BEGIN and END lines of
 * the same version), or not found while it is (or a moment ago was)
 * deleted; /posts/ must list every stable post.  A churn post's BEGIN
 * without its END is a truncated page; anything else off is a wrong
 * answer.  Both must be 0.  The figures are printed as FIGURE lines.
 */
#include <pthread.h>
#include <stdatomic.h>

#include "e2e.h"

#define RUN_MS		30000
#define NSTABLE		8
#define NCHURN		8		/* two per writer */
#define NWRITERS	4
#define NREADERS	4		/* two Gemini, two Gopher */
#define LAG_MS		2000		/* debounce, build, publish, load */
#define QUIET_MS	1000		/* closed this long: a build read it */

static struct e2e_server srv;
static SSL_CTX	*ctx;
static char	 capsule[512];
static atomic_int stop;
static atomic_int nreq[2], ntrunc, nwrong, nabsent, nwhole_old, nwhole;
static atomic_int nops[4];		/* pieces, rename, recreate, touch */
static atomic_int next_version = 1;

/*
 * What the readers may expect of each churn post.  A post deleted and
 * made again is served only once a build has read it whole: if its
 * writer begins again before that (a chain of saves closer together
 * than the debounce), "not found" is right, since no whole version was
 * ever read.  known_at says from when a whole version must have been.
 */
static struct churn {
	pthread_mutex_t	 mtx;
	int		 present;	/* its file is there (maybe half) */
	int		 writing;	/* a writer has it open */
	uint64_t	 last_whole;	/* e2e_now_ms() it was last closed */
	uint64_t	 known_at;	/* 0: no whole version read yet */
} churn[NCHURN];

/* Writer: k is about to be written (or, whole, renamed over). */
static void
begin_write(int k, int rename)
{
	struct churn	*c = &churn[k];
	uint64_t	 now = e2e_now_ms();

	pthread_mutex_lock(&c->mtx);
	if (c->present && !c->writing && c->known_at == 0 &&
	    now - c->last_whole >= QUIET_MS)
		c->known_at = c->last_whole + QUIET_MS;
	if (rename) {
		c->present = 1;
		c->last_whole = now;
	} else
		c->writing = 1;
	pthread_mutex_unlock(&c->mtx);
}

static void
end_write(int k)
{
	struct churn	*c = &churn[k];

	pthread_mutex_lock(&c->mtx);
	c->writing = 0;
	c->present = 1;
	c->last_whole = e2e_now_ms();
	pthread_mutex_unlock(&c->mtx);
}

static void
deleted(int k)
{
	struct churn	*c = &churn[k];

	pthread_mutex_lock(&c->mtx);
	c->present = 0;
	c->known_at = 0;
	pthread_mutex_unlock(&c->mtx);
}

static void
churn_path(char *path, size_t len, int k)
{
	snprintf(path, len, "%s/posts/2025-02-%02d-churn-%d.md", capsule,
	    k + 1, k);
}

/* ---- writers --------------------------------------------------------- */

/* The text of version v of churn post k, cut into n pieces. */
static void
text(char *buf, size_t len, int k, int v)
{
	struct buf	 b = BUF_INIT;
	int		 i;

	buf_printf(&b, "---\ntitle: Churn %d version %d\ntags: [churn]\n"
	    "---\nCHURN %d v%d BEGIN\n\n", k, v, k, v);
	for (i = 0; i < 30; i++)
		buf_printf(&b, "Line %d of version %d, the words of a post "
		    "that a writer is still typing.\n", i, v);
	buf_printf(&b, "\nCHURN %d v%d END\n", k, v);
	snprintf(buf, len, "%s", b.data);
	buf_free(&b);
}

/* A new version of k, written in place through one open file. */
static void
rewrite(int k, unsigned *seed)
{
	char	 path[1024], t[8192];
	int	 fd, v = atomic_fetch_add(&next_version, 1);

	churn_path(path, sizeof(path), k);
	text(t, sizeof(t), k, v);
	begin_write(k, 0);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
	    0644)) == -1) {
		perror(path);
		return;
	}
	e2e_write_pieces(fd, t, 2 + (int)e2e_rnd(seed, 3), seed);
	close(fd);
	end_write(k);
}

static void
op_pieces(int k, unsigned *seed)
{
	rewrite(k, seed);
	atomic_fetch_add(&nops[0], 1);
}

static void
op_rename(int k, unsigned *seed)
{
	char	 path[1024], tmp[1100], t[8192];
	int	 v = atomic_fetch_add(&next_version, 1);

	churn_path(path, sizeof(path), k);
	snprintf(tmp, sizeof(tmp), "%s/posts/.churn-%d.tmp", capsule, k);
	text(t, sizeof(t), k, v);
	test_write(tmp, "%s", t);
	begin_write(k, 1);
	if (rename(tmp, path) == -1)
		perror(tmp);
	atomic_fetch_add(&nops[1], 1);
}

static void
op_recreate(int k, unsigned *seed)
{
	char	 path[1024];

	churn_path(path, sizeof(path), k);
	deleted(k);
	unlink(path);
	e2e_sleep_ms(50 + e2e_rnd(seed, 300));
	rewrite(k, seed);
	atomic_fetch_add(&nops[2], 1);
}

static void
op_touch(int k, unsigned *seed)
{
	char	 path[1024];

	churn_path(path, sizeof(path), k);
	if (utimensat(AT_FDCWD, path, NULL, 0) == -1)
		perror(path);
	atomic_fetch_add(&nops[3], 1);
}

static void *
writer(void *arg)
{
	unsigned	 seed = 7919u * (unsigned)(size_t)arg + 1;
	int		 k, r;

	while (!atomic_load(&stop)) {
		k = (int)(size_t)arg * 2 + (int)e2e_rnd(&seed, 2);
		r = (int)e2e_rnd(&seed, 10);
		if (r < 5)
			op_pieces(k, &seed);
		else if (r < 7)
			op_rename(k, &seed);
		else if (r < 9)
			op_recreate(k, &seed);
		else
			op_touch(k, &seed);
		e2e_sleep_ms(e2e_rnd(&seed, 100));
	}
	return NULL;
}

/* ---- readers --------------------------------------------------------- */

/* May churn post k answer "not found" to a request sent at t0? */
static int
may_be_absent(int k, uint64_t t0)
{
	struct churn	*c = &churn[k];
	uint64_t	 known;
	int		 ok;

	pthread_mutex_lock(&c->mtx);
	known = c->known_at;
	if (known == 0 && c->present && !c->writing)
		known = c->last_whole + QUIET_MS;	/* left alone */
	ok = !c->present || known == 0 || t0 < known + LAG_MS;
	pthread_mutex_unlock(&c->mtx);
	return ok;
}

static void
judge_churn(const char *proto, const char *path, int k, int found,
    const char *body, uint64_t t0)
{
	char		 end[64];
	const char	*p;
	int		 v, n;

	if (!found) {
		if (may_be_absent(k, t0))
			atomic_fetch_add(&nabsent, 1);
		else
			e2e_wrong(&nwrong, proto, path,
			    "not found, yet it is there");
		return;
	}
	snprintf(end, sizeof(end), "CHURN %d v", k);
	n = 0;
	if (body == NULL || (p = strstr(body, end)) == NULL ||
	    sscanf(p + strlen(end), "%d BEGIN%n", &v, &n) != 1 || n == 0) {
		e2e_wrong(&nwrong, proto, path, "no BEGIN line of this post");
		if (getenv("SETTLE_DEBUG") != NULL)
			fprintf(stderr, "---\n%.300s\n---\n", body ? body : "");
		return;
	}
	snprintf(end, sizeof(end), "CHURN %d v%d END", k, v);
	if (strstr(body, end) == NULL) {
		atomic_fetch_add(&ntrunc, 1);
		fprintf(stderr, "TRUNCATED %s %s: v%d\n", proto, path, v);
	} else
		atomic_fetch_add(&nwhole, 1);
}

static void
judge_stable(const char *proto, const char *path, int k, int found,
    const char *body)
{
	if (!found || !e2e_stable_whole(body, k))
		e2e_wrong(&nwrong, proto, path, "a stable post not whole");
	else
		atomic_fetch_add(&nwhole_old, 1);
}

static void
judge_list(const char *proto, int found, const char *body)
{
	if (!found || body == NULL)
		e2e_wrong(&nwrong, proto, "/posts/", "no list");
	else if (!e2e_lists_stable(body, NSTABLE))
		e2e_wrong(&nwrong, proto, "/posts/", "a stable post missing");
}

static void *
reader(void *arg)
{
	const char	*proto;
	struct buf	 body;
	unsigned	 seed = 104729u * (unsigned)(size_t)arg + 3;
	uint64_t	 t0;
	char		 path[128];
	int		 gopher = (int)(size_t)arg % 2, r, k, found;

	proto = gopher ? "gopher" : "gemini";
	while (!atomic_load(&stop)) {
		r = (int)e2e_rnd(&seed, 10);
		k = (int)e2e_rnd(&seed, r < 5 ? NCHURN : NSTABLE);
		if (r < 5)
			snprintf(path, sizeof(path), "/posts/churn-%d", k);
		else if (r < 9)
			snprintf(path, sizeof(path), "/posts/stable-%d", k);
		else
			snprintf(path, sizeof(path), "/posts/");
		t0 = e2e_now_ms();
		found = e2e_ask(&srv, ctx, gopher, path, &body);
		atomic_fetch_add(&nreq[gopher], 1);
		if (found == -1)
			e2e_wrong(&nwrong, proto, path,
			    "no answer, or a bad one");
		else if (r < 5)
			judge_churn(proto, path, k, found, body.data, t0);
		else if (r < 9)
			judge_stable(proto, path, k, found, body.data);
		else
			judge_list(proto, found, body.data);
		buf_free(&body);
	}
	return NULL;
}

/* ---- the run --------------------------------------------------------- */

static void
make_capsule(const char *top)
{
	char	 path[1024], t[8192];
	int	 k;

	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	mkdir(capsule, 0755);
	snprintf(path, sizeof(path), "%s/posts", capsule);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/index.md", capsule);
	test_write(path, "A capsule under a storm of writes.\n");
	e2e_stable_posts(capsule, NSTABLE);
	for (k = 0; k < NCHURN; k++) {
		pthread_mutex_init(&churn[k].mtx, NULL);
		churn[k].present = 1;
		churn[k].known_at = 1;
		churn_path(path, sizeof(path), k);
		text(t, sizeof(t), k, 0);
		test_write(path, "%s", t);
	}
}

static const struct harness_test tests[] = {
	NAMED("settle"),
};

int
main(int argc, char **argv)
{
	pthread_t	 rd[NREADERS], wr[NWRITERS];
	char		 top[64], cmd[128];
	uint64_t	 t0;
	double		 secs;
	int		 i, ops;

	HARNESS_INIT(argc, argv, tests);

	snprintf(top, sizeof(top), "/tmp/capsuled-settle.XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	make_capsule(top);
	ctx = e2e_client_ctx(0);
	if (e2e_start(&srv, capsule, "watch_debounce: 100ms\n"
	    "rate_limit: off\nmax_connections_per_ip: 0\n"
	    "access_log: false\n") == -1) {
		OK(0, "server start");
		return harness_done();
	}
	e2e_wait_serving(&srv);
	t0 = e2e_now_ms();
	for (i = 0; i < NREADERS; i++)
		pthread_create(&rd[i], NULL, reader, (void *)(size_t)i);
	for (i = 0; i < NWRITERS; i++)
		pthread_create(&wr[i], NULL, writer, (void *)(size_t)i);
	e2e_sleep_ms(RUN_MS);
	atomic_store(&stop, 1);
	for (i = 0; i < NWRITERS; i++)
		pthread_join(wr[i], NULL);
	for (i = 0; i < NREADERS; i++)
		pthread_join(rd[i], NULL);
	secs = (double)(e2e_now_ms() - t0) / 1000;
	ops = nops[0] + nops[1] + nops[2] + nops[3];
	fprintf(stderr, "FIGURE settle stress %.0f s: %d file operations "
	    "(%d in pieces, %d renamed over, %d deleted and made again, %d "
	    "touched)\n", secs, ops, nops[0], nops[1], nops[2], nops[3]);
	fprintf(stderr, "FIGURE settle stress: %d requests (%d Gemini, %d "
	    "Gopher): %d truncated pages, %d wrong answers; %d whole churn "
	    "pages, %d not found while deleted, %d stable pages\n",
	    nreq[0] + nreq[1], nreq[0], nreq[1], atomic_load(&ntrunc),
	    atomic_load(&nwrong), atomic_load(&nwhole),
	    atomic_load(&nabsent), atomic_load(&nwhole_old));
	fprintf(stderr, "FIGURE settle stress: server: %d rebuilds; %d "
	    "writes seen begin; a file being written kept its old version "
	    "%d times and a new one was left out %d times; %d reads changed "
	    "under them\n", e2e_log_count(&srv, "info: content:"),
	    e2e_log_count(&srv, ": being written\n"),
	    e2e_log_count(&srv, "the version before stays"),
	    e2e_log_count(&srv, "left out until it is whole"),
	    e2e_log_count(&srv, "changed while read"));
	OK(ops > 100, "file operations: %d", ops);
	OK(nreq[0] + nreq[1] > 1000, "requests: %d", nreq[0] + nreq[1]);
	INT_EQ(atomic_load(&ntrunc), 0, "truncated pages");
	INT_EQ(atomic_load(&nwrong), 0, "wrong answers");
	INT_EQ(e2e_stop(&srv), 0, "clean exit");
	SSL_CTX_free(ctx);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	(void)!system(cmd);
	return harness_done();
}
