/*
 * hashset.h -- a set of 64-bit hashes (core/hash.h's), refcounted.
 *
 * For remembering what was seen without keeping it: the warning lines a
 * capsule's load logged, which the next load of it asks
 * (content/archive.c).  Open addressing over a power-of-two table,
 * grown at half full; the value 0 stands for 1, so that 0 can mark an
 * empty slot (two lines that hash to 0 and 1 are one: a set of hashes
 * can always take two things for one).  Filled by one thread, then read
 * by any; each holder of a reference frees with hashset_unref().
 * Knows nothing but numbers.
 */
#ifndef CAPSULED_HASHSET_H
#define CAPSULED_HASHSET_H

#include <stddef.h>
#include <stdint.h>

struct hashset;

struct hashset	*hashset_new(void);
void		 hashset_ref(struct hashset *);
/* Drop a reference; the set is freed at the last.  NULL is fine. */
void		 hashset_unref(struct hashset *);
/* Put h in s: 1 when it was not there yet, 0 when it was. */
int		 hashset_put(struct hashset *s, uint64_t h);
/* 1 when h is in s; an absent set (NULL) holds nothing. */
int		 hashset_has(const struct hashset *s, uint64_t h);
/* How many hashes s holds. */
size_t		 hashset_count(const struct hashset *s);

#endif
