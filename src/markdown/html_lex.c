/*
 * html_lex.c -- a tolerant HTML tokenizer (html_lex.h).
 *
 * It follows the HTML5 tokenizer's states loosely: data, tag open, tag
 * name, attributes (quoted, unquoted), comments and bogus comments, and
 * raw text for the elements whose content is not markup (<script>,
 * <style>, <textarea>...).  It decodes character references as it goes
 * (core/entity.h) and never fails.  Borrows its input; owns the bytes
 * of the token it returns.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/entity.h"
#include "core/util.h"
#include "markdown/html_lex.h"

/*
 * Character references
 */

/*
 * charref = "&" name [";"] / "&#" 1*DIGIT [";"] / "&#" ("x"/"X") 1*HEXDIG [";"]
 * as entity_decode() reads it, with HTML5's rule for attribute values.
 */
size_t
html_charref(const char *s, size_t len, int in_attr, struct buf *out)
{
	char	 u[ENTITY_UTF8_MAX];
	size_t	 n, ulen;

	if ((n = entity_decode(s, len, u, &ulen)) == 0)
		return 0;
	if (in_attr && s[1] != '#' && s[n - 1] != ';' && n < len &&
	    (isalnum((unsigned char)s[n]) || s[n] == '='))
		return 0;
	buf_add(out, u, ulen);
	return n;
}

/*
 * The tokenizer
 */

/* Elements whose content is text up to their end tag. */
static const char *const raw_elements[] = {
	"script", "style", "xmp", "iframe", "noembed", "noframes",
	"textarea", "title",
};

void
html_lex_init(struct html_lexer *lx, const char *s, size_t len)
{
	memset(lx, 0, sizeof(*lx));
	lx->s = s != NULL ? s : "";
	lx->len = s != NULL ? len : 0;
	buf_init(&lx->buf);
}

void
html_lex_free(struct html_lexer *lx)
{
	buf_free(&lx->buf);
}

/* s[from..to) into lx->buf, references decoded (or not: raw). */
static void
decode(struct html_lexer *lx, size_t from, size_t to, int refs,
    int in_attr)
{
	const char	*s = lx->s;
	const char	*amp;
	size_t		 i = from, n;

	while (i < to) {
		if (!refs || (amp = memchr(s + i, '&', to - i)) == NULL) {
			buf_add(&lx->buf, s + i, to - i);
			return;
		}
		buf_add(&lx->buf, s + i, (size_t)(amp - (s + i)));
		i = (size_t)(amp - s);
		if ((n = html_charref(s + i, to - i, in_attr, &lx->buf)) == 0) {
			buf_addc(&lx->buf, '&');
			n = 1;
		}
		i += n;
	}
}

/* Does s[i] == '<' begin markup (a tag, end tag, comment)? */
static int
markup_at(const char *s, size_t len, size_t i)
{
	if (i + 1 >= len)
		return 0;
	if (isalpha((unsigned char)s[i + 1]) || s[i + 1] == '!' ||
	    s[i + 1] == '?')
		return 1;
	return s[i + 1] == '/' && i + 2 < len &&
	    isalpha((unsigned char)s[i + 2]);
}

static enum html_tok
text_token(struct html_lexer *lx, size_t to, int refs)
{
	decode(lx, lx->pos, to, refs, 0);
	buf_add(&lx->buf, "", 0);
	lx->pos = to;
	lx->type = HTML_TOK_TEXT;
	lx->text = lx->buf.data;
	lx->textlen = lx->buf.len;
	return lx->type;
}

/* Where the raw text of lx->raw ends: "</name" then space, '/', '>'. */
static size_t
raw_end(const struct html_lexer *lx)
{
	const char	*s = lx->s, *lt;
	size_t		 n = strlen(lx->raw), i = lx->pos;

	while ((lt = memchr(s + i, '<', lx->len - i)) != NULL) {
		i = (size_t)(lt - s);
		if (i + 2 + n <= lx->len && s[i + 1] == '/' &&
		    strncasecmp(s + i + 2, lx->raw, n) == 0 &&
		    (i + 2 + n == lx->len || html_space(s[i + 2 + n]) ||
		    s[i + 2 + n] == '/' || s[i + 2 + n] == '>'))
			return i;
		i++;
	}
	return lx->len;
}

/* Skip to just past the first occurrence of end (or to the end). */
static void
skip_past(struct html_lexer *lx, size_t from, const char *end)
{
	const char	*e;
	size_t		 n = strlen(end);

	e = from <= lx->len ? memmem(lx->s + from, lx->len - from, end, n) :
	    NULL;
	lx->pos = e != NULL ? (size_t)(e - lx->s) + n : lx->len;
}

/*
 * The attributes html.c and html_elem.c ask for: kept however many
 * others come before them (HTML_KEY_ATTRS slots, one for each).
 */
static int
key_attr(const char *name)
{
	static const char *const keys[] = { "src", "href", "alt", "title",
	    "srcset", "data-src", "data", "aria-label", "class", "start",
	    "name", "label" };
	size_t	 i;

	for (i = 0; i < nitems(keys); i++)
		if (strcmp(name, keys[i]) == 0)
			return 1;
	return 0;
}

static enum html_tok
tag_token(struct html_lexer *lx)
{
	const char	*s = lx->s;
	size_t		 len = lx->len, i = lx->pos + 1, n = 0, k, nstart;
	size_t		 vstart, vend, at;
	int		 closing, dup;
	char		 q;

	closing = s[i] == '/';
	i += (size_t)closing;
	for (; i < len && !html_space(s[i]) && s[i] != '/' && s[i] != '>'; i++)
		if (n < HTML_MAX_NAME - 1)
			lx->name[n++] = (char)tolower((unsigned char)s[i]);
	lx->name[n] = '\0';
	while (i < len) {
		while (i < len && (html_space(s[i]) || s[i] == '/')) {
			if (s[i] == '/' && i + 1 < len && s[i + 1] == '>')
				lx->selfclose = 1;
			i++;
		}
		if (i >= len || s[i] == '>')
			break;
		/* A name: an '=' first is part of it (HTML5). */
		nstart = i++;
		while (i < len && !html_space(s[i]) && s[i] != '/' &&
		    s[i] != '>' && s[i] != '=')
			i++;
		k = i;
		while (i < len && html_space(s[i]))
			i++;
		vstart = vend = 0;
		if (i < len && s[i] == '=') {
			i++;
			while (i < len && html_space(s[i]))
				i++;
			if (i < len && (s[i] == '"' || s[i] == '\'')) {
				q = s[i++];
				vstart = i;
				while (i < len && s[i] != q)
					i++;
				vend = i;
				if (i < len)
					i++;
			} else {
				vstart = i;
				while (i < len && !html_space(s[i]) &&
				    s[i] != '>')
					i++;
				vend = i;
			}
		}
		if (closing || lx->nattrs == HTML_MAX_ATTRS)
			continue;
		/* The first of two attributes with one name wins. */
		at = lx->buf.len;
		for (; nstart < k; nstart++)
			buf_addc(&lx->buf, tolower((unsigned char)s[nstart]));
		buf_addc(&lx->buf, '\0');
		dup = html_lex_attr(lx, lx->buf.data + at) != NULL;
		/* Past the first ones, only what the reader asks for. */
		if (lx->nattrs >= HTML_MAX_ATTRS - HTML_KEY_ATTRS &&
		    !key_attr(lx->buf.data + at))
			dup = 1;
		if (dup) {
			buf_truncate(&lx->buf, at);
			continue;
		}
		lx->attrs[lx->nattrs].name = at;
		lx->attrs[lx->nattrs].value = lx->buf.len;
		decode(lx, vstart, vend, 1, 1);
		buf_addc(&lx->buf, '\0');
		lx->nattrs++;
	}
	if (i >= len) {			/* cut off: dropped, as HTML5 does */
		lx->pos = len;
		lx->nattrs = 0;
		return lx->type = HTML_TOK_EOF;
	}
	lx->pos = i + 1;
	if (closing) {
		lx->selfclose = 0;
		return lx->type = HTML_TOK_END;
	}
	for (k = 0; k < nitems(raw_elements); k++)
		if (strcmp(lx->name, raw_elements[k]) == 0 && !lx->selfclose) {
			memcpy(lx->raw, lx->name, n + 1);
			lx->rcdata = strcmp(lx->name, "textarea") == 0 ||
			    strcmp(lx->name, "title") == 0;
		}
	return lx->type = HTML_TOK_START;
}

enum html_tok
html_lex_next(struct html_lexer *lx)
{
	const char	*s = lx->s, *lt;
	size_t		 i, end;

	buf_truncate(&lx->buf, 0);
	lx->name[0] = '\0';
	lx->selfclose = 0;
	lx->nattrs = 0;
	lx->text = "";
	lx->textlen = 0;
	while (lx->pos < lx->len) {
		if (lx->raw[0] != '\0') {
			end = raw_end(lx);
			lx->raw[0] = '\0';
			if (end > lx->pos)
				return text_token(lx, end, lx->rcdata);
			continue;
		}
		i = lx->pos;
		if (s[i] != '<' || !markup_at(s, lx->len, i)) {
			/* Text up to the next '<' that begins markup. */
			for (end = i + 1; end < lx->len; end++) {
				lt = memchr(s + end, '<', lx->len - end);
				if (lt == NULL) {
					end = lx->len;
					break;
				}
				end = (size_t)(lt - s);
				if (markup_at(s, lx->len, end))
					break;
			}
			return text_token(lx, end, 1);
		}
		if (s[i + 1] == '!' || s[i + 1] == '?') {
			if (lx->len - i >= 4 && memcmp(s + i, "<!--", 4) == 0)
				skip_past(lx, i + 2, "-->");
			else
				skip_past(lx, i + 1, ">");
			return lx->type = HTML_TOK_COMMENT;
		}
		return tag_token(lx);
	}
	return lx->type = HTML_TOK_EOF;
}

const char *
html_lex_attr(const struct html_lexer *lx, const char *name)
{
	size_t	 i;

	for (i = 0; i < lx->nattrs; i++)
		if (strcmp(lx->buf.data + lx->attrs[i].name, name) == 0)
			return lx->buf.data + lx->attrs[i].value;
	return NULL;
}

