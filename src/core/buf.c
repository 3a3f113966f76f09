/*
 * buf.c -- growable byte buffer.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/util.h"

void
buf_init(struct buf *b)
{
	b->data = NULL;
	b->len = b->cap = 0;
}

void
buf_reserve(struct buf *b, size_t len)
{
	size_t	 need, cap;

	need = b->len + len + 1;		/* + NUL */
	if (need <= b->cap)
		return;
	cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap = cap < ((size_t)-1) / 2 ? cap * 2 : need;
	b->data = xreallocarray(b->data, cap, 1);
	b->cap = cap;
	b->data[b->len] = '\0';	/* a fresh buffer is "" too */
}

void
buf_add(struct buf *b, const void *p, size_t len)
{
	buf_reserve(b, len);
	if (len)
		memcpy(b->data + b->len, p, len);
	b->len += len;
	b->data[b->len] = '\0';
}

void
buf_addstr(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list	 ap;
	int	 len;

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len <= 0)
		return;
	buf_reserve(b, (size_t)len);
	va_start(ap, fmt);
	vsnprintf(b->data + b->len, (size_t)len + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)len;
}

void
buf_truncate(struct buf *b, size_t len)
{
	if (len < b->len) {
		b->len = len;
		b->data[len] = '\0';
	}
}

char *
buf_release(struct buf *b)
{
	char	*p;

	if (b->data == NULL)
		buf_reserve(b, 0);
	p = b->data;
	buf_init(b);
	return p;
}

void
buf_free(struct buf *b)
{
	free(b->data);
	buf_init(b);
}

int
buf_last(const struct buf *b)
{
	return b->len ? (unsigned char)b->data[b->len - 1] : -1;
}
