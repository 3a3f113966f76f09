/*
 * e2e_settle.c -- only settled files are published.
 *
 * A writer that saves a post in pieces, with pauses longer than the
 * debounce, must never have its half-written post served.  The real
 * server watches a temp capsule (watch_debounce: 100ms) while two
 * request loops (Gemini and Gopher) read the post being written, and
 * this thread writes it as such writers do:
 *
 *   1. in place: one open(O_TRUNC), three pieces 300 ms apart (the
 *      first cut inside the front matter), one close;
 *   2. a new post, made the same way;
 *   3. a post written whole and then kept open: it is served once the
 *      file has been quiet for the watch's settle time (5 s), not
 *      before, and not never.
 *
 * Every answer is whole: the old version or the new one, each with
 * both of its BEGIN and END lines, or "not found" for a post not yet
 * there.  Anything else is a truncated page (a BEGIN without its END)
 * or a wrong answer (another status, a missing post).  The figures go
 * to stderr.
 */
#include <pthread.h>
#include <stdatomic.h>

#include "e2e.h"

#define PIECE_MS	300
#define FILLER		40		/* lines per middle piece */

static struct e2e_server srv;
static SSL_CTX	*ctx;
static char	 capsule[512];

/* What the request loops read, and what they may see. */
static const char *_Atomic target;	/* "/posts/x" */
static atomic_int may_be_absent;	/* 51 is fine: a post on its way */
static atomic_int stop;
static atomic_int nreq, ntrunc, nwrong, nold, nnew, nabsent;
static atomic_int version;		/* the newest version written */

static void
path_of(char *path, size_t len, const char *rel)
{
	snprintf(path, len, "%s/%s", capsule, rel);
}

/*
 * Sort one answer: whole (a version with both its lines), absent, or
 * truncated / wrong.  body may be NULL.
 */
static void
judge(const char *proto, int ok, const char *body)
{
	char	 begin[32], end[32];
	int	 v, found = 0;

	atomic_fetch_add(&nreq, 1);
	if (!ok) {
		if (atomic_load(&may_be_absent)) {
			atomic_fetch_add(&nabsent, 1);
			return;
		}
		atomic_fetch_add(&nwrong, 1);
		fprintf(stderr, "WRONG %s %s: not found\n", proto,
		    atomic_load(&target));
		return;
	}
	for (v = atomic_load(&version); v >= 0 && body != NULL; v--) {
		snprintf(begin, sizeof(begin), "BEGIN v%d here", v);
		snprintf(end, sizeof(end), "END v%d here", v);
		if (strstr(body, begin) == NULL)
			continue;
		found = 1;
		if (strstr(body, end) == NULL) {
			atomic_fetch_add(&ntrunc, 1);
			fprintf(stderr, "TRUNCATED %s %s: v%d has no END\n",
			    proto, atomic_load(&target), v);
		} else if (v == atomic_load(&version))
			atomic_fetch_add(&nnew, 1);
		else
			atomic_fetch_add(&nold, 1);
		break;
	}
	if (!found) {
		atomic_fetch_add(&nwrong, 1);
		fprintf(stderr, "WRONG %s %s: no BEGIN line\n", proto,
		    atomic_load(&target));
	}
}

static void *
gemini_loop(void *arg)
{
	struct reply	 r;
	char		 req[512];
	int		 len;

	while (!atomic_load(&stop)) {
		len = snprintf(req, sizeof(req), "gemini://localhost:%d%s\r\n",
		    srv.gemini_port, atomic_load(&target));
		if (e2e_gemini_raw(srv.gemini_port, req, (size_t)len, &r, ctx,
		    "localhost") == -1 || (r.status != 20 && r.status != 51) ||
		    (r.status == 20 && !r.close_notify)) {
			atomic_fetch_add(&nreq, 1);
			atomic_fetch_add(&nwrong, 1);
			fprintf(stderr, "WRONG gemini: status %d\n", r.status);
		} else
			judge("gemini", r.status == 20, r.body.data);
		reply_free(&r);
		e2e_sleep_ms(2);
	}
	return NULL;
}

static void *
gopher_loop(void *arg)
{
	struct buf	 b;
	char		 req[512];
	size_t		 len;

	while (!atomic_load(&stop)) {
		len = (size_t)snprintf(req, sizeof(req), "%s\r\n",
		    atomic_load(&target));
		if (e2e_plain(srv.gopher_port, req, len, &b) == -1 ||
		    b.len == 0) {
			atomic_fetch_add(&nreq, 1);
			atomic_fetch_add(&nwrong, 1);
			fprintf(stderr, "WRONG gopher: no answer\n");
		} else
			judge("gopher", b.data[0] != '3', b.data);
		buf_free(&b);
		e2e_sleep_ms(2);
	}
	return NULL;
}

static void
put(int fd, const char *s)
{
	size_t	 len = strlen(s);

	OK(write(fd, s, len) == (ssize_t)len, "write: %s", strerror(errno));
}

/*
 * Write version v of the post at rel in three pieces, PIECE_MS apart,
 * through one open file.  The first piece stops inside the front
 * matter, the second inside the body.
 */
static void
write_in_pieces(const char *rel, const char *title, int v)
{
	char	 path[1024], s[256];
	int	 fd, i;

	path_of(path, sizeof(path), rel);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	OK(fd != -1, "open %s: %s", path, strerror(errno));
	if (fd == -1)
		return;
	atomic_store(&version, v);
	snprintf(s, sizeof(s), "---\ntitle: %s v%d\n", title, v);
	put(fd, s);
	e2e_sleep_ms(PIECE_MS);
	snprintf(s, sizeof(s), "tags: [settle]\n---\nBEGIN v%d here\n\n", v);
	put(fd, s);
	for (i = 0; i < FILLER; i++) {
		snprintf(s, sizeof(s), "Line %d of version %d, written in "
		    "the middle piece.\n", i, v);
		put(fd, s);
	}
	e2e_sleep_ms(PIECE_MS);
	snprintf(s, sizeof(s), "\nThe last piece.\n\nEND v%d here\n", v);
	put(fd, s);
	close(fd);
}

static void
report(const char *what)
{
	fprintf(stderr, "%s: %d requests: %d old, %d new, %d not yet "
	    "there, %d truncated, %d wrong\n", what, atomic_load(&nreq),
	    atomic_load(&nold), atomic_load(&nnew), atomic_load(&nabsent),
	    atomic_load(&ntrunc), atomic_load(&nwrong));
}

static void
reset(const char *path, int absent_ok)
{
	atomic_store(&target, path);
	atomic_store(&may_be_absent, absent_ok);
	atomic_store(&nreq, 0);
	atomic_store(&nold, 0);
	atomic_store(&nnew, 0);
	atomic_store(&nabsent, 0);
	atomic_store(&ntrunc, 0);
	atomic_store(&nwrong, 0);
}

/* Run the request loops while fn writes; then check the counts. */
static void
under_load(const char *what, const char *path, int absent_ok,
    void (*fn)(void))
{
	pthread_t	 th[2];

	reset(path, absent_ok);
	atomic_store(&stop, 0);
	pthread_create(&th[0], NULL, gemini_loop, NULL);
	pthread_create(&th[1], NULL, gopher_loop, NULL);
	fn();
	atomic_store(&stop, 1);
	pthread_join(th[0], NULL);
	pthread_join(th[1], NULL);
	report(what);
	OK(atomic_load(&nreq) > 20, "%s: the loops were busy (%d "
	    "requests)", what, atomic_load(&nreq));
	INT_EQ(atomic_load(&ntrunc), 0, "truncated pages");
	INT_EQ(atomic_load(&nwrong), 0, "wrong answers");
	OK(atomic_load(&nnew) > 0, "%s: the new version was served", what);
}

static void
edit_in_place(void)
{
	char	 want[32];

	write_in_pieces("posts/2024-05-05-settle.md", "Settle", 1);
	snprintf(want, sizeof(want), "END v%d here", 1);
	OK(e2e_gemini_wait(srv.gemini_port, ctx, "/posts/settle", 20, want, 1,
	    5000) >= 0,
	    "the whole new version shows");
	e2e_sleep_ms(200);
}

static void
new_post(void)
{
	write_in_pieces("posts/2024-06-06-newcomer.md", "Newcomer", 0);
	OK(e2e_gemini_wait(srv.gemini_port, ctx, "/posts/newcomer", 20,
	    "END v0 here", 1, 5000) >= 0,
	    "the new post shows");
	e2e_sleep_ms(200);
}

/* Written whole, the file kept open: served after the settle time. */
static void
kept_open(void)
{
	char	 path[1024];
	long	 ms;
	int	 fd, i;

	path_of(path, sizeof(path), "posts/2024-07-07-open.md");
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	OK(fd != -1, "open %s", path);
	put(fd, "---\ntitle: Kept Open\n---\nBEGIN v0 here\n\nOne piece.\n\n"
	    "END v0 here\n");
	ms = e2e_gemini_wait(srv.gemini_port, ctx, "/posts/open", 20,
	    "END v0 here", 1, 9000);
	close(fd);
	/* Let the loops see it too: a loaded machine may starve them. */
	for (i = 0; i < 300 && atomic_load(&nnew) == 0; i++)
		e2e_sleep_ms(10);
	OK(ms >= 4000 && ms <= 9000, "a file kept open shows after the "
	    "settle time: %ld ms", ms);
	fprintf(stderr, "kept open: served after %ld ms\n", ms);
}

static void
make_capsule(const char *top)
{
	char	 path[1024];

	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	mkdir(capsule, 0755);
	path_of(path, sizeof(path), "posts");
	mkdir(path, 0755);
	path_of(path, sizeof(path), "index.md");
	test_write(path, "A capsule being written.\n");
	path_of(path, sizeof(path), "posts/2024-05-05-settle.md");
	test_write(path, "---\ntitle: Settle v0\ntags: [settle]\n---\n"
	    "BEGIN v0 here\n\nThe first version, whole.\n\nEND v0 here\n");
}

static const struct harness_test tests[] = {
	NAMED("edit_in_place"),
	NAMED("new_post"),
	NAMED("kept_open"),
};

int
main(int argc, char **argv)
{
	char	 top[64], cmd[128];

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
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
		(void)!system(cmd);
		return harness_done();
	}
	e2e_wait_serving(&srv);
	RUN("edit_in_place", under_load("edit in place, 3 pieces",
	    "/posts/settle", 0, edit_in_place));
	RUN("new_post", under_load("new post, 3 pieces", "/posts/newcomer", 1,
	    new_post));
	RUN("kept_open", under_load("kept open", "/posts/open", 1,
	    kept_open));
	INT_EQ(e2e_stop(&srv), 0, "clean exit");
	SSL_CTX_free(ctx);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	(void)!system(cmd);
	return harness_done();
}
