/*
 * slow_soak.c -- the soak (make test-slow): ten minutes of mixed
 * work against the real server with every feature on at once, in the
 * sandbox (tests/lib/rig.h: CGI, FastCGI, SCGI, the Gemini proxy to a
 * second capsuled that logs to syslog, search, Titan, the watcher, a
 * static tree and a gophermap, a user capsule, Spartan, Nex, Finger),
 * every answer checked against what the files held, and both servers'
 * memory and fds at the start and the end.
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
 *   - two more ask every feature of the rig in turn (rig_probe());
 *   - the page bundle goes round: written to disk, replaced by Titan,
 *     deleted by Titan, each step seen served before the next;
 *   - the user's post is rewritten now and then;
 *   - the operator: a SIGHUP every 3 to 7 s, each one adding the second
 *     host (its key made again) or taking it away, checked both ways;
 *     every 30 s or so the log moved away and SIGUSR1;
 *   - a slow-loris from 127.0.0.2 to 127.0.0.9: 24 connections that are
 *     silent, drip a Gopher selector a byte a second, or finish the TLS
 *     handshake and say nothing; each one the server closes is opened
 *     again, and none may live past request_timeout by much.
 *
 * VmRSS is read after a warm-up (a tenth of the run, at most 60 s) and
 * at the end, both under load; it may not grow by more than 20 MB, for
 * either server (not checked under ASan, whose quarantine holds freed
 * memory).  Open fds are counted at rest after one round of every
 * probe (FastCGI connections are kept) and after the load (the loris
 * closed, the servers given a moment): at most 8 more.  Requests without
 * an answer are errors; wrong answers, truncated pages, failed uploads,
 * failed operator moves and errors must all be 0, and so must refused
 * system calls: in the main server's log, in the backend's syslog lines,
 * and in the kernel's audit records (with cgi the filter's refusals go
 * there; a program's unshare(2) at the start shows they do).  Lines the
 * logs dropped are counted from their own "N lines dropped" lines.  The
 * figures are printed as FIGURE lines.
 */
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/syscall.h>

#include "apps.h"
#include "audit.h"
#include "e2e.h"
#include "rig.h"

#define NSTABLE		4
#define NEDIT		4
#define NTITAN		4
#define NREADERS	4		/* two Gemini, two Gopher */
#define NFEATURES	2		/* readers of every feature */
#define NLORIS		24
#define NLORIS_ADDRS	8		/* 127.0.0.2 ... 127.0.0.9 */
#define REQUEST_TIMEOUT_MS 3000
#define MAXV		(1 << 20)	/* version numbers handed out */
#define RSS_SLACK_KIB	(20 * 1024)
#define FD_SLACK	8

enum kind { EDIT, TITAN };
static const char *const kind_name[] = { "EDIT", "TITAN" };

static struct rig rig;
static SSL_CTX	*anon, *writer;
static char	*capsule;
static atomic_int stop;
static atomic_int nreq[2], nerr, nwrong, ntrunc, npages[3];
static atomic_int nedits[3], ntitan, ntitan_fail, nhup;
static atomic_int nprobe[RIG_NPROBES], nbundle, nbundle_fail, nuser;
static atomic_int nhost2[2], nrotate, nop_fail;
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
		if (e2e_rnd(&seed, 10) == 0)	/* the user writes too */
			rig_user_edit(&rig, atomic_fetch_add(&nuser, 1) + 1);
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
		    "mime=text/markdown\r\n%s", rig.main.gemini_port, k, strlen(t),
		    t);
		if (e2e_gemini_raw(rig.main.gemini_port, req.data, req.len, &r,
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

/* RIG_HOST2 as the configuration now says: served, or refused (53). */
static int
host2_right(int on)
{
	struct reply	 r;
	char		 cn[128];
	int		 ok;

	r = rig_host2_get(&rig);
	if (on)
		ok = r.status == 20 && strstr(r.body.data, "SECOND-HOME") !=
		    NULL && rig_host2_cn(&rig, cn, sizeof(cn)) == 0 &&
		    strcmp(cn, RIG_HOST2) == 0;
	else
		ok = r.status == 53;
	if (!ok)
		fprintf(stderr, "WRONG " RIG_HOST2 " %s: %s\n", on ? "added" :
		    "gone", r.header);
	reply_free(&r);
	return ok;
}

/*
 * The operator: a SIGHUP every 3 to 7 s, adding RIG_HOST2 (its key made
 * again) or taking it away, then the log moved and SIGUSR1 every 30 s
 * or so.  One thread does both: they share the log's files.
 */
static void *
operator(void *arg)
{
	unsigned	 seed = 32452843u;
	uint64_t	 next_hup, next_rotate;
	unsigned	 limit = 1000 * harness_time_bound(15);

	(void)arg;
	next_hup = e2e_now_ms() + 3000 + e2e_rnd(&seed, 4000);
	next_rotate = e2e_now_ms() + 20000 + e2e_rnd(&seed, 20000);
	while (!atomic_load(&stop)) {
		if (e2e_now_ms() >= next_hup) {
			int on = !rig.host2;

			if (rig_reload(&rig, on, limit) == -1 ||
			    !host2_right(on)) {
				atomic_fetch_add(&nop_fail, 1);
				fprintf(stderr, "FAIL SIGHUP %s " RIG_HOST2 "\n",
				    on ? "adding" : "taking away");
			}
			atomic_fetch_add(&nhup, 1);
			atomic_fetch_add(&nhost2[on], 1);
			next_hup = e2e_now_ms() + 3000 + e2e_rnd(&seed, 4000);
		}
		if (e2e_now_ms() >= next_rotate) {
			if (rig_rotate(&rig, limit) == -1) {
				atomic_fetch_add(&nop_fail, 1);
				fprintf(stderr, "FAIL SIGUSR1 after the log "
				    "moved\n");
			}
			atomic_fetch_add(&nrotate, 1);
			next_rotate = e2e_now_ms() + 20000 + e2e_rnd(&seed,
			    20000);
		}
		e2e_sleep_ms(100);
	}
	return NULL;
}

/* ---- every feature --------------------------------------------------- */

static void *
features(void *arg)
{
	unsigned	 seed = 49979687u * (unsigned)(size_t)arg + 7;
	char		 why[512];
	int		 p, rv;

	while (!atomic_load(&stop)) {
		p = (int)e2e_rnd(&seed, RIG_NPROBES);
		if (!rig_probe_on(&rig, p))
			continue;
		rv = rig_probe(&rig, p, why, sizeof(why));
		if (rv == -1) {
			atomic_fetch_add(&nerr, 1);
			fprintf(stderr, "ERROR %s: %s\n", rig_probe_name(p),
			    why);
		} else if (rv == 0)
			e2e_wrong(&nwrong, rig_probe_name(p), "", why);
		else
			atomic_fetch_add(&nprobe[p], 1);
		e2e_sleep_ms(5);
	}
	return NULL;
}

/* Until /posts/trip answers status (with needle), within 15 s. */
static int
bundle_seen(int status, const char *needle)
{
	return e2e_gemini_wait(rig.main.gemini_port, anon, "/posts/"
	    RIG_BUNDLE, status, needle, 1, 1000 * harness_time_bound(15)) >=
	    0;
}

/*
 * The page bundle goes round: written to disk, replaced by Titan,
 * deleted by Titan; each step must be served before the next.
 */
static void *
bundle(void *arg)
{
	struct buf	 t;
	char		 ver[32], v2[32];
	int		 n = 0, ok;

	(void)arg;
	while (!atomic_load(&stop)) {
		snprintf(ver, sizeof(ver), "d%d", n);
		snprintf(v2, sizeof(v2), "BUNDLE-t%d", n);
		rig_bundle_put(&rig, ver);
		snprintf(ver, sizeof(ver), "BUNDLE-d%d", n);
		buf_init(&t);
		buf_printf(&t, "---\ntitle: Trip t%d\ndate: 2024-03-02\n---\n"
		    "The trip, %s.\n", n, v2);
		buf_addc(&t, '\0');
		ok = bundle_seen(20, ver) &&
		    rig_titan(&rig, RIG_BUNDLE, t.data) == 30 &&
		    bundle_seen(20, v2) &&
		    rig_titan(&rig, RIG_BUNDLE, NULL) == 30 &&
		    bundle_seen(51, NULL);
		buf_free(&t);
		if (!ok) {
			atomic_fetch_add(&nbundle_fail, 1);
			fprintf(stderr, "FAIL bundle round %d\n", n);
		}
		atomic_fetch_add(&nbundle, 1);
		n++;
		e2e_sleep_ms(200);
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
	    rig.main.gopher_port : rig.main.gemini_port, 3000, 0);
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
		found = e2e_ask(&rig.main, anon, gopher, path, &body);
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

/* The soak's posts, in the rig's capsule. */
static void
make_posts(void)
{
	char	 path[1024], *t;
	int	 k;

	capsule = rig.capsule;
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

/* Refused calls in the kernel's records: capsuled's, and programs'. */
struct refusals {
	int	 ours, programs, control;
};

static void
audit_read(struct audit *au, const char *exe, struct refusals *f)
{
	struct audit_record rec;

	while (audit_next(au, &rec))
		if (strcmp(rec.exe, exe) == 0) {
			f->ours++;
			fprintf(stderr, "REFUSED capsuled: %ld (%s), code %#lx\n",
			    rec.syscall, rec.comm, rec.code);
		} else if (rec.syscall == SYS_unshare &&
		    strcmp(rec.comm, "unshare") == 0)
			f->control++;
		else {
			f->programs++;
			fprintf(stderr, "REFUSED program %s (%s): %ld, code "
			    "%#lx\n", rec.exe, rec.comm, rec.syscall, rec.code);
		}
}

/* Every probe once, right: the servers warm, FastCGI connections kept. */
static int
probe_round(void)
{
	char	 why[512];
	int	 p, bad = 0;

	for (p = 0; p < RIG_NPROBES; p++)
		if (rig_probe_on(&rig, p) && rig_probe(&rig, p, why,
		    sizeof(why)) != 1) {
			fprintf(stderr, "FAIL %s: %s\n", rig_probe_name(p),
			    why);
			bad++;
		}
	return bad;
}

static const struct harness_test tests[] = {
	NAMED("soak"),
};

int
main(int argc, char **argv)
{
	const char	*env = getenv("CAPSULED_SOAK_SECONDS");
	pthread_t	 rd[NREADERS], ft[NFEATURES], ed, ti, op, lo, bu;
	struct audit	 au;
	struct refusals	 refused = { 0, 0, 0 };
	struct reply	 r;
	char		 extra[256], link[64], exe[PATH_MAX], probes[1024];
	long		 rss_boot, rss_start, rss_end, rss_peak = 0, kib;
	long		 brss_start, brss_end;
	uint64_t	 t0, warm_ms, run_ms, next_note;
	int		 i, fd_rest0, fd_start, fd_end, fd_rest1, served;
	int		 bfd_rest0, bfd_rest1, audit, log_refused, sys_refused;
	ssize_t		 n;
	size_t		 len;

	HARNESS_INIT(argc, argv, tests);

	run_ms = (uint64_t)(env != NULL && atoi(env) > 0 ? atoi(env) : 600) *
	    1000;
	warm_ms = run_ms / 10 < 60000 ? run_ms / 10 : 60000;
	signal(SIGPIPE, SIG_IGN);
	if (!apps_have_fcgiwrap()) {
		harness_skip("fcgiwrap is not installed (Debian package "
		    "fcgiwrap): no soak of every feature");
		return harness_done();
	}
	if (rig_make(&rig) == -1) {
		OK(0, "the rig is made");
		rig_free(&rig);
		return harness_done();
	}
	if (rig.user[0] == '\0')
		harness_skip("%s", rig.nouser);
	anon = rig.anon;
	writer = rig.writer;
	make_posts();
	snprintf(extra, sizeof(extra), "handshake_timeout: 2\n"
	    "request_timeout: %d\n", REQUEST_TIMEOUT_MS / 1000);
	rig.extra = extra;
	audit = audit_open(&au) == 0;
	if (!audit)
		harness_skip("the kernel's records of refused calls: %s",
		    au.why);
	if (rig_start(&rig, 1) == -1) {
		OK(0, "server start");
		rig_free(&rig);
		audit_close(&au);
		return harness_done();
	}
	e2e_wait_serving(&rig.main);
	snprintf(link, sizeof(link), "/proc/%d/exe", (int)rig.main.pid);
	n = readlink(link, exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	rss_boot = e2e_proc_status_kb(rig.main.pid, "VmRSS");
	/* The control: a program's refused unshare(2), recorded. */
	r = e2e_gemini_get(rig.main.gemini_port, anon, "/cgi-bin/probe.cgi?"
	    "unshare");
	OK(strstr(r.body.data, "unshare=refused") != NULL,
	    "a program's unshare(2) refused");
	reply_free(&r);
	INT_EQ(probe_round(), 0, "every feature answers before the load");
	fd_rest0 = e2e_fd_count(rig.main.pid);
	bfd_rest0 = e2e_fd_count(rig.back.pid);

	t0 = e2e_now_ms();
	for (i = 0; i < NREADERS; i++)
		pthread_create(&rd[i], NULL, reader, (void *)(size_t)i);
	for (i = 0; i < NFEATURES; i++)
		pthread_create(&ft[i], NULL, features, (void *)(size_t)i);
	pthread_create(&ed, NULL, editor, NULL);
	pthread_create(&ti, NULL, titan, NULL);
	pthread_create(&op, NULL, operator, NULL);
	pthread_create(&lo, NULL, loris, NULL);
	pthread_create(&bu, NULL, bundle, NULL);
	while (e2e_now_ms() - t0 < warm_ms)
		e2e_sleep_ms(200);
	rss_start = e2e_proc_status_kb(rig.main.pid, "VmRSS");
	brss_start = e2e_proc_status_kb(rig.back.pid, "VmRSS");
	fd_start = e2e_fd_count(rig.main.pid);
	next_note = e2e_now_ms();
	while (e2e_now_ms() - t0 < run_ms) {
		e2e_sleep_ms(1000);
		if ((kib = e2e_proc_status_kb(rig.main.pid, "VmRSS")) >
		    rss_peak)
			rss_peak = kib;
		if (e2e_now_ms() >= next_note) {	/* for the log */
			next_note += 30000;
			fprintf(stderr, "soak %llu s: VmRSS %ld KiB, %d fds, "
			    "%d requests, %d wrong, %d errors\n",
			    (unsigned long long)(e2e_now_ms() - t0) / 1000,
			    kib, e2e_fd_count(rig.main.pid),
			    nreq[0] + nreq[1], atomic_load(&nwrong),
			    atomic_load(&nerr));
		}
	}
	rss_end = e2e_proc_status_kb(rig.main.pid, "VmRSS");
	brss_end = e2e_proc_status_kb(rig.back.pid, "VmRSS");
	fd_end = e2e_fd_count(rig.main.pid);
	atomic_store(&stop, 1);
	for (i = 0; i < NREADERS; i++)
		pthread_join(rd[i], NULL);
	for (i = 0; i < NFEATURES; i++)
		pthread_join(ft[i], NULL);
	pthread_join(ed, NULL);
	pthread_join(ti, NULL);
	pthread_join(op, NULL);
	pthread_join(lo, NULL);
	pthread_join(bu, NULL);
	fd_rest1 = e2e_fds_wait(rig.main.pid, fd_rest0, 5000);
	bfd_rest1 = e2e_fds_wait(rig.back.pid, bfd_rest0, 5000);
	log_refused = rig_log_count(&rig, "refused with EPERM");
	sys_refused = (int)atomic_load(&rig.sys.refused);

	served = nreq[0] + nreq[1];
	for (i = 0, len = 0; i < RIG_NPROBES; i++)
		if (rig_probe_on(&rig, i) && len < sizeof(probes))
			len += (size_t)snprintf(probes + len,
			    sizeof(probes) - len, "%s%s %d", len ? ", " : "",
			    rig_probe_name(i), atomic_load(&nprobe[i]));
	fprintf(stderr, "FIGURE soak %.0f s: %d requests served (%d Gemini, "
	    "%d Gopher), %d errors, %d wrong answers, %d truncated pages; "
	    "whole pages: %d edited, %d uploaded, %d stable\n",
	    (double)(e2e_now_ms() - t0) / 1000, served, nreq[0], nreq[1],
	    atomic_load(&nerr), atomic_load(&nwrong), atomic_load(&ntrunc),
	    npages[EDIT], npages[TITAN], npages[2]);
	fprintf(stderr, "FIGURE soak: features answered right: %s\n", probes);
	fprintf(stderr, "FIGURE soak: %d Titan uploads (%d failed), %d file "
	    "edits (%d in pieces, %d renamed over, %d touched), %d user "
	    "edits, %d bundle rounds (%d failed), %d SIGHUPs (%d adding "
	    RIG_HOST2 ", %d taking it away), %d logs moved and reopened, "
	    "%d operator moves failed, %d rebuilds; slow-loris: %d "
	    "connections from %d addresses, %d closed by the server after "
	    "%d-%d ms\n", atomic_load(&ntitan), atomic_load(&ntitan_fail),
	    nedits[0] + nedits[1] + nedits[2], nedits[0], nedits[1],
	    nedits[2], atomic_load(&nuser), atomic_load(&nbundle),
	    atomic_load(&nbundle_fail), atomic_load(&nhup), nhost2[1],
	    nhost2[0], atomic_load(&nrotate), atomic_load(&nop_fail),
	    rig_log_count(&rig, "info: content"), atomic_load(&nloris_open),
	    NLORIS_ADDRS, atomic_load(&nloris_closed),
	    atomic_load(&loris_lo), atomic_load(&loris_hi));
	fprintf(stderr, "FIGURE soak: VmRSS %ld KiB at boot, %ld KiB at start "
	    "(after %llu s warm-up), %ld KiB at end (%+ld KiB), peak %ld KiB; "
	    "the backend %ld KiB at start, %ld KiB at end (%+ld KiB); fds at "
	    "rest %d before, %d after (backend %d, %d); under load %d at "
	    "start, %d at end\n", rss_boot, rss_start,
	    (unsigned long long)warm_ms / 1000, rss_end, rss_end - rss_start,
	    rss_peak, brss_start, brss_end, brss_end - brss_start, fd_rest0,
	    fd_rest1, bfd_rest0, bfd_rest1, fd_start, fd_end);

	OK(served > (int)(run_ms / 1000) * 10, "requests served: %d", served);
	OK(ntitan > 0 && nedits[0] + nedits[1] > 0 && nhup > 0 &&
	    nloris_closed > 0 && nbundle > 0 && nrotate + (run_ms < 60000) >
	    0 && nhost2[1] > 0, "every kind of work was done");
	INT_EQ(atomic_load(&nwrong), 0, "wrong answers");
	INT_EQ(atomic_load(&ntrunc), 0, "truncated pages");
	INT_EQ(atomic_load(&nerr), 0, "requests without an answer");
	INT_EQ(atomic_load(&ntitan_fail), 0, "failed uploads");
	INT_EQ(atomic_load(&nbundle_fail), 0, "failed bundle rounds");
	INT_EQ(atomic_load(&nop_fail), 0, "failed SIGHUPs and SIGUSR1s");
	OK(loris_hi <= REQUEST_TIMEOUT_MS + 2000, "every slow-loris "
	    "connection closed within request_timeout (longest %d ms)",
	    atomic_load(&loris_hi));
#ifndef __SANITIZE_ADDRESS__
	OK(rss_end <= rss_start + RSS_SLACK_KIB, "VmRSS %ld KiB at end, "
	    "%ld KiB at start", rss_end, rss_start);
	OK(brss_end <= brss_start + RSS_SLACK_KIB, "the backend's VmRSS %ld "
	    "KiB at end, %ld KiB at start", brss_end, brss_start);
#else
	fprintf(stderr, "(ASan build: VmRSS not checked)\n");
#endif
	OK(fd_rest1 <= fd_rest0 + FD_SLACK, "fds at rest: %d after, %d "
	    "before", fd_rest1, fd_rest0);
	OK(bfd_rest1 <= bfd_rest0 + FD_SLACK, "the backend's fds at rest: %d "
	    "after, %d before", bfd_rest1, bfd_rest0);
	INT_EQ(rig_stop(&rig), 0, "both servers exit cleanly");
	if (audit)
		audit_read(&au, exe, &refused);
	audit_close(&au);
	fprintf(stderr, "FIGURE soak: refused system calls: %d in the "
	    "server's log, %d in the backend's syslog lines; lines dropped: "
	    "%ld by the log file, %ld by syslog (%ld syslog lines read)\n",
	    log_refused, sys_refused, rig_log_dropped(&rig),
	    atomic_load(&rig.sys.dropped), atomic_load(&rig.sys.lines));
	if (audit)
		fprintf(stderr, "FIGURE soak: the kernel's records of refused "
		    "calls: %d of capsuled, %d of programs, %d of the "
		    "control's unshare, %d hidden by its rate limit\n",
		    refused.ours, refused.programs, refused.control,
		    au.suppressed);
	else
		fprintf(stderr, "FIGURE soak: the kernel's records of refused "
		    "calls not read: %s\n", au.why);
	INT_EQ(log_refused, 0, "refused calls in the server's log");
	INT_EQ(sys_refused, 0, "refused calls in the backend's syslog lines");
	if (audit) {
		OK(refused.control >= 1, "the kernel records a refused call");
		INT_EQ(refused.ours, 0, "the kernel's records of capsuled");
		INT_EQ(refused.programs, 0, "the kernel's records of programs");
		INT_EQ(au.suppressed, 0, "records hidden by the rate limit");
	}
	rig_free(&rig);
	return harness_done();
}
