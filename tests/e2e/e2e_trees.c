/*
 * e2e_trees.c -- the answers of a static tree's directories, listings
 * and gophermaps, over the real server, in memory and in time (issue
 * 32, items 4 and 5; docs/operating.md, "Gophermaps and .gph menus" and
 * "Static trees").
 *
 *  - An include bomb, a gophermap of 64 "=big.txt" lines including a
 *    1 MB file, read by 40 slow Gopher readers at once: in files/
 *    (watched: one menu made, kept and shared by all) and in the root
 *    tree "site" (not watched: one menu per reader, held against the
 *    budget of such bodies).  The server's VmHWM stays under 60 MB
 *    (it went to 686 MB when each reader's menu was 8 MiB of its own);
 *    every reader gets a whole menu, whose cut a line tells.
 *  - A listing of a big directory (TREES_FILES .gmi files, titles on)
 *    asked for by four clients in a loop while a small file is fetched:
 *    the small file's latency stays under 50 ms (the listing is made
 *    once, off the workers' loops, then kept; it was made on the loop
 *    at every request).
 *
 * tests/slow/slow_trees.c runs the same with the figures
 * (20,000 files) and says them.
 */
#include <pthread.h>

#include "e2e.h"

#ifndef TREES_FILES
#define TREES_FILES	5000	/* the big directory's files */
#endif
/*
 * The small file's slowest fetch may take this many times the bound of
 * its median: other work on a shared machine shows there, not in it.
 */
#ifndef TREES_SPREAD
#define TREES_SPREAD	5
#endif
#define READERS		40	/* slow readers of the include bomb */
#define HAMMERS		4	/* clients of the big listing */
#define PROBES		40	/* fetches of the small file meanwhile */
/* The bound of the issue, on VmHWM with the slow readers at work. */
#define HWM_MAX_KB	(60L * 1024)
#define LATENCY_MAX_MS	50.0

static struct e2e_server srv;
static SSL_CTX	*ctx;
static char	 top[] = "/tmp/capsuled-e2e-trees.XXXXXX";
static atomic_int stop, hammered, hammer_bad;

/* A sanitizer's or valgrind's server is slower, and its RSS is its own. */
static int
instrumented(void)
{
#if defined(__SANITIZE_ADDRESS__)
	return 1;
#else
	return harness_valgrind();
#endif
}

/* A gophermap of 64 includes of one 1 MB text, in dir of the capsule. */
static void
make_bomb(const char *cap, const char *dir)
{
	struct buf	 b = BUF_INIT;
	char		 path[512];
	int		 i;

	snprintf(path, sizeof(path), "%s/big.txt", dir);
	for (i = 0; i < 1000000 / 71; i++)
		buf_printf(&b, "%070d\n", i);
	test_put(cap, path, b.data);
	buf_truncate(&b, 0);
	for (i = 0; i < 64; i++)
		buf_addstr(&b, "=big.txt\n");
	snprintf(path, sizeof(path), "%s/gophermap", dir);
	test_put(cap, path, b.data);
	buf_free(&b);
}

static void
make_capsule(char *cap, size_t size)
{
	char	 path[256];
	int	 i;

	snprintf(cap, size, "%s/capsule", top);
	test_mkdir(top, "capsule");
	test_mkdir(cap, "posts");
	test_put(cap, "posts/2024-05-01-first.md",
	    "---\ntitle: First post\n---\nHello.\n");
	test_mkdir(cap, "files");
	test_mkdir(cap, "files/bomb");
	test_mkdir(cap, "files/big");
	test_mkdir(cap, "site");
	test_mkdir(cap, "site/bomb");
	make_bomb(cap, "files/bomb");
	make_bomb(cap, "site/bomb");
	test_put(cap, "files/small.txt", "a small file\n");
	for (i = 0; i < TREES_FILES; i++) {
		snprintf(path, sizeof(path), "%s/files/big/f%05d.gmi", cap, i);
		test_write(path, "# Title %d\n\nThe body of file %d.\n", i, i);
	}
}

/* A Gopher client that asks for sel and reads nothing yet. */
static int
slow_reader(const char *sel)
{
	struct sockaddr_in	 sin;
	int			 fd, small = 4096;
	char			*req;
	ssize_t			 n;

	if ((fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) == -1)
		return -1;
	/* Before connect(): the window the server sees stays small. */
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
	memset(&sin, 0, sizeof(sin));
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)srv.gopher_port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)) == -1) {
		close(fd);
		return -1;
	}
	req = xasprintf("%s\r\n", sel);
	n = write(fd, req, strlen(req));
	free(req);
	if (n < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Read fd to its end into out; closes it. */
static void
drain(int fd, struct buf *out)
{
	struct timeval	 tv = { 20, 0 };
	char		 chunk[65536];
	ssize_t		 n;

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		buf_add(out, chunk, (size_t)n);
	close(fd);
}

/*
 * READERS slow readers of the bomb at sel: the server's VmHWM under
 * HWM_MAX_KB while they hold their answers, each a whole menu, cut at
 * 1 MiB or, when the budget was spent, sooner, or an error line when
 * too many were being made at once; returns how many were not whole.
 * (How many depends on timing, and on how much of each menu the kernel
 * takes at once: on loopback a socket's buffers may take all of it,
 * and the answer is then done with at once.  test_static.c counts both
 * bounds exactly.)
 */
static int
bomb(const char *sel, const char *what)
{
	struct buf	 got;
	int		 fd[READERS], i, whole = 0, busy = 0, full = 0,
			 refused = 0;
	long		 rss0, rss, hwm;

	rss0 = e2e_proc_status_kb(srv.pid, "VmRSS");
	for (i = 0; i < READERS; i++)
		fd[i] = slow_reader(sel);
	/* Every menu made and being sent: the readers hold them. */
	e2e_sleep_ms((unsigned)(harness_time_bound(1.5) * 1000));
	rss = e2e_proc_status_kb(srv.pid, "VmRSS");
	hwm = e2e_proc_status_kb(srv.pid, "VmHWM");
	fprintf(stderr, "FIGURE %s: %d slow readers of a 64-include map: "
	    "VmRSS %ld -> %ld KiB, VmHWM %ld KiB\n", what, READERS, rss0, rss,
	    hwm);
	if (!instrumented())
		OK(hwm > 0 && hwm < HWM_MAX_KB, "%s: VmHWM %ld KiB < %ld KiB",
		    what, hwm, HWM_MAX_KB);
	for (i = 0; i < READERS; i++) {
		buf_init(&got);
		if (fd[i] != -1)
			drain(fd[i], &got);
		buf_addc(&got, '\0');
		if (got.len > 4 && strcmp(got.data + got.len - 4, ".\r\n") ==
		    0 && got.len <= (1 << 20) + 1)
			whole++;
		if (strstr(got.data, "a menu holds 1 MiB at most") != NULL)
			full++;
		else if (strstr(got.data, "the server is busy") != NULL)
			busy++;
		else if (strncmp(got.data, "3Server busy: too many listings",
		    31) == 0)
			refused++;
		buf_free(&got);
	}
	INT_EQ(whole, READERS, "every reader got a whole menu, 1 MiB at most");
	INT_EQ(full + busy + refused, READERS, "each says where it was cut, "
	    "and why");
	fprintf(stderr, "FIGURE %s: %d menus of 1 MiB, %d cut at the budget, "
	    "%d refused (busy)\n", what, full, busy, refused);
	return busy + refused;
}

static void
test_bomb(void)
{
	INT_EQ(bomb("/files/bomb/", "watched"), 0,
	    "watched: one menu for all, no budget spent");
	bomb("/bomb/", "not watched");
}

/* A client of the big listing, in a loop until stop. */
static void *
hammer(void *arg)
{
	struct reply	 r;
	char		 want[64];

	(void)arg;
	snprintf(want, sizeof(want), "=> /files/big/f%05d.gmi Title %d\n", 7,
	    7);
	while (!atomic_load(&stop)) {
		r = e2e_gemini_get(srv.gemini_port, ctx, "/files/big/");
		if (r.status != 20 || strstr(r.body.data, want) == NULL)
			atomic_fetch_add(&hammer_bad, 1);
		atomic_fetch_add(&hammered, 1);
		reply_free(&r);
	}
	return NULL;
}

static int
cmp_double(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void
test_listing(void)
{
	pthread_t	 th[HAMMERS];
	struct reply	 r;
	double		 lat[PROBES], t0, bound;
	int		 i, bad = 0;

	bound = harness_time_bound(LATENCY_MAX_MS);
#if defined(__SANITIZE_ADDRESS__)
	bound *= 3;
#endif
	for (i = 0; i < 2; i++) {	/* kept in memory from here on */
		r = e2e_gemini_get(srv.gemini_port, ctx, "/files/small.txt");
		INT_EQ(r.status, 20, "the small file");
		reply_free(&r);
	}
	atomic_store(&stop, 0);
	for (i = 0; i < HAMMERS; i++)
		pthread_create(&th[i], NULL, hammer, NULL);
	e2e_sleep_ms(20);
	for (i = 0; i < PROBES; i++) {
		t0 = harness_now_msf();
		r = e2e_gemini_get(srv.gemini_port, ctx, "/files/small.txt");
		lat[i] = harness_now_msf() - t0;
		bad += r.status != 20;
		reply_free(&r);
		e2e_sleep_ms(25);
	}
	atomic_store(&stop, 1);
	for (i = 0; i < HAMMERS; i++)
		pthread_join(th[i], NULL);
	qsort(lat, PROBES, sizeof(lat[0]), cmp_double);
	fprintf(stderr, "FIGURE listing of %d files, %d clients: the small "
	    "file in %.1f ms median, %.1f ms at most (%d listings sent)\n",
	    TREES_FILES, HAMMERS, lat[PROBES / 2], lat[PROBES - 1],
	    atomic_load(&hammered));
	INT_EQ(bad, 0, "the small file: 20 every time");
	INT_EQ(atomic_load(&hammer_bad), 0, "the listing: 20, with titles");
	OK(atomic_load(&hammered) >= HAMMERS, "the listing was asked for");
	OK(lat[PROBES / 2] < bound, "median %.1f ms < %.0f ms",
	    lat[PROBES / 2], bound);
	OK(lat[PROBES - 1] < bound * TREES_SPREAD, "at most %.1f ms < %.0f ms",
	    lat[PROBES - 1], bound * TREES_SPREAD);
}

static const struct harness_test tests[] = {
	NAMED("bomb"),
	NAMED("listing"),
};

int
main(int argc, char **argv)
{
	char	 cap[128];

	HARNESS_INIT(argc, argv, tests);
	signal(SIGPIPE, SIG_IGN);
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	make_capsule(cap, sizeof(cap));
	ctx = e2e_client_ctx(0);
	if (e2e_start(&srv, cap, "root: site\nrate_limit: 0\n"
	    "max_connections_per_ip: 0\naccess_log: false\n") == -1) {
		OK(0, "server start");
		test_rm_tree(top);
		return harness_done();
	}
	RUN("bomb", test_bomb());
	RUN("listing", test_listing());
	INT_EQ(e2e_stop(&srv), 0, "clean exit");
	SSL_CTX_free(ctx);
	test_rm_tree(top);
	return harness_done();
}
