/*
 * util.h -- allocation that cannot fail, and a few macros every module
 * uses.
 *
 * Like cmark's default allocator, x*alloc() abort on out-of-memory, so
 * no caller carries an OOM branch.  Knows nothing of the server.
 */
#ifndef CAPSULED_UTIL_H
#define CAPSULED_UTIL_H

#include <stddef.h>

#define nitems(a)	(sizeof(a) / sizeof((a)[0]))

/* libuv's own copy lives in a private header. */
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
char	*xstrndup(const char *, size_t);
char	*xasprintf(const char *, ...)
	    __attribute__((format(printf, 1, 2)));

#endif
