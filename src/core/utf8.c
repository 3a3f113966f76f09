/*
 * utf8.c -- UTF-8 decoding, encoding and validation.
 *
 * One decoder, after Unicode Table 3-7 ("Well-Formed UTF-8 Byte
 * Sequences"): the lead byte sets the length and the range of the
 * second byte, which is what rules out overlong forms (E0, F0),
 * surrogates (ED) and values past U+10FFFF (F4).  The validator is the
 * decoder plus a fast path for runs of ASCII, the bulk of any post.
 * Knows nothing of where the bytes come from.
 */
#include <stdint.h>
#include <string.h>

#include "core/buf.h"
#include "core/utf8.h"

size_t
utf8_decode(const char *p, size_t len, uint32_t *cp)
{
	const unsigned char	*s = (const unsigned char *)p;
	unsigned char		 lo = 0x80, hi = 0xBF;
	uint32_t		 c;
	size_t			 n, i;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xC2 && s[0] <= 0xDF) {
		n = 2;
		c = s[0] & 0x1F;
	} else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
		n = 3;
		c = s[0] & 0x0F;
		if (s[0] == 0xE0)
			lo = 0xA0;		/* overlong */
		else if (s[0] == 0xED)
			hi = 0x9F;		/* surrogates */
	} else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
		n = 4;
		c = s[0] & 0x07;
		if (s[0] == 0xF0)
			lo = 0x90;		/* overlong */
		else if (s[0] == 0xF4)
			hi = 0x8F;		/* past U+10FFFF */
	} else
		goto bad;	/* 80-C1: continuation or overlong; F5-FF */
	if (len < n || s[1] < lo || s[1] > hi)
		goto bad;
	c = c << 6 | (s[1] & 0x3F);
	for (i = 2; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			goto bad;
		c = c << 6 | (s[i] & 0x3F);
	}
	*cp = c;
	return n;
bad:
	*cp = UTF8_INVALID;
	return 1;
}

size_t
utf8_decode_lossy(const char *p, size_t len, uint32_t *cp)
{
	size_t	 n;

	n = utf8_decode(p, len, cp);
	if (*cp == UTF8_INVALID)
		*cp = UTF8_REPLACEMENT;
	return n;
}

size_t
utf8_encode(uint32_t cp, char out[4])
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
	if (cp > UTF8_MAX || (cp >= 0xD800 && cp <= 0xDFFF))
		cp = UTF8_REPLACEMENT;
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
utf8_add(struct buf *b, uint32_t cp)
{
	char	 u[4];

	buf_add(b, u, utf8_encode(cp, u));
}

int
utf8_valid(const char *s, size_t len)
{
	const char	*p = s, *end = s + len;
	uint32_t	 cp;

	while (p < end) {
		if ((unsigned char)*p < 0x80) {
			p++;
			/* Runs of ASCII (most of a post): 8 bytes a step. */
			while (end - p >= 8) {
				uint64_t	 w;

				memcpy(&w, p, sizeof(w));
				if (w & UINT64_C(0x8080808080808080))
					break;
				p += 8;
			}
			continue;
		}
		p += utf8_decode(p, (size_t)(end - p), &cp);
		if (cp == UTF8_INVALID)
			return 0;
	}
	return 1;
}

void
utf8_no_controls(const char *s, size_t len, struct buf *out)
{
	size_t		 i = 0, n;
	uint32_t	 cp;

	while (i < len) {
		n = utf8_decode(s + i, len - i, &cp);
		if ((cp < 0x20 && cp != '\t' && cp != '\r' && cp != '\n') ||
		    cp == 0x7f || (cp >= 0x80 && cp < 0xa0))
			buf_addc(out, ' ');
		else
			buf_add(out, s + i, n);
		i += n;
	}
}

size_t
utf8_count(const char *s, size_t len)
{
	size_t	 i, n = 0;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			n++;
	return n;
}

void
utf8_position(const char *s, size_t len, size_t off, unsigned *line,
    unsigned *col)
{
	size_t	 i;

	*line = 1;
	*col = 1;
	if (off > len)
		off = len;
	for (i = 0; i < off; i++) {
		if (s[i] == '\n' || (s[i] == '\r' && (i + 1 >= len ||
		    s[i + 1] != '\n'))) {
			(*line)++;
			*col = 1;
		} else if (((unsigned char)s[i] & 0xC0) != 0x80 &&
		    s[i] != '\r')
			(*col)++;
	}
}
