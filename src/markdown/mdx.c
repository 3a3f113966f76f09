/*
 * mdx.c -- an MDX body made Markdown (mdx.h).
 *
 * One pass over the body.  At each line's start: the dedent of the
 * component it is in, the quote marks of the admonitions open, a code
 * fence (whose lines are copied as they are), a block of import/export
 * statements (dropped to the next blank line), a ":::" admonition.
 * Within a line: code spans copied, escapes kept, "{" an expression
 * (expr_end()), "<" a tag (tag_parse()); either may run over lines.
 * What a tag becomes is its component's (known[]), and the components
 * open are a stack (struct frame), so that a closing tag ends what its
 * opening began (a link's address, a quote).
 *
 * A "{" or "<" that opens nothing (never closed, or past MDX_EXPR_MAX
 * or MDX_TAG_MAX bytes) is text, and so is every other "{" or "<" up to
 * where that scan stopped: each byte is scanned a bounded number of
 * times, and the pass stays linear.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/util.h"
#include "markdown/mdx.h"

#define MDX_DEPTH	32	/* components open at once; deeper: text */
#define MDX_TAG_MAX	4096	/* bytes of one tag, attributes and all */
#define MDX_EXPR_MAX	65536	/* bytes of one expression */
#define MDX_NAME	48	/* of a component or an attribute */
#define MDX_ATTRS	24	/* attributes of a tag read */

/* What a component becomes. */
enum comp {
	C_TEXT,		/* its children's text (the tags go) */
	C_TAB,		/* a section: its label, a heading, then its
			   text */
	C_QUOTE,	/* an admonition: a quote with a title */
	C_LINK,		/* a link around its text */
	C_IMAGE,	/* an image */
	C_EMBED,	/* a link to what it plays */
	C_CODE,		/* a fenced code block of its text */
	C_HTML,		/* a lower-case tag: HTML, for html.c */
};

/* Docusaurus's components, and a few every MDX site has. */
static const struct known {
	const char	*name;
	enum comp	 c;
} known[] = {
	{ "Admonition",		C_QUOTE },
	{ "CodeBlock",		C_CODE },
	{ "Figure",		C_IMAGE },
	{ "IdealImage",		C_IMAGE },
	{ "Image",		C_IMAGE },
	{ "Img",		C_IMAGE },
	{ "Link",		C_LINK },
	{ "ReactPlayer",	C_EMBED },
	{ "TabItem",		C_TAB },
	{ "ThemedImage",	C_IMAGE },
	{ "YouTube",		C_EMBED },
};

/* Attributes whose value is an address (a link's, an image's). */
static const char *const addr_attrs[] = {
	"href", "src", "to", "img", "sources", "url", "poster",
};

struct attr {
	char		 name[MDX_NAME];
	const char	*v;		/* the value, quotes or braces off */
	size_t		 vlen;
	int		 expr;		/* {...}, not a string */
};

/* One tag, as tag_parse() read it. */
struct tag {
	char		 name[MDX_NAME];	/* "" for a fragment, <> */
	int		 closing;	/* </x> */
	int		 selfclose;	/* <x /> */
	struct attr	 a[MDX_ATTRS];
	size_t		 n;
};

/* A component open. */
struct frame {
	char		 name[MDX_NAME];
	enum comp	 c;
	int		 block;		/* its tag opened its line */
	long		 dedent;	/* of its lines; -1 not yet known */
	char		*url;		/* owned: C_LINK's address */
};

struct mdx {
	struct buf	*out;
	const char	*end;
	struct frame	 st[MDX_DEPTH];
	size_t		 n;
	unsigned	 nquote;	/* C_QUOTE frames and ::: open */
	unsigned	 ndirective;	/* ::: admonitions open */
	char		 fence;		/* '`' or '~' in a fenced block */
	size_t		 fence_len;
	const char	*notag;		/* '<' before it is text */
	const char	*nobrace;	/* '{' before it is text */
	const char	*linestart;	/* where the line being read began */
	int		 para;		/* the line before had text: a line
					   now goes on its paragraph */
};

static int
blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static int
name_char(int c)
{
	return isalnum(c) || c == '_' || c == '-' || c == '.' || c == ':';
}

/* The quote marks every new line of output opens with. */
static void
prefix(struct mdx *m)
{
	unsigned	 i;

	for (i = 0; i < m->nquote; i++)
		buf_addstr(m->out, "> ");
}

/* A line break in the output, and the next line's quote marks. */
static void
newline(struct mdx *m)
{
	buf_addc(m->out, '\n');
	prefix(m);
}

/* Does the output end where a line starts (but for its quote marks)? */
static int
at_line_start(const struct mdx *m)
{
	const struct buf	*b = m->out;
	size_t			 i = b->len;

	while (i >= 2 && b->data[i - 2] == '>' && b->data[i - 1] == ' ')
		i -= 2;
	return i == 0 || b->data[i - 1] == '\n';
}

/* A line of its own is about to be written: end the one before. */
static void
own_line(struct mdx *m)
{
	if (!at_line_start(m))
		newline(m);
}

/*
 * A string literal at p ('...', "..." or `...` without "${"): its text
 * in *s, *len; the end past its closing quote, or NULL.
 */
static const char *
string_at(const char *p, const char *end, const char **s, size_t *len)
{
	const char	*q;
	char		 quote = *p;

	if (quote != '\'' && quote != '"' && quote != '`')
		return NULL;
	for (q = p + 1; q < end && *q != quote; q++)
		if (*q == '\\' && q + 1 < end)
			q++;
		else if ((quote != '`' && *q == '\n') || (quote == '`' &&
		    *q == '$' && q + 1 < end && q[1] == '{'))
			return NULL;
	if (q >= end)
		return NULL;
	*s = p + 1;
	*len = (size_t)(q - p - 1);
	return q + 1;
}

/* The first string literal of e[0..len), or 0 for none. */
static int
first_string(const char *e, size_t len, const char **s, size_t *slen)
{
	const char	*p, *end = e + len;

	for (p = e; p < end; p++)
		if ((*p == '\'' || *p == '"' || *p == '`') &&
		    string_at(p, end, s, slen) != NULL)
			return 1;
	return 0;
}

/*
 * The end of the expression opening at p ("{"): past its "}", the
 * braces balanced outside strings and comments; NULL when it does not
 * close within MDX_EXPR_MAX bytes (*stop: where the scan stopped).
 */
static const char *
expr_end(const char *p, const char *end, const char **stop)
{
	const char	*q, *lim = end - p > MDX_EXPR_MAX ? p + MDX_EXPR_MAX :
			    end, *s;
	size_t		 slen;
	int		 depth = 0;

	for (q = p; q < lim; q++) {
		switch (*q) {
		case '{':
			depth++;
			break;
		case '}':
			if (--depth == 0)
				return q + 1;
			break;
		case '\'':
		case '"':
		case '`':
			if ((s = string_at(q, lim, &s, &slen)) != NULL)
				q = s - 1;
			break;
		case '/':
			if (q + 1 < lim && q[1] == '*') {
				s = memmem(q + 2, (size_t)(lim - q - 2), "*/",
				    2);
				q = s != NULL ? s + 1 : lim - 1;
			}
			break;
		default:
			break;
		}
	}
	*stop = q;
	return NULL;
}

/* Is e[0..len) (an expression's inside) a comment that says word? */
static int
comment_says(const char *e, size_t len, const char *word)
{
	size_t	 wl = strlen(word);

	while (len > 0 && isspace((unsigned char)*e))
		e++, len--;
	while (len > 0 && isspace((unsigned char)e[len - 1]))
		len--;
	if (len < 4 || memcmp(e, "/*", 2) != 0 ||
	    memcmp(e + len - 2, "*/", 2) != 0)
		return 0;
	e += 2;
	len -= 4;
	while (len > 0 && isspace((unsigned char)*e))
		e++, len--;
	while (len > 0 && isspace((unsigned char)e[len - 1]))
		len--;
	return len == wl && strncasecmp(e, word, wl) == 0;
}

/*
 * tag = "<" ["/"] [name] *(attr) ["/"] ">"
 * attr = name ["=" (string / "{" expression "}")] / "{" spread "}"
 * At p ("<"): the tag into t, the end past its ">"; NULL when p opens no
 * tag (*stop: where the scan stopped).
 */
static const char *
tag_parse(const char *p, const char *end, struct tag *t, const char **stop)
{
	const char	*q = p + 1, *lim, *s, *v, *e;
	size_t		 len, vlen;
	struct attr	*a;

	lim = end - p > MDX_TAG_MAX ? p + MDX_TAG_MAX : end;
	*stop = p + 1;
	memset(t, 0, sizeof(*t));
	if (q < lim && *q == '/') {
		t->closing = 1;
		q++;
	}
	if (q < lim && isalpha((unsigned char)*q)) {
		for (s = q; q < lim && name_char((unsigned char)*q); q++)
			;
		/* A name ends at a blank, "/" or ">": not "<me@x", "<a:/". */
		if ((size_t)(q - s) >= sizeof(t->name) || (q < lim &&
		    !isspace((unsigned char)*q) && *q != '/' && *q != '>') ||
		    (q < lim && *q == '/' && q[-1] == ':'))
			return NULL;		/* an autolink, a URL */
		memcpy(t->name, s, (size_t)(q - s));
	} else if (q >= lim || *q != '>')
		return NULL;			/* "a < b", "<!--" */
	for (;;) {
		while (q < lim && isspace((unsigned char)*q))
			q++;
		if (q >= lim) {
			*stop = q;
			return NULL;
		}
		if (*q == '>')
			return q + 1;
		if (*q == '/' && q + 1 < lim && q[1] == '>') {
			t->selfclose = 1;
			return q + 2;
		}
		if (t->closing)
			return NULL;
		if (*q == '{') {		/* {...props} */
			if ((e = expr_end(q, lim, stop)) == NULL)
				return NULL;
			q = e;
			continue;
		}
		for (s = q; q < lim && !isspace((unsigned char)*q) &&
		    *q != '=' && *q != '>' && *q != '/' && *q != '{'; q++)
			;
		if (q == s)
			return NULL;
		len = (size_t)(q - s);
		v = NULL;
		vlen = 0;
		a = t->n < MDX_ATTRS ? &t->a[t->n] : NULL;
		if (q < lim && *q == '=') {
			q++;
			if (q < lim && *q == '{') {
				if ((e = expr_end(q, lim, stop)) == NULL)
					return NULL;
				v = q + 1;
				vlen = (size_t)(e - q - 2);
				if (a != NULL)
					a->expr = 1;
				q = e;
			} else if (q < lim && (e = string_at(q, lim, &v,
			    &vlen)) != NULL && *q != '`')
				q = e;
			else {
				*stop = q;
				return NULL;
			}
		}
		if (a != NULL && len < sizeof(a->name)) {
			memcpy(a->name, s, len);
			a->name[len] = '\0';
			a->v = v;
			a->vlen = vlen;
			t->n++;
		}
	}
}

/* The value of attribute name of t as text: a string, or an
 * expression's first string; NULL for none. */
static const char *
attr(const struct tag *t, const char *name, size_t *len)
{
	const char	*s;
	size_t		 i;

	for (i = 0; i < t->n; i++) {
		if (strcmp(t->a[i].name, name) != 0 || t->a[i].v == NULL)
			continue;
		if (!t->a[i].expr) {
			*len = t->a[i].vlen;
			return t->a[i].v;
		}
		if (first_string(t->a[i].v, t->a[i].vlen, &s, len))
			return s;
	}
	return NULL;
}

/* The first of t's address attributes (addr_attrs[]) with a value. */
static const char *
address(const struct tag *t, size_t *len)
{
	const char	*s;
	size_t		 i;

	for (i = 0; i < nitems(addr_attrs); i++)
		if ((s = attr(t, addr_attrs[i], len)) != NULL && *len > 0)
			return s;
	return NULL;
}

static enum comp
comp_of(const char *name)
{
	size_t	 i;

	if (islower((unsigned char)name[0]))
		return C_HTML;
	for (i = 0; i < nitems(known); i++)
		if (strcmp(known[i].name, name) == 0)
			return known[i].c;
	return C_TEXT;
}

/* Text of an attribute, made one line and safe inside Markdown text. */
static void
add_text(struct buf *b, const char *s, size_t len)
{
	size_t	 i;

	for (i = 0; i < len; i++) {
		if (s[i] == '\n' || s[i] == '\r' || s[i] == '\t')
			buf_addc(b, ' ');
		else if (strchr("[]*_<>`\\", s[i]) != NULL) {
			buf_addc(b, '\\');
			buf_addc(b, s[i]);
		} else
			buf_addc(b, s[i]);
	}
}

/* An address inside "(...)" of a Markdown link: no blank, no paren. */
static void
add_url(struct buf *b, const char *s, size_t len)
{
	size_t	 i;

	buf_addc(b, '<');
	for (i = 0; i < len; i++)
		if (s[i] == '<' || s[i] == '>' || s[i] == '\n')
			buf_printf(b, "%%%02X", (unsigned char)s[i]);
		else
			buf_addc(b, s[i]);
	buf_addc(b, '>');
}

/* A lower-case tag again, as HTML: string attributes, addresses. */
static void
html_tag(struct mdx *m, const struct tag *t)
{
	const char	*v;
	size_t		 i, k, len;

	buf_printf(m->out, "<%s%s", t->closing ? "/" : "", t->name);
	for (i = 0; i < t->n; i++) {
		if (t->a[i].v == NULL) {
			buf_printf(m->out, " %s", t->a[i].name);
			continue;
		}
		if (t->a[i].expr) {
			for (k = 0; k < nitems(addr_attrs) &&
			    strcmp(addr_attrs[k], t->a[i].name) != 0; k++)
				;
			if (k == nitems(addr_attrs) && strcmp(t->a[i].name,
			    "alt") != 0 && strcmp(t->a[i].name, "title") != 0)
				continue;	/* style={{...}}: no meaning */
			if ((v = attr(t, t->a[i].name, &len)) == NULL)
				continue;
		} else {
			v = t->a[i].v;
			len = t->a[i].vlen;
		}
		buf_printf(m->out, " %s=\"", strcmp(t->a[i].name,
		    "className") == 0 ? "class" : t->a[i].name);
		for (k = 0; k < len; k++)
			if (v[k] == '"')
				buf_addstr(m->out, "&quot;");
			else
				buf_addc(m->out, v[k]);
		buf_addc(m->out, '"');
	}
	buf_addstr(m->out, t->selfclose ? " />" : ">");
}

/*
 * A section's label: a heading of its own, after a blank line (gemtext
 * keeps no bold, and a label is what a heading is).
 */
static void
label_line(struct mdx *m, const char *s, size_t len)
{
	own_line(m);
	newline(m);
	buf_addstr(m->out, "### ");
	add_text(m->out, s, len);
	newline(m);
}

/* A quote opens (an admonition): its title, strong, its first line. */
static void
quote_open(struct mdx *m, const char *type, size_t tlen, const char *title,
    size_t len)
{
	char	 word[MDX_NAME];

	own_line(m);
	m->nquote++;
	newline(m);
	buf_addstr(m->out, "**");
	if (title != NULL && len > 0)
		add_text(m->out, title, len);
	else {
		/* "tip" is "Tip", as Docusaurus labels it. */
		snprintf(word, sizeof(word), "%.*s", (int)tlen, type);
		word[0] = (char)toupper((unsigned char)word[0]);
		buf_addstr(m->out, *word != '\0' ? word : "Note");
	}
	buf_addstr(m->out, "**");
	newline(m);
}

static void
quote_close(struct mdx *m)
{
	own_line(m);
	if (m->nquote > 0)
		m->nquote--;
	newline(m);
}

static void
frame_pop(struct mdx *m)
{
	struct frame	*f = &m->st[--m->n];

	switch (f->c) {
	case C_QUOTE:
		quote_close(m);
		break;
	case C_LINK:
		if (f->url != NULL) {
			buf_addstr(m->out, "](");
			buf_addstr(m->out, f->url);
			buf_addc(m->out, ')');
		}
		break;
	case C_CODE:
		own_line(m);
		buf_addstr(m->out, "```");
		newline(m);
		break;
	case C_HTML:
		buf_printf(m->out, "</%s>", f->name);
		break;
	case C_TAB:
	case C_IMAGE:
	case C_EMBED:
	case C_TEXT:
		break;
	}
	free(f->url);
}

/* An image of t (C_IMAGE), or a link to what it plays (C_EMBED). */
static void
image(struct mdx *m, const struct tag *t, enum comp c)
{
	const char	*src, *alt;
	size_t		 slen, alen = 0;

	if ((src = address(t, &slen)) == NULL) {
		/* <YouTube id="x" />: the video of that id. */
		if (c != C_EMBED || (src = attr(t, "id", &slen)) == NULL)
			return;
		buf_addstr(m->out, "[YouTube](<https://www.youtube.com/"
		    "watch?v=");
		add_text(m->out, src, slen);
		buf_addstr(m->out, ">)");
		return;
	}
	if ((alt = attr(t, "alt", &alen)) == NULL)
		alt = attr(t, "title", &alen);
	buf_addstr(m->out, c == C_IMAGE ? "![" : "[");
	if (alt != NULL)
		add_text(m->out, alt, alen);
	else if (c == C_EMBED)
		add_text(m->out, src, slen);
	buf_addstr(m->out, "](");
	add_url(m->out, src, slen);
	buf_addc(m->out, ')');
}

/* What the tag t at p (its line opened at the line's start) becomes. */
static void
tag_out(struct mdx *m, const struct tag *t, int block)
{
	struct frame	*f;
	struct buf	 u = BUF_INIT;
	enum comp	 c = t->name[0] != '\0' ? comp_of(t->name) : C_TEXT;
	const char	*s, *type;
	size_t		 len, tlen, i, n;

	if (t->closing) {
		for (i = m->n; i > 0; i--)
			if (strcmp(m->st[i - 1].name, t->name) == 0)
				break;
		if (i == 0) {
			if (c == C_HTML)
				html_tag(m, t);	/* html.c's to match */
			return;
		}
		while (m->n >= i)
			frame_pop(m);
		return;
	}
	if (c == C_IMAGE || c == C_EMBED) {
		image(m, t, c);
		if (t->selfclose)
			return;
	} else if (c == C_HTML && t->selfclose) {
		html_tag(m, t);
		return;
	}
	if (t->selfclose)
		return;				/* <DocCardList />: nothing */
	if (m->n == MDX_DEPTH) {
		if (c == C_HTML)
			html_tag(m, t);
		return;				/* too deep: its text only */
	}
	f = &m->st[m->n++];
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", t->name);
	f->c = c;
	f->block = block;
	f->dedent = -1;
	switch (c) {
	case C_TAB:
		if ((s = attr(t, "label", &len)) != NULL ||
		    (s = attr(t, "value", &len)) != NULL)
			label_line(m, s, len);
		break;
	case C_QUOTE:
		if ((type = attr(t, "type", &tlen)) == NULL) {
			type = "note";
			tlen = 4;
		}
		s = attr(t, "title", &len);
		quote_open(m, type, tlen, s, s != NULL ? len : 0);
		break;
	case C_LINK:
		if ((s = address(t, &len)) != NULL) {
			add_url(&u, s, len);
			buf_add(&u, "", 0);
			f->url = buf_release(&u);
			buf_addc(m->out, '[');
		}
		break;
	case C_CODE:
		own_line(m);
		buf_addstr(m->out, "```");
		if ((s = attr(t, "language", &len)) != NULL) {
			/* Its first word; s is not NUL-terminated. */
			for (n = 0; n < len && s[n] != '`' && s[n] != ' ' &&
			    s[n] != '\n'; n++)
				;
			add_text(m->out, s, n);
		}
		newline(m);
		break;
	case C_HTML:
		html_tag(m, t);
		break;
	case C_IMAGE:
	case C_EMBED:
	case C_TEXT:
		break;
	}
}

/* Is the code of a C_CODE component being read (its text as is)? */
static int
in_code(const struct mdx *m)
{
	return m->n > 0 && m->st[m->n - 1].c == C_CODE;
}

/* The expression e[0..len) (its braces off) where text is. */
static void
expr_out(struct mdx *m, const char *e, size_t len)
{
	const char	*s, *q;
	size_t		 slen;

	if (comment_says(e, len, "truncate")) {
		buf_addstr(m->out, "<!--truncate-->");
		return;
	}
	while (len > 0 && isspace((unsigned char)*e))
		e++, len--;
	while (len > 0 && isspace((unsigned char)e[len - 1]))
		len--;
	/* {"text"}, {`code`} in a CodeBlock: the string. */
	if (len > 0 && (q = string_at(e, e + len, &s, &slen)) != NULL &&
	    q == e + len) {
		if (in_code(m))
			buf_add(m->out, s, slen);
		else
			add_text(m->out, s, slen);
	}
	/* Anything else is the page's code: nothing a reader sees. */
}

/* Leading blanks of the line at p. */
static size_t
indent(const char *p, const char *end)
{
	const char	*q = p;

	while (q < end && (*q == ' ' || *q == '\t'))
		q++;
	return (size_t)(q - p);
}

/* The dedent of the component the line at p is in, learnt from it. */
static size_t
dedent(struct mdx *m, const char *p)
{
	struct frame	*f = NULL;
	const char	*e = util_eol(p, m->end);
	size_t		 i, lead = indent(p, e);

	for (i = m->n; i > 0 && f == NULL; i--)
		if (m->st[i - 1].block)
			f = &m->st[i - 1];
	if (f == NULL)
		return 0;
	if (f->dedent < 0) {
		if (p + lead == e || (p + lead < e && p[lead] == '\r'))
			return lead;		/* blank: learns nothing */
		f->dedent = (long)lead;
	}
	return lead < (size_t)f->dedent ? lead : (size_t)f->dedent;
}

/* An opening fence at p (a run of three or more ` or ~)? */
static size_t
fence_run(const char *p, const char *e, char c)
{
	const char	*q = p;

	while (q < e && *q == c)
		q++;
	return q - p >= 3 ? (size_t)(q - p) : 0;
}

/* "import"/"export" at p, opening a statement? */
static int
esm(const char *p, const char *e)
{
	return e - p > 6 && (memcmp(p, "import", 6) == 0 ||
	    memcmp(p, "export", 6) == 0) && (p[6] == ' ' || p[6] == '{' ||
	    p[6] == '*' || p[6] == '\t');
}

/*
 * admonition = ":::" type ["[" title "]" / SP title] / ":::"
 * Docusaurus's admonition, opened or closed by the line q..e: the next
 * line; q itself when the line is text (":::" with nothing open).
 */
static const char *
directive(struct mdx *m, const char *q, const char *e)
{
	const char	*w, *title, *te;

	for (w = q + 3; w < e && isalpha((unsigned char)*w); w++)
		;
	if (w > q + 3) {
		title = w;
		te = e;
		while (te > title && blank((unsigned char)te[-1]))
			te--;
		if (title < te && *title == '[') {
			title++;
			if (te > title && te[-1] == ']')
				te--;
		}
		while (title < te && blank((unsigned char)*title))
			title++;
		quote_open(m, q + 3, (size_t)(w - q - 3), title,
		    (size_t)(te - title));
		m->ndirective++;
	} else if (util_blank_line(q + 3, e) && m->ndirective > 0) {
		m->ndirective--;
		quote_close(m);
	} else
		return q;
	/* The line's end, as a tag's would leave it. */
	buf_addc(m->out, '\n');
	return e < m->end ? e + 1 : e;
}

/*
 * The line at p, from its start: what only a line's start can be.
 * Returns where its text starts, or the next line when the whole line
 * was dealt with.
 */
static const char *
line_start(struct mdx *m, const char *p)
{
	const char	*e = util_eol(p, m->end), *q;
	size_t		 n, run;

	if (m->fence != '\0') {
		/* A fenced block's lines, as they are. */
		p += dedent(m, p);
		prefix(m);
		q = p + indent(p, e);
		if ((run = fence_run(q, e, m->fence)) >= m->fence_len &&
		    indent(q + run, e) == (size_t)(e - q - run))
			m->fence = '\0';
		buf_add(m->out, p, (size_t)(e - p));
		if (e < m->end)
			buf_addc(m->out, '\n');
		return e < m->end ? e + 1 : e;
	}
	p += dedent(m, p);
	q = p + (n = indent(p, e)) ;
	if (m->n == 0 && n == 0 && !m->para && esm(p, e)) {
		/* A block of imports and exports: to a blank line. */
		while (p < m->end && !util_blank_line(p, e)) {
			p = e < m->end ? e + 1 : e;
			e = util_eol(p, m->end);
		}
		return p;
	}
	prefix(m);
	if (n <= 3 && ((run = fence_run(q, e, '`')) > 0 ||
	    (run = fence_run(q, e, '~')) > 0)) {
		m->fence = *q;
		m->fence_len = run;
		buf_add(m->out, p, (size_t)(e - p));
		if (e < m->end)
			buf_addc(m->out, '\n');
		return e < m->end ? e + 1 : e;
	}
	if (n <= 3 && e - q >= 3 && memcmp(q, ":::", 3) == 0)
		return directive(m, q, e);
	return p;
}

/* A code span at p (a run of backticks): copied to its end, or text. */
static const char *
code_span(struct mdx *m, const char *p)
{
	const char	*q = p, *r, *lim;
	size_t		 run;

	while (q < m->end && *q == '`')
		q++;
	run = (size_t)(q - p);
	/* It ends at the same run, within its paragraph. */
	lim = q < m->end && (r = memmem(q, (size_t)(m->end - q), "\n\n",
	    2)) != NULL ? r : m->end;
	for (r = q; r < lim; r++) {
		if (*r != '`')
			continue;
		q = r;
		while (r < lim && *r == '`')
			r++;
		if ((size_t)(r - q) == run) {
			buf_add(m->out, p, (size_t)(r - p));
			return r;
		}
	}
	buf_add(m->out, p, run);
	return p + run;
}

void
mdx_rewrite(const char *src, size_t len, struct buf *out)
{
	struct mdx	 m;
	struct tag	 t;
	const char	*p = src, *end = src + len, *q, *stop, *prev = src;
	size_t		 i;
	int		 block;

	memset(&m, 0, sizeof(m));
	m.out = out;
	m.end = end;
	m.notag = m.nobrace = src;
	buf_reserve(out, len + len / 8);
	while (p < end) {
		m.linestart = p;
		m.para = p > src && !util_blank_line(prev, p - 1);
		prev = p;
		if ((q = line_start(&m, p)) != p && (q == end ||
		    q[-1] == '\n')) {
			p = q;
			continue;
		}
		p = q;
		for (; p < end && *p != '\n'; p++) {
			if (in_code(&m) && *p != '<' && *p != '{') {
				buf_addc(out, *p);
				continue;
			}
			switch (*p) {
			case '\\':
				buf_addc(out, *p);
				if (p + 1 < end && p[1] != '\n')
					buf_addc(out, *++p);
				continue;
			case '`':
				p = code_span(&m, p) - 1;
				continue;
			case '{':
				if (p < m.nobrace ||
				    (q = expr_end(p, end, &stop)) == NULL) {
					if (p >= m.nobrace)
						m.nobrace = stop;
					buf_addc(out, '{');
					continue;
				}
				expr_out(&m, p + 1, (size_t)(q - p - 2));
				p = q - 1;
				continue;
			case '<':
				if (p < m.notag || (q = tag_parse(p, end, &t,
				    &stop)) == NULL) {
					if (p >= m.notag)
						m.notag = stop;
					buf_addc(out, '<');
					continue;
				}
				block = indent(m.linestart, p) ==
				    (size_t)(p - m.linestart);
				tag_out(&m, &t, block);
				p = q - 1;
				continue;
			default:
				buf_addc(out, *p);
				continue;
			}
		}
		if (p < end) {
			buf_addc(out, '\n');
			p++;
		}
	}
	for (i = m.n; i > 0; i--)
		frame_pop(&m);
	buf_add(out, "", 0);		/* NUL-terminated, even when empty */
}
