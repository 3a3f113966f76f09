/*
 * util.h -- allocation that cannot fail, reading a whole file, and a
 * few macros every module uses.
 *
 * Like cmark's default allocator, x*alloc() abort on out-of-memory, so
 * no caller carries an OOM branch.  Knows nothing of the server.
 */
#ifndef CAPSULED_UTIL_H
#define CAPSULED_UTIL_H

#include <stdarg.h>
#include <stddef.h>

#define nitems(a)	(sizeof(a) / sizeof((a)[0]))

/* libuv's own copy lives in a private header. */
#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
char	*xstrdup_null(const char *);	/* NULL stays NULL */
char	*xstrndup(const char *, size_t);
/* Free the n strings of v, then v (NULL with n 0 is fine). */
void	 util_free_strings(char **v, size_t n);
char	*xasprintf(const char *, ...)
	    __attribute__((format(printf, 1, 2)));
/* The same with a va_list, which it leaves for the caller to va_end. */
char	*xvasprintf(const char *, va_list)
	    __attribute__((format(printf, 1, 0)));

/*
 * All of fd, or of the file at path (not a directory), into a malloc'd
 * buffer the caller frees, NUL-terminated; *lenp is its length without
 * the NUL.  A read cut short by a signal is retried.  NULL with errno
 * set on failure: EFBIG when there are more than max bytes (SIZE_MAX:
 * no limit), EISDIR for a directory, or what open(2) or read(2) said.
 * util_read_fd() leaves fd open.
 */
char	*util_read_fd(int fd, size_t max, size_t *lenp);
char	*util_read_file(const char *path, size_t max, size_t *lenp);

/* The end of the line at p: its '\n', or end (p past end: end). */
const char	*util_eol(const char *p, const char *end);
/* Does p..e hold only blanks (space, tab, CR), as a blank line does? */
int	 util_blank_line(const char *p, const char *e);

#endif
