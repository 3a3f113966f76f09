/*
 * render.c -- the output engine under the Markdown renderers, in the
 * shape of cmark's render.c: cr/blankline/out with a line prefix,
 * wrapping at a width, and a loop over cmark_iter events that calls a
 * per-format node callback (render_gmi.c, render_gph.c).  Also the one
 * parse helper they share (which has html.c read the raw HTML), table
 * layout and render_first_heading().
 *
 * Knows cmark-gfm; knows nothing of Gemini, Gopher or sockets.  The
 * caller's struct buf is borrowed; the cmark tree belongs to the
 * function that parsed it and is freed before that function returns.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/entity.h"
#include "core/fold.h"
#include "core/utf8.h"
#include "core/util.h"
#include "markdown/html.h"
#include "markdown/render.h"
#include "markdown/render_int.h"

struct render_table {
	unsigned	 ncols;
	char		*align;		/* owned: 'l', 'c', 'r' or 0 each */
	char		**cells;	/* owned: nrows * ncols, NULL = empty */
	size_t		 nrows, cap;
	int		 header;	/* rows[0] is a header row */
	unsigned	 col;		/* next cell in the current row */
	struct buf	 cell;		/* the cell being rendered */
	struct render_divert save;
};

static pthread_once_t		 ext_once = PTHREAD_ONCE_INIT;
static cmark_syntax_extension	*ext_tasklist, *ext_autolink;
static cmark_syntax_extension	*exts[4];
/*
 * libcmark-gfm 0.29 keeps its table of special inline characters in a
 * global that each parser edits while it runs (github/cmark-gfm#176),
 * so parses are serialised; walking a finished tree is not.
 */
static pthread_mutex_t		 parse_lock = PTHREAD_MUTEX_INITIALIZER;

static void
ext_init(void)
{
	static const char *const names[] = {
		"table", "strikethrough", "autolink", "tasklist"
	};
	size_t	 i;

	cmark_gfm_core_extensions_ensure_registered();
	for (i = 0; i < nitems(names); i++)
		exts[i] = cmark_find_syntax_extension(names[i]);
	ext_autolink = exts[2];
	ext_tasklist = exts[3];
}

/*
 * Whether GFM's autolink extension could find anything in md: it links
 * "www." (lower case), addresses with '@', and http://, https:// and
 * ftp:// URLs in text (no other scheme).  Writers mostly put URLs in
 * [links](...), <...> or "[ref]: ..." lines, which cmark parses before
 * the extension sees them, and the extension costs a fifth of a post's
 * render (it copies every text node while looking for addresses), so it
 * is attached only when some such URL is not right after "](", "<" or
 * "]: ".  The one difference: a bare URL after a "](" that makes no
 * link (a broken link) stays text instead of becoming a link.
 */
static int
may_autolink(const char *md, size_t len)
{
	static const char *const schemes[] = { "http", "https", "ftp" };
	const char	*end = md + len, *p, *s;
	size_t		 i, n;

	if (memchr(md, '@', len) != NULL)
		return 1;
	for (p = md; (p = memchr(p, 'w', (size_t)(end - p))) != NULL; p++)
		if (end - p >= 4 && memcmp(p, "www.", 4) == 0)
			return 1;
	for (p = md; (p = memchr(p, ':', (size_t)(end - p))) != NULL; p++) {
		if (end - p < 3 || p[1] != '/' || p[2] != '/')
			continue;
		for (s = p; s > md && isalpha((unsigned char)s[-1]); s--)
			;
		n = (size_t)(p - s);
		for (i = 0; i < nitems(schemes); i++)
			if (strlen(schemes[i]) == n &&
			    strncasecmp(s, schemes[i], n) == 0)
				break;
		if (i == nitems(schemes))
			continue;	/* gemini://, gopher://: never linked */
		if ((s - md >= 2 && s[-2] == ']' && s[-1] == '(') ||
		    (s - md >= 1 && s[-1] == '<') ||
		    (s - md >= 3 && s[-3] == ']' && s[-2] == ':' &&
		    s[-1] == ' '))
			continue;
		return 1;
	}
	return 0;
}

/*
 * Can md hold raw HTML: a '<' before a letter (a tag, or one cmark left
 * as text for html_read() to find), '/', '!' or '?' (an end tag, a
 * comment, a declaration)?  "i < n" and "a <= b" cannot: a post whose
 * only '<' are such skips html_read()'s walk over its whole tree.
 */
static int
may_have_html(const char *md, size_t len)
{
	const char	*p = md, *end = md + len;

	while ((p = memchr(p, '<', (size_t)(end - p))) != NULL) {
		if (++p == end)
			return 0;
		if (isalpha((unsigned char)*p) || *p == '/' || *p == '!' ||
		    *p == '?')
			return 1;
	}
	return 0;
}

/* The tree render_parse() built in this thread's arena, if any. */
static _Thread_local cmark_node	*arena_doc;

/* render_parse() with notes (html_read()'s argument). */
static cmark_node *
parse(const char *md, size_t len, struct html_notes *notes)
{
	cmark_parser	*p;
	cmark_node	*doc;
	cmark_mem	*mem;
	size_t		 i;
	int		 opts;

	pthread_once(&ext_once, ext_init);
	if ((mem = arena_begin(len)) == NULL)	/* a tree in it already */
		mem = cmark_get_default_mem_allocator();
	/*
	 * cmark's UTF-8 check goes byte by byte over every line (4.6 % of
	 * a 20 KB post's render); ours skips ASCII a word at a time.  On
	 * valid input cmark's would change nothing, so it runs only when
	 * there is something to repair, and the output stays the same.
	 */
	opts = CMARK_OPT_FOOTNOTES;
	if (!utf8_valid(md, len))
		opts |= CMARK_OPT_VALIDATE_UTF8;
	pthread_mutex_lock(&parse_lock);
	p = cmark_parser_new_with_mem(opts, mem);
	for (i = 0; i < nitems(exts); i++)
		if (exts[i] != NULL && (exts[i] != ext_autolink ||
		    may_autolink(md, len)))
			cmark_parser_attach_syntax_extension(p, exts[i]);
	cmark_parser_feed(p, md, len);
	doc = cmark_parser_finish(p);
	cmark_parser_free(p);
	pthread_mutex_unlock(&parse_lock);
	if (doc == NULL)		/* cmark aborts on OOM; be safe */
		abort();
	if (mem != cmark_get_default_mem_allocator())
		arena_doc = doc;
	cmark_consolidate_text_nodes(doc);
	/* Most posts have no HTML and skip the walk. */
	if (may_have_html(md, len))
		html_read(doc, mem, notes);
	return doc;
}

/* Text, code and emphasis alone beneath n; their bytes added to *len. */
static int
plain_inlines(cmark_node *n, size_t *len)
{
	cmark_node	*c;
	const char	*s;

	for (c = cmark_node_first_child(n); c != NULL;
	    c = cmark_node_next(c)) {
		switch (cmark_node_get_type(c)) {
		case CMARK_NODE_TEXT:
		case CMARK_NODE_CODE:
			s = cmark_node_get_literal(c);
			*len += s != NULL ? strlen(s) : 0;
			break;
		case CMARK_NODE_EMPH:
		case CMARK_NODE_STRONG:
			if (!plain_inlines(c, len))
				return 0;
			break;
		default:
			return 0;
		}
	}
	return 1;
}

int
render_bold_heading(cmark_node *n)
{
	cmark_node	*strong, *last;
	const char	*s;
	size_t		 len = 0;

	if (cmark_node_get_type(n) != CMARK_NODE_PARAGRAPH ||
	    cmark_node_get_type(cmark_node_parent(n)) != CMARK_NODE_DOCUMENT ||
	    (strong = cmark_node_first_child(n)) == NULL ||
	    strong != cmark_node_last_child(n) ||
	    cmark_node_get_type(strong) != CMARK_NODE_STRONG ||
	    !plain_inlines(strong, &len) || len == 0 ||
	    len > RENDER_BOLD_HEADING_MAX)
		return 0;
	/* The last text's last byte: a sentence's end is emphasis. */
	for (last = cmark_node_last_child(strong); last != NULL &&
	    cmark_node_get_type(last) != CMARK_NODE_TEXT &&
	    cmark_node_get_type(last) != CMARK_NODE_CODE;
	    last = cmark_node_last_child(last))
		;
	if (last == NULL || (s = cmark_node_get_literal(last)) == NULL ||
	    *s == '\0')
		return 0;
	return strchr(".,;", s[strlen(s) - 1]) == NULL;
}

cmark_node *
render_parse(const char *md, size_t len)
{
	return parse(md, len, NULL);
}

void
render_html_notes(const char *md, size_t len, struct html_notes *notes)
{
	memset(notes, 0, sizeof(*notes));
	if (may_have_html(md, len))
		render_free(parse(md, len, notes));
}

void
render_free(cmark_node *doc)
{
	if (doc != NULL && doc == arena_doc) {
		arena_doc = NULL;
		arena_end();		/* every node at once */
	} else
		cmark_node_free(doc);
}

int
render_is_task_item(cmark_node *n)
{
	return ext_tasklist != NULL &&
	    cmark_node_get_type(n) == CMARK_NODE_ITEM &&
	    cmark_node_get_syntax_extension(n) == ext_tasklist;
}

void
render_item_sep(struct render *r, cmark_node *n)
{
	if (cmark_node_previous(n) == NULL)
		return;
	if (cmark_node_get_list_tight(cmark_node_parent(n)))
		render_cr(r);
	else
		render_blankline(r);
}

void
render_item_number(struct buf *m, cmark_node *list, long num)
{
	buf_printf(m, "%ld%c ", num, cmark_node_get_list_delim(list) ==
	    CMARK_PAREN_DELIM ? ')' : '.');
}

void
render_item_box(struct buf *m, cmark_node *n)
{
	buf_addstr(m, cmark_gfm_extensions_get_tasklist_item_checked(n) ?
	    "[x] " : "[ ] ");
}

/*
 * UTF-8.  Everything written is decoded (utf8_decode_lossy(): a bad
 * byte reads as U+FFFD) and encoded again: cmark-gfm 0.29 can leave a
 * broken sequence in a text node even with CMARK_OPT_VALIDATE_UTF8
 * (found by fuzz_render), and the output must be valid UTF-8 whatever
 * the input.
 */

/*
 * The output engine
 */

void
render_init(struct render *r, struct buf *out, unsigned width,
    render_outc_fn outc, void *fmt)
{
	memset(r, 0, sizeof(*r));
	r->out = out;
	r->start = r->pos.line_at = r->pos.content_at = out->len;
	r->width = width;
	r->pos.begin_line = 1;
	r->outc = outc;
	r->fmt = fmt;
	buf_init(&r->prefix);
	buf_init(&r->scratch);
}

static void
table_free(struct render_table *t)
{
	size_t	 i;

	if (t == NULL)
		return;
	for (i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t->align);
	buf_free(&t->cell);
	free(t);
}

/* End the current line: no trailing white space, LF. */
static void
newline(struct render *r)
{
	struct buf	*b = r->out;
	size_t		 len = b->len;

	while (len > r->pos.line_at && (b->data[len - 1] == ' ' ||
	    b->data[len - 1] == '\t'))
		len--;
	buf_truncate(b, len);
	if (len > r->start)		/* never a blank first line */
		buf_addc(b, '\n');
	r->pos.line_at = r->pos.content_at = b->len;
	r->pos.column = r->pos.content_col = 0;
	r->pos.begin_line = 1;
	r->pos.space_at = 0;
}

/*
 * The prefix of a blank line: the part of the prefix that was there when
 * the blank line was asked for (a quote's first line must not be
 * preceded by a quoted blank line), without trailing white space.
 */
static size_t
blank_prefix(const struct render *r)
{
	size_t	 plen;

	plen = r->pos.blank_len < r->prefix.len ? r->pos.blank_len :
	    r->prefix.len;
	while (plen > 0 && (r->prefix.data[plen - 1] == ' ' ||
	    r->prefix.data[plen - 1] == '\t'))
		plen--;
	return plen;
}

/* Is the last finished line already that blank line? */
static int
last_line_blank(const struct render *r, size_t plen)
{
	const char	*d = r->out->data;
	size_t		 end, beg;

	if (r->out->len <= r->start || d[r->out->len - 1] != '\n')
		return 0;
	end = r->out->len - 1;
	for (beg = end; beg > r->start && d[beg - 1] != '\n'; beg--)
		;
	return end - beg == plen &&
	    (plen == 0 || memcmp(d + beg, r->prefix.data, plen) == 0);
}

void
render_finish(struct render *r)
{
	struct buf	*b = r->out;

	if (!r->pos.begin_line && b->len == r->pos.content_at)
		buf_truncate(b, r->pos.line_at);
	else if (!r->pos.begin_line)
		newline(r);
	while (b->len >= r->start + 2 && b->data[b->len - 1] == '\n' &&
	    b->data[b->len - 2] == '\n')
		buf_truncate(b, b->len - 1);
	if (b->len == r->start + 1 && b->data[r->start] == '\n')
		buf_truncate(b, r->start);
	buf_free(&r->prefix);
	buf_free(&r->scratch);
	table_free(r->table);
	r->table = NULL;
}

void
render_walk(struct render *r, cmark_node *root, render_node_fn fn)
{
	cmark_iter		*it;
	cmark_node		*n;
	cmark_event_type	 ev;

	it = cmark_iter_new(root);
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		n = cmark_iter_get_node(it);
		if (!fn(r, n, ev) && ev == CMARK_EVENT_ENTER)
			cmark_iter_reset(it, n, CMARK_EVENT_EXIT);
	}
	cmark_iter_free(it);
}

void
render_cr(struct render *r)
{
	if (r->pos.need_nl < 1)
		r->pos.need_nl = 1;
}

int
render_is_type(cmark_node *n, cmark_node_type t)
{
	return n != NULL && cmark_node_get_type(n) == t;
}

void
render_block_sep(struct render *r, cmark_node *n)
{
	cmark_node	*p = cmark_node_parent(n);

	if (render_is_type(p, CMARK_NODE_BLOCK_QUOTE) &&
	    cmark_node_previous(n) == NULL)
		return;
	if ((render_is_type(p, CMARK_NODE_ITEM) ||
	    render_is_type(p, CMARK_NODE_FOOTNOTE_DEFINITION)) &&
	    cmark_node_previous(n) == NULL) {
		if (!render_is_type(n, CMARK_NODE_PARAGRAPH))
			render_cr(r);
	} else if (render_is_type(p, CMARK_NODE_ITEM) &&
	    cmark_node_get_list_tight(cmark_node_parent(p)))
		render_cr(r);
	else
		render_blankline(r);
}

void
render_blankline(struct render *r)
{
	if (r->pos.need_nl < 2 || r->prefix.len < r->pos.blank_len)
		r->pos.blank_len = r->prefix.len;
	r->pos.need_nl = 2;
}

/* Write the line ends asked for, but never at the very top. */
static void
flush_nl(struct render *r)
{
	size_t	 plen;

	if (r->pos.need_nl == 0)
		return;
	if (!r->pos.begin_line && r->out->len == r->pos.content_at) {
		/* Only a prefix (outc dropped the rest): not a line. */
		buf_truncate(r->out, r->pos.line_at);
		r->pos.begin_line = 1;
	}
	if (r->out->len > r->start) {
		if (!r->pos.begin_line)
			newline(r);
		plen = blank_prefix(r);
		if (r->pos.need_nl == 2 && !last_line_blank(r, plen)) {
			buf_add(r->out, r->prefix.data, plen);
			newline(r);
		}
	}
	r->pos.need_nl = 0;
}

void
render_begin(struct render *r)
{
	flush_nl(r);
	if (!r->pos.begin_line)
		return;
	if (r->no_prefix)
		r->pos.column = 0;
	else {
		buf_add(r->out, r->prefix.data, r->prefix.len);
		r->pos.column = r->prefix_width;
	}
	r->pos.content_at = r->out->len;
	r->pos.content_col = r->pos.column;
	r->pos.begin_line = 0;
	r->pos.space_at = 0;
}

int
render_line_empty(const struct render *r)
{
	return r->pos.need_nl || r->pos.begin_line ||
	    r->out->len == r->pos.content_at;
}

void
render_putcp(struct render *r, uint32_t c)
{
	const char	*s;
	char		 u[4];

	if (r->ascii && c >= 0x80) {
		s = fold_ascii(c);
		buf_addstr(r->out, s);
		r->pos.column += strlen(s);
		return;
	}
	buf_add(r->out, u, utf8_encode(c, u));
	r->pos.column++;
}

/*
 * The column went past the width: break the line at the last space, or
 * (a word longer than the line) just before what was written at 'at'.
 */
static void
wrap_line(struct render *r, size_t at)
{
	struct buf	*b = r->out;
	size_t		 cut, from;

	if (r->pos.space_at > r->pos.content_at) {
		cut = r->pos.space_at - 1;
		from = r->pos.space_at;
	} else if (at > r->pos.content_at) {
		cut = from = at;
	} else
		return;		/* one code point wider than the line */
	r->scratch.len = 0;
	buf_add(&r->scratch, b->data + from, b->len - from);
	buf_truncate(b, cut);
	newline(r);
	render_begin(r);
	buf_add(b, r->scratch.data, r->scratch.len);
	r->pos.column += utf8_count(r->scratch.data, r->scratch.len);
}

/*
 * The longest run at p that needs no decision, in bytes; *ncp gets its
 * code points and *space the offset in it just past its last space (0:
 * none).  Plain are: printable ASCII, valid UTF-8 from U+00A0 up, and
 * a space (in prose only one right after a non-space of this run, so
 * it is neither leading nor doubled).  outc() writes each of them as
 * is too (the contract in render_int.h) and none takes the column past
 * the width when wrapping, so copying the run changes nothing.
 * The caller makes sure the line has begun and its column is not 0.
 */
static size_t
plain_run(const struct render *r, const char *p, size_t len,
    enum render_esc esc, int wrap, size_t *ncp, size_t *space)
{
	const unsigned char	*s = (const unsigned char *)p;
	size_t			 i = 0, k, n = 0, room = SIZE_MAX;
	uint32_t		 c;

	*space = 0;
	if (wrap)
		room = r->pos.column < r->width ? r->width - r->pos.column : 0;
	while (i < len && n < room) {
		if (s[i] > ' ' && s[i] < 0x7f)
			k = 1;
		else if (s[i] == ' ') {
			if (esc == RENDER_ESC_TEXT) {
				if (i == 0 || s[i - 1] == ' ')
					break;	/* leading or double */
				*space = i + 1;
			}
			k = 1;
		} else if (s[i] < 0x80 || r->ascii)
			break;		/* a control or DEL; or to spell */
		else {
			k = utf8_decode_lossy(p + i, len - i, &c);
			if (k == 1 || c < 0xa0)
				break;	/* broken, or a C1 control */
		}
		i += k;
		n++;
	}
	*ncp = n;
	return i;
}

void
render_out(struct render *r, const char *s, size_t len, enum render_esc esc)
{
	size_t		 i, n, at, ncp, space;
	uint32_t	 c;
	unsigned char	 nextc;
	int		 wrap;

	/* Prose: spaces collapse; where wrapping, they are break points. */
	wrap = esc == RENDER_ESC_TEXT && r->width > 0;
	for (i = 0; i < len; i += n) {
		if (r->pos.need_nl == 0 && !r->pos.begin_line &&
		    r->pos.column > 0) {
			n = plain_run(r, s + i, len - i, esc, wrap, &ncp,
			    &space);
			if (n > 0) {
				at = r->out->len;
				buf_add(r->out, s + i, n);
				r->pos.column += ncp;
				if (space > 0)
					r->pos.space_at = at + space;
				continue;
			}
		}
		n = utf8_decode_lossy(s + i, len - i, &c);
		nextc = i + n < len ? (unsigned char)s[i + n] : 0;
		if (esc == RENDER_ESC_TEXT && (c == '\t' || c == '\n' ||
		    c == '\r'))
			c = ' ';
		if (c == '\n') {	/* LITERAL or PRE */
			render_begin(r);
			newline(r);
			continue;
		}
		if (c == ' ' && esc == RENDER_ESC_TEXT) {
			if (render_line_empty(r) ||
			    r->out->data[r->out->len - 1] == ' ')
				continue;	/* no leading or double space */
			buf_addc(r->out, ' ');
			r->pos.column++;
			r->pos.space_at = r->out->len;
			continue;
		}
		render_begin(r);
		at = r->out->len;
		if (esc == RENDER_ESC_LITERAL)
			render_putcp(r, c);	/* re-encoded: valid UTF-8 */
		else
			r->outc(r, esc, c, nextc);
		if (wrap && r->pos.column > r->width)
			wrap_line(r, at);
	}
}

void
render_lit(struct render *r, const char *s)
{
	render_out(r, s, strlen(s), RENDER_ESC_LITERAL);
}

void
render_text(struct render *r, const char *s)
{
	if (s != NULL)
		render_out(r, s, strlen(s), RENDER_ESC_TEXT);
}

/*
 * `code`: the backticks stay, as the writer typed them and as readers
 * of plain text expect.  The fence is the shortest run of backticks
 * that the literal does not hold, with a space inside it when the
 * literal starts or ends with a backtick (CommonMark's own rule, so the
 * text reads back the same).
 */
void
render_code_span(struct render *r, struct buf *b, const char *lit)
{
	unsigned long	 runs = 0;	/* bit n: a run of n + 1 is in lit */
	size_t		 len, i, k, n;
	int		 pad;

	lit = lit != NULL ? lit : "";
	len = strlen(lit);
	for (i = 0; i < len; i = k) {
		for (k = i; k < len && lit[k] == '`'; k++)
			;
		if (k > i && k - i <= 8 * sizeof(runs))
			runs |= 1ul << (k - i - 1);
		if (k == i)
			k++;
	}
	for (n = 1; n < 8 * sizeof(runs) && (runs & (1ul << (n - 1))); n++)
		;
	pad = len > 0 && (lit[0] == '`' || lit[len - 1] == '`');
	buf_truncate(b, 0);
	for (i = 0; i < n; i++)
		buf_addc(b, '`');
	if (pad)
		buf_addc(b, ' ');
	buf_add(b, lit, len);
	if (pad)
		buf_addc(b, ' ');
	for (i = 0; i < n; i++)
		buf_addc(b, '`');
	render_out(r, b->data, b->len, RENDER_ESC_TEXT);
}

void
render_break(struct render *r)
{
	if (r->oneline)
		render_out(r, " ", 1, RENDER_ESC_TEXT);
	else
		render_cr(r);
}

void
render_prefix_add(struct render *r, const char *s, size_t len)
{
	buf_add(&r->prefix, s, len);
	r->prefix_width = utf8_count(r->prefix.data, r->prefix.len);
}

void
render_prefix_truncate(struct render *r, size_t len)
{
	if (len < r->prefix.len)
		buf_truncate(&r->prefix, len);
	r->prefix_width = utf8_count(r->prefix.data, r->prefix.len);
}

void
render_mark(struct render *r, struct render_mark *m)
{
	struct buf	*b = r->out;

	/*
	 * The line is about to end: drop its trailing white space now, or
	 * newline() would cut below the mark and a rewind keep a newline.
	 */
	if (r->pos.need_nl && !r->pos.begin_line)
		while (b->len > r->pos.line_at && (b->data[b->len - 1] == ' ' ||
		    b->data[b->len - 1] == '\t'))
			buf_truncate(b, b->len - 1);
	m->len = r->out->len;
	m->pos = r->pos;
}

void
render_rewind(struct render *r, const struct render_mark *m)
{
	buf_truncate(r->out, m->len);
	r->pos = m->pos;
}

void
render_divert(struct render *r, struct buf *to, struct render_divert *d)
{
	render_mark(r, &d->mark);
	d->out = r->out;
	d->start = r->start;
	d->width = r->width;
	d->no_prefix = r->no_prefix;
	d->oneline = r->oneline;
	r->out = to;
	r->start = r->pos.line_at = r->pos.content_at = to->len;
	r->pos.column = r->pos.content_col = r->pos.space_at = 0;
	r->pos.need_nl = 0;
	r->pos.begin_line = 1;
	r->width = 0;
	r->no_prefix = r->oneline = r->diverted = 1;
}

void
render_undivert(struct render *r, const struct render_divert *d)
{
	r->out = d->out;
	r->start = d->start;
	r->width = d->width;
	r->no_prefix = d->no_prefix;
	r->oneline = d->oneline;
	r->diverted = 0;
	render_rewind(r, &d->mark);
}

/*
 * Tables
 */

void
render_table_begin(struct render *r, cmark_node *n)
{
	struct render_table	*t;
	uint8_t			*al = NULL;
	unsigned		 i;

	table_free(r->table);
	t = r->table = xcalloc(1, sizeof(*t));
	if (html_table_part(n) == HTML_PART_TABLE)
		t->ncols = html_table_columns(n);	/* all left */
	else {
		t->ncols = cmark_gfm_extensions_get_table_columns(n);
		al = cmark_gfm_extensions_get_table_alignments(n);
	}
	if (t->ncols == 0)
		t->ncols = 1;
	t->align = xcalloc(t->ncols, 1);
	if (al != NULL)
		for (i = 0; i < t->ncols; i++)
			t->align[i] = (char)al[i];
	buf_init(&t->cell);
}

void
render_table_row(struct render *r, cmark_node *row, int entering)
{
	struct render_table	*t = r->table;

	if (t == NULL || !entering)
		return;
	if (t->nrows == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 8;
		t->cells = xreallocarray(t->cells, t->cap * t->ncols,
		    sizeof(*t->cells));
	}
	memset(t->cells + t->nrows * t->ncols, 0,
	    t->ncols * sizeof(*t->cells));
	if (t->nrows == 0 && (html_table_part(row) == HTML_PART_HEADER_ROW ||
	    (html_table_part(row) == HTML_PART_NONE &&
	    cmark_gfm_extensions_get_table_row_is_header(row))))
		t->header = 1;
	t->nrows++;
	t->col = 0;
}

int
render_common_node(struct render *r, cmark_node *n, cmark_node_type t,
    int entering, const struct render_hooks *h)
{
	enum html_part	 part = HTML_PART_NONE;

	/* Only the custom nodes html_read() makes may be table parts. */
	if (t == CMARK_NODE_CUSTOM_BLOCK || t == CMARK_NODE_CUSTOM_INLINE)
		part = html_table_part(n);
	if (t == CMARK_NODE_TABLE || part == HTML_PART_TABLE)
		h->table(r, n, entering);
	else if (t == CMARK_NODE_TABLE_ROW || part == HTML_PART_ROW ||
	    part == HTML_PART_HEADER_ROW)
		render_table_row(r, n, entering);
	else if (t == CMARK_NODE_TABLE_CELL || part == HTML_PART_CELL)
		render_table_cell(r, entering);
	else if (t == CMARK_NODE_STRIKETHROUGH)
		;				/* markers dropped, text kept */
	else if (t == CMARK_NODE_ITEM && entering)
		h->item_enter(r, n, render_is_task_item(n));
	else if (t == CMARK_NODE_ITEM)
		h->item_exit(r);
	else
		return 0;
	return 1;
}

void
render_table_cell(struct render *r, int entering)
{
	struct render_table	*t = r->table;
	char			**slot;

	if (t == NULL || t->nrows == 0)
		return;
	if (entering) {
		t->cell.len = 0;
		render_divert(r, &t->cell, &t->save);
		return;
	}
	render_undivert(r, &t->save);
	if (t->col < t->ncols) {
		slot = &t->cells[(t->nrows - 1) * t->ncols + t->col];
		free(*slot);
		*slot = xstrndup(t->cell.data ? t->cell.data : "", t->cell.len);
	}
	t->col++;
}

static void
pad(struct buf *b, size_t n)
{
	while (n-- > 0)
		buf_addc(b, ' ');
}

void
render_table_end(struct render *r)
{
	struct render_table	*t = r->table;
	struct buf		 line = BUF_INIT;
	size_t			*w, row, i, cw, left;
	const char		*s;

	if (t == NULL)
		return;
	w = xcalloc(t->ncols, sizeof(*w));
	for (row = 0; row < t->nrows; row++)
		for (i = 0; i < t->ncols; i++)
			if ((s = t->cells[row * t->ncols + i]) != NULL &&
			    (cw = utf8_count(s, strlen(s))) > w[i])
				w[i] = cw;
	for (row = 0; row < t->nrows; row++) {
		line.len = 0;
		for (i = 0; i < t->ncols; i++) {
			s = t->cells[row * t->ncols + i];
			s = s ? s : "";
			cw = utf8_count(s, strlen(s));
			if (i > 0)
				buf_addstr(&line, " | ");
			left = t->align[i] == 'r' ? w[i] - cw :
			    t->align[i] == 'c' ? (w[i] - cw) / 2 : 0;
			pad(&line, left);
			buf_addstr(&line, s);
			pad(&line, w[i] - cw - left);
		}
		render_cr(r);
		render_out(r, line.data, line.len, RENDER_ESC_PRE);
		if (row == 0 && t->header) {
			line.len = 0;
			for (i = 0; i < t->ncols; i++) {
				if (i > 0)
					buf_addstr(&line, "-+-");
				for (cw = 0; cw < w[i]; cw++)
					buf_addc(&line, '-');
			}
			render_cr(r);
			render_out(r, line.data, line.len, RENDER_ESC_PRE);
		}
	}
	render_cr(r);
	buf_free(&line);
	free(w);
	table_free(t);
	r->table = NULL;
}

/*
 * Links
 */

const char *
render_url_basename(const char *url, size_t *lenp)
{
	size_t	 end, beg;

	end = strcspn(url, "?#");
	for (beg = end; beg > 0 && url[beg - 1] != '/'; beg--)
		;
	if (beg == end) {	/* "dir/" or "": the whole thing */
		*lenp = strlen(url);
		return url;
	}
	*lenp = end - beg;
	return url + beg;
}

char *
render_clean_label(const char *s, size_t len)
{
	struct buf	 b = BUF_INIT;
	size_t		 i, n;
	uint32_t	 c;
	char		 u[4];
	int		 space = 0;

	buf_add(&b, "", 0);		/* a terminated "" even if empty */
	for (i = 0; i < len; i += n) {
		n = utf8_decode_lossy(s + i, len - i, &c);
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			space = 1;
			continue;
		}
		if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0))
			continue;
		if (space && b.len > 0)
			buf_addc(&b, ' ');
		space = 0;
		buf_add(&b, u, utf8_encode(c, u));	/* re-encoded */
	}
	return buf_release(&b);
}

/*
 * The first heading
 */

void
render_plain_outc(struct render *r, enum render_esc esc, uint32_t c,
    unsigned char nextc)
{
	if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0))
		return;
	render_putcp(r, c);
}

int
render_plain_node(struct render *r, cmark_node *n, cmark_event_type ev)
{
	switch (cmark_node_get_type(n)) {
	case CMARK_NODE_TEXT:
	case CMARK_NODE_CODE:
		render_text(r, cmark_node_get_literal(n));
		break;
	case CMARK_NODE_SOFTBREAK:
	case CMARK_NODE_LINEBREAK:
		render_text(r, " ");
		break;
	case CMARK_NODE_FOOTNOTE_REFERENCE:
		return 0;
	case CMARK_NODE_NONE:
	case CMARK_NODE_DOCUMENT:
	case CMARK_NODE_BLOCK_QUOTE:
	case CMARK_NODE_LIST:
	case CMARK_NODE_ITEM:
	case CMARK_NODE_CODE_BLOCK:
	case CMARK_NODE_HTML_BLOCK:
	case CMARK_NODE_CUSTOM_BLOCK:
	case CMARK_NODE_PARAGRAPH:
	case CMARK_NODE_HEADING:
	case CMARK_NODE_THEMATIC_BREAK:
	case CMARK_NODE_FOOTNOTE_DEFINITION:
	case CMARK_NODE_CUSTOM_INLINE:
	case CMARK_NODE_EMPH:
	case CMARK_NODE_STRONG:
	case CMARK_NODE_LINK:
	case CMARK_NODE_IMAGE:
	case CMARK_NODE_HTML_INLINE:	/* html_read() left none */
		break;
	}
	return 1;
}

char *
render_node_text(cmark_node *n)
{
	struct render	 r;
	struct buf	 b = BUF_INIT;
	char		*s;

	render_init(&r, &b, 0, render_plain_outc, NULL);
	r.oneline = 1;
	render_walk(&r, n, render_plain_node);
	render_finish(&r);
	if (b.len > 0 && b.data[b.len - 1] == '\n')
		b.len--;
	s = render_clean_label(b.data ? b.data : "", b.len);
	buf_free(&b);
	return s;
}

char *
render_first_heading(const char *md, size_t len)
{
	cmark_node	*doc, *n;
	char		*title = NULL;

	doc = render_parse(md, len);
	for (n = cmark_node_first_child(doc); n != NULL && title == NULL;
	    n = cmark_node_next(n)) {
		if (cmark_node_get_type(n) != CMARK_NODE_HEADING ||
		    cmark_node_get_heading_level(n) != 1)
			continue;
		title = render_node_text(n);
		if (title[0] == '\0') {		/* empty: try the next one */
			free(title);
			title = NULL;
		}
	}
	render_free(doc);
	return title;
}
