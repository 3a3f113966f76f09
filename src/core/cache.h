/*
 * cache.h -- rendered responses, kept by whoever owns the slots (a
 * site, site/site.h), shared by every worker thread, bounded in memory.
 *
 * A slot holds at most one blob.  The first request for a page renders
 * it and publishes it with cache_put() (compare-and-swap from NULL);
 * later requests take it with cache_get().  Neither takes a lock: a
 * read is an atomic add and subtract on the slot's reader count and an
 * atomic add on the blob's reference count.
 *
 * Ownership.  A slot owns one reference to its blob.  cache_get() and
 * cache_put() hand the caller one more, dropped with blob_unref() once
 * the bytes are no longer needed (a response keeps it until its last
 * write has completed).  So a blob evicted while a response is sending
 * it lives on until that response is done.
 *
 * Memory.  Every process-wide byte held by a slot is counted
 * (cache_bytes()).  cache_evict() empties the least recently used
 * slots of a set until the count is at or under a target; the owner of
 * the slots calls it when a put goes over the configured limit.  Eviction is
 * safe against concurrent readers: after emptying a slot it waits for
 * the slot's readers that may have loaded the old pointer (a window of
 * a few instructions) before dropping the slot's reference.
 *
 * Knows nothing of archives, pages or protocols.
 */
#ifndef CAPSULED_CACHE_H
#define CAPSULED_CACHE_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct blob {
	atomic_uint	 refs;
	_Atomic uint32_t last_use;	/* clock_now_ms(), cut: for LRU */
	int64_t		 made;		/* time(NULL) when made */
	_Atomic uint64_t tag;		/* blob_tag(), once asked; 0 before */
	size_t		 len;
	char		 data[];	/* NUL-terminated for convenience */
};

struct slot {
	_Atomic(struct blob *) blob;	/* one reference, or NULL */
	atomic_uint	 readers;	/* cache_get()s in progress */
};

/* len bytes at data (data may be NULL when len is 0); one reference. */
struct blob	*blob_new(const char *data, size_t len);
/*
 * A hash of b's bytes (hash.h), never 0: what tells two renderings
 * apart (the web view's entity tag).  Made on the first ask and kept,
 * so that a page read a thousand times is hashed once.  Any thread.
 */
uint64_t	 blob_tag(struct blob *b);
/* Drop one reference; the last frees.  NULL is ignored. */
void		 blob_unref(struct blob *);

void		 slot_init(struct slot *);
/*
 * Empty a slot whose owner is being freed: nobody may be reading it.
 * Its bytes leave the count; the blob lives on while others hold it.
 */
void		 slot_clear(struct slot *);

/* The slot's blob with a reference for the caller, or NULL. */
struct blob	*cache_get(struct slot *);
/*
 * Publish b (the caller's one reference passes to the slot) unless the
 * slot already holds a blob.  Returns the blob in the slot afterwards,
 * with a reference for the caller: b, or the one another thread put
 * there first (b is then freed).
 */
struct blob	*cache_put(struct slot *, struct blob *b);

/* Bytes held by slots, all sites together. */
size_t		 cache_bytes(void);
/*
 * Empty the least recently used of the n slots until cache_bytes() is
 * at most target.  One eviction runs at a time: when another thread is
 * evicting this returns 0 at once.  Returns the bytes taken out.
 */
size_t		 cache_evict(struct slot *const *slots, size_t n,
		    size_t target);

#endif
