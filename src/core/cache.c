/*
 * cache.c -- rendered responses in lock-free slots, with LRU eviction.
 *
 * The one subtle part is eviction racing a reader (see cache.h):
 *
 *   reader (cache_get)              evicter (cache_evict)
 *   readers += 1                    CAS blob: b -> NULL
 *   b = blob                        wait until readers == 0
 *   if b: b->refs += 1              blob_unref(b)
 *   readers -= 1
 *
 * All of it is sequentially consistent.  A reader that loaded b did so
 * before the CAS, so its increment of readers came before the CAS too,
 * and the evicter sees it and waits; the reader's reference is taken
 * before it decrements readers.  A reader whose load comes after the
 * CAS sees NULL (or a newer blob) and never touches b.  Only the one
 * evicter (an atomic flag) and slot_clear() (the slot's owner is being
 * freed: no readers) ever take a blob out of a slot; workers only put
 * into empty ones.  So the evicter may read any blob it finds in a
 * slot.
 *
 * Knows nothing of archives or sites: the site layer (site/site.c)
 * hands over its slots.  Owns the process-wide byte count.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/cache.h"
#include "core/clock.h"
#include "core/hash.h"
#include "core/util.h"

static atomic_size_t	 held;		/* bytes of blobs in slots */
static atomic_flag	 evicting = ATOMIC_FLAG_INIT;

/* The LRU stamp: milliseconds, wrapping after 49 days (cache.h). */
static uint32_t
now_ms(void)
{
	return (uint32_t)clock_now_ms();
}

static size_t
cost(const struct blob *b)
{
	return sizeof(*b) + b->len + 1;
}

static void
touch(struct blob *b)
{
	uint32_t	 t = now_ms();

	/* Store only on change: no cache-line ping-pong on a hot page. */
	if (atomic_load_explicit(&b->last_use, memory_order_relaxed) != t)
		atomic_store_explicit(&b->last_use, t, memory_order_relaxed);
}

struct blob *
blob_new(const char *data, size_t len)
{
	struct blob	*b;

	b = xmalloc(sizeof(*b) + len + 1);
	atomic_init(&b->refs, 1);
	atomic_init(&b->last_use, now_ms());
	atomic_init(&b->tag, 0);
	b->made = (int64_t)time(NULL);
	b->len = len;
	if (len)
		memcpy(b->data, data, len);
	b->data[len] = '\0';
	return b;
}

uint64_t
blob_tag(struct blob *b)
{
	uint64_t	 t;

	if ((t = atomic_load_explicit(&b->tag, memory_order_relaxed)) != 0)
		return t;
	/* Two threads racing write the same value. */
	if ((t = hash_bytes(b->data, b->len)) == 0)
		t = 1;
	atomic_store_explicit(&b->tag, t, memory_order_relaxed);
	return t;
}

void
blob_unref(struct blob *b)
{
	if (b != NULL && atomic_fetch_sub(&b->refs, 1) == 1)
		free(b);
}

void
slot_init(struct slot *s)
{
	atomic_init(&s->blob, NULL);
	atomic_init(&s->readers, 0);
}

void
slot_clear(struct slot *s)
{
	struct blob	*b;

	if ((b = atomic_exchange(&s->blob, NULL)) == NULL)
		return;
	atomic_fetch_sub(&held, cost(b));
	blob_unref(b);
}

struct blob *
cache_get(struct slot *s)
{
	struct blob	*b;

	atomic_fetch_add(&s->readers, 1);
	if ((b = atomic_load(&s->blob)) != NULL)
		atomic_fetch_add(&b->refs, 1);
	atomic_fetch_sub(&s->readers, 1);
	if (b != NULL)
		touch(b);
	return b;
}

struct blob *
cache_put(struct slot *s, struct blob *b)
{
	struct blob	*old, *got;

	atomic_store(&b->refs, 2);		/* the slot's and ours */
	touch(b);
	for (;;) {
		old = NULL;
		if (atomic_compare_exchange_strong(&s->blob, &old, b)) {
			atomic_fetch_add(&held, cost(b));
			return b;
		}
		/* Another thread won.  Take theirs, unless just evicted. */
		if ((got = cache_get(s)) != NULL) {
			free(b);		/* never shared */
			return got;
		}
	}
}

size_t
cache_bytes(void)
{
	return atomic_load(&held);
}

struct victim {
	struct slot	*slot;
	struct blob	*blob;
	uint32_t	 last_use;
};

static int
cmp_victim(const void *x, const void *y)
{
	const struct victim	*a = x, *b = y;

	/* Oldest first; the clock may wrap after 49 days: compare deltas. */
	if (a->last_use == b->last_use)
		return 0;
	return (int32_t)(a->last_use - b->last_use) < 0 ? -1 : 1;
}

size_t
cache_evict(struct slot *const *slots, size_t n, size_t target)
{
	struct victim	*v;
	struct blob	*b, *expect;
	size_t		 i, k = 0, freed = 0, c;

	if (atomic_load(&held) <= target ||
	    atomic_flag_test_and_set(&evicting))
		return 0;
	v = xreallocarray(NULL, n ? n : 1, sizeof(*v));
	for (i = 0; i < n; i++) {
		if ((b = atomic_load(&slots[i]->blob)) == NULL)
			continue;
		v[k].slot = slots[i];
		v[k].blob = b;
		v[k].last_use = atomic_load_explicit(&b->last_use,
		    memory_order_relaxed);
		k++;
	}
	qsort(v, k, sizeof(*v), cmp_victim);
	for (i = 0; i < k && atomic_load(&held) > target; i++) {
		expect = v[i].blob;
		if (!atomic_compare_exchange_strong(&v[i].slot->blob, &expect,
		    NULL))
			continue;	/* cannot happen: only we take out */
		/* A reader may have loaded the pointer: let it take a ref. */
		while (atomic_load(&v[i].slot->readers) != 0)
			sched_yield();
		c = cost(v[i].blob);
		atomic_fetch_sub(&held, c);
		freed += c;
		blob_unref(v[i].blob);
	}
	free(v);
	atomic_flag_clear(&evicting);
	return freed;
}
