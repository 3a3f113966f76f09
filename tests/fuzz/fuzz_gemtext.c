/*
 * fuzz_gemtext.c -- libFuzzer target for gemtext posts: the line
 * reader (markdown/gemtext.c) and the two renderers of a gemtext body.
 *
 * The first byte chooses the options, as in fuzz_render.c: the wrap
 * width and whether the link hooks are set.  The rest is a gemtext
 * body.  The reader must cover every byte with its lines, in order,
 * each part of a line inside it (a link's URL not empty and without
 * blanks, a heading of level 1 to 3).  On Gemini every line of the
 * input is one line of the output, kept byte for byte when it is valid
 * UTF-8 without NUL and no rewritten link; on Gopher the output keeps
 * the promises of a rendered Markdown post (valid UTF-8, LF only, no
 * control character, no trailing blank, no lone ".", a final newline).
 * The title, the links and the plain text must hold to their lines.
 * Then the input is read as the archive reads a .gmi post: front
 * matter (YAML or TOML) first, the body's lines and links after it.
 */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "content/frontmatter.h"
#include "core/buf.h"
#include "core/utf8.h"
#include "markdown/gemtext.h"
#include "markdown/render.h"
#include "markdown/scan.h"

#include "render_fuzz.h"

int	 LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static int
within(const char *p, size_t len, const struct gemtext_line *l)
{
	return p >= l->line && p + len <= l->line + l->linelen;
}

/* The reader; returns the number of lines. */
static size_t
check_lines(const char *src, size_t len)
{
	struct gemtext_iter	 it;
	struct gemtext_line	 l;
	const char		*at = src;
	size_t			 n = 0, i;

	gemtext_iter_init(&it, src, len, 1);
	while (gemtext_next(&it, &l)) {
		n++;
		assert(l.lineno == n);
		assert(l.line == at);
		assert(l.line + l.linelen <= src + len);
		assert(memchr(l.line, '\n', l.linelen) == NULL);
		at = l.line + l.linelen;
		if (at < src + len && *at == '\r')
			at++;
		if (at < src + len) {
			assert(*at == '\n');
			at++;
		}
		assert(l.textlen == 0 || within(l.text, l.textlen, &l));
		switch (l.type) {
		case GEMTEXT_LINK:
			assert(l.urllen > 0 && within(l.url, l.urllen, &l));
			for (i = 0; i < l.urllen; i++)
				assert(l.url[i] != ' ' && l.url[i] != '\t');
			break;
		case GEMTEXT_HEADING:
			assert(l.level >= 1 && l.level <= 3);
			break;
		default:
			assert(l.url == NULL);
			break;
		}
	}
	assert(at == src + len);
	return n;
}

static void
check_gmi(const char *src, size_t len, const struct buf *b, size_t nlines,
    int rewriting)
{
	struct gemtext_iter	 it;
	struct gemtext_line	 l;
	const char		*p = b->data, *nl;
	size_t			 n = 0, olen;

	if (b->len > 0)
		assert(utf8_valid(b->data, b->len));
	assert(b->len == 0 || b->data[b->len - 1] == '\n');
	gemtext_iter_init(&it, src, len, 1);
	while (gemtext_next(&it, &l)) {
		assert(p != NULL && p < b->data + b->len);
		nl = memchr(p, '\n', (size_t)(b->data + b->len - p));
		assert(nl != NULL);
		olen = (size_t)(nl - p);
		assert(memchr(p, '\0', olen) == NULL);
		if ((!rewriting || l.type != GEMTEXT_LINK) &&
		    utf8_valid(l.line, l.linelen) &&
		    memchr(l.line, '\0', l.linelen) == NULL)
			assert(olen == l.linelen &&
			    memcmp(p, l.line, olen) == 0);
		p = nl + 1;
		n++;
	}
	assert(n == nlines);
	assert(b->len == 0 || p == b->data + b->len);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned	 widths[] = { 0, 8, 20, 70 };
	struct render_opts	 o;
	struct buf		 b = BUF_INIT;
	struct scan_link	*links;
	struct meta		 m;
	struct fm_error		 fe;
	const char		*src, *body;
	char			*t;
	size_t			 nlines, nlinks, i;

	if (size < 1)
		return 0;
	memset(&o, 0, sizeof(o));
	o.width = widths[data[0] & 3];
	if (data[0] & 4)
		o.rewrite = rewrite;
	if (data[0] & 8)
		o.absolute = absolute;
	if (data[0] & 16)		/* relative links resolved against it */
		o.base = "/posts/a/b";
	src = (const char *)data + 1;
	size--;

	nlines = check_lines(src, size);
	render_gemtext_gmi(src, size, &o, &b);
	check_gmi(src, size, &b, nlines, o.rewrite != NULL);
	buf_free(&b);
	render_gopher_gmi(src, size, &o, &b);
	check_gph(&b);
	buf_free(&b);

	if ((t = render_gemtext_summary(src, size, 40)) != NULL) {
		assert(utf8_ok((const unsigned char *)t, strlen(t)));
		assert(*t != '\0' && strchr(t, '\n') == NULL);
		free(t);
	}
	if ((t = gemtext_title(src, size)) != NULL) {
		assert(*t != '\0' && strchr(t, '\n') == NULL);
		free(t);
	}
	links = gemtext_links(src, size, 3, &nlinks);
	for (i = 0; i < nlinks; i++) {
		assert(links[i].url[0] != '\0');
		assert(links[i].line >= 3 && links[i].line < 3 + nlines);
		assert(links[i].col >= 3);
	}
	scan_links_free(links, nlinks);
	gemtext_plain(src, size, &b);
	assert(b.len == 0 || memchr(b.data, '\n', b.len) == NULL);
	buf_free(&b);

	/* As the archive reads a .gmi post: front matter, then the body. */
	if (frontmatter_parse(src, size, &m, &fe) == 0) {
		assert(m.body_off <= size && m.body_line >= 1);
		body = src + m.body_off;
		nlines = check_lines(body, size - m.body_off);
		links = gemtext_links(body, size - m.body_off, m.body_line,
		    &nlinks);
		for (i = 0; i < nlinks; i++)
			assert(links[i].line >= m.body_line &&
			    links[i].line < m.body_line + nlines);
		scan_links_free(links, nlinks);
		meta_free(&m);
	}
	return 0;
}
