/*
 * html_lex.h -- a tolerant HTML tokenizer in the shape of the HTML5 one.
 *
 * html_lex_next() yields start and end tags with their attributes, text
 * with character references decoded, and comments; it never fails and
 * takes linear time.  The tree builder (html.h) reads raw HTML in
 * Markdown with it; the fuzz and unit tests read it alone.  Knows HTML's
 * lexical syntax; nothing of cmark.  The lexer borrows its input and
 * owns the token it returns (valid until the next call).
 */
#ifndef CAPSULED_HTML_LEX_H
#define CAPSULED_HTML_LEX_H

#include <stddef.h>

#include "core/buf.h"

#define HTML_MAX_NAME	32	/* element names kept (lower case) */
#define HTML_MAX_ATTRS	32	/* attributes kept per tag: */
#define HTML_KEY_ATTRS	12	/* the last of them kept for the names the
				   reader asks for (src, href, alt...), so
				   that many others before them lose none */

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

/* HTML's white space: space, tab, LF, CR, FF. */
static inline int
html_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

#endif
