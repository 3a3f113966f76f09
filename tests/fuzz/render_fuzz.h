/*
 * render_fuzz.h -- what fuzz_render.c and fuzz_gemtext.c share: the
 * link hooks they hand the renderers (a rewrite that keeps some URLs,
 * empties others and gives the rest a space to encode, and an
 * absolute-URL maker), and the checks of Gopher text, which a
 * Markdown post and a gemtext post must pass alike.
 */
#ifndef CAPSULED_FUZZ_RENDER_H
#define CAPSULED_FUZZ_RENDER_H

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *
rewrite(void *ctx, const char *url)
{
	size_t	 len = strlen(url);
	char	*s;

	if (len == 0 || url[0] == 'x')
		return NULL;
	if (url[0] == 'e')
		return strdup("");
	s = malloc(len + 16);
	snprintf(s, len + 16, "/posts/%s x", url);	/* a space to encode */
	return s;
}

static char *
absolute(void *ctx, const char *url)
{
	char	*s = malloc(strlen(url) + 16);

	sprintf(s, "gopher://h/0%s", url);
	return s;
}

static int
utf8_ok(const unsigned char *s, size_t len)
{
	size_t	 i, n, k;

	for (i = 0; i < len; i += n) {
		if (s[i] < 0x80)
			n = 1;
		else if (s[i] >= 0xc2 && s[i] <= 0xdf)
			n = 2;
		else if (s[i] >= 0xe0 && s[i] <= 0xef)
			n = 3;
		else if (s[i] >= 0xf0 && s[i] <= 0xf4)
			n = 4;
		else
			return 0;
		if (i + n > len)
			return 0;
		for (k = 1; k < n; k++)
			if ((s[i + k] & 0xc0) != 0x80)
				return 0;
	}
	return 1;
}

/* The promises both formats keep. */
static void
check_common(const struct buf *b)
{
	const char	*d = b->data;
	size_t		 i;

	if (b->len == 0)
		return;
	assert(utf8_ok((const unsigned char *)d, b->len));
	assert(d[b->len - 1] == '\n');
	assert(d[0] != '\n');
	for (i = 0; i < b->len; i++) {
		assert(d[i] != '\r' && d[i] != '\0');
		if (d[i] == '\n' && i > 0)
			assert(d[i - 1] != ' ' && d[i - 1] != '\t');
	}
}

static void
check_gph(const struct buf *b)
{
	const char	*d = b->data;
	size_t		 i;

	check_common(b);
	for (i = 0; i < b->len; i++) {
		assert((unsigned char)d[i] >= 0x20 || d[i] == '\n');
		assert(d[i] != 0x7f);
		if (d[i] == '.' && (i == 0 || d[i - 1] == '\n'))
			assert(i + 1 >= b->len || d[i + 1] != '\n');
	}
}

#endif
