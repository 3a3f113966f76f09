/*
 * fuzz_html.c -- libFuzzer target for html.c.
 *
 * The first byte chooses what runs: the tokenizer alone (every token's
 * name and attributes must be NUL-terminated inside its buffer, and
 * the lexer must end), or the input as Markdown through both renderers
 * (where html_read() turns its HTML into nodes), whose output must stay
 * valid UTF-8, LF-only, with every ``` block closed and every link line
 * "=> URL"; and the notes --check --report takes of it, each at a
 * line and column inside the input; with the fourth bit, the input is
 * an HTML post's body first made Markdown (htmlbody.c), its lines kept.
 * Either way in linear time (libFuzzer's -timeout).
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/utf8.h"
#include "markdown/html.h"
#include "markdown/htmlbody.h"
#include "markdown/render.h"

int	 LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
lex(const char *s, size_t len)
{
	struct html_lexer	 lx;
	enum html_tok		 t;
	size_t			 i, last = 0, n = 0;

	html_lex_init(&lx, s, len);
	while ((t = html_lex_next(&lx)) != HTML_TOK_EOF) {
		assert(lx.pos <= len);
		/* Every token but an empty text moves the lexer on. */
		assert(lx.pos > last || (t == HTML_TOK_TEXT &&
		    lx.textlen == 0));
		last = lx.pos;
		assert(++n <= len + 1);
		assert(strlen(lx.name) < HTML_MAX_NAME);
		assert(lx.nattrs <= HTML_MAX_ATTRS);
		for (i = 0; i < lx.nattrs; i++) {
			assert(lx.attrs[i].name < lx.buf.len);
			assert(lx.attrs[i].value < lx.buf.len);
			(void)html_lex_attr(&lx, lx.buf.data +
			    lx.attrs[i].name);
		}
		if (t == HTML_TOK_TEXT)
			assert(strlen(lx.text) <= lx.textlen);
	}
	html_lex_free(&lx);
}

static void
check(const struct buf *b, int gmi)
{
	const char	*d = b->data, *line, *nl, *end;
	int		 pre = 0;

	if (b->len == 0)
		return;
	assert(utf8_valid(d, b->len));
	assert(d[b->len - 1] == '\n');
	assert(memchr(d, '\r', b->len) == NULL);
	if (!gmi)
		return;
	end = d + b->len;
	for (line = d; line < end; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(end - line));
		if (nl - line >= 3 && memcmp(line, "```", 3) == 0)
			pre = !pre;
		else if (!pre && nl - line >= 2 && memcmp(line, "=>", 2) == 0)
			assert(nl - line >= 4 && line[2] == ' ' &&
			    line[3] != ' ');
	}
	assert(!pre);
}

/* Every note at a place in s: a line it has, a column of at least 1. */
static void
notes(const char *s, size_t len)
{
	struct html_notes	 ns;
	size_t			 i, lines = 1;

	for (i = 0; i < len; i++)
		lines += s[i] == '\n' || (s[i] == '\r' && (i + 1 == len ||
		    s[i + 1] != '\n'));
	render_html_notes(s, len, &ns);
	assert(ns.n <= HTML_MAX_NOTES);
	for (i = 0; i < ns.n; i++) {
		assert(ns.v[i].line >= 1 && ns.v[i].line <= lines);
		assert(ns.v[i].col >= 1);
		assert(ns.v[i].what <= HTML_DROPPED);
		assert(strlen(ns.v[i].name) < HTML_MAX_NAME);
	}
	html_notes_free(&ns);
}

/* LF-ended lines of s[0..len). */
static size_t
lines(const char *s, size_t len)
{
	size_t	 i, n = 1;

	for (i = 0; i < len; i++)
		n += s[i] == '\n';
	return n;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf	 b = BUF_INIT, md = BUF_INIT;
	const char	*s;
	char		*u;

	if (size < 1)
		return 0;
	s = (const char *)data + 1;
	size--;
	switch (data[0] & 3) {
	case 0:
		lex(s, size);
		break;
	case 1:
		u = strndup(s, size);
		free(html_embed_url(u != NULL ? u : ""));
		free(u);
		lex(s, size);
		break;
	default:
		if (data[0] & 8) {
			/* An HTML post's body: one block, its lines kept. */
			htmlbody_markdown(s, size, &md);
			assert(md.data != NULL && md.data[md.len] == '\0');
			assert(lines(md.data, md.len) == lines(s, size));
			s = md.data;
			size = md.len;
		}
		render_gemtext(s, size, NULL, &b);
		check(&b, 1);
		buf_free(&b);
		render_gopher(s, size, NULL, &b);
		check(&b, 0);
		buf_free(&b);
		if (data[0] & 4)
			notes(s, size);
		buf_free(&md);
		break;
	}
	return 0;
}
