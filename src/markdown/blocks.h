/*
 * blocks.h -- Markdown's block structure, line by line, without a parse.
 *
 * The one classifier of Markdown lines in the tree: the quick passes
 * that must not pay for a cmark parse (scan.c's links, search's plain
 * text, template.c's constructs) feed it each line in order and learn
 * what CommonMark would make of it, as far as they need: a code fence
 * (CommonMark's rules: three or more backticks or tildes, a backtick
 * fence's info string without a backtick, closed by a run of the same
 * character at least as long with nothing after it), a line inside one,
 * indented code, a line of an HTML block (the seven start conditions and
 * their ends), a blank line, or anything else.  Quote markers are looked
 * through; list items only so far as their indented lines are no code.
 * blocks_refdef() recognises a link reference definition.
 * Knows Markdown's block syntax; nothing of files, posts or output.
 * Allocates nothing: a struct blocks lives on its caller's stack.
 */
#ifndef CAPSULED_BLOCKS_H
#define CAPSULED_BLOCKS_H

#include <stddef.h>

enum blocks_kind {
	BLOCKS_TEXT,		/* a paragraph, heading, list item, ... */
	BLOCKS_BLANK,		/* blank, outside code and HTML blocks */
	BLOCKS_FENCE,		/* a fence line, opening or closing */
	BLOCKS_CODE,		/* inside a fence, or indented code */
	BLOCKS_HTML,		/* a line of an HTML block */
};

/* The state between lines; zeroed by blocks_init(). */
struct blocks {
	char		 fence;		/* '`' or '~' while in a fence */
	size_t		 fence_len;	/* of its opening run */
	int		 fence_closes;	/* the last line closed the fence */
	int		 html_cond;	/* 1-7 while in an HTML block */
	int		 html_ends;	/* the last line ended the HTML block */
	int		 prev_blank;	/* the last line was blank */
	int		 prev_para;	/* ... was paragraph text */
	int		 icode;		/* ... was indented code */
	int		 list;		/* in a list: its indented lines are
					   no code */
	int		 open;		/* HTML containers left open (html.c
					   reads indented lines in them as
					   HTML, not code) */
	size_t		 text;		/* the last line's content: past its
					   indent and quote markers */
};

void	 blocks_init(struct blocks *);
/*
 * Classify the next line, line[0..len) without its LF (a CR before it
 * is a blank like any other).  Lines must come in order, every one.
 */
enum blocks_kind blocks_line(struct blocks *, const char *line, size_t len);
/*
 * refdef = "[" label "]:" ..., the label on one line, not blank, without
 * an unescaped bracket, at most 999 characters (CommonMark).  At p (the
 * line's content, e its end): a pointer past the ':', else NULL.
 */
const char *blocks_refdef(const char *p, const char *e);

#endif
