/*
 * fuzz_page.c -- libFuzzer target for page.c and atom.c.
 *
 * The input is a list of records separated by 0x1e; a record's first
 * byte picks a block type, link kind and heading level, the rest is its
 * text (links: "url\x1fdate\x1flabel").  The very first byte sets the
 * Gopher width.  The page is emitted four ways and the output must keep
 * each format's grammar:
 *  - gophermap: CRLF lines with exactly three TABs, a known type, a
 *    display string within the width, ".\r\n" last and only there;
 *  - gemtext (no Markdown blocks): text lines never start with a line
 *    prefix they were not built as, link URLs hold no space or control;
 *  - Atom, with the records as post titles and summaries: valid UTF-8,
 *    no control but TAB/LF/CR, no raw '<' or '&' outside markup;
 *  - with gopher_charset: ascii, the gophermap again (its grammar) and
 *    the text, with no byte past ASCII;
 *  - HTML: valid UTF-8, no control, no '<' in a tag, no script.
 * Markdown records are either shown (their links items after them in a
 * menu) or only their links (a post's menu), by the record's first byte.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "content/archive.h"
#include "core/buf.h"
#include "core/utf8.h"
#include "core/util.h"
#include "site/atom.h"
#include "site/page.h"

int	 LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static int
op_port(const uint8_t *data, size_t size)
{
	return size > 1 ? data[size - 1] * 300 : 1965;
}

static size_t
cols(const char *s, size_t len)
{
	size_t	 i, n = 0;

	for (i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			n++;
	return n;
}

static void
check_gophermap(const struct buf *b, unsigned width)
{
	const char	*s = b->data, *end = b->data + b->len, *crlf, *t1;
	size_t		 len, i, tabs;

	assert(b->len >= 3);
	for (; s < end; s = crlf + 2) {
		crlf = strstr(s, "\r\n");
		assert(crlf != NULL);
		len = (size_t)(crlf - s);
		if (len == 1 && *s == '.') {
			assert(crlf + 2 == end);
			return;
		}
		for (i = 0, tabs = 0; i < len; i++) {
			assert(s[i] != '\r' && s[i] != '\n' && s[i] != '\0');
			tabs += s[i] == '\t';
		}
		assert(tabs == 3);
		assert(strchr("01379ghIidsp:;<", *s) != NULL || *s > 0x20);
		t1 = memchr(s, '\t', len);
		assert(cols(s + 1, (size_t)(t1 - s - 1)) <= width);
	}
	assert(!"no final .");
}

/*
 * Nothing past ASCII in b; in a menu (menu != 0) only the display
 * strings are shown, selectors are the server's bytes and kept.
 */
static void
check_ascii(const struct buf *b, int menu)
{
	size_t	 i;
	int	 shown = 1;

	for (i = 0; i < b->len; i++) {
		if (menu && b->data[i] == '\t')
			shown = 0;
		else if (menu && b->data[i] == '\n')
			shown = 1;
		else if (shown)
			assert((unsigned char)b->data[i] < 0x80);
	}
}

static void
check_gemtext(const struct buf *b, const struct page *p)
{
	const char	*s, *nl, *u;
	size_t		 len;

	if (b->len == 0)
		return;
	assert(b->data[b->len - 1] == '\n');
	assert(strstr(b->data, "\n\n\n") == NULL);
	for (s = b->data; *s != '\0'; s = nl + 1) {
		nl = strchr(s, '\n');
		len = (size_t)(nl - s);
		assert(memchr(s, '\r', len) == NULL);
		if (strncmp(s, "=> ", 3) == 0) {
			u = s + 3;
			assert(*u != ' ' && *u != '\n');
			while (u < nl && *u != ' ')
				assert((unsigned char)*u++ > 0x20);
		}
		/* Headings come only from headings, links from links... */
		if (strncmp(s, "```", 3) == 0 || *s == '>' ||
		    strncmp(s, "* ", 2) == 0)
			assert(!"a prefix no block makes");
	}
	(void)p;
}

static void
check_xml(const struct buf *b)
{
	const unsigned char	*s = (const unsigned char *)b->data;
	size_t			 i;
	int			 intag = 0;

	assert(utf8_valid(b->data, b->len));
	for (i = 0; i < b->len; i++) {
		assert(s[i] >= 0x20 || s[i] == '\t' || s[i] == '\n' ||
		    s[i] == '\r');
		if (s[i] == '<') {
			assert(!intag);
			intag = 1;
		} else if (s[i] == '>')
			intag = 0;
		else if (s[i] == '&')
			assert(strncmp((const char *)s + i, "&amp;", 5) == 0 ||
			    strncmp((const char *)s + i, "&lt;", 4) == 0 ||
			    strncmp((const char *)s + i, "&gt;", 4) == 0 ||
			    strncmp((const char *)s + i, "&quot;", 6) == 0);
		else if (s[i] == '"' && !intag)
			assert(!"raw quote in text");
	}
}

/* The value of the URL attribute (href, src, action) s starts, or NULL. */
static const char *
url_attr(const char *s, size_t len)
{
	static const char *const names[] = { " href=\"", " src=\"",
	    " action=\"" };
	size_t	 i, n;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		n = strlen(names[i]);
		if (len >= n && memcmp(s, names[i], n) == 0)
			return s + n;
	}
	return NULL;
}

/*
 * An HTML page: valid UTF-8, no control but TAB/LF/CR, no '<' inside a
 * tag, no script and no javascript: URL whatever the blocks held.
 */
static void
check_html(const struct buf *b)
{
	const unsigned char	*s = (const unsigned char *)b->data;
	const char		*v;
	size_t			 i;
	int			 intag = 0;

	assert(utf8_valid(b->data, b->len));
	assert(b->len > 15 && memcmp(b->data, "<!DOCTYPE html>", 15) == 0);
	for (i = 0; i < b->len; i++) {
		assert(s[i] >= 0x20 || s[i] == '\t' || s[i] == '\n' ||
		    s[i] == '\r');
		if (s[i] == '<') {
			assert(!intag);
			intag = 1;
			assert(strncasecmp((const char *)s + i, "<script", 7));
		} else if (s[i] == '>')
			intag = 0;
	}
	/* No URL attribute names a script, in any case. */
	for (i = 0; i < b->len; i++)
		if ((v = url_attr(b->data + i, b->len - i)) != NULL)
			assert(strncasecmp(v, "javascript:", 11) != 0 &&
			    strncasecmp(v, "vbscript:", 9) != 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct page_target	 t = {
		.format = FORMAT_GOPHER, .host = "host\tname", .port = 7070,
		.width = 70,
	};
	struct page		 p;
	struct buf		 out = BUF_INIT;
	struct atom_feed	 f;
	struct post		*posts[16], *post;
	char			*copy, *rec, *next, *url, *date, *label;
	size_t			 nposts = 0, i;
	int			 md = 0;
	unsigned char		 op;

	if (size == 0 || size > 1 << 16)
		return 0;
	t.width = data[0] % 90;		/* 0 = default; < 8 is raised */
	copy = xstrndup((const char *)data + 1, size - 1);
	page_init(&p);
	memset(posts, 0, sizeof(posts));
	for (rec = copy; rec != NULL; rec = next) {
		if ((next = strchr(rec, '\x1e')) != NULL)
			*next++ = '\0';
		if (*rec == '\0')
			continue;
		op = (unsigned char)*rec++;
		switch (op % 5) {
		case 0:
			page_heading(&p, op / 5 % 5, "%s", rec);
			break;
		case 1:
			page_text(&p, "%s", rec);
			break;
		case 2:
			url = rec;
			date = label = NULL;
			if ((date = strchr(url, '\x1f')) != NULL) {
				*date++ = '\0';
				if ((label = strchr(date, '\x1f')) != NULL)
					*label++ = '\0';
			}
			page_link(&p, (enum link_kind)(op / 5 % 6), url, date,
			    "%s", label ? label : "");
			break;
		case 3:
			page_blank(&p);
			break;
		case 4:
			if (op / 5 % 2)
				page_source_links(&p, rec, strlen(rec), 0);
			else
				page_source(&p, rec, strlen(rec), 0);
			md = 1;
			break;
		}
		if (nposts < nitems(posts)) {
			post = xcalloc(1, sizeof(*post));
			post->slug = rec;
			post->title = rec;
			post->summary = op & 1 ? rec : NULL;
			post->author = op & 2 ? rec : NULL;
			post->date.t = (time_t)op * 86400 * 40;
			post->updated.t = (time_t)op * 86400 * 41;
			post->date.tzoff = op & 4 ? -90 : 0;
			posts[nposts++] = post;
		}
	}

	page_emit_gophermap(&p, &t, &out);
	check_gophermap(&out, t.width < 8 ? (t.width ? 8 : 70) : t.width);
	buf_free(&out);
	page_emit_gemtext(&p, &t, &out);
	if (!md)
		check_gemtext(&out, &p);
	buf_free(&out);
	page_emit_text(&p, &t, &out);
	buf_free(&out);
	/* HTML: whatever the blocks hold, text and no markup of theirs. */
	page_emit_html(&p, &t, &out);
	check_html(&out);
	buf_free(&out);
	/* gopher_charset: ascii -- the same grammar, and nothing past it. */
	t.ascii = t.ropts.ascii = 1;
	page_emit_gophermap(&p, &t, &out);
	check_gophermap(&out, t.width < 8 ? (t.width ? 8 : 70) : t.width);
	check_ascii(&out, 1);
	buf_free(&out);
	page_emit_text(&p, &t, &out);
	check_ascii(&out, 0);
	buf_free(&out);

	memset(&f, 0, sizeof(f));
	f.host = "h&<\"";
	f.port = op_port(data, size);
	f.self = nposts > 0 ? posts[0]->title : "/atom.xml";
	f.alternate = "/gemlog/";
	f.title = nposts > 1 ? posts[1]->title : "t";
	f.subtitle = nposts > 2 ? posts[2]->title : NULL;
	f.posts = posts;
	f.nposts = nposts;
	f.now = 1;
	atom_feed(&out, &f);
	check_xml(&out);
	buf_free(&out);

	for (i = 0; i < nposts; i++)
		free(posts[i]);
	page_free(&p);
	free(copy);
	return 0;
}
