/*
 * entity.c -- HTML character references, named and numeric.
 *
 * Names are looked up with bsearch() in entity_table.h: first the whole
 * run of letters and digits with its ";" (every name that has one ends
 * right there), then, for the legacy names that stand without one, the
 * run's prefixes from the longest down.  That is HTML5's "longest name
 * in the table" in at most ENTITY_LEGACY_MAX + 1 lookups.  Knows nothing
 * of HTML beyond references.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/entity.h"
#include "core/entity_table.h"
#include "core/utf8.h"
#include "core/util.h"

#define IS_DIGIT(c)	((c) >= '0' && (c) <= '9')
#define IS_ALNUM(c)	(IS_DIGIT(c) || ((c) >= 'A' && (c) <= 'Z') || \
			 ((c) >= 'a' && (c) <= 'z'))

/* &#128; to &#159;: HTML5 reads them as Windows-1252 would. */
static const uint16_t cp1252[32] = {
	0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD, 0x017D, 0xFFFD,
	0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD, 0x017E, 0x0178,
};

struct key {
	const char	*s;
	size_t		 len;
};

/* strcmp() order between the key's bytes and an entry's name. */
static int
cmp_name(const void *k, const void *e)
{
	const struct key	*key = k;
	const char		*name = ((const struct entity_name *)e)->name;
	size_t			 nlen = strlen(name);
	int			 c;

	c = memcmp(key->s, name, key->len < nlen ? key->len : nlen);
	if (c != 0)
		return c;
	return key->len < nlen ? -1 : key->len > nlen;
}

static const struct entity_name *
lookup(const char *s, size_t len)
{
	struct key	 key = { s, len };

	return bsearch(&key, entity_names, nitems(entity_names),
	    sizeof(entity_names[0]), cmp_name);
}

static int
digit(int c, int hex)
{
	if (IS_DIGIT(c))
		return c - '0';
	c |= 0x20;
	if (hex && c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* "&#" at s: the reference's length with *cp set, or 0. */
static size_t
numeric(const char *s, size_t len, uint32_t *cp)
{
	size_t		 i = 2, from;
	uint32_t	 v = 0;
	int		 hex = 0, d;

	if (i < len && (s[i] == 'x' || s[i] == 'X')) {
		hex = 1;
		i++;
	}
	for (from = i; i < len && (d = digit((unsigned char)s[i], hex)) >= 0;
	    i++)
		if (v <= UTF8_MAX)	/* past it stays past it: no overflow */
			v = v * (hex ? 16 : 10) + (uint32_t)d;
	if (i == from)
		return 0;
	if (i < len && s[i] == ';')
		i++;
	if (v >= 0x80 && v <= 0x9F)
		v = cp1252[v - 0x80];
	else if (v == 0 || v > UTF8_MAX || (v >= 0xD800 && v <= 0xDFFF))
		v = UTF8_REPLACEMENT;
	*cp = v;
	return i;
}

size_t
entity_decode(const char *s, size_t len, char out[ENTITY_UTF8_MAX],
    size_t *outlen)
{
	const struct entity_name	*e = NULL;
	uint32_t			 cp;
	size_t				 n, k, used;

	if (len < 2 || s[0] != '&')
		return 0;
	if (s[1] == '#') {
		if ((used = numeric(s, len, &cp)) == 0)
			return 0;
		*outlen = utf8_encode(cp, out);
		return used;
	}
	/* The letters and digits after '&': no name is longer. */
	for (n = 0; 1 + n < len && n < ENTITY_NAME_MAX &&
	    IS_ALNUM((unsigned char)s[1 + n]); n++)
		;
	if (n == 0)
		return 0;
	used = 0;
	if (1 + n < len && s[1 + n] == ';' && (e = lookup(s + 1, n + 1)))
		used = n + 2;
	for (k = n < ENTITY_LEGACY_MAX ? n : ENTITY_LEGACY_MAX;
	    e == NULL && k > 0; k--)
		if ((e = lookup(s + 1, k)) != NULL)
			used = k + 1;
	if (e == NULL)
		return 0;
	*outlen = utf8_encode(e->cp[0], out);
	if (e->cp[1] != 0)
		*outlen += utf8_encode(e->cp[1], out + *outlen);
	return used;
}

void
entity_decode_all(struct buf *out, const char *s, size_t len)
{
	const char	*amp;
	char		 u[ENTITY_UTF8_MAX];
	size_t		 n, ulen;

	buf_reserve(out, len);
	while ((amp = memchr(s, '&', len)) != NULL) {
		buf_add(out, s, (size_t)(amp - s));
		len -= (size_t)(amp - s);
		s = amp;
		if ((n = entity_decode(s, len, u, &ulen)) > 0)
			buf_add(out, u, ulen);
		else {
			buf_addc(out, '&');
			n = 1;
		}
		s += n;
		len -= n;
	}
	buf_add(out, s, len);
}
