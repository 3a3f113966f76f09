/*
 * e2e_render.c -- a post slow to render keeps no other client waiting
 * (the first request of a huge post must not stall a worker).
 *
 * The real server (two workers) serves a capsule with a 3 MiB post,
 * which takes cmark-gfm a good part of a second to render, and a small
 * one.  Three Gopher clients ask for the huge post at once (its first
 * requests: nothing is cached), while this thread asks for the small
 * post again and again until they have their answers.  Every small
 * answer must come quickly (under SMALL_MAX_MS): a worker that renders
 * on its loop would keep the ones it accepted waiting for the whole
 * render.  The huge answers must be whole.  The figures go to stderr.
 */
#include <pthread.h>
#include <stdatomic.h>

#include "e2e.h"

#define NHUGE		3
#define HUGE_BYTES	(3u << 20)
#define SMALL_MAX_MS	250

static struct e2e_server srv;
static atomic_int	 nwhole, ndone;
static _Atomic uint64_t	 took[NHUGE];	/* ms each huge answer took */

static void *
ask_huge(void *arg)
{
	struct buf	 b;
	uint64_t	 t0 = e2e_now_ms();

	if (e2e_plain(srv.gopher_port, "/posts/huge\r\n", 13, &b) == 0 &&
	    b.len > HUGE_BYTES / 2 && strstr(b.data, "THE END") != NULL)
		atomic_fetch_add(&nwhole, 1);
	atomic_store(&took[(size_t)arg], e2e_now_ms() - t0);
	atomic_fetch_add(&ndone, 1);
	buf_free(&b);
	return NULL;
}

/* ms the small post took; -1 when its answer is not the post. */
static long
ask_small(void)
{
	struct buf	 b;
	uint64_t	 t0 = e2e_now_ms();
	long		 ms;

	if (e2e_plain(srv.gopher_port, "/posts/small\r\n", 14, &b) == -1 ||
	    b.data == NULL || strstr(b.data, "Small and quick") == NULL)
		ms = -1;
	else
		ms = (long)(e2e_now_ms() - t0);
	buf_free(&b);
	return ms;
}

static void
make_capsule(const char *capsule)
{
	struct buf	 md = BUF_INIT;
	char		 path[1024];
	int		 i;

	mkdir(capsule, 0755);
	snprintf(path, sizeof(path), "%s/posts", capsule);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/index.md", capsule);
	test_write(path, "A capsule with a huge post.\n");
	snprintf(path, sizeof(path), "%s/posts/2024-01-01-small.md", capsule);
	test_write(path, "---\ntitle: Small\n---\nSmall and quick.\n");
	buf_addstr(&md, "---\ntitle: Huge\n---\n");
	for (i = 0; md.len < HUGE_BYTES; i++)
		buf_printf(&md, "Paragraph %d has *emphasis*, `code` and a "
		    "[link](https://example.com/%d), then words enough to "
		    "wrap.\n\n", i, i);
	buf_addstr(&md, "THE END\n");
	snprintf(path, sizeof(path), "%s/posts/2024-01-02-huge.md", capsule);
	test_write(path, "%s", md.data);
	buf_free(&md);
}

static const struct harness_test tests[] = {
	NAMED("render"),
};

int
main(int argc, char **argv)
{
	pthread_t	 th[NHUGE];
	char		 top[64], capsule[128], cmd[160];
	long		 ms, worst = 0;
	int		 i, n = 0, bad = 0;

	HARNESS_INIT(argc, argv, tests);

	snprintf(top, sizeof(top), "/tmp/capsuled-render.XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	make_capsule(capsule);
	if (e2e_start(&srv, capsule, "rate_limit: off\n"
	    "max_connections_per_ip: 0\naccess_log: false\n") == -1) {
		OK(0, "server start");
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
		(void)!system(cmd);
		return harness_done();
	}
	OK(ask_small() >= 0, "the small post, rendered and cached");
	for (i = 0; i < NHUGE; i++)
		pthread_create(&th[i], NULL, ask_huge, (void *)(size_t)i);
	e2e_sleep_ms(20);		/* the huge requests are in */
	while (atomic_load(&ndone) < NHUGE && n < 5000) {
		if ((ms = ask_small()) < 0)
			bad++;
		else if (ms > worst)
			worst = ms;
		n++;
	}
	for (i = 0; i < NHUGE; i++)
		pthread_join(th[i], NULL);
	fprintf(stderr, "huge post (%u KiB) answered in %llu, %llu and %llu "
	    "ms; meanwhile %d small requests, the slowest %ld ms\n",
	    HUGE_BYTES >> 10, (unsigned long long)atomic_load(&took[0]),
	    (unsigned long long)atomic_load(&took[1]),
	    (unsigned long long)atomic_load(&took[2]), n, worst);
	INT_EQ(atomic_load(&nwhole), NHUGE, "the huge post, whole, each time");
	INT_EQ(bad, 0, "small answers that were not the post");
	OK(n > 0, "small requests while the huge post rendered: %d", n);
	OK(worst < SMALL_MAX_MS, "no small request waited for the render: "
	    "the slowest took %ld ms", worst);
	INT_EQ(e2e_stop(&srv), 0, "clean exit");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	(void)!system(cmd);
	return harness_done();
}
