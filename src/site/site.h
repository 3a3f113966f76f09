/*
 * site.h -- one host's site state: a content snapshot and what is made
 * from it while it is served.
 *
 * The archive (content/archive.h) is content only.  What the serving
 * threads build from it on demand lives here, beside the one reference
 * to the snapshot it was built from: the rendered pages, in cache slots
 * (core/cache.h), and the search index (content/search.h).  A site is
 * made for each new snapshot (app/reload.c), published whole in a
 * generation (net/generation.h) and shared read-only by every worker:
 * pages are published into its slots with compare-and-swap and the
 * index with one atomic pointer, so nobody takes a lock to read.
 *
 * A slot is found by pointer arithmetic: every post, series, tag and
 * page has an id in its archive (its place in the archive's array), and
 * the slots of each kind sit in one array at first[kind] + id, one slot
 * per rendering.  The navigation pages (nav.h) are the last kind.
 *
 * Files of the capsule (files/, page bundles' files) may be kept here
 * too, each in a slot of its own found by its name (site_file_slot()):
 * the snapshot does not list them, so they are added as they are first
 * served.  Their bytes count against the same cache_max as pages.
 *
 * Knows the archive's shape, the cache and the search index; nothing of
 * protocols' syntax or sockets.  A site owns its slots and index and one
 * reference to its archive; it is reference-counted, and the last
 * site_unref() frees it.
 */
#ifndef CAPSULED_SITE_H
#define CAPSULED_SITE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "core/cache.h"
#include "core/surface.h"

struct archive;
struct search_index;

/* Which rendering of a thing a cache slot holds. */
enum site_render {
	SITE_GEMTEXT,			/* the whole response body */
	SITE_GOPHER,			/* Gopher menus and texts */
	SITE_ATOM,			/* one feed for both protocols */
	SITE_GOPHER_MENU,		/* a post's Gopher menu */
	SITE_NEX,			/* Nex directories and texts */
	SITE_NEX_MENU,			/* a post's Nex directory */
	SITE_TEXT,			/* plain text (Finger's) */
	SITE_HTML,			/* HTML documents (the web view's) */
	SITE_NRENDERS
};

/* The rendering of a format's pages and documents (core/surface.h). */
enum site_render site_render_of(enum format f);
/*
 * The rendering of a post's or a page's own menu in a format that has
 * them (format_menus()); SITE_NRENDERS for one that has not.
 */
enum site_render site_menu_render_of(enum format f);

/* What a slot belongs to: ids are the archive's, or enum nav_page. */
enum site_kind {
	SITE_POST,
	SITE_SERIES,
	SITE_TAG,
	SITE_DOC,
	SITE_NAV,
	SITE_NKINDS
};

/* A file kept in memory: its slot, by capsule-relative name. */
struct site_file {
	struct site_file *next;		/* in its bucket; set before it is
					   published, never changed */
	uint32_t	 hash;
	struct slot	 slot;
	char		 rel[];		/* "files/a.png" */
};

struct site {
	atomic_uint	 refs;
	struct archive	*a;		/* one reference */
	size_t		 cache_max;	/* bytes; 0 = no limit (config) */
	/* search.c's index of a's posts: built on first search; owned. */
	_Atomic(struct search_index *) search;
	/* One build of it at a time, per site: other sites' go on. */
	pthread_mutex_t	 search_mtx;
	struct slot	*slots;		/* owned: SITE_NRENDERS per thing */
	size_t		 nslots;
	size_t		 first[SITE_NKINDS];	/* each kind's first thing */
	/* Buckets of struct site_file chains: allocated by the first add. */
	_Atomic(_Atomic(struct site_file *) *) files;
};

/*
 * A site for a (a reference is taken), its cache bounded by cache_max
 * bytes (0: no bound); one reference, the caller's.
 */
struct site	*site_new(struct archive *a, size_t cache_max);
void		 site_ref(struct site *);
void		 site_unref(struct site *);	/* NULL: ignored */

/*
 * The slot of rendering r of thing id of kind k (a post's id, or an
 * enum nav_page for SITE_NAV); id must be in range.  Constant time.
 */
struct slot	*site_slot(struct site *, enum site_kind k, size_t id,
		    enum site_render r);
/*
 * The slot of the file rel ("files/a.png") in s: the one it has, or,
 * when add, a new one (NULL without add when it has none).  Add only a
 * file that may be served: the slot is trusted for as long as s lives.
 * Any thread; no lock (entries are pushed with compare-and-swap, and
 * live as long as s).
 */
struct slot	*site_file_slot(struct site *s, const char *rel, int add);
/*
 * cache_put() into one of s's slots; then, when the bytes held by all
 * caches exceed s->cache_max, evict s's least recently used blobs down
 * to three quarters of it.  Returns what cache_put() returns.
 */
struct blob	*site_cache_put(struct site *s, struct slot *slot,
		    struct blob *b);
/* Evict s's least recently used blobs until cache_bytes() <= target. */
size_t		 site_cache_trim(struct site *s, size_t target);

/*
 * The search index of s's posts: the published one, or one built now
 * (one build at a time across threads) and published for every later
 * search.  Lives as long as s.
 */
const struct search_index *site_search(struct site *s);
/* Is s's search index built (site_search() costs nothing)?  Any thread. */
int		 site_search_ready(struct site *s);

#endif
