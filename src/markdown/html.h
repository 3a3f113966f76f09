/*
 * html.h -- raw HTML in Markdown, read for what it means.
 *
 * html_read() rewrites a parsed cmark tree so that its HTML_BLOCK and
 * HTML_INLINE nodes become the nodes they mean: <a href> a LINK, <img>
 * an IMAGE, <p> a PARAGRAPH, <blockquote> a BLOCK_QUOTE, <pre> a
 * CODE_BLOCK, and so on.  The renderers then walk a tree of ordinary
 * nodes, the way cmark's own renderers do, and read HTML the same way
 * in both formats.  It reads the HTML with the tokenizer of html_lex.h,
 * and links embedded things with html_embed.h's addresses (both
 * included here for this module's callers).
 *
 * Why a tokenizer of our own, not libxml2's HTML parser or gumbo:
 * cmark hands inline HTML over in fragments ("<a href=x>" in one node,
 * the link text in the next ones, "</a>" in another), and an HTML block
 * may open an element that a later block closes around Markdown; a
 * tree builder wants a whole document and would close every element at
 * the end of each fragment.  A tokenizer yields the tags as they come
 * and lets html_read() build cmark nodes among cmark's own.  It needs
 * no new dependency, and is fuzzed with the rest.
 *
 * Knows cmark-gfm and HTML; knows nothing of gemtext, Gopher or files.
 * html_read() changes the tree it is given and allocates new nodes with
 * the tree's allocator.
 */
#ifndef CAPSULED_HTML_H
#define CAPSULED_HTML_H

#include <stddef.h>

#include <cmark-gfm.h>

#include "core/buf.h"
#include "markdown/html_embed.h"
#include "markdown/html_lex.h"

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

#endif
