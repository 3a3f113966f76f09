/*
 * page.c -- the page model and its emitters of lines: gemtext, a Gopher
 * menu (gophermap), plain text and a Nex directory (HTML's is
 * page_html.c).
 *
 * A struct page is a flat list of blocks built by nav.c; this file turns
 * it into bytes and knows nothing of the archive.  Every string in a
 * block is owned by the page, except BLOCK_MARKDOWN sources, which are
 * borrowed from the snapshot (page.h).  Emitters append to the caller's
 * struct buf and never fail.
 *
 * Whatever a block holds, the output keeps the line grammar of its
 * format: no generated gemtext text line starts with a line-type prefix,
 * no link URL holds a space, and every gophermap line has exactly three
 * TABs, a CRLF and a display string within the target width.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/config_types.h"
#include "core/fold.h"
#include "core/layout.h"
#include "core/mime.h"
#include "core/url.h"
#include "core/utf8.h"
#include "core/util.h"
#include "markdown/render.h"
#include "proto/gopher.h"
#include "site/page.h"
#include "site/page_int.h"

#define PAGE_WIDTH	70	/* RFC 1436: display strings under 70 */
#define PAGE_MINWIDTH	8	/* below this nothing readable fits */
#define GPH_INFO	"\tfake\t(NULL)\t0\r\n"	/* an "i" line's dummy fields */

/* One emitter's state while it writes one page. */
struct emit {
	struct buf		*out;
	const struct page_target *t;
	unsigned		 width;
	int			 blank;	/* last line blank, or nothing yet */
	struct buf		*lines;	/* collect(): borrowed, or NULL */
	char			*host;	/* emit_host()'s, made at its first
					   use; freed by emit_lines() */
};

/* Called once per output line (no newline in s). */
typedef void	(*line_fn)(struct emit *, const char *s, size_t len);

const struct block *
page_spelled(const struct block *b, int gopher, struct block *tmp,
    char **owned)
{
	static const char *const spell[][2] = {
		{ "\xc2\xb7", "-" },
		{ "\xe2\x86\x90", "<-" },
		{ "\xe2\x86\x92", "->" },
		{ "\xe2\x80\x9c", "\"" },
		{ "\xe2\x80\x9d", "\"" },
	};
	struct buf	 out = BUF_INIT;
	const char	*s;

	*owned = NULL;
	if (b->text == NULL)
		return b;
	for (s = b->text; *s != '\0' && (*s < 0x11 || *s > 0x15); s++)
		;
	if (*s == '\0')
		return b;
	for (s = b->text; *s != '\0'; s++)
		if (*s >= 0x11 && *s <= 0x15)
			buf_addstr(&out, spell[*s - 0x11][gopher]);
		else
			buf_addc(&out, *s);
	*tmp = *b;
	tmp->text = *owned = buf_release(&out);
	return tmp;
}

/*
 * Building pages
 */

void
page_init(struct page *p)
{
	p->blocks = NULL;
	p->n = p->cap = 0;
	p->self = NULL;
}

void
page_free(struct page *p)
{
	size_t	 i;

	for (i = 0; i < p->n; i++) {
		free(p->blocks[i].text);
		free(p->blocks[i].url);
	}
	free(p->blocks);
	free(p->self);
	page_init(p);
}

static struct block *
add(struct page *p, enum block_type type)
{
	struct block	*b;

	if (p->n == p->cap) {
		p->cap = p->cap ? p->cap * 2 : 16;
		p->blocks = xreallocarray(p->blocks, p->cap, sizeof(*b));
	}
	b = &p->blocks[p->n++];
	memset(b, 0, sizeof(*b));
	b->type = type;
	return b;
}

void
page_heading(struct page *p, int level, const char *fmt, ...)
{
	struct block	*b;
	va_list		 ap;

	b = add(p, BLOCK_HEADING);
	b->level = level < 1 ? 1 : level > 3 ? 3 : level;
	va_start(ap, fmt);
	b->text = xvasprintf(fmt, ap);
	va_end(ap);
}

void
page_text(struct page *p, const char *fmt, ...)
{
	struct block	*b;
	va_list		 ap;

	b = add(p, BLOCK_TEXT);
	va_start(ap, fmt);
	b->text = xvasprintf(fmt, ap);
	va_end(ap);
}

void
page_link(struct page *p, enum link_kind kind, const char *url,
    const char *date, const char *fmt, ...)
{
	struct block	*b;
	va_list		 ap;

	b = add(p, BLOCK_LINK);
	b->kind = kind;
	b->url = xstrdup(url ? url : "");
	if (date != NULL)
		snprintf(b->date, sizeof(b->date), "%s", date);
	va_start(ap, fmt);
	b->text = xvasprintf(fmt, ap);
	va_end(ap);
}

void
page_blank(struct page *p)
{
	add(p, BLOCK_BLANK);
}

void
page_self(struct page *p, const char *url)
{
	free(p->self);
	p->self = xstrdup(url);
}

/* A block of borrowed source: Markdown, or gemtext when gemtext. */
static void
add_source(struct page *p, enum block_type type, const char *src,
    size_t len, int gemtext)
{
	struct block	*b;

	b = add(p, type);
	b->md = src;
	b->mdlen = src != NULL ? len : 0;
	b->gemtext = gemtext;
}

void
page_source(struct page *p, const char *src, size_t len, int gemtext)
{
	add_source(p, BLOCK_MARKDOWN, src, len, gemtext);
}

void
page_source_links(struct page *p, const char *src, size_t len, int gemtext)
{
	add_source(p, BLOCK_MDLINKS, src, len, gemtext);
}

int
page_file_path(const char *url)
{
	struct layout_ref ref;

	layout_parse(url, 0, &ref);
	return (ref.kind == LAYOUT_FILES && !ref.bare) ||
	    ref.kind == LAYOUT_BUNDLE_FILE;
}

/*
 * Text helpers shared by the emitters
 */

/* Bytes of s[0..len) making up at most n columns, cut between code points. */
static size_t
cut(const char *s, size_t len, size_t n)
{
	size_t	 i, c = 0;

	for (i = 0; i < len; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80 && c++ == n)
			break;
	}
	return i;
}

/* buf_release(), but "" for a buffer that never held a byte. */
static char *
take(struct buf *b)
{
	if (b->data == NULL)
		return xstrdup("");
	return buf_release(b);
}

/*
 * A copy of s on one line: TAB, CR, LF and every other C0 control or DEL
 * becomes a space, surrounding spaces go.  XXX: a column is a code point;
 * wide (CJK) characters take two on most terminals.
 */
static char *
oneline(const char *s)
{
	struct buf	 b = BUF_INIT;
	size_t		 len;
	unsigned char	 c;

	if (s == NULL)
		s = "";
	while (*s == ' ' || (*s > 0 && *s < 0x20) || *s == 0x7f)
		s++;
	for (; *s != '\0'; s++) {
		c = (unsigned char)*s;
		buf_addc(&b, c < 0x20 || c == 0x7f ? ' ' : c);
	}
	len = b.len;
	while (len > 0 && b.data[len - 1] == ' ')
		len--;
	buf_truncate(&b, len);
	return take(&b);
}

/*
 * oneline(), then spelled in ASCII when the target asks for it: every
 * string a Gopher emitter shows goes through here.
 */
static char *
line_of(const struct emit *e, const char *s)
{
	char	*l, *a;

	l = oneline(s);
	if (!e->t->ascii)
		return l;
	a = fold_ascii_str(l);
	free(l);
	return a;
}

/*
 * s cut to width columns, with "..." standing for what was cut: the
 * server's word, in ASCII on Gopher whatever the charset (page.h's
 * marks).  A closing "(...)" -- "(5 min)", "(3 posts)", "(4 parts, 1
 * h)" -- is what a reader scans the list for, so a cut keeps it and
 * shortens what comes before it, unless it would take half the line.
 */
static void
add_fit(struct buf *out, const char *s, unsigned width, int ascii)
{
	const char	*ell = "...", *open;
	size_t		 len = strlen(s), ecols = 3, tail = 0;
	size_t		 tcols = 0, head;

	if (utf8_count(s, len) <= width) {
		buf_add(out, s, len);
		return;
	}
	if (len > 0 && s[len - 1] == ')' && (open = strrchr(s, '(')) != NULL &&
	    open > s && open[-1] == ' ') {
		tail = len - (size_t)(open - 1 - s);
		tcols = utf8_count(open - 1, tail);
		if (tcols + ecols > width / 2)
			tail = tcols = 0;
	}
	head = cut(s, len - tail, width - ecols - tcols);
	while (head > 0 && s[head - 1] == ' ')
		head--;
	buf_add(out, s, head);
	buf_addstr(out, ell);
	buf_add(out, s + len - tail, tail);
}

/*
 * Word-wrap the one-line s at e->width columns, calling fn per line.  A
 * word longer than the width is split between code points.  Runs of
 * spaces collapse.  An empty s gives one empty line.
 */
static void
wrap(struct emit *e, const char *s, line_fn fn)
{
	struct buf	 line = BUF_INIT;
	size_t		 wlen, lcols = 0, wcols, n;
	const char	*w;

	for (;;) {
		while (*s == ' ')
			s++;
		if (*s == '\0')
			break;
		w = s;
		while (*s != '\0' && *s != ' ')
			s++;
		wlen = (size_t)(s - w);
		wcols = utf8_count(w, wlen);
		if (lcols > 0 && lcols + 1 + wcols <= e->width) {
			buf_addc(&line, ' ');
			buf_add(&line, w, wlen);
			lcols += 1 + wcols;
			continue;
		}
		if (lcols > 0) {
			fn(e, line.data, line.len);
			buf_truncate(&line, 0);
			lcols = 0;
		}
		while (wcols > e->width) {
			n = cut(w, wlen, e->width);
			fn(e, w, n);
			w += n;
			wlen -= n;
			wcols -= e->width;
		}
		buf_add(&line, w, wlen);
		lcols = wcols;
	}
	if (lcols > 0 || line.len > 0 || line.data == NULL)
		fn(e, line.data ? line.data : "", line.len);
	buf_free(&line);
}

/*
 * A link URL with no raw space or control byte: site paths go through
 * url_encode_path(), absolute URLs are kept but for those bytes (and,
 * when ascii, the bytes past ASCII).
 */
static void
add_url(struct buf *out, const char *url, int ascii)
{
	const unsigned char	*s;

	if (!url_has_scheme(url)) {
		url_encode_path(url, out);
		return;
	}
	for (s = (const unsigned char *)url; *s != '\0'; s++) {
		if (*s <= 0x20 || *s == 0x7f || (ascii && *s >= 0x80))
			buf_printf(out, "%%%02X", *s);
		else
			buf_addc(out, *s);
	}
}

/*
 * The base of e's target ("/~name"), when url is a path of the site:
 * what goes before it as it is written out.
 */
static const char *
base_of(const struct emit *e, const char *url)
{
	if (e->t->base == NULL || !layout_site_path(url))
		return "";
	return e->t->base;
}

/* Blank-line state from what out already holds (a header, a body...). */
static void
emit_start(struct emit *e, const struct page_target *t, struct buf *out,
    const char *eol)
{
	size_t	 elen = strlen(eol);

	e->out = out;
	e->t = t;
	e->host = NULL;
	e->width = t->width ? t->width : PAGE_WIDTH;
	if (e->width < PAGE_MINWIDTH)
		e->width = PAGE_MINWIDTH;
	if (out->len == 0) {
		e->blank = 1;
		return;
	}
	if (out->data[out->len - 1] != '\n')
		buf_addstr(out, eol);
	e->blank = out->len == elen ||
	    (out->len >= 2 * elen &&
	    memcmp(out->data + out->len - 2 * elen, eol, elen) == 0);
}

/*
 * Lines of rendered Markdown in text[0..len), to fn one by one: leading
 * blank lines are dropped when the page is already at a blank line, and
 * trailing ones become at most one.  Inner blank lines are kept (they may
 * be inside a preformatted block).
 */
static void
md_lines(struct emit *e, const char *text, size_t len, line_fn fn)
{
	const char	*s = text, *end = text + len, *nl;
	size_t		 l, pending = 0;
	int		 first = 1;

	for (; s < end; s = nl + 1) {
		if ((nl = memchr(s, '\n', (size_t)(end - s))) == NULL)
			nl = end;
		l = (size_t)(nl - s);
		if (l > 0 && s[l - 1] == '\r')
			l--;
		if (l == 0) {
			pending++;
			continue;
		}
		if (first && pending > 0)
			pending = e->blank ? 0 : 1;
		for (; pending > 0; pending--)
			fn(e, "", 0);
		first = 0;
		fn(e, s, l);
	}
	if (pending > 0 && !e->blank)
		fn(e, "", 0);
}

/* render_ref_fn: a reference of the text as a link block of ctx. */
static void
add_ref(void *ctx, unsigned num, const char *url, const char *label)
{
	enum link_kind	 kind;

	if (url_has_scheme(url))
		kind = LINK_EXTERNAL;
	else if (page_file_path(url))
		kind = LINK_FILE;
	else if (*url != '\0' && url[strlen(url) - 1] == '/')
		kind = LINK_MENU;
	else
		kind = LINK_DOCUMENT;
	/*
	 * "Link 1: label", not "[1] label": lynx, vf1 and the classic
	 * client number the items themselves ("[2][1] label" read as two
	 * numbers that disagree); "Link 1" is the text's [1] in any client.
	 */
	page_link(ctx, kind, url, NULL, "Link %u: %s", num,
	    *label != '\0' ? label : url);
}

/*
 * b rendered as Gopher text into tmp, its references as link blocks of
 * links (not listed in the text): the same numbers, the same URLs, the
 * text's own reference list made selectable.
 */
static void
md_refs(const struct emit *e, const struct block *b, struct page *links,
    struct buf *tmp)
{
	struct render_opts	 o = e->t->ropts;

	if (b->md == NULL || b->mdlen == 0)
		return;
	if (o.width == 0)
		o.width = e->width;
	o.ref = add_ref;
	o.ref_ctx = links;
	if (b->gemtext)
		render_gopher_gmi(b->md, b->mdlen, &o, tmp);
	else
		render_gopher(b->md, b->mdlen, &o, tmp);
}

static void
md_render(const struct emit *e, const struct block *b, int gopher,
    struct buf *tmp)
{
	struct render_opts	 o = e->t->ropts;

	if (b->md == NULL || b->mdlen == 0)
		return;
	if (gopher) {
		if (o.width == 0)
			o.width = e->width;
		if (b->gemtext)
			render_gopher_gmi(b->md, b->mdlen, &o, tmp);
		else
			render_gopher(b->md, b->mdlen, &o, tmp);
	} else if (b->gemtext)
		render_gemtext_gmi(b->md, b->mdlen, &o, tmp);
	else
		render_gemtext(b->md, b->mdlen, &o, tmp);
}

/*
 * Gemtext
 */

/*
 * A raw line from the renderer: kept as is, blank ones collapse at edges.
 * Gemtext and plain text both end lines with LF here.
 */
static void
emit_raw(struct emit *e, const char *s, size_t len)
{
	buf_add(e->out, s, len);
	buf_addc(e->out, '\n');
	e->blank = len == 0;
}

/* A line of ours: never two blank lines in a row. */
static void
emit_line(struct emit *e, const char *s, size_t len)
{
	if (len == 0 && e->blank)
		return;
	emit_raw(e, s, len);
}

/* Gemtext has no escapes: a text line must not start like another type. */
static int
gmi_needs_space(const char *s)
{
	return strncmp(s, "=>", 2) == 0 || s[0] == '#' ||
	    strncmp(s, "* ", 2) == 0 || s[0] == '>' ||
	    strncmp(s, "```", 3) == 0;
}

static void
gmi_markdown(struct emit *e, const struct block *b)
{
	struct buf	 tmp = BUF_INIT;
	const char	*s, *end;
	int		 pre = 0;

	md_render(e, b, 0, &tmp);
	if (tmp.data == NULL)
		return;			/* nothing rendered */
	md_lines(e, tmp.data, tmp.len, emit_raw);
	/* A block left open would swallow the rest of the page. */
	for (s = tmp.data, end = s + tmp.len; s < end; s++) {
		if ((s == tmp.data || s[-1] == '\n') &&
		    (size_t)(end - s) >= 3 && memcmp(s, "```", 3) == 0)
			pre = !pre;
	}
	if (pre)
		emit_raw(e, "```", 3);
	buf_free(&tmp);
}

static void
gmi_block(struct emit *e, const struct block *b)
{
	struct page_target t;
	struct emit	 sub;
	struct buf	 l = BUF_INIT;
	struct page	 links;
	char		*text;
	size_t		 i;

	switch (b->type) {
	case BLOCK_HEADING:
		text = oneline(b->text);
		if (*text != '\0') {
			buf_printf(&l, "%.*s %s", b->level, "###", text);
			emit_line(e, l.data, l.len);
		}
		free(text);
		break;
	case BLOCK_TEXT:
		text = oneline(b->text);
		if (gmi_needs_space(text))
			buf_addc(&l, ' ');
		buf_addstr(&l, text);
		emit_line(e, l.data ? l.data : "", l.len);
		free(text);
		break;
	case BLOCK_LINK:
		text = oneline(b->text);
		if (*b->url == '\0') {
			/* A "=>" line without a URL is malformed. */
			if (*text != '\0' && gmi_needs_space(text))
				buf_addc(&l, ' ');
			buf_addstr(&l, text);
			if (l.len > 0)
				emit_line(e, l.data, l.len);
			free(text);
			break;
		}
		/* Spartan's prompt line: an input sent as the data block. */
		buf_addstr(&l, b->kind == LINK_PROMPT ? "=: " : "=> ");
		buf_addstr(&l, base_of(e, b->url));
		add_url(&l, b->url, 0);
		free(text);
		text = oneline(b->date);
		if (*text != '\0')
			buf_printf(&l, " %s", text);
		free(text);
		text = oneline(b->text);
		if (*text != '\0')
			buf_printf(&l, " %s", text);
		emit_line(e, l.data, l.len);
		free(text);
		break;
	case BLOCK_BLANK:
		emit_line(e, "", 0);
		break;
	case BLOCK_MARKDOWN:
		gmi_markdown(e, b);
		break;
	case BLOCK_MDLINKS:
		page_init(&links);
		md_refs(e, b, &links, &l);
		/* Their URLs went through ropts.rewrite: based already. */
		t = *e->t;
		t.base = NULL;
		sub = *e;
		sub.t = &t;
		for (i = 0; i < links.n; i++)
			gmi_block(&sub, &links.blocks[i]);
		e->blank = sub.blank;
		page_free(&links);
		break;
	}
	buf_free(&l);
}

void
page_emit_gemtext(const struct page *p, const struct page_target *t,
    struct buf *out)
{
	struct emit	 e;
	struct block	 tmp;
	char		*owned;
	size_t		 i;

	emit_start(&e, t, out, "\n");
	for (i = 0; i < p->n; i++) {
		gmi_block(&e, page_spelled(&p->blocks[i], 0, &tmp, &owned));
		free(owned);
	}
}

/*
 * Formats of lines
 */

/* Wrapped lines, newline-separated, into e->lines (see heading()). */
static void
collect(struct emit *e, const char *s, size_t len)
{
	if (e->lines->len > 0)
		buf_addc(e->lines, '\n');
	buf_add(e->lines, s, len);
}

static void
lines_out(struct emit *e, const char *lines, line_fn fn)
{
	const char	*s, *nl;

	for (s = lines;; s = nl + 1) {
		nl = strchr(s, '\n');
		fn(e, s, nl ? (size_t)(nl - s) : strlen(s));
		if (nl == NULL)
			break;
	}
}

/*
 * A heading as wrapped lines through fn, underlined with '=' (level 1)
 * or '-' (level 2) as wide as its widest line.
 */
static void
heading(struct emit *e, const struct block *b, line_fn fn)
{
	struct buf	 lines = BUF_INIT, ul = BUF_INIT;
	char		*text;
	const char	*s, *nl;
	size_t		 n, w = 0;

	text = line_of(e, b->text);
	if (*text == '\0')
		goto done;
	e->lines = &lines;
	wrap(e, text, collect);
	e->lines = NULL;
	lines_out(e, lines.data, fn);
	if (b->level >= 3)
		goto done;
	for (s = lines.data;; s = nl + 1) {
		nl = strchr(s, '\n');
		n = utf8_count(s, nl ? (size_t)(nl - s) : strlen(s));
		if (n > w)
			w = n;
		if (nl == NULL)
			break;
	}
	while (w-- > 0)
		buf_addc(&ul, b->level == 1 ? '=' : '-');
	fn(e, ul.data ? ul.data : "", ul.len);
done:
	free(text);
	buf_free(&lines);
	buf_free(&ul);
}


/*
 * How a format of lines (Gopher's menus, Nex's directories, Finger's
 * plain text) writes each kind of block; the walk of the page is one
 * for all (lines_block(), emit_lines()).
 */
struct lines_style {
	const char	*eol;		/* what ends a line */
	line_fn		 line;		/* a line of the page's own text */
	line_fn		 raw;		/* a line of a rendered Markdown body */
	void		(*link)(struct emit *, const struct block *);
	int		 gopher;	/* page_spelled()'s */
	int		 inline_refs;	/* a Markdown body's references stay
					   in its text; else they follow it
					   as links (md_menu()) */
	int		 no_first_blank; /* never start with a blank line */
	const char	*end;		/* after the last line, or NULL */
};

/*
 * A Markdown block as a menu writes one: its text (BLOCK_MARKDOWN; none
 * for BLOCK_MDLINKS), a blank line, then its references as links.
 */
static void
md_menu(struct emit *e, const struct block *b, const struct lines_style *s)
{
	struct buf	 tmp = BUF_INIT;
	struct page	 links;
	size_t		 i;

	page_init(&links);
	md_refs(e, b, &links, &tmp);
	if (b->type == BLOCK_MARKDOWN)
		md_lines(e, tmp.data ? tmp.data : "", tmp.len, s->raw);
	if (links.n > 0 && b->type == BLOCK_MARKDOWN)
		s->line(e, "", 0);
	for (i = 0; i < links.n; i++)
		s->link(e, &links.blocks[i]);
	page_free(&links);
	buf_free(&tmp);
}

static void
lines_block(struct emit *e, const struct block *b,
    const struct lines_style *s)
{
	struct buf	 tmp = BUF_INIT;
	char		*text;

	switch (b->type) {
	case BLOCK_HEADING:
		heading(e, b, s->line);
		break;
	case BLOCK_TEXT:
		text = line_of(e, b->text);
		wrap(e, text, s->line);
		free(text);
		break;
	case BLOCK_LINK:
		s->link(e, b);
		break;
	case BLOCK_BLANK:
		s->line(e, "", 0);
		break;
	case BLOCK_MARKDOWN:
		if (s->inline_refs) {
			md_render(e, b, 1, &tmp);
			md_lines(e, tmp.data ? tmp.data : "", tmp.len, s->raw);
			buf_free(&tmp);
			break;
		}
		/* FALLTHROUGH */
	case BLOCK_MDLINKS:
		md_menu(e, b, s);
		break;
	}
}

static void
emit_lines(const struct page *p, const struct page_target *t,
    struct buf *out, const struct lines_style *s)
{
	struct emit	 e;
	struct block	 tmp;
	char		*owned;
	size_t		 i;

	emit_start(&e, t, out, s->eol);
	if (s->no_first_blank)
		e.blank = 1;
	for (i = 0; i < p->n; i++) {
		lines_block(&e, page_spelled(&p->blocks[i], s->gopher, &tmp,
		    &owned), s);
		free(owned);
	}
	if (s->end != NULL && !t->open_menu)
		buf_addstr(out, s->end);
	free(e.host);
}

/*
 * Gophermap
 */

/* Host for menu lines: the public name, never empty, no TAB. */
static char *
gph_host(const struct page_target *t)
{
	char	*h;

	h = oneline(t->host);
	if (*h == '\0') {
		free(h);
		h = xstrdup("localhost");
	}
	return h;
}

/* The host e's items and URLs name: gph_host()'s, made once a page. */
static const char *
emit_host(struct emit *e)
{
	if (e->host == NULL)
		e->host = gph_host(e->t);
	return e->host;
}

/* One info line; s is one line, at most width columns. */
static void
gph_info(struct emit *e, const char *s, size_t len)
{
	if (len == 0 && e->blank)
		return;
	buf_addc(e->out, 'i');
	gopher_clean(e->out, s, len);
	buf_addstr(e->out, GPH_INFO);
	e->blank = len == 0;
}

/*
 * A line of rendered Gopher text as info lines: TABs expanded to 8,
 * other controls made spaces, cut into pieces of width columns (no word
 * wrap: the renderer wrapped prose, and preformatted text keeps its
 * columns this way).
 */
static void
gph_raw(struct emit *e, const char *s, size_t len)
{
	struct buf	 l = BUF_INIT;
	size_t		 i, c = 0, n;
	unsigned char	 ch;

	for (i = 0; i < len; i++) {
		ch = (unsigned char)s[i];
		if (ch == '\t') {
			do
				buf_addc(&l, ' ');
			while (++c % 8 != 0);
			continue;
		}
		buf_addc(&l, ch < 0x20 || ch == 0x7f ? ' ' : ch);
		if ((ch & 0xc0) != 0x80)
			c++;
	}
	if (l.len == 0) {
		e->blank = 0;		/* keep blank lines inside Markdown */
		gph_info(e, "", 0);
	}
	for (i = 0; i < l.len; i += n) {
		n = cut(l.data + i, l.len - i, e->width);
		gph_info(e, l.data + i, n);
	}
	buf_free(&l);
}

/* A printable item type for a site path of the given kind. */
static char
gph_type(const struct page_target *t, enum link_kind kind, const char *path)
{
	char	 type = '9';

	switch (kind) {
	case LINK_MENU:
		type = '1';
		break;
	case LINK_DOCUMENT:
		type = '0';
		break;
	case LINK_FILE:
		config_file_type(t->types, path, &type);
		break;
	case LINK_EXTERNAL:
		type = 'h';
		break;
	case LINK_SEARCH:
	case LINK_PROMPT:
		type = '7';
		break;
	case LINK_TEXT:
		type = '1';		/* its menu */
		break;
	}
	if ((unsigned char)type <= 0x20 || (unsigned char)type >= 0x7f)
		type = '9';
	return type;
}

/*
 * Split a gopher:// URL (RFC 4266) into item type, host, port and
 * percent-decoded selector (host and selector malloc'd); -1 when it is
 * not one we can write as a menu item.
 *   gopher-url = "gopher://" host [ ":" port ] [ "/" type selector ]
 */
static int
gph_gopher_url(const char *url, char *type, char **host, int *port,
    char **sel)
{
	const char	*h, *end, *p;
	char		*s, *hp;
	long		 n;

	if (strncasecmp(url, "gopher://", 9) != 0)
		return -1;
	h = url + 9;
	end = h + strcspn(h, "/?#");
	if (*end == '?' || *end == '#' || end == h)
		return -1;
	for (p = h; p < end; p++)
		if ((unsigned char)*p <= 0x20 || *p == 0x7f)
			return -1;
	hp = xstrndup(h, (size_t)(end - h));
	*port = 70;
	if ((s = strrchr(hp, ':')) != NULL && strchr(s, ']') == NULL) {
		n = strtol(s + 1, NULL, 10);
		if (s[1] == '\0' || strspn(s + 1, "0123456789") !=
		    strlen(s + 1) || n <= 0 || n > 65535 || s == hp) {
			free(hp);
			return -1;
		}
		*port = (int)n;
		*s = '\0';
	}
	*type = '1';
	if (*end == '/' && end[1] != '\0') {
		*type = end[1];
		s = xstrdup(end + 2);
	} else
		s = xstrdup("");
	if ((unsigned char)*type <= 0x20 || (unsigned char)*type >= 0x7f ||
	    url_decode(s) == -1 || strpbrk(s, "\t\r\n") != NULL) {
		free(hp);
		free(s);
		return -1;
	}
	*host = hp;
	*sel = s;
	return 0;
}

/*
 * A link's label as one line, its date first ("2024-01-02 Title"),
 * appended to l; or_url: its URL when it has neither (a Gopher item must
 * show something).
 */
static void
dated_label(struct emit *e, const struct block *b, int or_url,
    struct buf *l)
{
	char	*label, *date;

	label = line_of(e, b->text);
	date = line_of(e, b->date);
	if (or_url && *label == '\0' && *date == '\0') {
		free(label);
		label = line_of(e, b->url);
	}
	buf_addstr(l, date);
	if (*date != '\0' && *label != '\0')
		buf_addc(l, ' ');
	buf_addstr(l, label);
	free(label);
	free(date);
}

static void
gph_link(struct emit *e, const struct block *b)
{
	const char	*host = emit_host(e);
	struct buf	 l = BUF_INIT;
	char		*label, *ghost = NULL, *gsel = NULL, *sel;
	char		 type = '1';
	int		 gport;

	dated_label(e, b, 1, &l);
	label = take(&l);
	if (*b->url == '\0') {
		/* Nowhere to go: show it as text. */
		wrap(e, label, gph_info);
		free(label);
		return;
	}

	if (url_has_scheme(b->url) &&
	    gph_gopher_url(b->url, &type, &ghost, &gport, &gsel) == 0) {
		buf_addc(e->out, type);
		add_fit(e->out, label, e->width, e->t->ascii);
		buf_printf(e->out, "\t%s\t%s\t%d\r\n", gsel, ghost, gport);
		free(ghost);
		free(gsel);
		free(label);
		e->blank = 0;
		return;
	}
	sel = oneline(b->url);
	if (url_has_scheme(b->url) || b->kind == LINK_EXTERNAL) {
		type = 'h';
		buf_addstr(&l, "URL:");
		add_url(&l, b->url, e->t->ascii);
	} else {
		type = gph_type(e->t, b->kind, sel);
		buf_addstr(&l, base_of(e, sel));
		buf_addstr(&l, sel);
		if (b->kind == LINK_TEXT)
			buf_addc(&l, '/');
	}
	buf_addc(e->out, type);
	add_fit(e->out, label, e->width, e->t->ascii);
	buf_printf(e->out, "\t%s\t%s\t%d\r\n", l.data, host, e->t->port);
	e->blank = 0;
	free(sel);
	free(label);
	buf_free(&l);
}

/* A menu never starts with a blank line, and ends in ".". */
static const struct lines_style gph_style = {
	"\r\n", gph_info, gph_raw, gph_link, 1, 0, 1, ".\r\n"
};

void
page_emit_gophermap(const struct page *p, const struct page_target *t,
    struct buf *out)
{
	emit_lines(p, t, out, &gph_style);
}

/*
 * Plain text
 */

/*
 * The URL of a link as a reader would type it: gopher:// (with the item
 * type) in Gopher text, nex:// in Nex's.
 */
static void
txt_url(struct emit *e, const struct block *b, struct buf *out)
{
	const char	*scheme = "gopher";
	const char	*host;
	int		 dflt = 70;

	if (url_has_scheme(b->url) || b->kind == LINK_EXTERNAL) {
		add_url(out, b->url, e->t->ascii);
		return;
	}
	switch (e->t->format) {
	case FORMAT_GEMTEXT:
	case FORMAT_TEXT:		/* the capsule's own address */
	case FORMAT_HTML:		/* (its emitter names no URL so) */
		scheme = "gemini";
		dflt = 1965;
		break;
	case FORMAT_GOPHER:
		break;
	case FORMAT_NEX:
		scheme = "nex";
		dflt = 1900;
		break;
	}
	host = emit_host(e);
	if (strchr(host, ':') != NULL && host[0] != '[')
		buf_printf(out, "%s://[%s]", scheme, host);	/* IPv6 */
	else
		buf_printf(out, "%s://%s", scheme, host);
	if (e->t->port != dflt && e->t->port > 0)
		buf_printf(out, ":%d", e->t->port);
	if (e->t->format == FORMAT_GOPHER)
		buf_printf(out, "/%c", gph_type(e->t, b->kind, b->url));
	url_encode_path(base_of(e, b->url), out);
	url_encode_path(b->url, out);
	if (b->kind == LINK_TEXT)
		buf_addc(out, '/');
}

static void
txt_link(struct emit *e, const struct block *b)
{
	struct buf	 l = BUF_INIT, u = BUF_INIT;

	dated_label(e, b, 0, &l);
	if (*b->url != '\0')
		txt_url(e, b, &u);
	if (u.len == 0)
		wrap(e, l.data ? l.data : "", emit_line);
	else if (l.len == 0)
		emit_line(e, u.data, u.len);
	else if (utf8_count(l.data, l.len) + 2 +
	    utf8_count(u.data, u.len) <= e->width) {
		buf_printf(&l, ": %s", u.data);
		emit_line(e, l.data, l.len);
	} else {
		/* The URL on a line of its own, never broken. */
		buf_addc(&l, ':');
		wrap(e, l.data, emit_line);
		buf_truncate(&l, 0);
		buf_printf(&l, "  %s", u.data);
		emit_line(e, l.data, l.len);
	}
	buf_free(&l);
	buf_free(&u);
}

/* References stay in the text, as a reader of a plan reads them. */
static const struct lines_style txt_style = {
	"\n", emit_line, emit_raw, txt_link, 1, 1, 0, NULL
};

void
page_emit_text(const struct page *p, const struct page_target *t,
    struct buf *out)
{
	emit_lines(p, t, out, &txt_style);
}

/*
 * Nex
 */

/*
 * A text line of a Nex directory: one that would read as a link ("=> ")
 * gets a space in front, as a gemtext text line does.
 */
static void
nex_line(struct emit *e, const char *s, size_t len)
{
	struct buf	 l = BUF_INIT;

	if (len >= 3 && memcmp(s, "=> ", 3) == 0) {
		buf_addc(&l, ' ');
		buf_add(&l, s, len);
		emit_line(e, l.data, l.len);
		buf_free(&l);
		return;
	}
	emit_line(e, s, len);
}

/* A rendered line of Markdown, kept as it is but for that. */
static void
nex_raw(struct emit *e, const char *s, size_t len)
{
	if (len >= 3 && memcmp(s, "=> ", 3) == 0)
		buf_addc(e->out, ' ');
	emit_raw(e, s, len);
}

/*
 * "=> url label": a site path with the base (a post or a page by its
 * own directory, as Gopher's menus lead to them), another server's URL
 * as it is.  Nex asks for no input: the search's prompt says how to
 * ask instead.
 */
static void
nex_link(struct emit *e, const struct block *b)
{
	struct buf	 l = BUF_INIT;
	char		*label, *date;

	label = line_of(e, b->text);
	date = line_of(e, b->date);
	if (*b->url == '\0') {
		wrap(e, label, nex_line);
		goto done;
	}
	if (b->kind == LINK_PROMPT) {
		buf_printf(&l, "%s: ask for %s%s?your+words", label,
		    base_of(e, b->url), b->url);
		wrap(e, l.data, nex_line);
		goto done;
	}
	buf_addstr(&l, "=> ");
	if (url_has_scheme(b->url) || b->kind == LINK_EXTERNAL)
		add_url(&l, b->url, 0);
	else {
		url_encode_path(base_of(e, b->url), &l);
		url_encode_path(b->url, &l);
		if (b->kind == LINK_TEXT)
			buf_addc(&l, '/');
	}
	if (*date != '\0')
		buf_printf(&l, " %s", date);
	if (*label != '\0')
		buf_printf(&l, " %s", label);
	emit_line(e, l.data, l.len);
done:
	buf_free(&l);
	free(label);
	free(date);
}

/* A directory never starts with a blank line. */
static const struct lines_style nex_style = {
	"\n", nex_line, nex_raw, nex_link, 0, 0, 1, NULL
};

/*
 * Every format
 */

/*
 * Gopher text documents go out with CRLF line ends (RFC 1436), without
 * dot-stuffing or a final "." line, as Gophernicus and current clients
 * do; converted once, when the page is cached.
 */
static void
crlf(struct buf *b)
{
	struct buf	 out = BUF_INIT;
	const char	*s, *end, *nl;
	size_t		 nlines = 0;

	if (b->len == 0)		/* data may be NULL: no arithmetic */
		return;
	/* Lines are copied whole: a byte at a time was 10 % of a render. */
	s = b->data;
	end = b->data + b->len;
	for (nl = s; (nl = memchr(nl, '\n', (size_t)(end - nl))) != NULL;
	    nl++)
		nlines++;
	buf_reserve(&out, b->len + nlines);
	for (; (nl = memchr(s, '\n', (size_t)(end - s))) != NULL; s = nl + 1) {
		buf_add(&out, s, (size_t)(nl - s));
		if (nl == b->data || nl[-1] != '\r')
			buf_addc(&out, '\r');
		buf_addc(&out, '\n');
	}
	buf_add(&out, s, (size_t)(end - s));
	buf_free(b);
	*b = out;
}

void
page_emit(const struct page *p, const struct page_target *t, int document,
    struct buf *out)
{
	struct buf	 text = BUF_INIT;

	switch (t->format) {
	case FORMAT_GEMTEXT:
		page_emit_gemtext(p, t, out);
		break;
	case FORMAT_GOPHER:
		if (!document) {
			page_emit_gophermap(p, t, out);
			break;
		}
		emit_lines(p, t, out, &txt_style);
		crlf(out);
		break;
	case FORMAT_NEX:
		/* A directory of links, or the text as it is (LF ends). */
		if (!document)
			emit_lines(p, t, out, &nex_style);
		else
			emit_lines(p, t, out, &txt_style);
		break;
	case FORMAT_TEXT:
		/*
		 * Pages and documents alike: text, CRLF (RFC 1288), with
		 * no control character (an ESC in a title would reach the
		 * reader's terminal), made so once, when it is cached.
		 */
		emit_lines(p, t, &text, &txt_style);
		utf8_no_controls(text.data != NULL ? text.data : "", text.len,
		    out);
		buf_free(&text);
		crlf(out);
		break;
	case FORMAT_HTML:
		page_emit_html(p, t, out);
		break;
	}
}
