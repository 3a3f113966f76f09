/*
 * page.h -- the page model: a navigation page as a list of blocks.
 *
 * Navigation (home, archive, series, tags, feeds) is built once as
 * blocks by nav.c and written out by the emitter of a format: gemtext,
 * a Gopher menu, plain text, a Nex directory or HTML.  No navigation
 * page is written twice.  A struct page owns its blocks and their
 * strings, except BLOCK_MARKDOWN sources, which are
 * borrowed from the snapshot that the page was built from.
 */
#ifndef CAPSULED_PAGE_H
#define CAPSULED_PAGE_H

#include <stddef.h>

#include "core/buf.h"
#include "core/surface.h"
#include "markdown/render.h"

struct config_types;

enum block_type {
	BLOCK_HEADING,		/* level 1..3 */
	BLOCK_TEXT,		/* one paragraph */
	BLOCK_LINK,
	BLOCK_BLANK,
	BLOCK_MARKDOWN,		/* rendered by the emitter's renderer:
				   Markdown, or gemtext when gemtext */
	BLOCK_MDLINKS,		/* only the links of some Markdown (or
				   gemtext when gemtext) */
};

/* What a link points at: decides the Gopher item type. */
enum link_kind {
	LINK_MENU,		/* a navigation page: Gopher type 1 */
	LINK_DOCUMENT,		/* a post, page or feed: type 0 */
	LINK_FILE,		/* a static file: type by extension */
	LINK_EXTERNAL,		/* another server: h with URL: */
	LINK_SEARCH,		/* a search: type 7 */
	/*
	 * The search's own prompt, on a page only a surface that asks
	 * for input with a line (Gopher's type 7, Spartan's gemtext "=:")
	 * is shown; Gemini asks with a status (10) and never sees it.
	 */
	LINK_PROMPT,
	/*
	 * A post or a page: the document at url over Gemini; over Gopher
	 * its menu at url + "/" (type 1), whose first item is the text and
	 * the rest its links, so that every link of a text can be followed.
	 */
	LINK_TEXT,
};

struct block {
	enum block_type	 type;
	int		 level;		/* BLOCK_HEADING */
	enum link_kind	 kind;		/* BLOCK_LINK */
	char		*text;		/* owned: heading, paragraph, label */
	char		*url;		/* owned: "/posts/x" or absolute */
	char		 date[11];	/* BLOCK_LINK: "YYYY-MM-DD" or "" */
	const char	*md;		/* BLOCK_MARKDOWN, _MDLINKS: borrowed */
	size_t		 mdlen;
	int		 gemtext;	/* BLOCK_MARKDOWN, _MDLINKS: md is
					   gemtext */
};

struct page {
	struct block	*blocks;	/* owned */
	size_t		 n, cap;
	/*
	 * owned: the site path the page is served at ("/posts/x"), for a
	 * format that names the page's other addresses (HTML); or NULL.
	 */
	char		*self;
};

/*
 * The server's own typography in a block's text (nav.c's separators,
 * arrows and quotes): the emitters spell each mark as the protocol
 * reads best, the Unicode character on Gemini, ASCII on Gopher whatever
 * gopher_charset says (old terminals show "->", not "\xe2\x86\x92"),
 * while the writer's own text is left as written.  Control bytes, which
 * no title, tag or name keeps (frontmatter_oneline()).
 */
#define PAGE_DOT	"\x11"	/* U+00B7 "·", Gopher "-" */
#define PAGE_LARROW	"\x12"	/* U+2190 "<-" */
#define PAGE_RARROW	"\x13"	/* U+2192 "->" */
#define PAGE_LQUOTE	"\x14"	/* U+201C, Gopher '"' */
#define PAGE_RQUOTE	"\x15"	/* U+201D, Gopher '"' */

void	 page_init(struct page *);
void	 page_free(struct page *);
void	 page_heading(struct page *, int level, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
void	 page_text(struct page *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* date may be NULL; the label follows the date on the same line. */
void	 page_link(struct page *, enum link_kind, const char *url,
	    const char *date, const char *fmt, ...)
	    __attribute__((format(printf, 5, 6)));
void	 page_blank(struct page *);
/* The site path p is served at (page.self), copied. */
void	 page_self(struct page *p, const char *url);
/*
 * A body of source, borrowed: Markdown, or gemtext when gemtext (as
 * written on Gemini, as text on Gopher), rendered by the emitter.  In a
 * Gopher menu its links are also items after the text ("Link 1:
 * label"), numbered as in the text.
 */
void	 page_source(struct page *, const char *src, size_t len,
	    int gemtext);
/* Only the links of src, as link lines or items "Link n: label". */
void	 page_source_links(struct page *, const char *src, size_t len,
	    int gemtext);
/*
 * Is the site path url served as a file, its Gopher type by extension:
 * "/files/..." or a page bundle's "/posts/<slug>/<name>"?
 */
int	 page_file_path(const char *url);

/* Where links point and how to reach this server: set by the caller. */
struct page_target {
	enum format	 format;	/* of the output; its URL schemes */
	const char	*host;		/* public hostname */
	/*
	 * What every path of the site written out starts with: a user
	 * capsule's "/~name", or NULL.  Urls in blocks are paths within
	 * the site ("/posts/x"); it is added where they are written.
	 */
	const char	*base;
	int		 port;		/* public port of this protocol */
	unsigned	 width;		/* Gopher: display width, 70 */
	int		 ascii;		/* Gopher: spell text in ASCII */
	/* Item types of files: config_file_type()'s; NULL: built-in. */
	const struct config_types *types;
	struct render_opts ropts;	/* for BLOCK_MARKDOWN */
	/*
	 * HTML: the page's own addresses on the other surfaces (its
	 * <link rel="alternate"> and the line that names them), its
	 * language, and the site's feed; each NULL when there is none.
	 */
	const char	*alt_gemini;
	const char	*alt_gopher;
	const char	*lang;
	const char	*feed;
	/*
	 * What the feed's path starts with: the generated pages' base,
	 * which a static tree's page under a mount does not share (its
	 * base is NULL, the feed's "/gemlog").
	 */
	const char	*feed_base;
	/*
	 * A Gopher menu left without its closing "." (the lines a
	 * gophermap's "*" adds: site/listing.c).
	 */
	int		 open_menu;
};

/*
 * p as t->format writes it: a page (document: 0) or the text of a post
 * or page (1), which Gopher and Nex send as plain text rather than as a
 * menu (a Nex page is a directory: text lines and "=> url label" lines,
 * relative to it or absolute); Gopher's and Finger's texts with CRLF
 * line ends, Finger's without control characters.
 */
void	 page_emit(const struct page *p, const struct page_target *t,
	    int document, struct buf *out);

void	 page_emit_gemtext(const struct page *, const struct page_target *,
	    struct buf *out);
/* A complete menu, ending with ".\r\n". */
void	 page_emit_gophermap(const struct page *,
	    const struct page_target *, struct buf *out);
/* Plain text, LF line ends (page_emit() gives each surface its own). */
void	 page_emit_text(const struct page *, const struct page_target *,
	    struct buf *out);
/*
 * A whole HTML5 document (page_html.c): its title the first heading's,
 * one small stylesheet in it, no script; headings, paragraphs, lists of
 * links and forms for the blocks, the Markdown as render_html() makes
 * it.
 */
void	 page_emit_html(const struct page *, const struct page_target *,
	    struct buf *out);

#endif
