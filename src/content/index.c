/*
 * index.c -- a table from string keys to pointers, sized once (index.h).
 *
 * Half full at most, so a probe is short; the snapshot knows how many
 * posts, series, tags and pages it will put in before it starts.  Owns
 * its two arrays, nothing they point to.
 */
#include <stdlib.h>
#include <string.h>

#include "content/index.h"
#include "core/hash.h"
#include "core/util.h"

void
index_init(struct index *x, size_t n)
{
	x->cap = 16;
	while (x->cap < 2 * n)
		x->cap *= 2;
	x->keys = xcalloc(x->cap, sizeof(*x->keys));
	x->vals = xcalloc(x->cap, sizeof(*x->vals));
}

void
index_free(struct index *x)
{
	free(x->keys);
	free(x->vals);
	memset(x, 0, sizeof(*x));
}

void *
index_get(const struct index *x, const char *key)
{
	size_t	 i;

	if (x->cap == 0 || key == NULL)
		return NULL;
	for (i = hash_str(key) & (x->cap - 1); x->keys[i] != NULL;
	    i = (i + 1) & (x->cap - 1))
		if (strcmp(x->keys[i], key) == 0)
			return x->vals[i];
	return NULL;
}

void *
index_put(struct index *x, const char *key, void *val)
{
	size_t	 i;

	for (i = hash_str(key) & (x->cap - 1); x->keys[i] != NULL;
	    i = (i + 1) & (x->cap - 1))
		if (strcmp(x->keys[i], key) == 0)
			return x->vals[i];
	x->keys[i] = key;
	x->vals[i] = val;
	return val;
}
