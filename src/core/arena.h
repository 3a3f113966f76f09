/*
 * arena.h -- memory for cmark trees: a per-thread bump allocator.
 *
 * cmark allocates every node, and every buffer of every node, one by one
 * with calloc and realloc, and frees them one by one again.  For a 20 KB
 * post that was about a quarter of the instructions of a whole render
 * (callgrind: malloc, free and calloc 1.2M of 4.8M).  A tree lives for
 * exactly one render, so its memory comes from an arena that is given
 * back in one go.
 *
 * libcmark-gfm has an arena of its own (cmark_get_arena_mem_allocator),
 * but it is one global for the process, so two workers rendering at once
 * would share and reset each other's memory; it also hands its slabs
 * back to the system at every reset.  This one is per thread, and
 * keeps a chunk for the next render.
 *
 * cmark_mem's functions take no context, so the arena in use is the
 * calling thread's.  One tree at a time per thread: arena_begin() says
 * whether the arena was free; a nested parse uses the default allocator.
 */
#ifndef CAPSULED_ARENA_H
#define CAPSULED_ARENA_H

#include <cmark-gfm.h>

/*
 * Take this thread's arena for one tree, of Markdown about hint bytes
 * long (it sizes the first chunk).  Returns its allocator, or NULL when
 * the thread already has a tree in it (use the default one then).
 */
cmark_mem	*arena_begin(size_t hint);

/*
 * The tree is done with: its memory goes back at once, but for one
 * chunk (at most 2 MB) that the thread keeps for its next tree.  Its
 * nodes are never freed one by one (cmark_node_free() would only walk
 * the tree to call a free that does nothing).
 */
void		 arena_end(void);

#endif
