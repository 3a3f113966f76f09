/*
 * html.h -- raw HTML in Markdown, read for what it means.
 *
 * Two parts.  A tolerant tokenizer in the shape of the HTML5 one
 * (html_lex_next()): start and end tags with their attributes, text
 * with character references decoded, comments; it never fails and
 * takes linear time.  And html_read(), which rewrites a parsed cmark
 * tree so that its HTML_BLOCK and HTML_INLINE nodes become the nodes
 * they mean: <a href> a LINK, <img> an IMAGE, <p> a PARAGRAPH,
 * <blockquote> a BLOCK_QUOTE, <pre> a CODE_BLOCK, and so on.  The
 * renderers then walk a tree of ordinary nodes, the way cmark's own
 * renderers do, and read HTML the same way in both formats.
 *
 * Why a tokenizer of our own, not libxml2's HTML parser or gumbo:
 * cmark hands inline HTML over in fragments ("<a href=x>" in one node,
 * the link text in the next ones, "</a>" in another), and an HTML block
 * may open an element that a later block closes around Markdown; a
 * tree builder wants a whole document and would close every element at
 * the end of each fragment.  A tokenizer yields the tags as they come
 * and lets html_read() build cmark nodes among cmark's own.  It is also
 * a few hundred lines with no new dependency, fuzzed with the rest.
 *
 * Knows cmark-gfm and HTML; knows nothing of gemtext, Gopher or files.
 * The lexer borrows its input and owns the token it returns (valid
 * until the next call); html_read() changes the tree it is given and
 * allocates new nodes with the tree's allocator.
 */
#ifndef CAPSULED_HTML_H
#define CAPSULED_HTML_H

#include <stddef.h>

#include <cmark-gfm.h>

#include "core/buf.h"

#define HTML_MAX_NAME	32	/* element names kept (lower case) */
#define HTML_MAX_ATTRS	32	/* attributes kept per tag */

enum html_tok {
	HTML_TOK_EOF,
	HTML_TOK_TEXT,		/* text, references decoded */
	HTML_TOK_START,		/* a start tag */
	HTML_TOK_END,		/* an end tag */
	HTML_TOK_COMMENT,	/* comment, doctype, <? ?>, CDATA */
};

struct html_lexer {
	const char	*s;		/* borrowed input */
	size_t		 len, pos;
	char		 raw[HTML_MAX_NAME]; /* in <script>... up to its end */
	int		 rcdata;	/* raw text with references decoded */
	struct buf	 buf;		/* owned: the token's bytes */

	/* The token just read. */
	enum html_tok	 type;
	char		 name[HTML_MAX_NAME]; /* tags: lower case, "" else */
	int		 selfclose;	/* "<br/>" */
	const char	*text;		/* TEXT: decoded, NUL-terminated */
	size_t		 textlen;
	size_t		 nattrs;
	struct {
		size_t	 name, value;	/* offsets in buf, NUL-terminated */
	}		 attrs[HTML_MAX_ATTRS];
};

void		 html_lex_init(struct html_lexer *, const char *, size_t);
/*
 * attr-name  = 1*( any but space "/" ">" "=" )
 * attr-value = DQUOTE *(any but DQUOTE) DQUOTE / "'" *(any but "'") "'"
 *            / 1*(any but space ">")
 * The next token.  Invalid markup is text ("a < b"); a tag cut off by
 * the end of the input is dropped, as HTML5 does.
 */
enum html_tok	 html_lex_next(struct html_lexer *);
/* An attribute of the current tag (lower-case name), decoded; or NULL. */
const char	*html_lex_attr(const struct html_lexer *, const char *name);
void		 html_lex_free(struct html_lexer *);

/*
 * Append the character reference at s[0] == '&' to out, decoded, and
 * return the bytes it takes; 0 when s starts none (then "&" is text).
 * in_attr: a name without ';' followed by a letter, digit or '=' is
 * not decoded (HTML5's rule for attribute values, which keeps
 * "?a=1&copy=2" whole).
 */
size_t		 html_charref(const char *s, size_t len, int in_attr,
		    struct buf *out);

/*
 * What html_read() made of an element that a reader does not get as
 * the writer wrote it, for capsuled --check --report.  Elements read
 * faithfully (p, em, ul, blockquote, pre...) are not noted.
 */
enum html_what {
	HTML_LINKED,		/* a, img, iframe, video...: a link */
	HTML_APPROXIMATED,	/* table, details, a label kept as "Ana: " */
	HTML_DROPPED,		/* script, style, svg, form fields, unknown
				   markup (its text stays), a media
				   element with no address */
};

struct html_note {
	unsigned	 line, col;	/* 1-based, in the Markdown given */
	enum html_what	 what;
	char		 name[HTML_MAX_NAME];	/* the element, lower case */
};

#define HTML_MAX_NOTES	1000	/* kept per body; the rest counted */

struct html_notes {
	struct html_note *v;		/* owned */
	size_t		 n;
	size_t		 nmore;		/* notes past HTML_MAX_NOTES */
};

/*
 * Rewrite doc's HTML nodes in place (see above); mem is the allocator
 * doc was parsed with.  Every HTML_BLOCK and HTML_INLINE node is gone
 * afterwards.  Linear in the size of the tree and of its HTML.  notes,
 * when not NULL, gets a note per element as described above (the
 * serving path passes NULL and pays nothing for them).
 */
void		 html_read(cmark_node *doc, cmark_mem *mem,
		    struct html_notes *notes);
void		 html_notes_free(struct html_notes *);

/*
 * An HTML <table> becomes CUSTOM_BLOCK (table) > CUSTOM_BLOCK (row) >
 * CUSTOM_INLINE (cell) nodes, since gfm's table nodes cannot be made
 * outside its parser; the renderers lay them out as they do gfm tables.
 */
enum html_part {
	HTML_PART_NONE,
	HTML_PART_TABLE,
	HTML_PART_ROW,
	HTML_PART_HEADER_ROW,	/* the first row, all <th> */
	HTML_PART_CELL,
};

enum html_part	 html_table_part(cmark_node *);
/* The most cells in a row of table (at least 1). */
unsigned	 html_table_columns(cmark_node *table);

/*
 * The address to link for an embedded thing: "//host/x" gets https:,
 * a YouTube or Vimeo player URL becomes the video's own page.  malloc'd.
 */
char		*html_embed_url(const char *url);

#endif
