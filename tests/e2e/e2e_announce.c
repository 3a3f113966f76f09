/*
 * e2e_announce.c -- telling aggregators ("announce:", net/announce.c)
 * over the real server, against fake aggregators this test starts: a
 * second capsuled whose /submit is a file, and whose access log shows
 * each request with its query.
 *
 *  - nothing is told at start, nor for an edit of a post;
 *  - two new posts in a row are told once, after announce_delay, with
 *    the feed's address as the query; an aggregator's 5x is logged and
 *    not asked again; under the sandbox, which allows the sockets;
 *  - an aggregator that does not answer yet is asked again, later,
 *    until it answers; each attempt is logged.
 */
#include "e2e.h"

static char	 top[64];

/* An aggregator on port (0: any), its log its record of requests. */
static int
aggregator(struct e2e_server *a, int port, const char *name)
{
	char	 dir[300];

	snprintf(dir, sizeof(dir), "%s/%s", top, name);
	test_put(dir, "files/submit", "Thanks.\n");
	test_put(dir, "index.md", "---\ntitle: Aggregator\n---\nHi.\n");
	if (port != 0)
		return e2e_start_port(a, port, dir, "root: files\n");
	return e2e_start(a, dir, "root: files\n");
}

/* Wait until s has built its content n times. */
static int
builds(const struct e2e_server *s, int n)
{
	uint64_t	 t0 = e2e_now_ms();

	while (e2e_log_count(s, "info: content") < n)
		if (e2e_now_ms() - t0 > 10000)
			return 0;
		else
			e2e_sleep_ms(50);
	return 1;
}

static void
test_told_once(void)
{
	struct e2e_server a, s;
	char		 cap[300], extra[600], want[300];

	if (aggregator(&a, 0, "agg1") == -1) {
		OK(0, "the aggregator did not start");
		return;
	}
	snprintf(cap, sizeof(cap), "%s/cap1", top);
	test_put(cap, "index.md", "---\ntitle: Announce\n---\nHi.\n");
	test_put(cap, "posts/2024-01-01-hello.md",
	    "---\ntitle: Hello\n---\nHello.\n");
	snprintf(extra, sizeof(extra), "watch: true\nsandbox: true\n"
	    "announce_delay: 1500ms\nannounce:\n"
	    "  - gemini://127.0.0.1:%d/submit\n"
	    "  - gemini://127.0.0.1:%d/nope\n", a.gemini_port, a.gemini_port);
	if (e2e_start(&s, cap, extra) == -1) {
		OK(0, "server did not start");
		e2e_stop(&a);
		return;
	}
	e2e_wait_serving(&s);
	OK(e2e_log_wait(s.log, "client sockets", 0), "the sandbox allows "
	    "sockets out, announce being set");
	/* An edit is no new post. */
	test_put(cap, "posts/2024-01-01-hello.md",
	    "---\ntitle: Hello\n---\nHello, edited.\n");
	OK(builds(&s, 1), "the edit was built");
	/* Two posts, one after the other: told once. */
	test_put(cap, "posts/2024-02-01-one.md", "---\ntitle: One\n---\n1.\n");
	OK(e2e_log_wait(s.log, "announce: post one went live", 5000),
	    "the first post went live");
	test_put(cap, "posts/2024-02-02-two.md", "---\ntitle: Two\n---\n2.\n");
	OK(e2e_log_wait(s.log, "announce: post two went live", 5000),
	    "the second post went live");
	snprintf(want, sizeof(want), "gemini \"gemini://127.0.0.1:%d/submit?"
	    "gemini://localhost:%d/atom.xml\" 20", a.gemini_port,
	    s.gemini_port);
	OK(e2e_log_wait(a.log, want, 8000), "the aggregator was asked, "
	    "with the feed's address as the query");
	snprintf(want, sizeof(want), "/submit?gemini://localhost:%d/atom.xml:"
	    " 20 application/octet-stream (attempt 1 of 4): told",
	    s.gemini_port);
	OK(e2e_log_wait(s.log, want, 3000), "the attempt is logged");
	OK(e2e_log_wait(s.log, "/nope?gemini://localhost:", 3000) &&
	    e2e_log_wait(s.log, "51 Not found (attempt 1 of 4): refused, not "
	    "asked again", 3000), "a 5x is logged and not asked again");
	e2e_sleep_ms(2000);	/* a second request would be here by now */
	INT_EQ(e2e_log_count(&a, "/submit?"), 1, "told once for two posts");
	INT_EQ(e2e_log_count(&a, "/nope?"), 1, "refused once, never again");
	INT_EQ(e2e_log_count(&s, "went live"), 2, "nothing at start, "
	    "nothing for the edit");
	INT_EQ(e2e_stop(&s), 0, "server exits 0");
	INT_EQ(e2e_stop(&a), 0, "the aggregator exits 0");
}

static void
test_retried(void)
{
	struct e2e_server a, s;
	char		 cap[300], extra[400], want[300];
	int		 port = e2e_free_port();

	snprintf(cap, sizeof(cap), "%s/cap2", top);
	test_put(cap, "index.md", "---\ntitle: Announce\n---\nHi.\n");
	snprintf(extra, sizeof(extra), "watch: true\nannounce_delay: 500ms\n"
	    "announce: gemini://127.0.0.1:%d/submit\n", port);
	if (e2e_start(&s, cap, extra) == -1) {
		OK(0, "server did not start");
		return;
	}
	e2e_wait_serving(&s);
	test_put(cap, "posts/2024-03-01-new.md", "---\ntitle: New\n---\nN.\n");
	OK(e2e_log_wait(s.log, "no connection (attempt 1 of 4): again in 2 s",
	    8000), "no aggregator yet: logged, to be asked again");
	if (aggregator(&a, port, "agg2") == -1) {
		OK(0, "the aggregator did not start on its port");
		e2e_stop(&s);
		return;
	}
	snprintf(want, sizeof(want), "/submit?gemini://localhost:%d/atom.xml\" "
	    "20", s.gemini_port);
	OK(e2e_log_wait(a.log, want, 30000), "asked again, and told");
	OK(e2e_log_wait(s.log, "4): told", 3000), "the server logged it");
	INT_EQ(e2e_stop(&s), 0, "server exits 0");
	INT_EQ(e2e_stop(&a), 0, "the aggregator exits 0");
}

static const struct harness_test tests[] = {
	NAMED("told_once"),
	NAMED("retried"),
};

int
main(int argc, char **argv)
{
	char	 cmd[128];

	HARNESS_INIT(argc, argv, tests);
	signal(SIGPIPE, SIG_IGN);
	snprintf(top, sizeof(top), "/tmp/capsuled-e2e-announce.XXXXXX");
	if (mkdtemp(top) == NULL)
		return 1;
	RUN("told_once", test_told_once());
	RUN("retried", test_retried());
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	(void)!system(cmd);
	return harness_done();
}
