/*
 * slow_soak.c -- the soak (make test-slow): ten minutes of mixed
 * work against the real server, every answer checked against what the
 * files held, and the server's memory and fds at the start and the end.
 *
 * CAPSULED_SOAK_SECONDS sets the length (default 600).  The capsule has
 * STABLE posts that never change, EDIT posts that a writer rewrites
 * straight in the capsule (in place in pieces with pauses longer than
 * the debounce, a temp file renamed over, or touched), and TITAN posts
 * replaced by uploads with a writer's client certificate.  Every version
 * written is numbered and remembered for its post before it reaches the
 * disk, so a page is right only when it is whole (its BEGIN and END
 * lines of one version) and of a version that post was given.  Besides:
 *
 *   - two Gemini and two Gopher readers ask for random posts and for
 *     /posts/ (which must list every stable post);
 *   - a SIGHUP every 3 to 7 s (configuration, certificates, content);
 *   - a slow-loris from 127.0.0.2 to 127.0.0.9: 24 connections that are
 *     silent, drip a Gopher selector a byte a second, or finish the TLS
 *     handshake and say nothing; each one the server closes is opened
 *     again, and none may live past request_timeout by much.
 *
 * VmRSS is read after a warm-up (a tenth of the run, at most 60 s) and
 * at the end, both under load; it may not grow by more than 20 MB (not
 * checked under ASan, whose quarantine holds freed memory).  Open fds
 * are counted at rest before the load and after it (the loris closed,
 * the server given a moment): at most 8 more.  Requests without an
 * answer are errors; wrong answers, truncated pages, failed uploads and
 * errors must all be 0.  The figures are printed as FIGURE lines.
 */
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>

#include "e2e.h"

#define NSTABLE		4
#define NEDIT		4
#define NTITAN		4
#define NREADERS	4		/* two Gemini, two Gopher */
#define NLORIS		24
#define NLORIS_ADDRS	8		/* 127.0.0.2 ... 127.0.0.9 */
#define REQUEST_TIMEOUT_MS 3000
#define MAXV		(1 << 20)	/* version numbers handed out */
#define RSS_SLACK_KIB	(20 * 1024)
#define FD_SLACK	8

enum kind { EDIT, TITAN };
static const char *const kind_name[] = { "EDIT", "TITAN" };

static struct e2e_server srv;
static SSL_CTX	*anon, *writer;
static char	 capsule[512];
static atomic_int stop;
static atomic_int nreq[2], nerr, nwrong, ntrunc, npages[3];
static atomic_int nedits[3], ntitan, ntitan_fail, nhup;
static atomic_int nloris_open, nloris_closed, loris_lo = 1 << 30, loris_hi;

/* Which post each version number was written for (1 + post id). */
static atomic_uchar owner[MAXV];
static atomic_int next_version = 1;

static int
post_id(enum kind kind, int k)
{
	return 1 + (kind == EDIT ? k : NEDIT + k);
}

/* A new version number for (kind, k), remembered; 0 when none left. */
static int
new_version(enum kind kind, int k)
{
	int	 v = atomic_fetch_add(&next_version, 1);

	if (v >= MAXV)
		return 0;
	atomic_store(&owner[v], (unsigned char)post_id(kind, k));
	return v;
}

/* The text of version v of post (kind, k). */
static char *
text(enum kind kind, int k, int v)
{
	struct buf	 b = BUF_INIT;
	int		 i;

	buf_printf(&b, "---\ntitle: Version %d of %s %d\n---\n%s %d v%d "
	    "BEGIN\n\n", v, kind_name[kind], k, kind_name[kind], k, v);
	for (i = 0; i < 30; i++)
		buf_printf(&b, "Line %d of version %d, the words of a post "
		    "written again and again.\n", i, v);
	buf_printf(&b, "\n%s %d v%d END\n", kind_name[kind], k, v);
	return b.data;
}

static void
edit_path(char *path, size_t len, int k)
{
	snprintf(path, len, "%s/posts/2025-02-%02d-edit-%d.md", capsule, k + 1,
	    k);
}

/* ---- writers --------------------------------------------------------- */

static void *
editor(void *arg)
{
	unsigned	 seed = 7919u;
	char		 path[1024], tmp[1100], *t;
	int		 k, r, v = 0, fd;

	(void)arg;
	while (!atomic_load(&stop)) {
		k = (int)e2e_rnd(&seed, NEDIT);
		r = (int)e2e_rnd(&seed, 10);
		edit_path(path, sizeof(path), k);
		if (r < 9 && (v = new_version(EDIT, k)) == 0)
			break;
		if (r < 6) {		/* in place, in pieces */
			t = text(EDIT, k, v);
			if ((fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)) ==
			    -1)
				perror(path);
			else {
				e2e_write_pieces(fd, t, 2 + (int)e2e_rnd(&seed,
				    3), &seed);
				close(fd);
			}
			free(t);
			atomic_fetch_add(&nedits[0], 1);
		} else if (r < 9) {	/* a temp file renamed over */
			snprintf(tmp, sizeof(tmp), "%s/posts/.edit-%d.tmp",
			    capsule, k);
			t = text(EDIT, k, v);
			test_write(tmp, "%s", t);
			free(t);
			if (rename(tmp, path) == -1)
				perror(tmp);
			atomic_fetch_add(&nedits[1], 1);
		} else {
			if (utimensat(AT_FDCWD, path, NULL, 0) == -1)
				perror(path);
			atomic_fetch_add(&nedits[2], 1);
		}
		e2e_sleep_ms(e2e_rnd(&seed, 300));
	}
	return NULL;
}

static void *
titan(void *arg)
{
	struct buf	 req;
	struct reply	 r;
	unsigned	 seed = 15485863u;
	char		*t;
	int		 k, v;

	(void)arg;
	while (!atomic_load(&stop)) {
		k = (int)e2e_rnd(&seed, NTITAN);
		if ((v = new_version(TITAN, k)) == 0)
			break;
		t = text(TITAN, k, v);
		buf_init(&req);
		buf_printf(&req, "titan://localhost:%d/posts/titan-%d;size=%zu;"
		    "mime=text/markdown\r\n%s", srv.gemini_port, k, strlen(t),
		    t);
		if (e2e_gemini_raw(srv.gemini_port, req.data, req.len, &r,
		    writer, "localhost") == -1 || r.status != 30) {
			atomic_fetch_add(&ntitan_fail, 1);
			fprintf(stderr, "FAIL titan upload %d v%d: %s\n", k, v,
			    r.header);
		}
		atomic_fetch_add(&ntitan, 1);
		reply_free(&r);
		buf_free(&req);
		free(t);
		e2e_sleep_ms(50 + e2e_rnd(&seed, 250));
	}
	return NULL;
}

static void *
hupper(void *arg)
{
	unsigned	 seed = 32452843u;
	uint64_t	 next;

	(void)arg;
	next = e2e_now_ms() + 3000 + e2e_rnd(&seed, 4000);
	while (!atomic_load(&stop)) {
		if (e2e_now_ms() >= next) {
			kill(srv.pid, SIGHUP);
			atomic_fetch_add(&nhup, 1);
			next = e2e_now_ms() + 3000 + e2e_rnd(&seed, 4000);
		}
		e2e_sleep_ms(100);
	}
	return NULL;
}

/* ---- slow-loris ------------------------------------------------------ */

enum loris_kind { LORIS_SILENT, LORIS_GOPHER_DRIP, LORIS_TLS_IDLE };

struct loris {
	int		 fd;
	SSL		*ssl;
	size_t		 sent;
	uint64_t	 t_open;
};

static void
loris_open(struct loris *l, int i)
{
	enum loris_kind	 kind = (enum loris_kind)(i % 3);
	char		 src[32];

	snprintf(src, sizeof(src), "127.0.0.%d", 2 + i % NLORIS_ADDRS);
	l->sent = 0;
	l->ssl = NULL;
	l->t_open = e2e_now_ms();
	l->fd = e2e_connect_from(src, NULL, kind == LORIS_GOPHER_DRIP ?
	    srv.gopher_port : srv.gemini_port, 3000, 0);
	if (l->fd == -1)
		return;
	atomic_fetch_add(&nloris_open, 1);
	if (kind == LORIS_TLS_IDLE) {
		l->ssl = SSL_new(anon);
		SSL_set_fd(l->ssl, l->fd);
		if (SSL_connect(l->ssl) != 1)
			ERR_clear_error();
	}
}

static void
loris_close(struct loris *l)
{
	if (l->ssl != NULL)
		SSL_free(l->ssl);
	if (l->fd != -1)
		close(l->fd);
	l->ssl = NULL;
	l->fd = -1;
}

static void
atomic_min_max(int ms)
{
	int	 cur;

	cur = atomic_load(&loris_lo);
	while (ms < cur && !atomic_compare_exchange_weak(&loris_lo, &cur, ms))
		;
	cur = atomic_load(&loris_hi);
	while (ms > cur && !atomic_compare_exchange_weak(&loris_hi, &cur, ms))
		;
}

static void *
loris(void *arg)
{
	static const char sel[] = "/posts/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
	struct loris	 l[NLORIS];
	struct pollfd	 pfd[NLORIS];
	uint64_t	 next_drip = e2e_now_ms();
	int		 i;

	(void)arg;
	for (i = 0; i < NLORIS; i++)
		loris_open(&l[i], i);
	while (!atomic_load(&stop)) {
		if (e2e_now_ms() >= next_drip) {
			next_drip += 1000;
			for (i = 0; i < NLORIS; i++)
				if (l[i].fd != -1 &&
				    i % 3 == LORIS_GOPHER_DRIP)
					(void)!send(l[i].fd, sel + l[i].sent++ %
					    (sizeof(sel) - 1), 1,
					    MSG_NOSIGNAL | MSG_DONTWAIT);
		}
		for (i = 0; i < NLORIS; i++) {
			pfd[i].fd = l[i].fd;
			pfd[i].events = POLLIN;
			pfd[i].revents = 0;
		}
		if (poll(pfd, NLORIS, 50) > 0)
			for (i = 0; i < NLORIS; i++) {
				if (pfd[i].revents == 0 ||
				    !e2e_peer_closed(l[i].fd))
					continue;
				atomic_fetch_add(&nloris_closed, 1);
				atomic_min_max((int)(e2e_now_ms() -
				    l[i].t_open));
				loris_close(&l[i]);
			}
		for (i = 0; i < NLORIS; i++)
			if (l[i].fd == -1)
				loris_open(&l[i], i);
	}
	for (i = 0; i < NLORIS; i++)
		loris_close(&l[i]);
	return NULL;
}

/* ---- readers --------------------------------------------------------- */

/* A page of (kind, k): whole, and a version that post was given. */
static void
judge_versioned(const char *proto, const char *path, enum kind kind, int k,
    const char *body)
{
	char		 mark[64];
	const char	*p;
	int		 v, n = 0;

	snprintf(mark, sizeof(mark), "%s %d v", kind_name[kind], k);
	if ((p = strstr(body, mark)) == NULL ||
	    sscanf(p + strlen(mark), "%d BEGIN%n", &v, &n) != 1 || n == 0) {
		e2e_wrong(&nwrong, proto, path, "no BEGIN line of this post");
		return;
	}
	if (v <= 0 || v >= MAXV ||
	    atomic_load(&owner[v]) != post_id(kind, k)) {
		e2e_wrong(&nwrong, proto, path,
		    "a version this post never held");
		return;
	}
	snprintf(mark, sizeof(mark), "%s %d v%d END", kind_name[kind], k, v);
	if (strstr(body, mark) == NULL) {
		atomic_fetch_add(&ntrunc, 1);
		fprintf(stderr, "TRUNCATED %s %s: v%d\n", proto, path, v);
		return;
	}
	atomic_fetch_add(&npages[kind], 1);
}

static void
judge_stable(const char *proto, const char *path, int k, const char *body)
{
	if (!e2e_stable_whole(body, k))
		e2e_wrong(&nwrong, proto, path, "a stable post not whole");
	else
		atomic_fetch_add(&npages[2], 1);
}

static void *
reader(void *arg)
{
	const char	*proto;
	struct buf	 body;
	unsigned	 seed = 104729u * (unsigned)(size_t)arg + 3;
	char		 path[128];
	int		 gopher = (int)(size_t)arg % 2, r, k, found;

	proto = gopher ? "gopher" : "gemini";
	while (!atomic_load(&stop)) {
		r = (int)e2e_rnd(&seed, 10);
		k = (int)e2e_rnd(&seed, 4);
		if (r < 3)
			snprintf(path, sizeof(path), "/posts/edit-%d", k);
		else if (r < 6)
			snprintf(path, sizeof(path), "/posts/titan-%d", k);
		else if (r < 9)
			snprintf(path, sizeof(path), "/posts/stable-%d", k);
		else
			snprintf(path, sizeof(path), "/posts/");
		found = e2e_ask(&srv, anon, gopher, path, &body);
		if (found == -1) {
			atomic_fetch_add(&nerr, 1);
			fprintf(stderr, "ERROR %s %s: no answer, or a bad "
			    "one\n", proto, path);
		} else {
			atomic_fetch_add(&nreq[gopher], 1);
			/* No post is ever deleted: "not found" is wrong. */
			if (!found)
				e2e_wrong(&nwrong, proto, path, "not found");
			else if (r < 3)
				judge_versioned(proto, path, EDIT, k,
				    body.data);
			else if (r < 6)
				judge_versioned(proto, path, TITAN, k,
				    body.data);
			else if (r < 9)
				judge_stable(proto, path, k, body.data);
			else if (!e2e_lists_stable(body.data, NSTABLE))
				e2e_wrong(&nwrong, proto, path,
				    "a stable post missing");
		}
		buf_free(&body);
		e2e_sleep_ms(2);
	}
	return NULL;
}

/* ---- the run --------------------------------------------------------- */

static void
make_capsule(const char *top)
{
	char	 path[1024], *t;
	int	 k;

	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	mkdir(capsule, 0755);
	snprintf(path, sizeof(path), "%s/posts", capsule);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/index.md", capsule);
	test_write(path, "A capsule that never rests.\n");
	e2e_stable_posts(capsule, NSTABLE);
	for (k = 0; k < NEDIT; k++) {
		edit_path(path, sizeof(path), k);
		t = text(EDIT, k, new_version(EDIT, k));
		test_write(path, "%s", t);
		free(t);
	}
	for (k = 0; k < NTITAN; k++) {
		snprintf(path, sizeof(path), "%s/posts/2025-03-%02d-titan-%d"
		    ".md", capsule, k + 1, k);
		t = text(TITAN, k, new_version(TITAN, k));
		test_write(path, "%s", t);
		free(t);
	}
}

static const struct harness_test tests[] = {
	NAMED("soak"),
};

int
main(int argc, char **argv)
{
	const char	*env = getenv("CAPSULED_SOAK_SECONDS");
	pthread_t	 rd[NREADERS], ed, ti, hu, lo;
	char		 top[64], cmd[128], hex[65], extra[512];
	long		 rss_boot, rss_start, rss_end, rss_peak = 0, kib;
	uint64_t	 t0, warm_ms, run_ms, next_note;
	int		 i, fd_rest0, fd_start, fd_end, fd_rest1, served;

	HARNESS_INIT(argc, argv, tests);

	run_ms = (uint64_t)(env != NULL && atoi(env) > 0 ? atoi(env) : 600) *
	    1000;
	warm_ms = run_ms / 10 < 60000 ? run_ms / 10 : 60000;
	signal(SIGPIPE, SIG_IGN);
	snprintf(top, sizeof(top), "/tmp/capsuled-soak.XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	make_capsule(top);
	anon = e2e_client_ctx(0);
	writer = e2e_cert_ctx("writer", hex);
	snprintf(extra, sizeof(extra), "titan_writers: [\"%s\"]\n"
	    "titan_max_size: 64K\nwatch_debounce: 100ms\nrate_limit: off\n"
	    "access_log: false\nhandshake_timeout: 2\nrequest_timeout: %d\n",
	    hex, REQUEST_TIMEOUT_MS / 1000);
	if (e2e_start(&srv, capsule, extra) == -1) {
		OK(0, "server start");
		return harness_done();
	}
	e2e_wait_serving(&srv);
	fd_rest0 = e2e_fd_count(srv.pid);
	rss_boot = e2e_proc_status_kb(srv.pid, "VmRSS");

	t0 = e2e_now_ms();
	for (i = 0; i < NREADERS; i++)
		pthread_create(&rd[i], NULL, reader, (void *)(size_t)i);
	pthread_create(&ed, NULL, editor, NULL);
	pthread_create(&ti, NULL, titan, NULL);
	pthread_create(&hu, NULL, hupper, NULL);
	pthread_create(&lo, NULL, loris, NULL);
	while (e2e_now_ms() - t0 < warm_ms)
		e2e_sleep_ms(200);
	rss_start = e2e_proc_status_kb(srv.pid, "VmRSS");
	fd_start = e2e_fd_count(srv.pid);
	next_note = e2e_now_ms();
	while (e2e_now_ms() - t0 < run_ms) {
		e2e_sleep_ms(1000);
		if ((kib = e2e_proc_status_kb(srv.pid, "VmRSS")) > rss_peak)
			rss_peak = kib;
		if (e2e_now_ms() >= next_note) {	/* for the log */
			next_note += 30000;
			fprintf(stderr, "soak %llu s: VmRSS %ld KiB, %d fds, "
			    "%d requests, %d wrong\n", (unsigned long long)
			    (e2e_now_ms() - t0) / 1000, kib,
			    e2e_fd_count(srv.pid), nreq[0] + nreq[1],
			    atomic_load(&nwrong));
		}
	}
	rss_end = e2e_proc_status_kb(srv.pid, "VmRSS");
	fd_end = e2e_fd_count(srv.pid);
	atomic_store(&stop, 1);
	for (i = 0; i < NREADERS; i++)
		pthread_join(rd[i], NULL);
	pthread_join(ed, NULL);
	pthread_join(ti, NULL);
	pthread_join(hu, NULL);
	pthread_join(lo, NULL);
	fd_rest1 = e2e_fds_wait(srv.pid, fd_rest0, 5000);

	served = nreq[0] + nreq[1];
	fprintf(stderr, "FIGURE soak %.0f s: %d requests served (%d Gemini, "
	    "%d Gopher), %d errors, %d wrong answers, %d truncated pages; "
	    "whole pages: %d edited, %d uploaded, %d stable\n",
	    (double)(e2e_now_ms() - t0) / 1000, served, nreq[0], nreq[1],
	    atomic_load(&nerr), atomic_load(&nwrong), atomic_load(&ntrunc),
	    npages[EDIT], npages[TITAN], npages[2]);
	fprintf(stderr, "FIGURE soak: %d Titan uploads (%d failed), %d file "
	    "edits (%d in pieces, %d renamed over, %d touched), %d SIGHUPs, "
	    "%d rebuilds; slow-loris: %d connections from %d addresses, %d "
	    "closed by the server after %d-%d ms\n", atomic_load(&ntitan),
	    atomic_load(&ntitan_fail), nedits[0] + nedits[1] + nedits[2],
	    nedits[0], nedits[1], nedits[2], atomic_load(&nhup),
	    e2e_log_count(&srv, "info: content:"), atomic_load(&nloris_open),
	    NLORIS_ADDRS, atomic_load(&nloris_closed),
	    atomic_load(&loris_lo), atomic_load(&loris_hi));
	fprintf(stderr, "FIGURE soak: VmRSS %ld KiB at boot, %ld KiB at start "
	    "(after %llu s warm-up), %ld KiB at end (%+ld KiB), peak %ld KiB; "
	    "fds at rest %d before, %d after; under load %d at start, %d at "
	    "end\n", rss_boot, rss_start, (unsigned long long)warm_ms / 1000,
	    rss_end, rss_end - rss_start, rss_peak, fd_rest0, fd_rest1,
	    fd_start, fd_end);

	OK(served > (int)(run_ms / 1000) * 10, "requests served: %d", served);
	OK(ntitan > 0 && nedits[0] + nedits[1] > 0 && nhup > 0 &&
	    nloris_closed > 0, "every kind of work was done");
	INT_EQ(atomic_load(&nwrong), 0, "wrong answers");
	INT_EQ(atomic_load(&ntrunc), 0, "truncated pages");
	INT_EQ(atomic_load(&nerr), 0, "requests without an answer");
	INT_EQ(atomic_load(&ntitan_fail), 0, "failed uploads");
	OK(loris_hi <= REQUEST_TIMEOUT_MS + 2000, "every slow-loris "
	    "connection closed within request_timeout (longest %d ms)",
	    atomic_load(&loris_hi));
#ifndef __SANITIZE_ADDRESS__
	OK(rss_end <= rss_start + RSS_SLACK_KIB, "VmRSS %ld KiB at end, "
	    "%ld KiB at start", rss_end, rss_start);
#else
	fprintf(stderr, "(ASan build: VmRSS not checked)\n");
#endif
	OK(fd_rest1 <= fd_rest0 + FD_SLACK, "fds at rest: %d after, %d "
	    "before", fd_rest1, fd_rest0);
	INT_EQ(e2e_stop(&srv), 0, "clean exit");
	SSL_CTX_free(anon);
	SSL_CTX_free(writer);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	(void)!system(cmd);
	return harness_done();
}
