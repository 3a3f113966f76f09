/*
 * index.h -- a table from string keys to pointers, sized once.
 *
 * Open addressing with linear probing over core/hash.h's FNV-1a.  A
 * snapshot finds its posts, series, tags and pages by slug or name in
 * such tables (content/archive.c), and the next snapshot its file
 * records by path.  Keys and values are borrowed: the table owns only
 * its two arrays.  Knows nothing of what it maps.
 */
#ifndef CAPSULED_INDEX_H
#define CAPSULED_INDEX_H

#include <stddef.h>

struct index {
	const char	**keys;		/* borrowed; NULL: a free place */
	void		**vals;		/* borrowed */
	size_t		  cap;		/* a power of two, or 0 */
};

/* Room for n keys, never resized: callers know n up front. */
void	 index_init(struct index *, size_t n);
/* The arrays; the table is then empty (cap 0) and may be freed again. */
void	 index_free(struct index *);
/* The value under key; NULL when absent, when key is NULL or cap is 0. */
void	*index_get(const struct index *, const char *key);
/* Insert unless present; returns the value now under key. */
void	*index_put(struct index *, const char *key, void *val);

#endif
