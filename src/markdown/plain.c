/*
 * plain.c -- Markdown to plain text, line by line, without a parse:
 * the words a reader sees, for the search index (content/search.c).
 *
 * A byte scan, not a cmark parse, cheap enough to run over every post
 * at each build; a word that comes out a little wrong (an unusual
 * nesting of emphasis) costs only a near miss in a search.  Knows the
 * common Markdown markers; nothing of posts or of the index.  Writes
 * only into the caller's buffer.
 */
#include <stddef.h>
#include <string.h>

#include "core/buf.h"
#include "markdown/plain.h"

struct plain {
	struct buf	*out;
	int		 space;		/* the last byte out is a space */
};

static void
pl_addc(struct plain *pl, int c)
{
	struct buf	*b = pl->out;

	if (c == ' ') {
		if (pl->space)
			return;
		pl->space = 1;
	} else
		pl->space = 0;
	if (b->len + 2 <= b->cap) {	/* no call per byte */
		b->data[b->len++] = (char)c;
		b->data[b->len] = '\0';
	} else
		buf_addc(b, c);
}

static int
word_byte(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c >= 0x80;
}

static int
md_punct(int c)
{
	return c > 0x20 && c < 0x7f && !word_byte(c);
}

/* "[label]: ..." at t: a link reference definition line. */
static int
refdef(const char *t, const char *e)
{
	const char	*p;

	if (t >= e || *t != '[')
		return 0;
	for (p = t + 1; p < e && *p != ']'; p++)
		;
	return p > t + 1 && p + 1 < e && p[1] == ':' &&
	    (p + 2 == e || p[2] == ' ' || p[2] == '\t');
}

/* A thematic break, a setext underline or a table separator row. */
static int
rule_line(const char *t, const char *e)
{
	size_t	 marks = 0;

	for (; t < e; t++) {
		if (*t == '-' || *t == '*' || *t == '_' || *t == '=')
			marks++;
		else if (*t != ' ' && *t != '\t' && *t != '|' && *t != ':')
			return 0;
	}
	return marks >= 3;
}

/* Inline Markdown of one line: the text, without its punctuation. */
static void
pl_inline(struct plain *pl, const char *t, const char *e)
{
	const char	*p, *q;
	int		 c, depth, url;

	for (p = t; p < e; p++) {
		c = (unsigned char)*p;
		switch (c) {
		case '\\':
			if (p + 1 < e && md_punct((unsigned char)p[1]))
				pl_addc(pl, (unsigned char)*++p);
			else
				pl_addc(pl, ' ');
			break;
		case '`':
			break;
		case '*':
		case '_':
		case '~':
			/* Inside a word ("snake_case") it is text. */
			if (p > t && p + 1 < e && word_byte((unsigned char)p[-1])
			    && word_byte((unsigned char)p[1]))
				pl_addc(pl, c);
			break;
		case '!':
			if (p + 1 < e && p[1] == '[')
				break;
			pl_addc(pl, c);
			break;
		case '[':
			break;
		case ']':
			if (p + 1 < e && p[1] == '(') {
				/* "](target "title")": none of it is text. */
				for (q = p + 2, depth = 1; q < e; q++) {
					if (*q == '(')
						depth++;
					else if (*q == ')' && --depth == 0)
						break;
				}
				p = q < e ? q : e - 1;
			} else if (p + 1 < e && p[1] == '[') {
				q = memchr(p + 2, ']', (size_t)(e - p - 2));
				p = q != NULL ? q : e - 1;
			}
			break;
		case '<':
			/* An HTML tag goes; an autolink keeps its URL. */
			q = memchr(p, '>', (size_t)(e - p));
			if (q == NULL || p + 1 >= e || !((p[1] >= 'a' &&
			    p[1] <= 'z') || (p[1] >= 'A' && p[1] <= 'Z') ||
			    p[1] == '/' || p[1] == '!')) {
				pl_addc(pl, c);
				break;
			}
			url = memchr(p, ' ', (size_t)(q - p)) == NULL &&
			    (memchr(p, ':', (size_t)(q - p)) != NULL ||
			    memchr(p, '@', (size_t)(q - p)) != NULL);
			pl_addc(pl, ' ');
			if (url)
				for (p++; p < q; p++)
					pl_addc(pl, (unsigned char)*p);
			pl_addc(pl, ' ');
			p = q;
			break;
		case '|':
		case '\t':
			pl_addc(pl, ' ');
			break;
		default:
			pl_addc(pl, c < 0x20 || c == 0x7f ? ' ' : c);
			break;
		}
	}
}

void
plain_markdown(const char *md, size_t len, struct buf *out)
{
	struct plain	 pl = { out, 1 };
	const char	*s = md, *end = md + len, *eol, *e, *t, *q;
	size_t		 start = out->len, run, flen = 0;
	char		 fch = 0;
	int		 fence = 0;

	buf_reserve(out, len + 2);	/* what comes out is never longer */

	for (; s < end; s = eol != NULL ? eol + 1 : end) {
		eol = memchr(s, '\n', (size_t)(end - s));
		e = eol != NULL ? eol : end;
		if (e > s && e[-1] == '\r')
			e--;
		for (t = s; t < e && (*t == ' ' || *t == '\t'); t++)
			;
		/* Code fences: the marker line goes, the code stays. */
		if (e - t >= 3 && (*t == '`' || *t == '~') && t[1] == *t &&
		    t[2] == *t) {
			for (run = 0; t + run < e && t[run] == *t; run++)
				;
			if (!fence) {
				fence = 1;
				fch = *t;
				flen = run;
				pl_addc(&pl, ' ');
				continue;
			}
			for (q = t + run; q < e && (*q == ' ' || *q == '\t');
			    q++)
				;
			if (*t == fch && run >= flen && q == e) {
				fence = 0;
				pl_addc(&pl, ' ');
				continue;
			}
		}
		if (fence) {
			for (; t < e; t++)
				pl_addc(&pl, (unsigned char)*t < 0x20 ? ' ' :
				    (unsigned char)*t);
			pl_addc(&pl, ' ');
			continue;
		}
		if (t == e || refdef(t, e) || rule_line(t, e)) {
			pl_addc(&pl, ' ');
			continue;
		}
		/* Container and heading markers, nested ones too. */
		for (;;) {
			if (t < e && *t == '>') {
				t++;
			} else if (t < e && *t == '#') {
				for (q = t; q < e && *q == '#' && q - t < 7; q++)
					;
				if (q - t > 6 || (q < e && *q != ' ' &&
				    *q != '\t'))
					break;
				t = q;
			} else if (t + 1 < e && (*t == '-' || *t == '*' ||
			    *t == '+') && (t[1] == ' ' || t[1] == '\t')) {
				t += 2;
			} else if (t < e && *t >= '0' && *t <= '9') {
				for (q = t; q < e && *q >= '0' && *q <= '9' &&
				    q - t < 10; q++)
					;
				if (q + 1 >= e || (*q != '.' && *q != ')') ||
				    (q[1] != ' ' && q[1] != '\t'))
					break;
				t = q + 2;
			} else
				break;
			while (t < e && (*t == ' ' || *t == '\t'))
				t++;
		}
		/* A task list box. */
		if (e - t >= 3 && t[0] == '[' && t[2] == ']' &&
		    (t[1] == ' ' || t[1] == 'x' || t[1] == 'X'))
			t += 3;
		pl_inline(&pl, t, e);
		pl_addc(&pl, ' ');
	}
	if (out->len > start && out->data[out->len - 1] == ' ')
		buf_truncate(out, out->len - 1);
}
