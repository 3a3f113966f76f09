/*
 * arena.c -- a per-thread bump allocator for cmark trees (see arena.h).
 *
 * Chunks are malloc'd, each at least twice the one before, and linked
 * so arena_end() can free them.  Every block has a header with its
 * room and the bytes asked for, which realloc needs: cmark grows its string buffers by realloc, and a
 * buffer that is the chunk's last block grows in place.
 *
 * The first chunk is sized from the Markdown (a tree takes about 24
 * times its source: 478 KB for the bench's 20 KB post), and arena_end()
 * keeps the biggest chunk up to ARENA_KEEP for the thread's next tree.
 * Chunks that size come from mmap, so without that every render paid
 * for mapping, faulting in and unmapping half a megabyte.  A thread's
 * kept chunk is freed when the thread ends (a pthread key destructor).
 */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "core/log.h"
#include "core/util.h"

/*
 * Under AddressSanitizer the arena tells it which bytes are handed out,
 * so a read or write past a block is still caught (the fuzz targets and
 * make asan): a chunk starts poisoned, a block is unpoisoned for exactly
 * the bytes asked for, and a kept chunk is poisoned again.
 */
#if defined(__SANITIZE_ADDRESS__)
#define ARENA_ASAN	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_ASAN	1
#endif
#endif
#ifdef ARENA_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n)	ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n)	ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n)	((void)(p), (void)(n))
#define UNPOISON(p, n)	((void)(p), (void)(n))
#endif

#define ARENA_FIRST	(64 * 1024)	/* the smallest chunk */
#define ARENA_PER_BYTE	24		/* tree bytes per Markdown byte */
#define ARENA_KEEP	(2 * 1024 * 1024) /* kept between trees */
#define ARENA_ALIGN	16		/* max_align_t on x86-64 and arm64 */

struct chunk {
	struct chunk	*prev;
	size_t		 size;		/* bytes in data */
	size_t		 used;
	_Alignas(ARENA_ALIGN) unsigned char data[];
};

/* Before each block. */
struct header {
	_Alignas(ARENA_ALIGN) size_t size; /* room: a multiple of ARENA_ALIGN */
	size_t		 asked;		/* bytes asked for, <= size */
};

static _Thread_local struct chunk	*cur;	/* NULL: no chunk yet */
static _Thread_local int		 busy;	/* a tree is in the arena */

static pthread_once_t	 key_once = PTHREAD_ONCE_INIT;
static pthread_key_t	 key;		/* the kept chunk, for its thread */

static void
free_chunk(struct chunk *c)
{
	UNPOISON(c->data, c->size);
	free(c);
}

static void
free_kept(void *kept)
{
	free_chunk(kept);
}

static void
key_init(void)
{
	if (pthread_key_create(&key, free_kept) != 0)
		fatalx("arena: pthread_key_create failed");
}

static size_t
round_up(size_t n)
{
	return (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
}

static struct chunk *
new_chunk(size_t size)
{
	struct chunk	*c;

	c = xmalloc(sizeof(*c) + size);
	c->prev = NULL;
	c->size = size;
	c->used = 0;
	POISON(c->data, size);
	return c;
}

/* A block of n bytes (not zeroed); aborts on overflow or no memory. */
static void *
carve(size_t n)
{
	struct chunk	*c;
	struct header	*h;
	size_t		 need, size, asked;

	if (n > SIZE_MAX / 2)
		fatalx("arena: %zu bytes asked for", n);
	asked = n;
	n = round_up(n);
	need = sizeof(struct header) + n;
	if (cur == NULL || cur->size - cur->used < need) {
		size = cur != NULL ? cur->size * 2 : ARENA_FIRST;
		while (size < need)
			size *= 2;
		c = new_chunk(size);
		c->prev = cur;
		cur = c;
	}
	h = (struct header *)(cur->data + cur->used);
	UNPOISON(h, sizeof(*h) + asked);
	h->size = n;
	h->asked = asked;
	cur->used += need;
	return h + 1;
}

static void *
arena_calloc(size_t nmemb, size_t size)
{
	void	*p;

	if (size != 0 && nmemb > SIZE_MAX / size)
		fatalx("arena: calloc(%zu, %zu) overflows", nmemb, size);
	p = carve(nmemb * size);
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
		return carve(n);
	h = (struct header *)p - 1;
	if (n <= h->size) {		/* it fits in the room it has */
		if (n < h->asked)
			POISON((unsigned char *)p + n, h->asked - n);
		else
			UNPOISON(p, n);
		h->asked = n;
		return p;
	}
	/* The chunk's last block: grow it where it is. */
	grow = round_up(n) - h->size;
	if ((unsigned char *)p + h->size == cur->data + cur->used &&
	    cur->size - cur->used >= grow) {
		UNPOISON(p, n);
		cur->used += grow;
		h->size += grow;
		h->asked = n;
		return p;
	}
	q = carve(n);
	memcpy(q, p, h->asked);
	return q;
}

static void
arena_free(void *p)
{
	(void)p;		/* all of it goes in arena_end() */
}

static cmark_mem	 arena_mem = { arena_calloc, arena_realloc, arena_free };

cmark_mem *
arena_begin(size_t hint)
{
	size_t	 size = ARENA_FIRST;

	if (busy)
		return NULL;
	busy = 1;
	while (size < ARENA_KEEP && hint > size / ARENA_PER_BYTE)
		size *= 2;
	/* The kept chunk (cur, empty) serves if it is big enough. */
	if (cur != NULL && cur->size < size) {
		free_chunk(cur);
		cur = NULL;
	}
	if (cur == NULL) {
		pthread_once(&key_once, key_init);
		cur = new_chunk(size);
		pthread_setspecific(key, cur);
	}
	return &arena_mem;
}

void
arena_end(void)
{
	struct chunk	*c, *keep = NULL;

	/* Chunks double: the newest is the biggest. */
	while ((c = cur) != NULL) {
		cur = c->prev;
		if (keep == NULL && c->size <= ARENA_KEEP)
			keep = c;
		else
			free_chunk(c);
	}
	if (keep != NULL) {
		keep->prev = NULL;
		keep->used = 0;
		POISON(keep->data, keep->size);
	}
	cur = keep;
	pthread_setspecific(key, cur);
	busy = 0;
}
