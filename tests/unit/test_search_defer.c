/*
 * test_search_defer.c -- the first search of a snapshot is left to
 * response_render() (site/response.h): building the index may take
 * seconds, which no worker's loop may spend; once it is built, searches
 * are answered at once.  And one site's build does not hold up
 * another's (site_search(): one lock per site).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "content/archive.h"
#include "core/config.h"
#include "core/log.h"
#include "core/util.h"
#include "files.h"
#include "harness.h"
#include "site/router.h"
#include "site/site.h"

static char		 top[64];
static struct config	 cfg;

static void
ask(struct site *s, enum surface proto, const char *path, const char *q,
    int may_defer, struct response *r)
{
	struct router_req	 req = { proto, path, q, 0, NULL, NULL, 0 };

	response_init(r);
	r->may_defer = may_defer;
	router_handle(&cfg, s, &req, r);
}

static void
test_defer(struct archive *a)
{
	struct site	*s = site_new(a, 0), *t = site_new(a, 0);
	struct response	 r, now, again;
	enum surface	 proto;

	for (proto = SURFACE_GEMINI; ; proto = SURFACE_GOPHER) {
		ask(s, proto, "/search", "walrus", 1, &r);
		INT_EQ(r.status, 20, "20 at once");
		OK(r.job != NULL && r.bodylen == 0, "the first search: a job, "
		    "no body yet");
		OK(!site_search_ready(s), "and no index built on the way");
		response_render(&r);
		OK(r.job == NULL && r.bodylen > 0 && strstr(r.body,
		    "Walrus") != NULL, "rendered: the results");
		OK(site_search_ready(s), "the index is built");
		ask(t, proto, "/search", "walrus", 0, &now);
		OK(now.job == NULL && now.bodylen == r.bodylen &&
		    memcmp(now.body, r.body, r.bodylen) == 0, "the bytes an "
		    "answer at once gives");
		ask(s, proto, "/search", "walrus", 1, &again);
		OK(again.job == NULL && again.bodylen == r.bodylen,
		    "index built: answered at once");
		response_free(&again);
		response_free(&now);
		response_free(&r);
		site_unref(t);
		site_unref(s);
		if (proto == SURFACE_GOPHER)
			break;
		s = site_new(a, 0);
		t = site_new(a, 0);
	}
}

/* Another site's index, built on a thread of its own. */
static void *
other_build(void *arg)
{
	(void)site_search(arg);
	return NULL;
}

static void
test_not_serialised(struct archive *a)
{
	struct site	*s = site_new(a, 0), *o = site_new(a, 0);
	pthread_t	 t;
	int		 done;

	/* s's build under way (its lock held, as by a slow build). */
	pthread_mutex_lock(&s->search_mtx);
	OK(pthread_create(&t, NULL, other_build, o) == 0, "thread");
	pthread_join(t, NULL);
	done = site_search_ready(o);
	pthread_mutex_unlock(&s->search_mtx);
	OK(done, "another site's index built meanwhile");
	OK(!site_search_ready(s), "s's still to build");
	OK(site_search(s) != NULL && site_search_ready(s), "then s's");
	site_unref(s);
	site_unref(o);
}

static struct archive	*arch;

static void
run_defer(void)
{
	test_defer(arch);
}

static void
run_not_serialised(void)
{
	test_not_serialised(arch);
}

static const struct harness_test tests[] = {
	TEST(run_defer),
	TEST(run_not_serialised),
};

int
main(int argc, char **argv)
{
	int	 rv;

	HARNESS_INIT(argc, argv, tests);
	snprintf(top, sizeof(top), "/tmp/capsuled-searchdefer-XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	test_mkdir(top, "posts");
	test_put(top, "posts/2024-01-01-w.md", "---\ntitle: Walrus\n---\n"
	    "A walrus on the ice.\n");
	test_put(top, "posts/2024-01-02-o.md", "---\ntitle: Otter\n---\n"
	    "An otter in the river.\n");
	memset(&cfg, 0, sizeof(cfg));
	cfg.capsule_dir = top;
	cfg.site_title = "Site";
	cfg.lang = "en";
	cfg.hostname = "localhost";
	cfg.port[SURFACE_GEMINI] = 1965;
	cfg.port[SURFACE_GOPHER] = 70;
	log_open(NULL, LOG_LEVEL_WARN);
	arch = archive_load(&cfg);
	if (arch == NULL) {
		fprintf(stderr, "archive_load failed\n");
		return 2;
	}
	harness_run();
	rv = harness_done();
	archive_unref(arch);
	test_rm_tree(top);
	return rv;
}
