/*
 * site.c -- one host's site state (site.h): the cache slots of a
 * snapshot's pages in one array, their memory bound, and the search
 * index built on first use.
 *
 * The slots are allocated once, when the site is made (a few hundred
 * kilobytes for 10,000 posts), and never move: a request finds its
 * page's slot with an addition and a multiplication.  Eviction walks
 * the whole array; it runs only when a put goes over the configured
 * bound.
 *
 * Files have no id: theirs is a chained hash table of SITE_FILE_BUCKETS
 * buckets, allocated by the first file kept (a site that serves none
 * pays nothing), whose chains only grow, by compare-and-swap at their
 * heads.  An entry is never removed before the site goes, so a reader
 * walks a chain without a lock.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "content/archive.h"
#include "content/search.h"
#include "core/cache.h"
#include "core/hash.h"
#include "core/log.h"
#include "core/util.h"
#include "site/nav.h"
#include "site/site.h"

#define SITE_FILE_BUCKETS	512	/* a power of two */

struct site *
site_new(struct archive *a, size_t cache_max)
{
	struct site	*s;
	size_t		 n[SITE_NKINDS], things = 0, i;

	/* Unlisted posts and pages are served too (archive.h). */
	n[SITE_POST] = a->nposts + a->nunlisted;
	n[SITE_SERIES] = a->nseries;
	n[SITE_TAG] = a->ntags;
	n[SITE_DOC] = a->ndocs + a->nunlisted_docs;
	n[SITE_NAV] = NAV_NPAGES;
	s = xcalloc(1, sizeof(*s));
	atomic_init(&s->refs, 1);
	archive_ref(a);
	s->a = a;
	s->cache_max = cache_max;
	atomic_init(&s->search, NULL);
	pthread_mutex_init(&s->search_mtx, NULL);
	atomic_init(&s->files, NULL);
	for (i = 0; i < SITE_NKINDS; i++) {
		s->first[i] = things;
		things += n[i];
	}
	s->nslots = things * SITE_NRENDERS;
	s->slots = xreallocarray(NULL, s->nslots, sizeof(*s->slots));
	for (i = 0; i < s->nslots; i++)
		slot_init(&s->slots[i]);
	return s;
}

void
site_ref(struct site *s)
{
	atomic_fetch_add(&s->refs, 1);
}

void
site_unref(struct site *s)
{
	_Atomic(struct site_file *) *files;
	struct site_file	*f, *next;
	size_t			 i;

	if (s == NULL || atomic_fetch_sub(&s->refs, 1) != 1)
		return;
	search_free(atomic_load(&s->search));
	pthread_mutex_destroy(&s->search_mtx);
	for (i = 0; i < s->nslots; i++)
		slot_clear(&s->slots[i]);
	free(s->slots);
	if ((files = atomic_load(&s->files)) != NULL) {
		for (i = 0; i < SITE_FILE_BUCKETS; i++)
			for (f = atomic_load(&files[i]); f != NULL; f = next) {
				next = f->next;
				slot_clear(&f->slot);
				free(f);
			}
		free(files);
	}
	archive_unref(s->a);
	free(s);
}

struct slot *
site_slot(struct site *s, enum site_kind k, size_t id, enum site_render r)
{
	return &s->slots[(s->first[k] + id) * SITE_NRENDERS + r];
}

struct slot *
site_file_slot(struct site *s, const char *rel, int add)
{
	_Atomic(struct site_file *) *files, *want = NULL, *bucket;
	struct site_file	*head, *f, *e = NULL;
	/* FNV-1a: names are short, and a bucket is a short chain. */
	uint32_t		 h = (uint32_t)hash_str(rel);
	size_t			 i, len;

	if ((files = atomic_load_explicit(&s->files,
	    memory_order_acquire)) == NULL) {
		if (!add)
			return NULL;
		files = xreallocarray(NULL, SITE_FILE_BUCKETS,
		    sizeof(*files));
		for (i = 0; i < SITE_FILE_BUCKETS; i++)
			atomic_init(&files[i], NULL);
		if (!atomic_compare_exchange_strong(&s->files, &want,
		    files)) {
			free(files);		/* another thread's won */
			files = want;
		}
	}
	bucket = &files[h & (SITE_FILE_BUCKETS - 1)];
	head = atomic_load_explicit(bucket, memory_order_acquire);
	for (;;) {
		for (f = head; f != NULL; f = f->next)
			if (f->hash == h && strcmp(f->rel, rel) == 0) {
				free(e);	/* added meanwhile */
				return &f->slot;
			}
		if (!add)
			return NULL;
		if (e == NULL) {
			len = strlen(rel);
			e = xmalloc(sizeof(*e) + len + 1);
			e->hash = h;
			slot_init(&e->slot);
			memcpy(e->rel, rel, len + 1);
		}
		e->next = head;
		/* On failure head is the new head: look at it again. */
		if (atomic_compare_exchange_weak_explicit(bucket, &head, e,
		    memory_order_release, memory_order_acquire))
			return &e->slot;
	}
}

size_t
site_cache_trim(struct site *s, size_t target)
{
	_Atomic(struct site_file *) *files;
	struct site_file	*f;
	struct slot		**v;
	size_t			 i, r, k = 0, n, freed;

	if (cache_bytes() <= target)
		return 0;
	n = s->nslots;
	files = atomic_load_explicit(&s->files, memory_order_acquire);
	for (i = 0; files != NULL && i < SITE_FILE_BUCKETS; i++)
		for (f = atomic_load_explicit(&files[i], memory_order_acquire);
		    f != NULL; f = f->next)
			n++;
	/*
	 * By rendering, then thing: of blobs last used in the same
	 * millisecond, the Gemini pages of posts go first, files last.
	 */
	v = xreallocarray(NULL, n > 0 ? n : 1, sizeof(*v));
	for (r = 0; r < SITE_NRENDERS; r++)
		for (i = r; i < s->nslots; i += SITE_NRENDERS)
			v[k++] = &s->slots[i];
	/* Files added since they were counted wait for the next sweep. */
	for (i = 0; files != NULL && i < SITE_FILE_BUCKETS; i++)
		for (f = atomic_load_explicit(&files[i], memory_order_acquire);
		    f != NULL && k < n; f = f->next)
			v[k++] = &f->slot;
	freed = cache_evict(v, k, target);
	free(v);
	if (freed > 0)
		log_debug("cache: %zu bytes of pages evicted; %zu held",
		    freed, cache_bytes());
	return freed;
}

struct blob *
site_cache_put(struct site *s, struct slot *slot, struct blob *b)
{
	b = cache_put(slot, b);
	/* Down to 3/4 of the limit, so that a sweep is not due every put. */
	if (s->cache_max > 0 && cache_bytes() > s->cache_max)
		site_cache_trim(s, s->cache_max - s->cache_max / 4);
	return b;
}

int
site_search_ready(struct site *s)
{
	return atomic_load_explicit(&s->search, memory_order_acquire) !=
	    NULL;
}

const struct search_index *
site_search(struct site *s)
{
	struct search_index	*x, *want = NULL;
	struct timespec		 t0, t1;

	x = atomic_load_explicit(&s->search, memory_order_acquire);
	if (x != NULL)
		return x;
	/*
	 * One build per site at a time: its other searches wait for it, not
	 * redo it; another capsule's build does not wait for this one.
	 */
	pthread_mutex_lock(&s->search_mtx);
	x = atomic_load_explicit(&s->search, memory_order_acquire);
	if (x == NULL) {
		clock_gettime(CLOCK_MONOTONIC, &t0);
		x = search_build(s->a);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		if (!atomic_compare_exchange_strong(&s->search, &want, x)) {
			search_free(x);		/* cannot happen: locked */
			x = want;
		} else
			log_info("search index: %zu posts, %zu tokens, "
			    "%zu bytes, %.1f ms", s->a->nposts,
			    search_nterms(x), search_bytes(x),
			    (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
			    (double)(t1.tv_nsec - t0.tv_nsec) / 1e6);
	}
	pthread_mutex_unlock(&s->search_mtx);
	return x;
}

enum site_render
site_render_of(enum format f)
{
	switch (f) {
	case FORMAT_GEMTEXT:
		return SITE_GEMTEXT;
	case FORMAT_GOPHER:
		break;
	case FORMAT_NEX:
		return SITE_NEX;
	case FORMAT_TEXT:
		return SITE_TEXT;
	case FORMAT_HTML:
		return SITE_HTML;
	}
	return SITE_GOPHER;
}

enum site_render
site_menu_render_of(enum format f)
{
	switch (f) {
	case FORMAT_GEMTEXT:
	case FORMAT_TEXT:
	case FORMAT_HTML:
		break;
	case FORMAT_GOPHER:
		return SITE_GOPHER_MENU;
	case FORMAT_NEX:
		return SITE_NEX_MENU;
	}
	return SITE_NRENDERS;
}
