/*
 * test_site.c -- site.c over a small capsule made in a temp directory:
 * one slot per rendering of every post, series, tag, page and
 * navigation page; publishing into them, the memory bound, the search
 * index built once, and the reference the site holds on its snapshot.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "content/archive.h"
#include "content/search.h"
#include "core/cache.h"
#include "core/config.h"
#include "core/log.h"
#include "core/util.h"
#include "files.h"
#include "harness.h"
#include "site/nav.h"
#include "site/site.h"

static char	 top[64];

static struct archive *
load(void)
{
	struct config	 c;

	test_mkdir(top, "posts");
	test_mkdir(top, "pages");
	test_put(top, "posts/2024-01-01-a.md", "---\ntitle: A\ntags: [x, y]\n"
	    "series: S\n---\nAlpha words.\n");
	test_put(top, "posts/2024-01-02-b.md", "---\ntitle: B\ntags: [x]\n"
	    "series: S\n---\nBeta words, and a needle.\n");
	test_put(top, "posts/2024-01-03-c.md", "---\ntitle: C\n---\nGamma.\n");
	test_put(top, "pages/about.md", "# About\n\nMe.\n");
	memset(&c, 0, sizeof(c));
	c.capsule_dir = top;
	c.site_title = "Site";
	c.lang = "en";
	c.hostname = "localhost";
	return archive_load(&c);
}

/* Every slot is its own, in the array, and starts empty. */
static void
test_slots(struct site *s)
{
	struct archive	*a = s->a;
	size_t		 n[SITE_NKINDS], k, id, r, seen = 0;
	struct slot	*sl;
	char		*mark;

	n[SITE_POST] = a->nposts;
	n[SITE_SERIES] = a->nseries;
	n[SITE_TAG] = a->ntags;
	n[SITE_DOC] = a->ndocs;
	n[SITE_NAV] = NAV_NPAGES;
	INT_EQ(s->nslots, (3 + 1 + 2 + 1 + NAV_NPAGES) * SITE_NRENDERS,
	    "a slot per rendering of every thing");
	mark = xcalloc(s->nslots, 1);
	for (k = 0; k < SITE_NKINDS; k++)
		for (id = 0; id < n[k]; id++)
			for (r = 0; r < SITE_NRENDERS; r++) {
				sl = site_slot(s, k, id, r);
				OK(sl >= s->slots && sl < s->slots + s->nslots,
				    "slot %zu/%zu/%zu in the array", k, id, r);
				if (sl < s->slots || sl >= s->slots + s->nslots)
					continue;
				if (mark[sl - s->slots]++ == 0)
					seen++;
				OK(cache_get(sl) == NULL, "empty at first");
			}
	INT_EQ(seen, s->nslots, "no two things share a slot");
	free(mark);
}

static void
test_put_get(struct site *s)
{
	struct blob	*b1, *b2, *got;
	struct slot	*slot = site_slot(s, SITE_POST, 0, SITE_GEMTEXT);

	b1 = blob_new("first", 5);
	got = site_cache_put(s, slot, b1);
	OK(got == b1, "first publish wins");
	INT_EQ(atomic_load(&b1->refs), 2, "slot and caller hold it");
	blob_unref(got);
	b2 = blob_new("second", 6);
	got = site_cache_put(s, slot, b2);	/* b2 is freed */
	OK(got == b1, "second publish gets the first");
	blob_unref(got);
	got = cache_get(slot);
	OK(got == b1, "get");
	blob_unref(got);
	OK(cache_get(site_slot(s, SITE_POST, 0, SITE_GOPHER)) == NULL,
	    "the other rendering is another slot");
	got = site_cache_put(s, site_slot(s, SITE_NAV, NAV_HOME, SITE_GOPHER),
	    blob_new(NULL, 0));
	OK(got != NULL && got->len == 0 && got->data[0] == '\0',
	    "empty blob");
	blob_unref(got);
	/* Left in their slots: site_unref() frees them (ASan checks). */
}

/* A site over its cache limit evicts its least recently used. */
static void
test_cache_limit(struct site *s)
{
	struct slot	*s0 = site_slot(s, SITE_POST, 0, SITE_GOPHER);
	struct slot	*s1 = site_slot(s, SITE_POST, 1, SITE_GOPHER);
	struct blob	*b;
	size_t		 base = cache_bytes();
	char		 big[300];

	memset(big, 'x', sizeof(big));
	s->cache_max = base + 500;
	blob_unref(site_cache_put(s, s0, blob_new(big, sizeof(big))));
	OK(cache_get(s0) != NULL, "kept");
	blob_unref(atomic_load(&s0->blob));
	b = site_cache_put(s, s1, blob_new(big, sizeof(big)));
	OK(b != NULL && b->len == sizeof(big), "the new one is served");
	OK(atomic_load(&s0->blob) == NULL, "the older one was evicted");
	OK(cache_bytes() <= s->cache_max, "under the limit");
	blob_unref(b);
	OK(site_cache_trim(s, base) > 0, "trim");
	OK(atomic_load(&s1->blob) == NULL, "trimmed");
	INT_EQ(cache_bytes(), base, "back to where it was");
	s->cache_max = 0;
}

static void
test_search(struct site *s)
{
	const struct search_index	*x;
	struct search_result		 r;

	OK(atomic_load(&s->search) == NULL, "no index before a search");
	x = site_search(s);
	OK(x != NULL && site_search(s) == x, "built once, then kept");
	OK(search_run(x, "needle", 10, &r) == 0 && r.total == 1 &&
	    strcmp(r.hits[0].post->slug, "b") == 0, "the index is a's");
	search_result_free(&r);
}

static const struct harness_test tests[] = {
	NAMED("slots"),
	NAMED("cache_limit"),
	NAMED("put_get"),
	NAMED("search"),
};

int
main(int argc, char **argv)
{
	struct archive	*a;
	struct site	*s, *t;
	size_t		 held;

	HARNESS_INIT(argc, argv, tests);

	log_set_level(LOG_LEVEL_ERROR);
	snprintf(top, sizeof(top), "/tmp/capsuled-site-XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	held = cache_bytes();
	if ((a = load()) == NULL) {
		OK(0, "archive_load");
		test_rm_tree(top);
		return harness_done();
	}
	s = site_new(a, 0);
	INT_EQ(atomic_load(&a->refs), 2, "the site holds the snapshot");
	archive_unref(a);
	OK(s->a == a && archive_post(s->a, "a") != NULL,
	    "the snapshot lives with the site");
	RUN("slots", test_slots(s));
	/* cache_limit first: it trims all it can. */
	RUN("cache_limit", test_cache_limit(s));
	RUN("put_get", test_put_get(s));
	RUN("search", test_search(s));

	/* A second site over the same snapshot has its own slots. */
	t = site_new(s->a, 0);
	OK(cache_get(site_slot(t, SITE_POST, 0, SITE_GEMTEXT)) == NULL,
	    "nothing rendered carries over");
	site_ref(t);
	INT_EQ(atomic_load(&t->refs), 2, "two references");
	site_unref(t);
	site_unref(t);
	site_unref(s);			/* the slots, the index, the archive */
	INT_EQ(cache_bytes(), held, "every byte given back");
	site_unref(NULL);
	test_rm_tree(top);
	return harness_done();
}
