/*
 * gemtext.c -- the lines of a gemtext document (gemtext.h).
 *
 * Line types as the Gemini specification gives them: "=>" link (the URL
 * is the first run of non-blank bytes after optional blanks, the label
 * the rest), "#"/"##"/"###" heading, "* " list item, ">" quote, "```"
 * toggle; anything else is text.  Inside a preformatted block only the
 * toggle means anything.  Lines end at LF; a CR before it is dropped.
 * A NUL byte is an ordinary byte here: the callers copy spans, never
 * C strings.
 */
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/util.h"
#include "markdown/gemtext.h"
#include "markdown/scan.h"

static int
blank(char c)
{
	return c == ' ' || c == '\t';
}

/* s[0..*len) without blanks at either end. */
static const char *
trim(const char *s, size_t *len)
{
	while (*len > 0 && blank(*s)) {
		s++;
		(*len)--;
	}
	while (*len > 0 && blank(s[*len - 1]))
		(*len)--;
	return s;
}

void
gemtext_iter_init(struct gemtext_iter *it, const char *src, size_t len,
    unsigned line0)
{
	it->p = src;
	it->end = src + len;
	it->lineno = line0 > 0 ? line0 - 1 : 0;
	it->pre = 0;
}

static void
parse_link(struct gemtext_line *l)
{
	const char	*s = l->line + 2, *end = l->line + l->linelen, *u;

	while (s < end && blank(*s))
		s++;
	for (u = s; s < end && !blank(*s); s++)
		;
	l->url = u;
	l->urllen = (size_t)(s - u);
	l->textlen = (size_t)(end - s);
	l->text = trim(s, &l->textlen);
}

int
gemtext_next(struct gemtext_iter *it, struct gemtext_line *l)
{
	const char	*nl, *s;
	size_t		 len;

	if (it->p >= it->end)
		return 0;
	memset(l, 0, sizeof(*l));
	if ((nl = memchr(it->p, '\n', (size_t)(it->end - it->p))) == NULL)
		nl = it->end;
	s = it->p;
	len = (size_t)(nl - s);
	if (len > 0 && s[len - 1] == '\r')
		len--;
	it->p = nl < it->end ? nl + 1 : nl;
	l->line = s;
	l->linelen = len;
	l->lineno = ++it->lineno;
	l->text = s;
	l->textlen = len;
	if (len >= 3 && memcmp(s, "```", 3) == 0) {
		it->pre = !it->pre;
		l->type = GEMTEXT_PRE_TOGGLE;
		l->textlen = len - 3;
		l->text = trim(s + 3, &l->textlen);
		return 1;
	}
	if (it->pre) {
		l->type = GEMTEXT_PRE;
		return 1;
	}
	if (len >= 2 && s[0] == '=' && s[1] == '>') {
		l->type = GEMTEXT_LINK;
		parse_link(l);
		/* "=>" with no URL is no link: text, as written. */
		if (l->urllen == 0) {
			l->type = GEMTEXT_TEXT;
			l->url = NULL;
			l->text = s;
			l->textlen = len;
		}
		return 1;
	}
	if (len >= 1 && s[0] == '#') {
		l->type = GEMTEXT_HEADING;
		for (l->level = 1; l->level < 3 && (size_t)l->level < len &&
		    s[l->level] == '#'; l->level++)
			;
		l->textlen = len - (size_t)l->level;
		l->text = trim(s + l->level, &l->textlen);
		return 1;
	}
	if (len >= 2 && s[0] == '*' && s[1] == ' ') {
		l->type = GEMTEXT_ITEM;
		l->textlen = len - 2;
		l->text = trim(s + 2, &l->textlen);
		return 1;
	}
	if (len >= 1 && s[0] == '>') {
		l->type = GEMTEXT_QUOTE;
		l->textlen = len - 1;
		l->text = trim(s + 1, &l->textlen);
		return 1;
	}
	l->type = GEMTEXT_TEXT;
	return 1;
}

char *
gemtext_title(const char *src, size_t len)
{
	struct gemtext_iter	 it;
	struct gemtext_line	 l;
	struct buf		 b = BUF_INIT;
	size_t			 i;

	gemtext_iter_init(&it, src, len, 1);
	while (gemtext_next(&it, &l)) {
		if (l.type != GEMTEXT_HEADING || l.level != 1)
			continue;
		/* A NUL would cut the C string short: dropped. */
		for (i = 0; i < l.textlen; i++)
			if (l.text[i] != '\0')
				buf_addc(&b, l.text[i]);
		if (b.len > 0) {
			buf_addc(&b, '\0');
			return buf_release(&b);
		}
	}
	return NULL;
}

struct scan_link *
gemtext_links(const char *src, size_t len, unsigned line0, size_t *np)
{
	struct gemtext_iter	 it;
	struct gemtext_line	 l;
	struct scan_link	*refs = NULL;
	size_t			 n = 0;

	gemtext_iter_init(&it, src, len, line0);
	while (gemtext_next(&it, &l)) {
		if (l.type != GEMTEXT_LINK || l.urllen > 1024 ||
		    !scan_is_checked_link(l.url, l.urllen) ||
		    memchr(l.url, '\0', l.urllen) != NULL)
			continue;
		if (n % 8 == 0)
			refs = xreallocarray(refs, n + 8, sizeof(*refs));
		refs[n].url = xstrndup(l.url, l.urllen);
		refs[n].line = l.lineno;
		refs[n++].col = (unsigned)(l.url - l.line) + 1;
	}
	*np = n;
	return refs;
}

void
gemtext_plain(const char *src, size_t len, struct buf *out)
{
	struct gemtext_iter	 it;
	struct gemtext_line	 l;
	size_t			 start = out->len;

	gemtext_iter_init(&it, src, len, 1);
	while (gemtext_next(&it, &l)) {
		if (l.type == GEMTEXT_PRE_TOGGLE || l.textlen == 0)
			continue;
		if (out->len > start)
			buf_addc(out, ' ');
		buf_add(out, l.text, l.textlen);
	}
}
