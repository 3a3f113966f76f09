/*
 * hashset.c -- a refcounted set of 64-bit hashes (hashset.h).
 *
 * Linear probing from the hash's low bits; the table doubles when it is
 * half full, so a probe is short.  The set owns its table.
 */
#include <stdatomic.h>
#include <stdlib.h>

#include "core/hashset.h"
#include "core/util.h"

#define HASHSET_MIN	64		/* slots of a new table */

struct hashset {
	atomic_uint	 refs;
	size_t		 n;		/* hashes held */
	size_t		 cap;		/* slots, a power of two */
	uint64_t	*slot;		/* owned; 0: empty */
};

struct hashset *
hashset_new(void)
{
	struct hashset	*s = xcalloc(1, sizeof(*s));

	atomic_init(&s->refs, 1);
	s->cap = HASHSET_MIN;
	s->slot = xcalloc(s->cap, sizeof(*s->slot));
	return s;
}

void
hashset_ref(struct hashset *s)
{
	atomic_fetch_add(&s->refs, 1);
}

void
hashset_unref(struct hashset *s)
{
	if (s == NULL || atomic_fetch_sub(&s->refs, 1) != 1)
		return;
	free(s->slot);
	free(s);
}

/* The slot of h in a table of cap slots: h's, or the empty one for it. */
static size_t
probe(const uint64_t *slot, size_t cap, uint64_t h)
{
	size_t	 i = (size_t)h & (cap - 1);

	while (slot[i] != 0 && slot[i] != h)
		i = (i + 1) & (cap - 1);
	return i;
}

int
hashset_put(struct hashset *s, uint64_t h)
{
	uint64_t	*old;
	size_t		 i, oldcap;

	h += h == 0;
	i = probe(s->slot, s->cap, h);
	if (s->slot[i] == h)
		return 0;
	if (2 * (s->n + 1) > s->cap) {
		old = s->slot;
		oldcap = s->cap;
		s->cap *= 2;
		s->slot = xcalloc(s->cap, sizeof(*s->slot));
		for (i = 0; i < oldcap; i++)
			if (old[i] != 0)
				s->slot[probe(s->slot, s->cap, old[i])] =
				    old[i];
		free(old);
		i = probe(s->slot, s->cap, h);
	}
	s->slot[i] = h;
	s->n++;
	return 1;
}

int
hashset_has(const struct hashset *s, uint64_t h)
{
	h += h == 0;
	return s != NULL && s->slot[probe(s->slot, s->cap, h)] == h;
}

size_t
hashset_count(const struct hashset *s)
{
	return s != NULL ? s->n : 0;
}
