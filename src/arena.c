/*
 * arena.c -- a per-thread bump allocator for cmark trees (see arena.h).
 *
 * Chunks are malloc'd, each at least twice the one before, and linked
 * so arena_end() can free them.  Every block has a header with its size,
 * which realloc needs: cmark grows its string buffers by realloc, and a
 * buffer that is the chunk's last block grows in place.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "log.h"
#include "util.h"

#define ARENA_FIRST	(64 * 1024)	/* a 4 KB post's tree fits */
#define ARENA_ALIGN	16		/* max_align_t on x86-64 and arm64 */

struct chunk {
	struct chunk	*prev;
	size_t		 size;		/* bytes in data */
	size_t		 used;
	_Alignas(ARENA_ALIGN) unsigned char data[];
};

/* Before each block: its size (a multiple of ARENA_ALIGN). */
struct header {
	_Alignas(ARENA_ALIGN) size_t size;
};

static _Thread_local struct chunk	*cur;	/* NULL: no chunk yet */
static _Thread_local int		 busy;	/* a tree is in the arena */

static size_t
round_up(size_t n)
{
	return (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
}

/* A block of n bytes (not zeroed); aborts on overflow or no memory. */
static void *
block(size_t n)
{
	struct chunk	*c;
	struct header	*h;
	size_t		 need, size;

	if (n > SIZE_MAX / 2)
		fatalx("arena: %zu bytes asked for", n);
	n = round_up(n);
	need = sizeof(struct header) + n;
	if (cur == NULL || cur->size - cur->used < need) {
		size = cur != NULL ? cur->size * 2 : ARENA_FIRST;
		while (size < need)
			size *= 2;
		c = xmalloc(sizeof(*c) + size);
		c->prev = cur;
		c->size = size;
		c->used = 0;
		cur = c;
	}
	h = (struct header *)(cur->data + cur->used);
	h->size = n;
	cur->used += need;
	return h + 1;
}

static void *
arena_calloc(size_t nmemb, size_t size)
{
	void	*p;

	if (size != 0 && nmemb > SIZE_MAX / size)
		fatalx("arena: calloc(%zu, %zu) overflows", nmemb, size);
	p = block(nmemb * size);
	memset(p, 0, nmemb * size);
	return p;
}

static void *
arena_realloc(void *p, size_t n)
{
	struct header	*h;
	size_t		 grow;
	void		*q;

	if (p == NULL)
		return block(n);
	h = (struct header *)p - 1;
	if (n <= h->size)
		return p;
	/* The chunk's last block: grow it where it is. */
	grow = round_up(n) - h->size;
	if ((unsigned char *)p + h->size == cur->data + cur->used &&
	    cur->size - cur->used >= grow) {
		cur->used += grow;
		h->size += grow;
		return p;
	}
	q = block(n);
	memcpy(q, p, h->size);
	return q;
}

static void
arena_free(void *p)
{
	(void)p;		/* all of it goes in arena_end() */
}

static cmark_mem	 arena_mem = { arena_calloc, arena_realloc, arena_free };

cmark_mem *
arena_begin(void)
{
	if (busy)
		return NULL;
	busy = 1;
	return &arena_mem;
}

void
arena_end(void)
{
	struct chunk	*c;

	while ((c = cur) != NULL) {
		cur = c->prev;
		free(c);
	}
	busy = 0;
}
