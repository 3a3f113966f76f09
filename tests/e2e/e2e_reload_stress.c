/*
 * e2e_reload_stress.c -- no request fails while the archive changes.
 *
 * The real server serves a copy of the sample capsule with a small
 * render cache (pages are evicted all the time) and a short debounce,
 * while client threads hammer it over Gemini and Gopher and this thread
 * makes 200 edits (in place, by rename, a post added and removed) and
 * sends 20 SIGHUPs.  Every response is checked: Gemini status 20, a
 * MIME type, a body, a clean close_notify; Gopher a body, menus ending
 * in ".", no error item.  Bounded: about 10 seconds, 45 at most.
 */
#include <pthread.h>
#include <stdatomic.h>

#include "e2e.h"

#define NGEMINI		2
#define NGOPHER		2
#define NEDITS		200
#define NHUPS		20
#define EDIT_MS		20

static struct e2e_server srv;
static SSL_CTX	*ctx;
static char	 capsule[512];
static atomic_int stop;
static atomic_int nreq, nbad;

/* Paths that exist whatever the edits do. */
static const char *const paths[] = {
	"/", "/posts/", "/series/", "/tags/", "/gemlog/", "/atom.xml",
	"/posts/gemtext-tips", "/posts/tofu-explained", "/about",
	"/series/running-a-capsule/", "/tags/gemini/",
	"/posts/small-web-etiquette",
};

static void
bad(const char *proto, const char *path, const char *why)
{
	atomic_fetch_add(&nbad, 1);
	fprintf(stderr, "BAD %s %s: %s\n", proto, path, why);
}

static void *
gemini_client(void *arg)
{
	struct reply	 r;
	char		 req[512];
	size_t		 i = (size_t)arg;
	int		 len;

	while (!atomic_load(&stop)) {
		const char *path = paths[i++ % nitems(paths)];

		len = snprintf(req, sizeof(req), "gemini://localhost:%d%s\r\n",
		    srv.gemini_port, path);
		atomic_fetch_add(&nreq, 1);
		if (e2e_gemini_raw(srv.gemini_port, req, (size_t)len, &r, ctx,
		    "localhost") == -1)
			bad("gemini", path, "no connection or handshake");
		else if (r.status != 20)
			bad("gemini", path, r.header);
		else if (strstr(r.header, "text/gemini") == NULL &&
		    strstr(r.header, "application/atom+xml") == NULL)
			bad("gemini", path, r.header);
		else if (r.body.len == 0)
			bad("gemini", path, "empty body");
		else if (!r.close_notify)
			bad("gemini", path, "no close_notify");
		reply_free(&r);
	}
	return NULL;
}

static void *
gopher_client(void *arg)
{
	struct buf	 b;
	char		 req[512];
	size_t		 i = (size_t)arg, len;

	while (!atomic_load(&stop)) {
		const char *path = paths[i++ % nitems(paths)];

		len = (size_t)snprintf(req, sizeof(req), "%s\r\n", path);
		atomic_fetch_add(&nreq, 1);
		if (e2e_plain(srv.gopher_port, req, len, &b) == -1)
			bad("gopher", path, "no connection or read error");
		else if (b.len == 0)
			bad("gopher", path, "empty");
		else if (b.data[0] == '3')
			bad("gopher", path, b.data);
		else if (path[strlen(path) - 1] == '/' && (b.len < 3 ||
		    memcmp(b.data + b.len - 3, ".\r\n", 3) != 0))
			bad("gopher", path, "menu without its last line");
		buf_free(&b);
	}
	return NULL;
}

static void
edit(int i)
{
	char	 path[1024], tmp[1024];
	FILE	*f;

	snprintf(path, sizeof(path), "%s/posts/2024-08-03-gemtext-tips.md",
	    capsule);
	snprintf(tmp, sizeof(tmp), "%s/posts/.gemtext-tips.tmp", capsule);
	f = fopen(i % 2 ? tmp : path, "w");
	if (f == NULL) {
		perror(path);
		return;
	}
	fprintf(f, "---\ntitle: Gemtext tips, edit %d\ndate: 2024-08-03\n"
	    "tags: [gemini, gemtext]\n---\nEdit number %d.\n\n"
	    "=> not a link in Markdown\n", i, i);
	fclose(f);
	if (i % 2 && rename(tmp, path) == -1)
		perror(tmp);
	/* A post that comes and goes: lists change under the clients. */
	snprintf(path, sizeof(path), "%s/posts/2030-01-01-flicker.md",
	    capsule);
	if (i % 7 == 0)
		test_write(path, "---\ntitle: Flicker %d\n---\nx\n", i);
	else if (i % 7 == 3)
		unlink(path);
}

static const struct harness_test tests[] = {
	NAMED("reload_stress"),
};

int
main(int argc, char **argv)
{
	pthread_t	 th[NGEMINI + NGOPHER];
	struct reply	 r;
	char		 top[64], cmd[1200], want[64];
	const char	*topdir = getenv("CAPSULED_TOP");
	uint64_t	 t0, deadline;
	int		 i, hups = 0;

	HARNESS_INIT(argc, argv, tests);

	snprintf(top, sizeof(top), "/tmp/capsuled-stress.XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	snprintf(cmd, sizeof(cmd), "cp -r '%s/capsule' '%s'",
	    topdir ? topdir : ".", capsule);
	OK(system(cmd) == 0, "copy the sample capsule");
	ctx = e2e_client_ctx(0);
	if (e2e_start(&srv, capsule, "watch_debounce: 20ms\n"
	    "rate_limit: off\nmax_connections_per_ip: 0\n"
	    "cache_max_bytes: 32K\naccess_log: false\n")
	    == -1) {
		OK(0, "server start");
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
		(void)!system(cmd);
		return harness_done();
	}
	t0 = e2e_now_ms();
	for (i = 0; i < NGEMINI; i++)
		pthread_create(&th[i], NULL, gemini_client, (void *)(size_t)i);
	for (i = 0; i < NGOPHER; i++)
		pthread_create(&th[NGEMINI + i], NULL, gopher_client,
		    (void *)(size_t)(i * 5));
	deadline = e2e_now_ms() + 45000;
	for (i = 0; i < NEDITS && e2e_now_ms() < deadline; i++) {
		edit(i);
		if (i % (NEDITS / NHUPS) == NEDITS / NHUPS / 2) {
			kill(srv.pid, SIGHUP);
			hups++;
		}
		e2e_sleep_ms(EDIT_MS);
	}
	INT_EQ(i, NEDITS, "all edits made in time");
	INT_EQ(hups, NHUPS, "SIGHUPs sent");
	/* The last edit shows, while the clients still run. */
	snprintf(want, sizeof(want), "edit %d", NEDITS - 1);
	deadline = e2e_now_ms() + 5000;
	do {
		snprintf(cmd, sizeof(cmd), "gemini://localhost:%d/posts/\r\n",
		    srv.gemini_port);
		if (e2e_gemini_raw(srv.gemini_port, cmd, strlen(cmd), &r, ctx,
		    "localhost") == 0 && r.body.data != NULL &&
		    strstr(r.body.data, want) != NULL) {
			reply_free(&r);
			break;
		}
		reply_free(&r);
		e2e_sleep_ms(20);
	} while (e2e_now_ms() < deadline);
	OK(e2e_now_ms() < deadline, "the last edit is served");
	atomic_store(&stop, 1);
	for (i = 0; i < NGEMINI + NGOPHER; i++)
		pthread_join(th[i], NULL);
	fprintf(stderr, "%d requests in %.1f s during %d edits and %d "
	    "SIGHUPs, %d bad\n", atomic_load(&nreq),
	    (double)(e2e_now_ms() - t0) / 1000, NEDITS, hups,
	    atomic_load(&nbad));
	OK(atomic_load(&nreq) > 200, "clients were busy (%d requests)",
	    atomic_load(&nreq));
	INT_EQ(atomic_load(&nbad), 0, "failed or malformed responses");
	/* What the run went through, so the test is known to test it. */
	OK(e2e_log_count(&srv, "info: content:") >= NHUPS, "rebuilds: %d",
	    e2e_log_count(&srv, "info: content:"));
	OK(e2e_log_count(&srv, "bytes of pages evicted") > 0, "evictions: %d",
	    e2e_log_count(&srv, "bytes of pages evicted"));
	INT_EQ(e2e_stop(&srv), 0, "clean exit");
	SSL_CTX_free(ctx);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	(void)!system(cmd);
	return harness_done();
}
