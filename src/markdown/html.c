/*
 * html.c -- the tree builder: raw HTML in Markdown, read for what it
 * means (html.h).
 *
 * html_read() reads each run of siblings that holds HTML -- the blocks
 * of a container, or the inlines of a paragraph -- left to right with
 * a stack of the elements open in it.  Tags in an HTML block build new
 * nodes before the block, which is then dropped; tags in inline HTML
 * build nodes before the fragment, and the siblings that follow (the
 * text of "<a href=x>text</a>") move into the open element.  What an
 * element becomes:
 *   <a href>                  a LINK around what follows, to </a>
 *   <img>, <picture> sources  an IMAGE, labelled with its alt text
 *   <iframe>, <video>, <audio>, <source>, <embed>, <object>
 *                             a LINK (or an IMAGE when nothing labels
 *                             it: the renderers show the file name)
 *   <blockquote>, <ul>/<ol>/<li>, <h1>-<h6>, <pre>, <hr>, <p>
 *                             their cmark counterparts (in a paragraph,
 *                             where no block can go: line breaks)
 *   <br>                      LINEBREAK; <div> and other blocks end
 *                             the line they are on
 *   <table>                   CUSTOM_BLOCK/CUSTOM_INLINE rows and cells
 *                             (html_table_part()), laid out by render.c
 *   <summary>, <figcaption>   a paragraph of their own (a figure's
 *                             caption labels an image without alt)
 *   <code>, <kbd>, <q>        CODE; quotation marks
 *   <script>, <style>, <svg>, <template>...: nothing
 *   an element of no known kind with a name, title or label attribute
 *                             a line starting "Ana: "
 * Anything else keeps its text and loses its tags.
 *
 * The tags come from the tokenizer (html_lex.c), what each element is
 * from html_elem.c, and tags cmark left as text are cut out of their
 * text nodes first (html_text.c).
 *
 * Knows cmark-gfm; knows nothing of gemtext or Gopher.  Nodes dropped
 * on the way are kept in a detached node until html_read() returns, so
 * no node it still has to visit is freed under it.
 */
#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/url.h"
#include "core/util.h"
#include "markdown/html.h"
#include "markdown/html_int.h"

#define HB_DEPTH	64	/* open elements kept; deeper ones are text */

/*
 * The builder
 */

enum role {
	R_NONE,		/* no node: the element only breaks lines */
	R_INLINE,	/* its node takes inlines (LINK, a caption) */
	R_LEAF,		/* it is the paragraph being filled (a heading) */
	R_BLOCK,	/* its node takes blocks (quote, list, item) */
	R_TABLE,
	R_ROW,
	R_CELL,		/* takes inlines */
};

struct hb_el {
	char		 name[HTML_MAX_NAME];
	unsigned char	 kind;		/* enum el */
	unsigned char	 role;		/* enum role */
	cmark_node	*node;		/* what it made; NULL for R_NONE */
	unsigned	 n, nth;	/* table: rows; row: cells, <th>s */
};

/* Marks: the user_data of the nodes html_read() makes or visits. */
static const char	 mark_run, mark_table, mark_row, mark_hrow, mark_cell;

struct hb {
	cmark_mem	*mem;
	cmark_node	*trash;		/* out of the tree: dropped nodes */
	cmark_node	*parent;	/* the run being read */
	cmark_node	*anchor;	/* the node being read: new ones go
					   before it */
	int		 block;		/* parent holds blocks, not inlines */
	struct hb_el	 st[HB_DEPTH];
	size_t		 n;
	unsigned	 ncells;	/* R_CELL entries on st */
	unsigned	 nflat;		/* tables open in a cell: text */
	cmark_node	*para;		/* block run: the leaf taking inlines */
	int		 space;		/* white space before the next text */
	int		 brk;		/* a line break before it */
	char		 skip[HTML_MAX_NAME];	/* inside this: nothing */
	unsigned	 nskip;
	char		 fb[HTML_MAX_NAME];	/* inside this: media only */
	unsigned	 nfb;
	int		 fbkind;	/* picture, video, audio, object */
	char		*fblabel;	/* owned: what labels its media */
	char		*pic_src;	/* owned: a <picture>'s first source */
	int		 pic_img;	/* its <img> was made */
	int		 collect;	/* EL_PRE or EL_CODE text, or 0 */
	char		 cname[HTML_MAX_NAME];
	struct buf	 text;		/* the <pre> or <code> text */
	char		*info;		/* owned: <pre>'s language */
	int		 figure;	/* inside <figure> */
	cmark_node	*fig_img;	/* an image in it without alt */
	char		*last_media;	/* owned: <object><embed> once */
	struct buf	 tmp;

	/* Notes (html_read()'s notes argument), and where the tag is. */
	struct html_notes *notes;	/* borrowed; NULL: none */
	cmark_node	*at;		/* the node whose literal is read */
	const char	*lit;		/* its literal */
	size_t		 tokpos;	/* the tag's offset in lit */
	size_t		 seen;		/* lit scanned up to here: */
	unsigned	 seen_lines;	/* newlines in lit[0..seen) */
	size_t		 seen_nl;	/* 1 + offset of the last one, or 0 */
};

/*
 * Note what the tag just read became (html.h), at its line and column:
 * those of the node read, plus the lines of its literal before the tag.
 * A node html_read() made itself has no place: the nearest node before
 * it that has one stands for it.
 */
static void
note(struct hb *b, enum html_what what, const char *name)
{
	struct html_notes	*ns = b->notes;
	struct html_note	*v;
	cmark_node		*at;
	long			 line = 1, col = 1;

	if (ns == NULL)
		return;
	if (ns->n == HTML_MAX_NOTES) {
		ns->nmore++;
		return;
	}
	for (at = b->at; at != NULL && cmark_node_get_start_line(at) == 0;)
		at = cmark_node_previous(at) != NULL ?
		    cmark_node_previous(at) : cmark_node_parent(at);
	if (at != NULL) {
		line = cmark_node_get_start_line(at);
		col = cmark_node_get_start_column(at);
	}
	if (at != NULL && at == b->at && b->lit != NULL) {
		for (; b->seen < b->tokpos && b->lit[b->seen] != '\0';
		    b->seen++)
			if (b->lit[b->seen] == '\n') {
				b->seen_lines++;
				b->seen_nl = b->seen + 1;
			}
		line += b->seen_lines;
		col = b->seen_lines > 0 ? (long)(b->tokpos - b->seen_nl + 1) :
		    col + (long)b->tokpos;
	}
	/* cmark's inline columns can be off where it replaced bad UTF-8. */
	if (line < 1)
		line = 1;
	if (col < 1)
		col = 1;
	if (ns->n % 16 == 0)
		ns->v = xreallocarray(ns->v, ns->n + 16, sizeof(*ns->v));
	v = &ns->v[ns->n++];
	v->line = line > UINT_MAX ? UINT_MAX : (unsigned)line;
	v->col = col > UINT_MAX ? UINT_MAX : (unsigned)col;
	v->what = what;
	snprintf(v->name, sizeof(v->name), "%s", name);
}

void
html_notes_free(struct html_notes *ns)
{
	free(ns->v);
	memset(ns, 0, sizeof(*ns));
}


static cmark_node *
node_new(struct hb *b, cmark_node_type t)
{
	return cmark_node_new_with_mem(t, b->mem);
}

static void
drop(struct hb *b, cmark_node *n)
{
	cmark_node_unlink(n);
	cmark_node_append_child(b->trash, n);
}

static cmark_node *
text_new(struct hb *b, const char *s, size_t len)
{
	cmark_node	*n = node_new(b, CMARK_NODE_TEXT);

	buf_truncate(&b->tmp, 0);
	buf_add(&b->tmp, s, len);
	buf_add(&b->tmp, "", 0);
	cmark_node_set_literal(n, b->tmp.data);
	return n;
}

static int
is_break(cmark_node *n)
{
	cmark_node_type	 t = cmark_node_get_type(n);

	return t == CMARK_NODE_LINEBREAK || t == CMARK_NODE_SOFTBREAK;
}

static int
ends_space(cmark_node *n)
{
	const char	*s;
	size_t		 len;

	if (cmark_node_get_type(n) != CMARK_NODE_TEXT ||
	    (s = cmark_node_get_literal(n)) == NULL || (len = strlen(s)) == 0)
		return 0;
	return html_space(s[len - 1]);
}

/* The node of the innermost open element taking inlines, if any. */
static cmark_node *
inline_target(const struct hb *b)
{
	size_t	 i;

	for (i = b->n; i > 0; i--) {
		switch (b->st[i - 1].role) {
		case R_NONE:
			continue;
		case R_INLINE:
		case R_CELL:
			return b->st[i - 1].node;
		default:
			return NULL;
		}
	}
	return NULL;
}

/* The innermost open element that holds blocks or is a table part. */
static struct hb_el *
block_el(struct hb *b)
{
	size_t	 i;

	for (i = b->n; i > 0; i--)
		if (b->st[i - 1].role >= R_BLOCK)
			return &b->st[i - 1];
	return NULL;
}

static struct hb_el *
push(struct hb *b, const char *name, enum el kind, enum role role,
    cmark_node *node)
{
	struct hb_el	*e;

	if (b->n == HB_DEPTH)
		return NULL;
	e = &b->st[b->n++];
	memset(e, 0, sizeof(*e));
	snprintf(e->name, sizeof(e->name), "%s", name);
	e->kind = (unsigned char)kind;
	e->role = (unsigned char)role;
	e->node = node;
	if (role == R_CELL)
		b->ncells++;
	return e;
}

/* Close the top element (no line breaks: see end_tag()). */
static void
pop(struct hb *b)
{
	struct hb_el	*e = &b->st[--b->n], *t;
	size_t		 i;

	if (e->kind == EL_TABLE && e->role == R_NONE)
		b->nflat--;
	switch (e->role) {
	case R_CELL:
		b->ncells--;
		break;
	case R_ROW:
		for (i = b->n; i > 0; i--)
			if (b->st[i - 1].role == R_TABLE)
				break;
		t = i > 0 ? &b->st[i - 1] : NULL;
		if (t != NULL && t->n++ == 0 && e->n > 0 && e->nth == e->n)
			cmark_node_set_user_data(e->node, (void *)&mark_hrow);
		break;
	case R_TABLE:
		if (cmark_node_first_child(e->node) == NULL)
			drop(b, e->node);
		break;
	case R_LEAF:
		if (b->para == e->node)
			b->para = NULL;
		break;
	default:
		break;
	}
}

/* Put a new node n where inlines go now: into t, or before the anchor. */
static void
put(struct hb *b, cmark_node *t, cmark_node *n)
{
	if (t != NULL) {
		if (!cmark_node_append_child(t, n))
			cmark_node_append_child(b->trash, n);
	} else
		cmark_node_insert_before(b->anchor, n);
}

/*
 * End the paragraph being filled: the inline elements in it end with it
 * (a link cannot hold a blockquote).
 */
static void
close_para(struct hb *b)
{
	struct hb_el	*e;

	while (b->n > 0) {
		e = &b->st[b->n - 1];
		if (e->role == R_INLINE || (e->role == R_NONE &&
		    (e->kind == EL_INLINE || e->kind == EL_A ||
		    e->kind == EL_Q || e->kind == EL_LABEL)))
			pop(b);
		else
			break;
	}
	if (b->n > 0 && b->st[b->n - 1].role == R_LEAF)
		pop(b);
	b->para = NULL;
	b->space = b->brk = 0;
}

/* A new block: into the open container, else before the anchor. */
static void
add_block(struct hb *b, cmark_node *n)
{
	struct hb_el	*e;
	cmark_node	*item, *t;
	size_t		 i;

	close_para(b);
	e = block_el(b);
	if (e == NULL) {
		cmark_node_insert_before(b->anchor, n);
		return;
	}
	if (e->role == R_TABLE || e->role == R_ROW || e->role == R_CELL) {
		/* Not in a cell: before the table (HTML5's foster parent). */
		for (i = b->n; i > 0 && b->st[i - 1].role != R_TABLE; i--)
			;
		t = i > 0 ? b->st[i - 1].node : NULL;
		if (t != NULL && cmark_node_parent(t) != NULL)
			cmark_node_insert_before(t, n);
		else
			cmark_node_append_child(b->trash, n);
		return;
	}
	if (cmark_node_get_type(e->node) == CMARK_NODE_LIST &&
	    cmark_node_get_type(n) != CMARK_NODE_ITEM) {
		item = node_new(b, CMARK_NODE_ITEM);
		cmark_node_append_child(e->node, item);
		if (push(b, "li", EL_ITEM, R_BLOCK, item) == NULL) {
			cmark_node_append_child(b->trash, n);
			return;
		}
		e = &b->st[b->n - 1];
	}
	if (!cmark_node_append_child(e->node, n))
		cmark_node_append_child(b->trash, n);
}

static void
ensure_para(struct hb *b)
{
	cmark_node	*p;

	if (b->para != NULL)
		return;
	p = node_new(b, CMARK_NODE_PARAGRAPH);
	add_block(b, p);
	b->para = p;
}

/* The node the next inline goes after, in t (or before the anchor). */
static cmark_node *
last_inline(const struct hb *b, cmark_node *t)
{
	return t != NULL ? cmark_node_last_child(t) :
	    cmark_node_previous(b->anchor);
}

/* Place a new inline node, with the break or space due before it. */
static void
add_inline(struct hb *b, cmark_node *n)
{
	cmark_node	*t, *last;

	t = inline_target(b);
	if (t == NULL && b->block) {
		ensure_para(b);
		t = b->para;
	}
	last = last_inline(b, t);
	if (b->brk) {
		if (last != NULL && !is_break(last))
			put(b, t, node_new(b, CMARK_NODE_LINEBREAK));
	} else if (b->space) {
		if (last != NULL && !is_break(last) && !ends_space(last))
			put(b, t, text_new(b, " ", 1));
	}
	b->brk = b->space = 0;
	put(b, t, n);
}

static void
add_text(struct hb *b, const char *s)
{
	add_inline(b, text_new(b, s, strlen(s)));
}

/* Does the run stay on lines (a paragraph, a table cell)? */
static int
line_mode(const struct hb *b)
{
	return !b->block || b->ncells > 0;
}

/* A block-level element starts or ends. */
static void
boundary(struct hb *b, enum el kind)
{
	if (line_mode(b) || kind == EL_LINE || kind == EL_LABEL)
		b->brk = 1;
	else
		close_para(b);
}

/* Text: white space collapsed, as a browser shows it. */
static void
text(struct hb *b, const char *s, size_t len)
{
	struct buf	*t = &b->tmp;
	cmark_node	*n;
	size_t		 i;
	int		 sp = 0, lead = 0;

	if (b->nskip > 0 || b->nfb > 0)
		return;
	if (b->collect == EL_PRE) {
		buf_add(&b->text, s, len);
		return;
	}
	buf_truncate(t, 0);
	for (i = 0; i < len; i++) {
		if (html_space(s[i])) {
			sp = 1;
			if (t->len == 0)
				lead = 1;
			continue;
		}
		if (sp && t->len > 0)
			buf_addc(t, ' ');
		sp = 0;
		buf_addc(t, s[i]);
	}
	if (b->collect == EL_CODE) {
		if ((lead || sp) && b->text.len > 0)
			buf_addc(&b->text, ' ');
		buf_add(&b->text, t->data, t->len);
		return;
	}
	if (t->len == 0) {
		if (lead)
			b->space = 1;
		return;
	}
	if (lead)
		b->space = 1;
	buf_add(t, "", 0);
	n = node_new(b, CMARK_NODE_TEXT);
	cmark_node_set_literal(n, t->data);
	add_inline(b, n);
	b->space = sp;
}

/* The <pre> or <code> collected so far, as a node. */
static void
end_collect(struct hb *b)
{
	cmark_node	*n;
	const char	*s;
	size_t		 len;
	int		 kind = b->collect;

	if (kind == 0)
		return;
	b->collect = 0;
	s = b->text.data != NULL ? b->text.data : "";
	len = b->text.len;
	if (kind == EL_PRE && !line_mode(b)) {
		/* A newline right after <pre> is not content (HTML5). */
		if (len > 0 && s[0] == '\n')
			s++, len--;
		buf_truncate(&b->tmp, 0);
		buf_add(&b->tmp, s, len);
		if (len > 0 && s[len - 1] != '\n')
			buf_addc(&b->tmp, '\n');
		buf_add(&b->tmp, "", 0);
		n = node_new(b, CMARK_NODE_CODE_BLOCK);
		cmark_node_set_literal(n, b->tmp.data);
		cmark_node_set_fenced(n, 1, 3, 0, '`');
		cmark_node_set_fence_info(n, b->info ? b->info : "");
		add_block(b, n);
	} else if (len > 0) {
		buf_add(&b->text, "", 0);
		n = node_new(b, CMARK_NODE_CODE);
		cmark_node_set_literal(n, b->text.data);
		add_inline(b, n);
	}
	buf_truncate(&b->text, 0);
	free(b->info);
	b->info = NULL;
}

/* "language-go" or "lang-go" in a class list: "go". */
static void
code_language(struct hb *b, const char *class)
{
	const char	*p = class;
	size_t		 n;

	if (class == NULL || b->info != NULL)
		return;
	while (*p != '\0') {
		while (html_space(*p))
			p++;
		n = strcspn(p, " \t\n\r\f");
		if (n > 9 && strncmp(p, "language-", 9) == 0) {
			b->info = xstrndup(p + 9, n - 9);
			return;
		}
		if (n > 5 && strncmp(p, "lang-", 5) == 0) {
			b->info = xstrndup(p + 5, n - 5);
			return;
		}
		p += n;
	}
}

/* The first URL of a srcset ("a.jpg 1x, b.jpg 2x"), in b->tmp. */
static const char *
srcset_first(struct hb *b, const char *v)
{
	size_t	 n;

	while (html_space(*v))
		v++;
	n = strcspn(v, " \t\n\r\f,");
	buf_truncate(&b->tmp, 0);
	buf_add(&b->tmp, v, n);
	buf_add(&b->tmp, "", 0);
	return b->tmp.data;
}

/* The host of an absolute URL, for a label; "" when it has none. */
static void
host_of(const char *url, char *out, size_t size)
{
	const char	*h = strstr(url, "://");
	size_t		 n;

	out[0] = '\0';
	if (h == NULL)
		return;
	h += 3;
	n = strcspn(h, "/?#:");
	if (n >= size)
		n = size - 1;
	memcpy(out, h, n);
	out[n] = '\0';
}

/*
 * An embedded thing (img, iframe, source, embed, object, video, audio):
 * an IMAGE or LINK node where inlines go.
 */
static void
media(struct hb *b, const struct html_lexer *lx, enum el kind)
{
	const char	*url = NULL, *label = NULL, *v;
	char		*u, host[128], *made = NULL;
	cmark_node	*n;
	int		 image;

	switch (kind) {
	case EL_IMG:
		url = html_lex_attr(lx, "src");
		/* Lazy loading puts the real one aside, a placeholder in src. */
		if ((v = html_lex_attr(lx, "data-src")) != NULL && *v != '\0' &&
		    (url == NULL || *url == '\0' ||
		    strncasecmp(url, "data:", 5) == 0))
			url = v;
		if ((url == NULL || *url == '\0') &&
		    (v = html_lex_attr(lx, "srcset")) != NULL)
			url = srcset_first(b, v);
		label = html_lex_attr(lx, "alt");
		if (label == NULL || *label == '\0')
			label = html_lex_attr(lx, "title");
		break;
	case EL_SOURCE:
		url = html_lex_attr(lx, "src");
		if ((url == NULL || *url == '\0') &&
		    (v = html_lex_attr(lx, "srcset")) != NULL)
			url = srcset_first(b, v);
		label = b->fblabel;
		break;
	case EL_EMBED:
	case EL_IFRAME:
		url = html_lex_attr(lx, "src");
		label = html_lex_attr(lx, "title");
		if (label == NULL || *label == '\0')
			label = html_lex_attr(lx, "aria-label");
		if (label == NULL || *label == '\0')
			label = b->fblabel;
		break;
	case EL_FALLBACK:	/* video, audio: src; object: data */
		url = html_lex_attr(lx, strcmp(lx->name, "object") == 0 ?
		    "data" : "src");
		label = b->fblabel;
		break;
	default:
		return;
	}
	if (url == NULL || *url == '\0' || strncasecmp(url, "data:", 5) == 0 ||
	    strncasecmp(url, "javascript:", 11) == 0) {
		/* A <video> without src has its <source>s: not lost. */
		if (kind != EL_FALLBACK)
			note(b, HTML_DROPPED, lx->name);
		return;
	}
	u = html_embed_url(url);
	if (b->last_media != NULL && strcmp(b->last_media, u) == 0) {
		free(u);		/* <object data=x><embed src=x> */
		return;
	}
	free(b->last_media);
	b->last_media = xstrdup(u);
	if (label != NULL && *label == '\0')
		label = NULL;
	if (label == NULL && kind == EL_IFRAME) {
		host_of(u, host, sizeof(host));
		label = made = xasprintf("Embedded: %s", *host ? host : u);
	}
	/* Unlabelled files are IMAGEs: the renderers show the file name. */
	image = kind == EL_IMG || (b->nfb > 0 && b->fbkind == 'p') ||
	    label == NULL;
	n = node_new(b, image ? CMARK_NODE_IMAGE : CMARK_NODE_LINK);
	cmark_node_set_url(n, u);
	note(b, HTML_LINKED, lx->name);
	if (label != NULL)
		cmark_node_append_child(n, text_new(b, label, strlen(label)));
	/* Two embedded things side by side are two words. */
	b->space = 1;
	add_inline(b, n);
	b->space = 1;
	if (kind == EL_IMG && b->figure && label == NULL)
		b->fig_img = n;
	if (kind == EL_IMG && b->nfb > 0 && b->fbkind == 'p')
		b->pic_img = 1;
	free(made);
	free(u);
}

/* Pop up to (not including) the innermost entry with a role in mask. */
static struct hb_el *
pop_to_role(struct hb *b, unsigned mask)
{
	while (b->n > 0 && !(mask & (1u << b->st[b->n - 1].role)))
		pop(b);
	return b->n > 0 ? &b->st[b->n - 1] : NULL;
}

static int
has_role(const struct hb *b, enum role role)
{
	size_t	 i;

	for (i = b->n; i > 0; i--)
		if (b->st[i - 1].role == role)
			return 1;
	return 0;
}

static void
start_table_part(struct hb *b, const struct html_lexer *lx, enum el kind)
{
	struct hb_el	*e;
	cmark_node	*n, *row;

	switch (kind) {
	case EL_TABLE:
		if (line_mode(b)) {	/* in a cell or a paragraph: flat */
			b->brk = 1;
			if (push(b, lx->name, kind, R_NONE, NULL) != NULL)
				b->nflat++;
			return;
		}
		close_para(b);
		n = node_new(b, CMARK_NODE_CUSTOM_BLOCK);
		cmark_node_set_user_data(n, (void *)&mark_table);
		add_block(b, n);
		if (push(b, lx->name, kind, R_TABLE, n) == NULL)
			drop(b, n);
		return;
	case EL_CAPTION:
		e = block_el(b);
		if (e == NULL || e->role != R_TABLE || line_mode(b)) {
			boundary(b, EL_LINE);
			push(b, lx->name, EL_LINE, R_NONE, NULL);
			return;
		}
		n = node_new(b, CMARK_NODE_PARAGRAPH);
		if (cmark_node_parent(e->node) != NULL)
			cmark_node_insert_before(e->node, n);
		else
			cmark_node_append_child(b->trash, n);
		push(b, lx->name, kind, R_INLINE, n);
		return;
	case EL_TSECTION:
		return;
	case EL_ROW:
	case EL_CELL:
		if (!has_role(b, R_TABLE) || b->nflat > 0) {
			/* No table: a line; a table in a cell: words. */
			if (kind == EL_CELL && b->nflat > 0)
				b->space = 1;
			else
				b->brk = 1;
			push(b, lx->name, EL_INLINE, R_NONE, NULL);
			return;
		}
		e = pop_to_role(b, kind == EL_ROW ? 1u << R_TABLE :
		    (1u << R_TABLE) | (1u << R_ROW));
		if (e == NULL)
			return;
		if (kind == EL_ROW || e->role == R_TABLE) {
			row = node_new(b, CMARK_NODE_CUSTOM_BLOCK);
			cmark_node_set_user_data(row, (void *)&mark_row);
			cmark_node_append_child(e->node, row);
			if ((e = push(b, "tr", EL_ROW, R_ROW, row)) == NULL)
				return;
			if (kind == EL_ROW)
				return;
		}
		n = node_new(b, CMARK_NODE_CUSTOM_INLINE);
		cmark_node_set_user_data(n, (void *)&mark_cell);
		cmark_node_append_child(e->node, n);
		e->n++;
		if (strcmp(lx->name, "th") == 0)
			e->nth++;
		push(b, lx->name, kind, R_CELL, n);
		b->space = b->brk = 0;
		return;
	default:
		return;
	}
}

static void
start_tag(struct hb *b, const struct html_lexer *lx)
{
	const char	*label, *v;
	cmark_node	*n;
	enum el		 kind;
	long		 start;
	size_t		 i;

	kind = html_element_kind(lx, &label);
	if (b->nskip > 0) {
		if (strcmp(lx->name, b->skip) == 0 && !lx->selfclose)
			b->nskip++;
		return;
	}
	if (b->collect != 0) {
		if (kind == EL_BR)
			buf_addc(&b->text, b->collect == EL_PRE ? '\n' : ' ');
		else if (b->collect == EL_PRE && kind == EL_CODE)
			code_language(b, html_lex_attr(lx, "class"));
		return;
	}
	if (b->nfb > 0) {
		if (strcmp(lx->name, b->fb) == 0 && !lx->selfclose)
			b->nfb++;
		else if (kind == EL_SOURCE && b->fbkind == 'p') {
			/* The same picture in other sizes: one is enough. */
			v = html_lex_attr(lx, "srcset");
			v = v != NULL ? srcset_first(b, v) :
			    html_lex_attr(lx, "src");
			if (b->pic_src == NULL && v != NULL && *v != '\0')
				b->pic_src = xstrdup(v);
		} else if (kind == EL_IMG || kind == EL_SOURCE ||
		    kind == EL_EMBED)
			media(b, lx, kind);
		return;
	}
	switch (kind) {
	case EL_SKIP:
		note(b, HTML_DROPPED, lx->name);
		if (!lx->selfclose) {
			memcpy(b->skip, lx->name, sizeof(b->skip));
			b->nskip = 1;
		}
		return;
	case EL_IGNORE:
		if (strcmp(lx->name, "wbr") != 0)	/* shows nothing */
			note(b, HTML_DROPPED, lx->name);
		return;
	case EL_BR:
		if (line_mode(b) || b->para != NULL || inline_target(b))
			add_inline(b, node_new(b, CMARK_NODE_LINEBREAK));
		return;
	case EL_HR:
		if (line_mode(b))
			b->brk = 1;
		else
			add_block(b, node_new(b, CMARK_NODE_THEMATIC_BREAK));
		return;
	case EL_IMG:
	case EL_SOURCE:
	case EL_EMBED:
		media(b, lx, kind);
		return;
	case EL_IFRAME:
		media(b, lx, kind);
		if (!lx->selfclose) {
			memcpy(b->skip, lx->name, sizeof(b->skip));
			b->nskip = 1;
		}
		return;
	case EL_FALLBACK:
		free(b->fblabel);
		b->fblabel = NULL;
		free(b->pic_src);
		b->pic_src = NULL;
		b->pic_img = 0;
		b->fbkind = lx->name[0];
		if ((v = html_lex_attr(lx, "title")) != NULL && *v != '\0')
			b->fblabel = xstrdup(v);
		else if ((v = html_lex_attr(lx, "aria-label")) != NULL &&
		    *v != '\0')
			b->fblabel = xstrdup(v);
		else if (b->fbkind == 'v')
			b->fblabel = xstrdup("Video");
		else if (b->fbkind == 'a')
			b->fblabel = xstrdup("Audio");
		media(b, lx, kind);
		if (!lx->selfclose) {
			memcpy(b->fb, lx->name, sizeof(b->fb));
			b->nfb = 1;
		}
		return;
	case EL_PRE:
	case EL_CODE:
		if (kind == EL_PRE)
			boundary(b, EL_PARA);
		b->collect = kind;
		memcpy(b->cname, lx->name, sizeof(b->cname));
		buf_truncate(&b->text, 0);
		code_language(b, html_lex_attr(lx, "class"));
		return;
	case EL_TABLE:
	case EL_CAPTION:
	case EL_TSECTION:
	case EL_ROW:
	case EL_CELL:
		if (kind == EL_TABLE)
			note(b, HTML_APPROXIMATED, lx->name);
		if (!lx->selfclose)
			start_table_part(b, lx, kind);
		return;
	default:
		break;
	}
	if (b->notes != NULL) {
		if (kind == EL_LABEL || strcmp(lx->name, "details") == 0)
			note(b, HTML_APPROXIMATED, lx->name);
		else if (!html_known_element(lx->name))
			note(b, HTML_DROPPED, lx->name);
	}
	if (lx->selfclose)
		return;
	switch (kind) {
	case EL_A:
		/* An <a> inside an <a> closes the first one (HTML5). */
		for (i = b->n; i > 0 && b->st[i - 1].role <= R_INLINE; i--)
			if (b->st[i - 1].kind == EL_A &&
			    b->st[i - 1].node != NULL) {
				while (b->n >= i)
					pop(b);
				break;
			}
		v = html_lex_attr(lx, "href");
		if (v == NULL || *v == '\0' || url_dangerous(v)) {
			push(b, lx->name, kind, R_NONE, NULL);
			return;
		}
		n = node_new(b, CMARK_NODE_LINK);
		cmark_node_set_url(n, v);
		note(b, HTML_LINKED, lx->name);
		if ((v = html_lex_attr(lx, "title")) != NULL)
			cmark_node_set_title(n, v);
		add_inline(b, n);
		if (push(b, lx->name, kind, R_INLINE, n) == NULL)
			return;
		return;
	case EL_Q:
		add_text(b, "\xe2\x80\x9c");
		push(b, lx->name, kind, R_NONE, NULL);
		return;
	case EL_LINE:
	case EL_LABEL:
		boundary(b, kind);
		push(b, lx->name, kind, R_NONE, NULL);
		if (label != NULL) {
			buf_truncate(&b->text, 0);
			buf_addstr(&b->text, label);
			buf_addstr(&b->text, ": ");
			add_inline(b, text_new(b, b->text.data, b->text.len));
			buf_truncate(&b->text, 0);
		}
		return;
	case EL_PARA:
		boundary(b, kind);
		if (strcmp(lx->name, "figure") == 0) {
			b->figure = 1;
			b->fig_img = NULL;
		}
		push(b, lx->name, kind, R_NONE, NULL);
		return;
	case EL_FIGCAPTION:
		if (b->fig_img != NULL && cmark_node_first_child(b->fig_img) ==
		    NULL) {
			/* The caption labels the image that had no alt. */
			push(b, lx->name, kind, R_INLINE, b->fig_img);
			b->fig_img = NULL;
			return;
		}
		boundary(b, EL_PARA);
		push(b, lx->name, kind, R_NONE, NULL);
		return;
	case EL_HEADING:
		if (line_mode(b)) {
			b->brk = 1;
			push(b, lx->name, kind, R_NONE, NULL);
			return;
		}
		close_para(b);
		n = node_new(b, CMARK_NODE_HEADING);
		cmark_node_set_heading_level(n, lx->name[1] - '0');
		add_block(b, n);
		if (push(b, lx->name, kind, R_LEAF, n) != NULL)
			b->para = n;
		return;
	case EL_QUOTE:
	case EL_LIST:
		if (line_mode(b)) {
			b->brk = 1;
			push(b, lx->name, kind, R_NONE, NULL);
			return;
		}
		close_para(b);
		n = node_new(b, kind == EL_QUOTE ? CMARK_NODE_BLOCK_QUOTE :
		    CMARK_NODE_LIST);
		if (kind == EL_LIST) {
			cmark_node_set_list_tight(n, 1);
			if (strcmp(lx->name, "ol") == 0) {
				cmark_node_set_list_type(n,
				    CMARK_ORDERED_LIST);
				cmark_node_set_list_delim(n,
				    CMARK_PERIOD_DELIM);
				v = html_lex_attr(lx, "start");
				start = v != NULL ? strtol(v, NULL, 10) : 1;
				cmark_node_set_list_start(n, start < 0 ||
				    start > 999999999 ? 1 : (int)start);
			}
		}
		add_block(b, n);
		if (push(b, lx->name, kind, R_BLOCK, n) == NULL)
			drop(b, n);
		return;
	case EL_ITEM:
		if (line_mode(b)) {
			b->brk = 1;
			push(b, lx->name, kind, R_NONE, NULL);
			add_text(b, "\xe2\x80\xa2 ");
			return;
		}
		close_para(b);
		/* An open item ends where the next one starts. */
		if (b->n > 0 && b->st[b->n - 1].kind == EL_ITEM &&
		    b->st[b->n - 1].role == R_BLOCK)
			pop(b);
		if (block_el(b) == NULL || cmark_node_get_type(
		    block_el(b)->node) != CMARK_NODE_LIST) {
			n = node_new(b, CMARK_NODE_LIST);
			cmark_node_set_list_tight(n, 1);
			add_block(b, n);
			if (push(b, "ul", EL_LIST, R_BLOCK, n) == NULL) {
				drop(b, n);
				return;
			}
		}
		n = node_new(b, CMARK_NODE_ITEM);
		cmark_node_append_child(block_el(b)->node, n);
		push(b, lx->name, kind, R_BLOCK, n);
		return;
	default:		/* EL_INLINE */
		push(b, lx->name, kind, R_NONE, NULL);
		return;
	}
}

static void
end_tag(struct hb *b, const struct html_lexer *lx)
{
	const char	*label;
	struct hb_el	*e;
	cmark_node	*n;
	enum el		 kind;
	size_t		 i;
	int		 table;

	if (b->nskip > 0) {
		if (strcmp(lx->name, b->skip) == 0)
			b->nskip--;
		return;
	}
	if (b->collect != 0) {
		if (strcmp(lx->name, b->cname) == 0)
			end_collect(b);
		return;
	}
	if (b->nfb > 0) {
		if (strcmp(lx->name, b->fb) == 0 && --b->nfb == 0) {
			free(b->fblabel);
			b->fblabel = NULL;
			if (b->pic_src != NULL && !b->pic_img) {
				n = node_new(b, CMARK_NODE_IMAGE);
				cmark_node_set_url(n, b->pic_src);
				note(b, HTML_LINKED, lx->name);
				b->space = 1;
				add_inline(b, n);
			}
			free(b->pic_src);
			b->pic_src = NULL;
		}
		return;
	}
	kind = html_element_kind(lx, &label);
	table = kind == EL_TABLE || kind == EL_ROW || kind == EL_CELL ||
	    kind == EL_CAPTION || kind == EL_TSECTION;
	/* The innermost open one; a table part is a wall to others. */
	for (i = b->n; i > 0; i--) {
		e = &b->st[i - 1];
		if (strcmp(e->name, lx->name) == 0)
			break;
		if (!table && e->role >= R_TABLE)
			return;
	}
	if (kind == EL_TSECTION)
		return;
	if (i == 0) {
		/* Not open: a stray </p> or </div> still ends a line. */
		if (kind == EL_LINE || kind == EL_PARA || kind == EL_LABEL ||
		    kind == EL_HEADING || kind == EL_FIGCAPTION)
			boundary(b, kind);
		return;
	}
	e = &b->st[i - 1];
	kind = (enum el)e->kind;
	if (e->role == R_BLOCK || e->role == R_LEAF || e->role == R_TABLE)
		close_para(b);
	while (b->n >= i && b->n > 0) {
		kind = (enum el)b->st[b->n - 1].kind;
		pop(b);
	}
	switch (kind) {
	case EL_Q:
		add_text(b, "\xe2\x80\x9d");
		break;
	case EL_LINE:
	case EL_LABEL:
	case EL_PARA:
	case EL_ITEM:
	case EL_QUOTE:
	case EL_LIST:
	case EL_HEADING:
	case EL_CAPTION:
	case EL_TABLE:
		boundary(b, kind == EL_LABEL ? EL_LINE : kind);
		if (strcmp(lx->name, "figure") == 0) {
			b->figure = 0;
			b->fig_img = NULL;
		}
		break;
	case EL_FIGCAPTION:
		boundary(b, EL_PARA);
		break;
	case EL_CELL:
		b->space = 1;
		break;
	default:
		break;
	}
}

static void
read_html(struct hb *b, const char *s)
{
	struct html_lexer	 lx;

	html_lex_init(&lx, s, s != NULL ? strlen(s) : 0);
	b->at = b->anchor;
	b->lit = s;
	b->seen = b->seen_nl = 0;
	b->seen_lines = 0;
	for (;;) {
		b->tokpos = lx.pos;
		switch (html_lex_next(&lx)) {
		case HTML_TOK_EOF:
			html_lex_free(&lx);
			return;
		case HTML_TOK_TEXT:
			text(b, lx.text, lx.textlen);
			break;
		case HTML_TOK_START:
			start_tag(b, &lx);
			break;
		case HTML_TOK_END:
			end_tag(b, &lx);
			break;
		case HTML_TOK_COMMENT:
			break;
		}
	}
}

/*
 * A Markdown block after HTML that left an element open around it
 * (<blockquote>, blank line, Markdown, blank line, </blockquote>).
 */
static void
place_block(struct hb *b, cmark_node *n)
{
	struct hb_el	*e;
	cmark_node	*c, *next, *item;
	cmark_node_type	 t = cmark_node_get_type(n);

	close_para(b);
	/*
	 * Indented lines after a blank line inside an open element are
	 * the element's content to a browser (and to the generators that
	 * read such archives), not an indented code block: HTML.
	 */
	if (b->n > 0 && t == CMARK_NODE_CODE_BLOCK &&
	    !cmark_node_get_fenced(n, &(int){ 0 }, &(int){ 0 },
	    &(char){ 0 })) {
		b->anchor = n;
		read_html(b, cmark_node_get_literal(n));
		end_collect(b);
		b->nskip = b->nfb = 0;
		close_para(b);
		drop(b, n);
		return;
	}
	if ((e = block_el(b)) == NULL)
		return;
	if (e->role == R_CELL) {
		/* A paragraph in a cell: its text joins the cell. */
		if (t != CMARK_NODE_PARAGRAPH && t != CMARK_NODE_HEADING)
			return;
		if (cmark_node_first_child(e->node) != NULL)
			cmark_node_append_child(e->node, text_new(b, " ", 1));
		for (c = cmark_node_first_child(n); c != NULL; c = next) {
			next = cmark_node_next(c);
			cmark_node_append_child(e->node, c);
		}
		drop(b, n);
		return;
	}
	if (e->role != R_BLOCK)
		return;
	if (cmark_node_get_type(e->node) == CMARK_NODE_LIST &&
	    t != CMARK_NODE_ITEM) {
		item = node_new(b, CMARK_NODE_ITEM);
		cmark_node_append_child(e->node, item);
		if (push(b, "li", EL_ITEM, R_BLOCK, item) == NULL)
			return;
		e = &b->st[b->n - 1];
	}
	cmark_node_append_child(e->node, n);	/* refused: stays put */
}

/* An inline of the paragraph among the HTML fragments. */
static void
place_inline(struct hb *b, cmark_node *n)
{
	cmark_node_type	 t = cmark_node_get_type(n);
	cmark_node	*target, *last;
	const char	*s;

	if (b->nskip > 0 || b->nfb > 0) {
		drop(b, n);
		return;
	}
	if (b->collect != 0) {
		if (t == CMARK_NODE_TEXT || t == CMARK_NODE_CODE) {
			s = cmark_node_get_literal(n);
			buf_addstr(&b->text, s != NULL ? s : "");
			drop(b, n);
			return;
		}
		if (t == CMARK_NODE_SOFTBREAK || t == CMARK_NODE_LINEBREAK) {
			buf_addc(&b->text, b->collect == EL_PRE ? '\n' : ' ');
			drop(b, n);
			return;
		}
		end_collect(b);		/* markup inside <code>: as it is */
	}
	target = inline_target(b);
	if (b->brk) {
		b->brk = 0;
		last = last_inline(b, target);
		if (t == CMARK_NODE_SOFTBREAK) {
			/* The soft break after the element: a hard one. */
			put(b, target, node_new(b, CMARK_NODE_LINEBREAK));
			drop(b, n);
			return;
		}
		if (last != NULL && !is_break(last))
			put(b, target, node_new(b, CMARK_NODE_LINEBREAK));
	}
	b->space = 0;
	if (target != NULL)
		cmark_node_append_child(target, n);
}

static int
holds_blocks(cmark_node *n)
{
	switch (cmark_node_get_type(n)) {
	case CMARK_NODE_DOCUMENT:
	case CMARK_NODE_BLOCK_QUOTE:
	case CMARK_NODE_ITEM:
	case CMARK_NODE_FOOTNOTE_DEFINITION:
	case CMARK_NODE_CUSTOM_BLOCK:
		return 1;
	default:
		return 0;
	}
}

/* One run: the children of parent, left to right. */
static void
read_run(struct hb *b, cmark_node *parent)
{
	cmark_node	*n, *next;
	cmark_node_type	 t;

	b->parent = parent;
	b->block = holds_blocks(parent);
	for (n = cmark_node_first_child(parent); n != NULL; n = next) {
		next = cmark_node_next(n);
		b->anchor = n;
		t = cmark_node_get_type(n);
		if (t == CMARK_NODE_HTML_BLOCK || t == CMARK_NODE_HTML_INLINE) {
			read_html(b, cmark_node_get_literal(n));
			if (b->block) {
				/* Its text ends with it; containers stay. */
				end_collect(b);
				b->nskip = b->nfb = 0;
				close_para(b);
				b->figure = 0;
				b->fig_img = NULL;
			}
			drop(b, n);
		} else if (b->block)
			place_block(b, n);
		else
			place_inline(b, n);
	}
	if (b->collect != 0) {
		/* <code> never closed: what it holds ends the paragraph. */
		b->anchor = NULL;
		b->collect = 0;
		buf_add(&b->text, "", 0);
		if (b->text.len > 0) {
			n = node_new(b, CMARK_NODE_CODE);
			cmark_node_set_literal(n, b->text.data);
			if ((next = inline_target(b)) == NULL)
				next = parent;
			if (!cmark_node_append_child(next, n))
				cmark_node_append_child(b->trash, n);
		}
	}
	while (b->n > 0)
		pop(b);
	buf_truncate(&b->text, 0);
	b->ncells = b->nflat = 0;
	b->para = NULL;
	b->space = b->brk = b->figure = 0;
	b->nskip = b->nfb = 0;
	b->fig_img = NULL;
	free(b->fblabel);
	b->fblabel = NULL;
	free(b->pic_src);
	b->pic_src = NULL;
	free(b->info);
	b->info = NULL;
	free(b->last_media);
	b->last_media = NULL;
}

/*
 * HTML cmark left as text
 */
void
html_read(cmark_node *doc, cmark_mem *mem, struct html_notes *notes)
{
	struct hb		 b;
	cmark_iter		*it;
	cmark_node		*n, *p, *x, *h, **runs = NULL;
	cmark_node_type		 t;
	size_t			 nruns = 0, cap = 0, i;

	/* The runs to read: each parent of HTML, once, in document order. */
	it = cmark_iter_new(doc);
	while (cmark_iter_next(it) != CMARK_EVENT_DONE) {
		n = cmark_iter_get_node(it);
		t = cmark_node_get_type(n);
		if (t == CMARK_NODE_TEXT) {
			/* The iterator had the LINK next: from n again. */
			if (html_join_autolink(n))
				cmark_iter_reset(it, n, CMARK_EVENT_ENTER);
			/*
			 * The iterator has its next node already: the
			 * tags made here are read with their parent's run.
			 */
			for (x = n, h = NULL; x != NULL &&
			    cmark_node_get_type(x) == CMARK_NODE_TEXT &&
			    (h = html_text_tag(x, mem)) != NULL;
			    x = cmark_node_next(h))
				t = CMARK_NODE_HTML_INLINE;
		}
		if (t != CMARK_NODE_HTML_BLOCK && t != CMARK_NODE_HTML_INLINE)
			continue;
		p = cmark_node_parent(n);
		if (p == NULL || cmark_node_get_user_data(p) == &mark_run)
			continue;
		cmark_node_set_user_data(p, (void *)&mark_run);
		if (nruns == cap) {
			cap = cap ? cap * 2 : 16;
			runs = xreallocarray(runs, cap, sizeof(*runs));
		}
		runs[nruns++] = p;
	}
	cmark_iter_free(it);
	if (nruns == 0)
		return;
	memset(&b, 0, sizeof(b));
	b.mem = mem;
	b.notes = notes;
	b.trash = node_new(&b, CMARK_NODE_CUSTOM_BLOCK);
	buf_init(&b.text);
	buf_init(&b.tmp);
	for (i = 0; i < nruns; i++) {
		cmark_node_set_user_data(runs[i], NULL);
		read_run(&b, runs[i]);
	}
	cmark_node_free(b.trash);
	buf_free(&b.text);
	buf_free(&b.tmp);
	free(runs);
}

/*
 * HTML tables for the renderers
 */

enum html_part
html_table_part(cmark_node *n)
{
	const void	*m;

	switch (cmark_node_get_type(n)) {
	case CMARK_NODE_CUSTOM_BLOCK:
	case CMARK_NODE_CUSTOM_INLINE:
		break;
	default:
		return HTML_PART_NONE;
	}
	m = cmark_node_get_user_data(n);
	if (m == &mark_table)
		return HTML_PART_TABLE;
	if (m == &mark_row)
		return HTML_PART_ROW;
	if (m == &mark_hrow)
		return HTML_PART_HEADER_ROW;
	if (m == &mark_cell)
		return HTML_PART_CELL;
	return HTML_PART_NONE;
}

unsigned
html_table_columns(cmark_node *table)
{
	cmark_node	*row, *cell;
	unsigned	 n, max = 1;

	for (row = cmark_node_first_child(table); row != NULL;
	    row = cmark_node_next(row)) {
		n = 0;
		for (cell = cmark_node_first_child(row); cell != NULL;
		    cell = cmark_node_next(cell))
			n++;
		if (n > max)
			max = n;
	}
	return max;
}
