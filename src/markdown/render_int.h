/*
 * render_int.h -- the output engine shared by render_gmi.c and
 * render_gph.c; not for other modules (they use render.h).
 *
 * Included only by: render.c, render_gmi.c, render_gph.c, render_html.c,
 * summary.c
 *
 * The shape of cmark's internal render.h: a struct render holds the
 * caller's output buffer, a line prefix and the line state; a format
 * supplies outc() to escape one code point and a node callback that
 * render_walk() calls for every cmark_iter event.  Knows cmark-gfm and
 * struct buf; knows nothing of Gemini or Gopher.  The engine borrows
 * out; everything else in struct render is owned by it and released
 * by render_finish().
 */
#ifndef CAPSULED_RENDER_INT_H
#define CAPSULED_RENDER_INT_H

#include <stddef.h>
#include <stdint.h>

#include <cmark-gfm.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm-core-extensions.h>

#include "core/buf.h"
#include "markdown/html.h"

/*
 * The node types of the gfm table and strikethrough extensions.  They
 * are exported by libcmark-gfm-extensions but declared only in its
 * uninstalled table.h and strikethrough.h; their values are set when
 * the extensions register (render_parse() makes sure of that).
 */
extern cmark_node_type	 CMARK_NODE_TABLE, CMARK_NODE_TABLE_ROW,
			 CMARK_NODE_TABLE_CELL, CMARK_NODE_STRIKETHROUGH;

enum render_esc {
	RENDER_ESC_LITERAL,	/* our own markup ("=> ", "* "): as is */
	RENDER_ESC_TEXT,	/* prose: wrapped if width > 0, outc escapes */
	RENDER_ESC_PRE,		/* code and tables: never wrapped */
};

struct render;

/*
 * Write code point c (TEXT or PRE) to r->out, escaped for the format,
 * and advance r->column.  nextc is the byte after c in the same string,
 * or 0 when c ends it (then the next byte is unknown).  Where the
 * column is not 0, outc() must write a code point >= 0x20 other than
 * DEL and U+0080..U+009F as is (render_putcp()): render_out() copies
 * runs of those itself and calls outc() only for the rest (with
 * r->ascii, only runs of ASCII: render_putcp() spells the rest).
 */
typedef void	(*render_outc_fn)(struct render *, enum render_esc,
		    uint32_t c, unsigned char nextc);
/*
 * Called for every iterator event; leaf nodes get only ENTER.  Return 0
 * on ENTER to skip the node's children; its EXIT is then not delivered.
 */
typedef int	(*render_node_fn)(struct render *, cmark_node *,
		    cmark_event_type);

/* Where the output stands on its line: what a mark saves. */
struct render_pos {
	int		 need_nl;	/* 0, 1 = end the line, 2 = blank */
	size_t		 blank_len;	/* prefix bytes on the blank line */
	size_t		 column;	/* code points on this line */
	int		 begin_line;	/* not even the prefix written yet */
	size_t		 line_at;	/* offset of the current line in out */
	size_t		 content_at;	/* offset just past the prefix */
	size_t		 content_col;	/* column just past the prefix */
	size_t		 space_at;	/* 1 + offset of the last breakable
					   space on the line; 0 = none */
};

struct render {
	struct buf	*out;		/* borrowed: the caller's buffer */
	size_t		 start;		/* where this rendering began in out */
	struct buf	 prefix;	/* owned: written at each line start */
	size_t		 prefix_width;	/* code points in prefix */
	struct buf	 scratch;	/* owned: the tail moved by a wrap */
	struct render_pos pos;		/* the line being written */
	unsigned	 width;		/* wrap TEXT past it; 0 = never */
	int		 no_prefix;	/* content lines start at column 0 */
	int		 oneline;	/* line breaks become spaces */
	int		 ascii;		/* spell code points in ASCII */
	int		 diverted;	/* out is a table cell, not the page */
	struct render_table *table;	/* owned; the table being rendered */
	render_outc_fn	 outc;
	void		*fmt;		/* borrowed: the format's own state */
};

/* A position to come back to (gemtext drops link-only paragraphs). */
struct render_mark {
	size_t		 len;		/* of out */
	struct render_pos pos;
};

/* The page's state while a table cell is rendered into its own buf. */
struct render_divert {
	struct render_mark	 mark;
	struct buf		*out;
	size_t			 start;
	unsigned		 width;
	int			 no_prefix, oneline;
};

/*
 * Parse md with the options and extensions every renderer uses.  The
 * caller owns the tree and gives it back with render_free(), on the same
 * thread: it lives in that thread's arena (arena.h).  Never NULL.
 */
cmark_node	*render_parse(const char *md, size_t len);
void		 render_free(cmark_node *doc);
/* Is n an item of a gfm task list? */
int	 render_is_task_item(cmark_node *n);
/*
 * Is n a paragraph of bold text alone, used as a heading ("**What is
 * 18F?**" on a line of its own, at the top level)?  Both formats write
 * it as a level-3 heading: neither has bold, and a heading is the one
 * way a line stands out.  Not when it is long (over
 * RENDER_BOLD_HEADING_MAX bytes), ends a sentence ('.', ',', ';'),
 * holds a link, an image or a break, or sits in a list, a quote or a
 * note: that is emphasis, kept as its words.
 */
#define RENDER_BOLD_HEADING_MAX	120
int	 render_bold_heading(cmark_node *n);
/*
 * A list item's marks as both formats write them: the break before
 * item n (a line in a tight list, a blank line in a loose one, nothing
 * before the first), and appended to m an ordered list's number num
 * with its delimiter ("3. ", "3) ") or, with task, a task item's box
 * ("[x] ", "[ ] ").
 */
void	 render_item_sep(struct render *, cmark_node *n);
void	 render_item_number(struct buf *m, cmark_node *list, long num);
void	 render_item_box(struct buf *m, cmark_node *n);

void	 render_init(struct render *, struct buf *out, unsigned width,
	    render_outc_fn, void *fmt);
/* End the last line; no trailing blank line.  Frees r's own memory. */
void	 render_finish(struct render *);
void	 render_walk(struct render *, cmark_node *root, render_node_fn);

void	 render_cr(struct render *);		/* end the line */
/* n is a node of type t (NULL is no node). */
int	 render_is_type(cmark_node *n, cmark_node_type t);
/*
 * Space before block n, the same in both formats: a paragraph that opens
 * an item or a note goes on its marker line, blocks in a tight list item
 * are not set apart, the first block of a quote was set apart already.
 */
void	 render_block_sep(struct render *, cmark_node *n);
void	 render_blankline(struct render *);	/* and leave one blank */
/* Start the line now (flush pending line ends, write the prefix). */
void	 render_begin(struct render *);
/* Has nothing been written on the line yet? */
int	 render_line_empty(const struct render *);
void	 render_out(struct render *, const char *, size_t, enum render_esc);
void	 render_lit(struct render *, const char *);
/* Prose from the document. */
void	 render_text(struct render *, const char *);
/* A code span's literal between backticks, built in b (scratch). */
void	 render_code_span(struct render *, struct buf *b, const char *);
void	 render_break(struct render *);	/* hard break: cr or a space */
/*
 * Append code point c to out and count it: for outc().  With r->ascii,
 * c is spelled in ASCII (core/fold.h) and counted as what it
 * became.
 */
void	 render_putcp(struct render *, uint32_t c);

void	 render_prefix_add(struct render *, const char *, size_t);
void	 render_prefix_truncate(struct render *, size_t len);

/* Mark where a block begins (a line end must be pending). */
void	 render_mark(struct render *, struct render_mark *);
void	 render_rewind(struct render *, const struct render_mark *);
void	 render_divert(struct render *, struct buf *,
	    struct render_divert *);
void	 render_undivert(struct render *, const struct render_divert *);

/*
 * Tables: cells are rendered into their own buffers, and at the end the
 * grid is written as PRE lines padded to the column widths (in code
 * points) with the column alignments.  The format writes what goes
 * around it (gemtext's ``` lines).  A table is a gfm TABLE or one read
 * from HTML (html_table_part()); rows and cells likewise.
 */
void	 render_table_begin(struct render *, cmark_node *table);
void	 render_table_row(struct render *, cmark_node *row, int entering);
void	 render_table_cell(struct render *, int entering);
void	 render_table_end(struct render *);
/*
 * What a format does with a whole table (of gfm or read from HTML: the
 * format writes what goes around the grid) and with a list item (task:
 * one of a gfm task list).
 */
struct render_hooks {
	void	(*table)(struct render *, cmark_node *, int entering);
	void	(*item_enter)(struct render *, cmark_node *, int task);
	void	(*item_exit)(struct render *);
};
/*
 * The nodes both formats read alike, asked first by their node
 * callbacks: the extension nodes, whose types are known only at run
 * time (a table through h->table, its rows and cells, a strikethrough
 * whose markers go and text stays, a task item) and every list item
 * (h->item_enter, h->item_exit).  1 when n was one of them, and is done; else 0.  t is n's
 * type, which the caller has already (this runs for every node of every
 * page rendered).
 */
int	 render_common_node(struct render *, cmark_node *n, cmark_node_type t,
	    int entering, const struct render_hooks *h);

/* The file name in url (for an image without alt text), borrowed. */
const char *render_url_basename(const char *url, size_t *lenp);
/*
 * A label as one clean line: controls dropped, runs of white space
 * made one space, trimmed.  malloc'd.
 */
char	*render_clean_label(const char *, size_t);
/*
 * A one-line plain text rendering: render_plain_outc() drops controls,
 * render_plain_node() writes text and code as text, breaks as spaces,
 * and leaves footnote marks out (the first heading, a summary).
 */
void	 render_plain_outc(struct render *, enum render_esc, uint32_t c,
	    unsigned char nextc);
int	 render_plain_node(struct render *, cmark_node *, cmark_event_type);
/*
 * The text of node n and its children as one clean line (markup
 * dropped, entities decoded, render_clean_label()), malloc'd.
 */
char	*render_node_text(cmark_node *n);

#endif
