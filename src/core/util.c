/*
 * util.c -- allocation wrappers that abort on out-of-memory, and whole
 * files read into memory.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"

static void
oom(void)
{
	/* Nothing sensible can be logged without memory either. */
	fputs("capsuled: out of memory\n", stderr);
	abort();
}

void *
xmalloc(size_t len)
{
	void	*p;

	if ((p = malloc(len ? len : 1)) == NULL)
		oom();
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void	*p;

	if ((p = calloc(n ? n : 1, size ? size : 1)) == NULL)
		oom();
	return p;
}

void *
xreallocarray(void *old, size_t n, size_t size)
{
	void	*p;

	if (size != 0 && n > SIZE_MAX / size)
		oom();
	if ((p = realloc(old, (n * size) != 0 ? n * size : 1)) == NULL)
		oom();
	return p;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrdup_null(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

char *
xstrndup(const char *s, size_t len)
{
	char	*p;

	p = xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

void
util_free_strings(char **v, size_t n)
{
	while (n > 0)
		free(v[--n]);
	free(v);
}

char *
xasprintf(const char *fmt, ...)
{
	va_list	 ap;
	char	*p;

	va_start(ap, fmt);
	p = xvasprintf(fmt, ap);
	va_end(ap);
	return p;
}

char *
xvasprintf(const char *fmt, va_list ap)
{
	va_list	 ap2;
	char	*p;
	int	 len;

	/* ap is read twice: once to measure, once to write. */
	va_copy(ap2, ap);
	len = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (len < 0)
		oom();
	p = xmalloc((size_t)len + 1);
	vsnprintf(p, (size_t)len + 1, fmt, ap);
	return p;
}

char *
util_read_fd(int fd, size_t max, size_t *lenp)
{
	char	*p = NULL;
	size_t	 len = 0, cap = 0, want;
	ssize_t	 n;
	int	 saved;

	for (;;) {
		if (cap - len < 2) {		/* a byte and the NUL */
			cap = cap ? cap * 2 : 8192;
			p = xreallocarray(p, cap, 1);
		}
		want = cap - len - 1;
		if (max < SIZE_MAX && want > max + 1 - len)
			want = max + 1 - len;	/* one past max says EFBIG */
		n = read(fd, p + len, want);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			goto fail;
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > max) {
			errno = EFBIG;
			goto fail;
		}
	}
	p[len] = '\0';
	*lenp = len;
	return p;
fail:
	saved = errno;
	free(p);
	errno = saved;
	return NULL;
}

char *
util_read_file(const char *path, size_t max, size_t *lenp)
{
	struct stat	 st;
	char		*p = NULL;
	int		 fd, saved;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return NULL;
	if (fstat(fd, &st) == -1)
		goto end;
	if (S_ISDIR(st.st_mode)) {
		errno = EISDIR;
		goto end;
	}
	p = util_read_fd(fd, max, lenp);
end:
	saved = errno;
	close(fd);
	errno = saved;
	return p;
}

const char *
util_eol(const char *p, const char *end)
{
	const char	*nl;

	if (p >= end)
		return end;
	nl = memchr(p, '\n', (size_t)(end - p));
	return nl != NULL ? nl : end;
}

int
util_blank_line(const char *p, const char *e)
{
	for (; p < e; p++)
		if (*p != ' ' && *p != '\t' && *p != '\r')
			return 0;
	return 1;
}
