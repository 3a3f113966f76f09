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

size_t
buf_utf8_decode(const char *p, size_t len, long *cp)
{
	const unsigned char	*s = (const unsigned char *)p;
	size_t			 n, i;
	long			 c, min;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xC2 && s[0] <= 0xDF) {
		n = 2;
		c = s[0] & 0x1F;
		min = 0x80;
	} else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
		n = 3;
		c = s[0] & 0x0F;
		min = 0x800;
	} else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
		n = 4;
		c = s[0] & 0x07;
		min = 0x10000;
	} else
		goto bad;
	if (n > len)
		goto bad;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			goto bad;
		c = c << 6 | (s[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		goto bad;
	*cp = c;
	return n;
bad:
	*cp = -1;
	return 1;
}

size_t
buf_utf8_encode(uint32_t cp, char out[4])
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xC0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3F));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xE0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3F));
		out[2] = (char)(0x80 | (cp & 0x3F));
		return 3;
	}
	out[0] = (char)(0xF0 | cp >> 18);
	out[1] = (char)(0x80 | (cp >> 12 & 0x3F));
	out[2] = (char)(0x80 | (cp >> 6 & 0x3F));
	out[3] = (char)(0x80 | (cp & 0x3F));
	return 4;
}

void
buf_add_utf8(struct buf *b, uint32_t cp)
{
	char	 u[4];

	buf_add(b, u, buf_utf8_encode(cp, u));
}

int
buf_last(const struct buf *b)
{
	return b->len ? (unsigned char)b->data[b->len - 1] : -1;
}
