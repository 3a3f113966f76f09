/*
 * scan.c -- byte scans of Markdown source (scan.h).
 *
 * scan_links() sees inline links "[text](dest)" and reference
 * definitions "[label]: dest", and skips fenced and indented code (the
 * lines as blocks.h classifies them) and code spans;
 * scan_repeated_title() reads one ATX heading.  Neither is a
 * full CommonMark parse: they look for what the archive needs to know
 * of thousands of bodies at load time, and a cmark parse of each would
 * cost more than the rest of the load.  The arrays returned are owned
 * by the caller.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/entity.h"
#include "core/fold.h"
#include "core/util.h"
#include "markdown/blocks.h"
#include "markdown/scan.h"

struct scan {
	unsigned	 line0;		/* file line of the body's first line */
	struct scan_link *refs;		/* what was found */
	size_t		 n;
};

/*
 * Is dest (len bytes) worth keeping -- the destination of a Markdown
 * link, or the href or src of a tag of raw HTML: a relative link (a
 * post's source, a file, a page), a root-relative one ("/posts/x", or
 * an old web address of the writer's site, "/2015/01/02/x/"), a
 * network-path one ("//host/x", which may be the capsule's own host),
 * or an absolute URL ("scheme://"), which may be one of the writer's
 * old web URLs?  Which URLs are old ones is
 * configuration (link_aliases), and the scan must depend on the bytes
 * alone, so every absolute URL is kept and the link check
 * (content/links.c) asks the snapshot.
 */
int
scan_is_checked_link(const char *dest, size_t len)
{
	size_t	 i;

	if (len > 0 && dest[0] == '/')	/* "//host/x" too (links.c) */
		return len > 1;		/* not "/": the home page is there */
	if (len == 0 || dest[0] == '#' || dest[0] == '?')
		return 0;		/* the page itself */
	/* A scheme ends before the first '/', '?' or '#'. */
	for (i = 0; i < len && dest[i] != '/' && dest[i] != '?' &&
	    dest[i] != '#'; i++)
		if (dest[i] == ':')
			return len - i > 3 && memcmp(dest + i, "://", 3) == 0;
	return 1;			/* relative: a post, a file, a page */
}

/*
 * dest[0..len), a link's destination, kept when it may name something
 * (scan_is_checked_link()).  md: a Markdown one, whose backslash
 * escapes of ASCII punctuation ("image\(1\).png") are read as cmark
 * reads them; else an HTML attribute's, as written.
 */
static void
check_dest(struct scan *s, const char *dest, size_t len, unsigned line,
    unsigned col, int md)
{
	struct scan_link	*r;
	size_t			 i, k;

	if (len == 0 || len > 1024 || !scan_is_checked_link(dest, len))
		return;
	if (s->n % 8 == 0)
		s->refs = xreallocarray(s->refs, s->n + 8, sizeof(*s->refs));
	r = &s->refs[s->n++];
	r->url = xstrndup(dest, len);
	for (i = k = 0; md && i < len; i++, k++) {
		if (dest[i] == '\\' && i + 1 < len &&
		    ispunct((unsigned char)dest[i + 1]))
			i++;
		r->url[k] = dest[i];
	}
	if (md)
		r->url[k] = '\0';
	r->line = line;
	r->col = col;
}

/*
 * The destination starting at p: "<...>", or up to a blank or the ')'
 * that closes the link, as CommonMark reads it: an escaped character
 * is part of it, and so are balanced parentheses ("x(1).png").
 */
static size_t
dest_len(const char *p, const char *end, int *angle)
{
	const char	*q = p;
	int		 depth = 0;

	*angle = (q < end && *q == '<');
	if (*angle) {
		for (q++; q < end && *q != '>' && *q != '\n'; q++)
			if (*q == '\\' && q + 1 < end && q[1] != '\n')
				q++;
		return (size_t)(q - p - 1);
	}
	for (; q < end && !isspace((unsigned char)*q); q++) {
		if (*q == '\\' && q + 1 < end &&
		    ispunct((unsigned char)q[1]))
			q++;
		else if (*q == '(')
			depth++;
		else if (*q == ')' && depth-- == 0)
			break;
	}
	return (size_t)(q - p);
}

/*
 * The bytes the scan stops at outside a tag and outside code: a line's
 * end, a code span, a tag's start or end, a link's "](".  Every other
 * byte is stepped over in a tight loop: the scan reads each body of a
 * capsule at every load, and a byte at a time through every test was
 * half of the load's time.
 */
static const unsigned char stop[256] = {
	['\n'] = 1, ['`'] = 1, ['<'] = 1, ['>'] = 1, [']'] = 1,
};
static int	 bytewise;		/* scan_bytewise(): tests only */

void
scan_bytewise(int on)
{
	bytewise = on;
}

/* The first stop byte in p[0..end), or end: eight bytes a step. */
static const char *
skip(const char *p, const char *end)
{
	const unsigned char	*u = (const unsigned char *)p;
	const unsigned char	*e = (const unsigned char *)end;

	while (e - u >= 8 && !(stop[u[0]] | stop[u[1]] | stop[u[2]] |
	    stop[u[3]] | stop[u[4]] | stop[u[5]] | stop[u[6]] | stop[u[7]]))
		u += 8;
	while (u < e && !stop[*u])
		u++;
	return (const char *)u;
}

static void
scan_text(struct scan *s, const char *md, size_t len)
{
	const char	*p = md, *end = md + len, *bol = md, *q, *eol;
	struct blocks	 b;
	enum blocks_kind kind;
	unsigned	 line = s->line0;
	int		 code = 0, angle, intag = 0;
	char		 quote;
	size_t		 n;

	blocks_init(&b);
	while (p < end) {
		if (p == bol) {
			/* Fences and indented code: no links in them. */
			if ((eol = memchr(p, '\n', (size_t)(end - p))) == NULL)
				eol = end;
			kind = blocks_line(&b, p, (size_t)(eol - p));
			code = kind == BLOCKS_FENCE || kind == BLOCKS_CODE;
			/*
			 * "[label]: dest", a reference definition; not a
			 * footnote's "[^label]: text", which has none.
			 */
			if (kind == BLOCKS_TEXT && !(p + b.text + 1 < eol &&
			    p[b.text] == '[' && p[b.text + 1] == '^') &&
			    (q = blocks_refdef(p + b.text, eol)) != NULL) {
				while (q < end && (*q == ' ' || *q == '\t'))
					q++;
				n = dest_len(q, end, &angle);
				check_dest(s, q + angle, n, line,
				    (unsigned)(q - bol) + 1, 1);
			}
		}
		if (*p == '\n') {
			line++;
			bol = ++p;
			continue;
		}
		if (code && bytewise) {
			p++;
			continue;
		}
		if (code) {		/* to the line's end at once */
			if ((p = memchr(p, '\n', (size_t)(end - p))) == NULL)
				p = end;
			continue;
		}
		if (!intag && !stop[(unsigned char)*p] && !bytewise) {
			p = skip(p + 1, end);
			continue;
		}
		if (*p == '`') {	/* skip a code span on this line */
			q = p + 1;
			while (q < end && *q != '`' && *q != '\n')
				q++;
			p = (q < end && *q == '`') ? q + 1 : p + 1;
			continue;
		}
		/* Raw HTML: the href and src of a tag, as written. */
		if (*p == '<' && p + 1 < end && isalpha((unsigned char)p[1]))
			intag = 1;
		else if (*p == '>')
			intag = 0;
		else if (intag && isspace((unsigned char)p[-1]) &&
		    ((end - p > 5 && strncasecmp(p, "href=", 5) == 0) ||
		    (end - p > 4 && strncasecmp(p, "src=", 4) == 0))) {
			q = p + ((*p | 0x20) == 'h' ? 5 : 4);
			quote = (*q == '"' || *q == '\'') ? *q++ : 0;
			for (p = q; p < end && *p != '\n' && (quote ? *p != quote :
			    !isspace((unsigned char)*p) && *p != '>'); p++)
				;
			check_dest(s, q, (size_t)(p - q), line,
			    (unsigned)(q - bol) + 1, 0);
			continue;
		}
		if (*p == ']' && p + 1 < end && p[1] == '(') {
			q = p + 2;
			n = dest_len(q, end, &angle);
			check_dest(s, q + angle, n, line,
			    (unsigned)(q - bol) + 1, 1);
			p = q;
			continue;
		}
		p++;
	}
}

struct scan_link *
scan_links(const char *md, size_t len, unsigned line0, size_t *np)
{
	struct scan	 s;

	memset(&s, 0, sizeof(s));
	s.line0 = line0;
	scan_text(&s, md, len);
	*np = s.n;
	return s.refs;
}

void
scan_links_free(struct scan_link *refs, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		free(refs[i].url);
	free(refs);
}

/*
 * atx-h1 = 0*3" " "#" ( 1*(" " / TAB) text / ) [ 1*(" " / TAB) *"#" ]
 *          *(" " / TAB) ( LF / CRLF / end )
 */
/*
 * Does the heading text h[0..len) say title, its entities decoded, in
 * any case, accents and typographic punctuation aside (fold_ascii())?
 * "About &amp; me" says "About & Me".
 */
static int
same_title(const char *h, size_t len, const char *title)
{
	struct buf	 dec = BUF_INIT, a = BUF_INIT, b = BUF_INIT;
	int		 same;

	entity_decode_all(&dec, h, len);
	fold_ascii_add(&a, dec.data ? dec.data : "", dec.len);
	fold_ascii_add(&b, title, strlen(title));
	same = a.len == b.len && (a.len == 0 ||
	    strcasecmp(a.data, b.data) == 0);
	buf_free(&dec);
	buf_free(&a);
	buf_free(&b);
	return same;
}

size_t
scan_repeated_title(const char *md, size_t len, const char *title)
{
	size_t	 i = 0, line, s, e, n;

	if (md == NULL || title == NULL)
		return 0;
	/* Blank lines first. */
	for (line = 0; i < len; line = ++i) {
		while (i < len && (md[i] == ' ' || md[i] == '\t' ||
		    md[i] == '\r'))
			i++;
		if (i == len || md[i] != '\n')
			break;
	}
	i = line;
	for (n = 0; n < 3 && i < len && md[i] == ' '; n++)
		i++;
	if (i == len || md[i] != '#')
		return 0;
	i++;
	if (i < len && md[i] != ' ' && md[i] != '\t' && md[i] != '\n' &&
	    md[i] != '\r')
		return 0;		/* "##" or "#tag" */
	for (e = i; e < len && md[e] != '\n'; e++)
		;
	s = i;
	while (s < e && (md[s] == ' ' || md[s] == '\t'))
		s++;
	n = e;
	while (n > s && (md[n - 1] == ' ' || md[n - 1] == '\t' ||
	    md[n - 1] == '\r'))
		n--;
	/* A closing run of '#' counts only after a space. */
	i = n;
	while (i > s && md[i - 1] == '#')
		i--;
	if (i == s || md[i - 1] == ' ' || md[i - 1] == '\t') {
		n = i;
		while (n > s && (md[n - 1] == ' ' || md[n - 1] == '\t'))
			n--;
	}
	if (!same_title(md + s, n - s, title))
		return 0;
	return e < len ? e + 1 : e;
}
