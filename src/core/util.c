/*
 * util.c -- allocation wrappers that abort on out-of-memory.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
xstrndup(const char *s, size_t len)
{
	char	*p;

	p = xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list	 ap;
	char	*p;
	int	 len;

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len < 0)
		oom();
	p = xmalloc((size_t)len + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)len + 1, fmt, ap);
	va_end(ap);
	return p;
}
