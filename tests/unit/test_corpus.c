/*
 * test_corpus.c -- a real archive (18F's blog) served as it is.
 *
 * Loads the handed 18F archive (509 posts of a Jekyll/Eleventy blog,
 * kept outside the repository) as a capsule's posts, renders every post
 * over Gemini and Gopher through the router, and checks what a reader
 * meets:
 *   - no line of template syntax outside preformatted blocks;
 *   - no raw HTML tag of an element naming a URL shown as text (a
 *     quote never closed: "<a href=\"http://x>Words</a>");
 *   - at least 95 % of the URLs named in raw HTML (counted from the
 *     sources by a scanner of this file's own, not by the code under
 *     test) kept as Gemini link lines;
 *   - every post has a summary for the feeds (its own, or its first
 *     paragraph);
 *   - all 509 posts loaded and listed;
 *   - no link line to a bare "#fragment";
 *   - every link to the capsule itself, on every post page and on the
 *     lists (home, posts, tags, series), answers 20 over Gemini (after
 *     a redirect), and every Gopher reference to the capsule resolves.
 * The capsule is configured as a writer moving this blog would: web_url
 * names the old site, so what names nothing here links there (with
 * CORPUS_NO_WEB_URL set it is not, and the share of URLs kept is only
 * printed: what names nothing is then plain text, by design).
 * It also times the template pass alone over every body.
 * The figures are printed, so the run is also the measurement.
 *
 * The archive is found at $CAPSULED_CORPUS, else in a folder
 * shared/corpus/18f beside the checkout (or one level further up, for a
 * worktree); without it the test says so and counts as skipped.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "content/archive.h"
#include "content/frontmatter.h"
#include "markdown/template.h"
#include "core/buf.h"
#include "core/config.h"
#include "core/log.h"
#include "core/url.h"
#include "core/util.h"
#include "files.h"
#include "harness.h"
#include "site/router.h"
#include "site/site.h"

#define MAX_URLS	256	/* per post */

/*
 * Template syntax as a reader would recognise it: a Liquid tag ("{%",
 * "%}"), a Hugo shortcode ("{{<", ">}}", "{{%", "%}}"), or a Liquid
 * output "{{" followed by an expression (a name, a quoted string).
 */
static int
template_line(const char *s, size_t len)
{
	size_t	 i, j;

	for (i = 0; i + 1 < len; i++) {
		if ((s[i] == '{' && s[i + 1] == '%') ||
		    (s[i] == '%' && s[i + 1] == '}') ||
		    (s[i] == '>' && s[i + 1] == '}' && i + 2 < len &&
		    s[i + 2] == '}'))
			return 1;
		if (s[i] != '{' || s[i + 1] != '{')
			continue;
		j = i + 2;
		if (j < len && (s[j] == '<' || s[j] == '%'))
			return 1;
		while (j < len && (s[j] == ' ' || s[j] == '-'))
			j++;
		if (j < len && (isalpha((unsigned char)s[j]) || s[j] == '"' ||
		    s[j] == '\'' || s[j] == '_'))
			return 1;
	}
	return 0;
}

/*
 * The line with its code spans blanked: template syntax in `code` is
 * the writer's example, kept by design (template.h); the renderers show
 * the backticks, so a reader sees it is code.
 */
static int
template_outside_code(const char *s, size_t len, unsigned *incode)
{
	char	*t = xstrndup(s, len);
	size_t	 i, k, n, j;
	int	 rv;

	for (i = 0; i < len; i = k) {
		if (t[i] != '`') {
			k = i + 1;
			continue;
		}
		for (n = 0; i + n < len && t[i + n] == '`'; n++)
			;
		/* the closing run of the same length */
		for (j = i + n; j < len; j++) {
			size_t	 m;

			if (t[j] != '`')
				continue;
			for (m = 0; j + m < len && t[j + m] == '`'; m++)
				;
			if (m == n)
				break;
			j += m - 1;
		}
		if (j >= len) {
			k = i + n;
			continue;
		}
		memset(t + i, ' ', j + n - i);
		k = j + n;
	}
	rv = template_line(t, len);
	if (!rv && template_line(s, len))
		(*incode)++;
	free(t);
	return rv;
}

/*
 * What the writer protected with {% raw %}: text that looks like
 * template syntax on purpose ("{{ your password }}").  A line holding
 * such a thing is not counted when the post has a raw block with "{{"
 * or "{%" in it.
 */
static int
raw_protects(const char *src)
{
	const char	*p = src, *e;

	while ((p = strstr(p, "raw")) != NULL) {
		if ((e = strstr(p, "endraw")) == NULL)
			return 0;
		for (; p < e; p++)
			if ((p[0] == '{' && (p[1] == '{' || p[1] == '%')))
				return 1;
		p = e + 6;
	}
	return 0;
}

static unsigned	 incode;	/* lines with it only in code spans */

/* Lines of template syntax in a gemtext body, outside ``` blocks. */
static unsigned
count_gmi(const char *s, size_t len, int excuse, unsigned *excused,
    const char *what)
{
	const char	*end = s + len, *nl;
	unsigned	 n = 0;
	int		 pre = 0;

	for (; s < end; s = nl + 1) {
		if ((nl = memchr(s, '\n', (size_t)(end - s))) == NULL)
			nl = end;
		if (nl - s >= 3 && memcmp(s, "```", 3) == 0) {
			pre = !pre;
			continue;
		}
		if (pre || !template_outside_code(s, (size_t)(nl - s),
		    &incode))
			continue;
		if (excuse) {
			(*excused)++;
			continue;
		}
		if (n++ < 3 && getenv("CORPUS_VERBOSE") != NULL)
			fprintf(stderr, "%s: %.*s\n", what, (int)(nl - s), s);
	}
	return n;
}

/*
 * Lines of a gemtext page, outside ``` blocks and code spans, that show
 * a tag of an element naming a URL ("<a href=...", "<img ...") as text:
 * raw HTML a reader was meant never to see.
 */
static unsigned
tag_lines(const char *s, size_t len, const char *what)
{
	static const char *const tags[] = { "<a ", "<img ", "<iframe ",
	    "<video ", "<source ", "<embed " };
	const char	*end = s + len, *nl;
	char		*line, *p;
	unsigned	 n = 0;
	size_t		 k;
	int		 pre = 0, code;

	for (; s < end; s = nl + 1) {
		if ((nl = memchr(s, '\n', (size_t)(end - s))) == NULL)
			nl = end;
		if (nl - s >= 3 && memcmp(s, "```", 3) == 0) {
			pre = !pre;
			continue;
		}
		if (pre)
			continue;
		line = xstrndup(s, (size_t)(nl - s));
		for (p = line, code = 0; *p != '\0'; p++) {
			if (*p == '`')
				code = !code;
			if (code)
				*p = ' ';
		}
		for (k = 0; k < nitems(tags); k++)
			if (strcasestr(line, tags[k]) != NULL)
				break;
		if (k < nitems(tags) && n++ < 3 &&
		    getenv("CORPUS_VERBOSE") != NULL)
			fprintf(stderr, "%s: tag as text: %s\n", what, line);
		free(line);
	}
	return n;
}

/*
 * The same for Gopher text; code blocks are indented four spaces.
 * Prose is wrapped, and a code span may be cut by the wrap, so lines
 * are read a paragraph (a run of non-blank lines) at a time.
 */
static unsigned
count_gph(const char *s, size_t len, int excuse, unsigned *excused,
    const char *what)
{
	const char	*end = s + len, *nl, *para = NULL, *q, *qn;
	size_t		 l;
	unsigned	 n = 0, hits;

	for (; s <= end; s = nl + 1) {
		if ((nl = memchr(s, '\n', (size_t)(end - s))) == NULL)
			nl = end;
		l = (size_t)(nl - s);
		if (l > 0 && s[l - 1] == '\r')
			l--;
		if (para == NULL && l > 0 && !(l >= 4 &&
		    memcmp(s, "    ", 4) == 0))
			para = s;
		if (para != NULL && (l == 0 || nl == end || (l >= 4 &&
		    memcmp(s, "    ", 4) == 0))) {
			/* para .. the line before this one (or this one) */
			const char	*pe = l == 0 || (l >= 4 &&
			    memcmp(s, "    ", 4) == 0) ? s : nl;
			char		*joined;
			size_t		 k;

			joined = xstrndup(para, (size_t)(pe - para));
			for (k = 0; joined[k] != '\0'; k++)
				if (joined[k] == '\n' || joined[k] == '\r')
					joined[k] = ' ';
			if (template_outside_code(joined, strlen(joined),
			    &incode)) {
				for (hits = 0, q = para; q < pe; q = qn + 1) {
					if ((qn = memchr(q, '\n',
					    (size_t)(pe - q))) == NULL)
						qn = pe;
					if (template_line(q, (size_t)(qn - q)))
						hits++;
				}
				if (hits == 0)
					hits = 1;
				if (excuse)
					*excused += hits;
				else {
					if (getenv("CORPUS_VERBOSE") != NULL)
						fprintf(stderr, "%s: %s\n",
						    what, joined);
					n += hits;
				}
			}
			free(joined);
			para = NULL;
		}
		if (nl == end)
			break;
	}
	return n;
}

/*
 * URLs named in raw HTML, counted from the source: the href of <a>,
 * the src of <img>, <iframe>, <video>, <audio>, <source>, <embed>,
 * the first srcset candidate, the data of <object>; not a <source> in
 * a <picture>, the same image as its <img> in another size.  A value
 * written as a template output ({{ "/x" | url }}) counts as the string
 * it names.  Fenced code is skipped; fragment-only ("#x") and
 * javascript: hrefs name no page and are not counted.
 */
static const char *const url_tags[] = {
	"a", "img", "iframe", "video", "audio", "source", "embed", "object",
};

/*
 * The value at p (after "="): quoted or not; a {{ }} output inside it
 * is one unit (its own quotes do not end the value).  Returns the
 * bytes taken.
 */
static size_t
attr_value(const char *p, char *out, size_t size)
{
	const char	*s = p, *e;
	size_t		 n = 0;
	char		 q = 0;

	if (*s == '"' || *s == '\'')
		q = *s++;
	for (; *s != '\0'; s++) {
		if (s[0] == '{' && s[1] == '{' && (e = strstr(s, "}}")) !=
		    NULL) {
			for (; s < e + 2; s++)
				if (n + 1 < size)
					out[n++] = *s;
			s--;
			continue;
		}
		if (q ? *s == q : (isspace((unsigned char)*s) || *s == '>'))
			break;
		if (n + 1 < size)
			out[n++] = *s;
	}
	out[n] = '\0';
	if (q && *s == q)
		s++;
	return (size_t)(s - p);
}

/*
 * The URL a value names: each {{ }} output becomes the string literal
 * in it, or "" for site.baseurl and site.url; 0 when an output names
 * no string (a variable: no URL the source names).
 */
static int
substitute(char *v)
{
	char	 out[512], *s, *e, *q, *r;
	size_t	 n = 0;

	for (s = v; *s != '\0'; ) {
		if (s[0] == '{' && s[1] == '{' && (e = strstr(s, "}}")) !=
		    NULL) {
			for (q = s + 2; q < e && *q != '"' && *q != '\''; q++)
				;
			if (q < e && (r = memchr(q + 1, *q, (size_t)(e - q -
			    1))) != NULL) {
				for (q++; q < r && n + 1 < sizeof(out); q++)
					out[n++] = *q;
			} else if (memmem(s, (size_t)(e - s), "site.", 5) ==
			    NULL)
				return 0;
			s = e + 2;
			continue;
		}
		if (n + 1 < sizeof(out))
			out[n++] = *s;
		s++;
	}
	out[n] = '\0';
	memcpy(v, out, n + 1);
	return 1;
}

static void
trim(char *s)
{
	size_t	 n;

	while (isspace((unsigned char)*s))
		memmove(s, s + 1, strlen(s));
	n = strlen(s);
	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
}

static size_t
html_urls(const char *src, char urls[][512], size_t max)
{
	const char	*p = src, *t, *eol;
	char		 name[16], attr[16], val[512];
	size_t		 n = 0, k, i;
	int		 fence = 0, q, picture = 0;

	for (; *p != '\0'; p = *eol ? eol + 1 : eol) {
		eol = strchr(p, '\n');
		if (eol == NULL)
			eol = p + strlen(p);
		for (t = p; t < eol && (*t == ' ' || *t == '\t' ||
		    *t == '>'); t++)
			;
		if (eol - t >= 3 && (strncmp(t, "```", 3) == 0 ||
		    strncmp(t, "~~~", 3) == 0)) {
			fence = !fence;
			continue;
		}
		if (fence)
			continue;
		for (t = p; t < eol; t++) {
			if (*t == '`') {	/* a code span on the line */
				const char *c = memchr(t + 1, '`',
				    (size_t)(eol - t - 1));
				if (c != NULL)
					t = c;
				continue;
			}
			if (*t == '<' && t[1] == '/' &&
			    strncasecmp(t + 2, "picture", 7) == 0)
				picture = 0;
			if (*t != '<' || !isalpha((unsigned char)t[1]))
				continue;
			for (k = 0, t++; isalnum((unsigned char)*t) &&
			    k < sizeof(name) - 1; t++)
				name[k++] = (char)tolower((unsigned char)*t);
			name[k] = '\0';
			if (strcmp(name, "picture") == 0)
				picture = 1;
			for (i = 0; i < nitems(url_tags); i++)
				if (strcmp(name, url_tags[i]) == 0)
					break;
			if (i == nitems(url_tags) || (picture &&
			    strcmp(name, "source") == 0))
				continue;
			/* attributes, up to '>' (may run past the line) */
			for (q = 0; *t != '\0' && *t != '>'; ) {
				while (isspace((unsigned char)*t))
					t++;
				for (k = 0; (isalnum((unsigned char)*t) ||
				    *t == '-') && k < sizeof(attr) - 1; t++)
					attr[k++] = (char)tolower(
					    (unsigned char)*t);
				attr[k] = '\0';
				if (k == 0) {
					if (*t != '\0' && *t != '>')
						t++;
					continue;
				}
				while (isspace((unsigned char)*t))
					t++;
				if (*t != '=')
					continue;
				t++;
				while (isspace((unsigned char)*t))
					t++;
				val[0] = '\0';
				t += attr_value(t, val, sizeof(val));
				if (!substitute(val))
					continue;
				trim(val);
				if (strcmp(attr, "srcset") == 0)
					val[strcspn(val, " ,")] = '\0';
				else if (!(strcmp(attr, "href") == 0 &&
				    strcmp(name, "a") == 0) &&
				    !(strcmp(attr, "src") == 0 &&
				    strcmp(name, "a") != 0) &&
				    !(strcmp(attr, "data") == 0 &&
				    strcmp(name, "object") == 0))
					continue;
				/* Not URL-shaped: a quote left open. */
				if (val[0] == '\0' || val[0] == '#' ||
				    strncasecmp(val, "javascript:", 11) == 0 ||
				    strpbrk(val, " \t\n<>\"") != NULL)
					continue;
				for (i = 0; i < n; i++)
					if (strcmp(urls[i], val) == 0)
						break;
				if (i == n && n < max)
					snprintf(urls[n++], 512, "%s", val);
				q++;
			}
			if (*t == '\0')
				return n;
			if (t >= eol) {		/* the tag ran past the line */
				eol = t;
				break;
			}
		}
	}
	return n;
}

/*
 * url, as the page may show it: a scheme or "//" dropped, a trailing
 * "/" dropped, percent-encoded spaces.  Site paths are rewritten by the
 * server (a post's old address becomes /posts/<slug>), so a relative or
 * root-relative one is matched by its last segment.
 */
static void
norm(const char *u, char *out, size_t size)
{
	const char	*p = u;
	size_t		 n = 0;

	if (strncasecmp(p, "https:", 6) == 0)
		p += 6;
	else if (strncasecmp(p, "http:", 5) == 0)
		p += 5;
	if (strncmp(p, "//", 2) == 0)
		p += 2;
	for (; *p != '\0' && n + 4 < size; p++) {
		if (*p == ' ') {
			memcpy(out + n, "%20", 3);
			n += 3;
		} else
			out[n++] = *p;
	}
	while (n > 0 && out[n - 1] == '/')
		n--;
	out[n] = '\0';
}

static const char *
last_segment(const char *s)
{
	const char	*slash = strrchr(s, '/');

	return slash ? slash + 1 : s;
}

/*
 * A video player's address is linked as the video's own page:
 * ".../embed/ID" as "watch?v=ID", "player.vimeo.com/video/ID" as
 * "vimeo.com/ID".
 */
static void
video_page(const char *url, char *out, size_t size)
{
	const char	*p;

	if ((p = strstr(url, "youtube")) != NULL &&
	    (p = strstr(p, "/embed/")) != NULL)
		snprintf(out, size, "www.youtube.com/watch?v=%.*s",
		    (int)strcspn(p + 7, "?&#/"), p + 7);
	else if ((p = strstr(url, "player.vimeo.com/video/")) != NULL)
		snprintf(out, size, "vimeo.com/%.*s",
		    (int)strcspn(p + 23, "?&#/"), p + 23);
	else
		norm(url, out, size);
}

/* Is url on one of the page's link lines? */
static int
kept(const char *page, const char *url)
{
	const char	*p, *nl, *sp;
	char		 want[600], got[600], line[600];
	size_t		 l, wl;
	int		 site;

	video_page(url, want, sizeof(want));
	site = strstr(url, "://") == NULL && strncmp(url, "//", 2) != 0;
	wl = strlen(want);
	for (p = page; (p = strstr(p, "=> ")) != NULL; p = nl) {
		if (p != page && p[-1] != '\n') {
			nl = p + 3;
			continue;
		}
		p += 3;
		nl = strchr(p, '\n');
		sp = strchr(p, ' ');
		if (nl == NULL)
			nl = p + strlen(p);
		if (sp == NULL || sp > nl)
			sp = nl;
		l = (size_t)(sp - p);
		snprintf(line, sizeof(line), "%.*s", (int)(l < 599 ? l : 599),
		    p);
		norm(line, got, sizeof(got));
		l = strlen(got);
		if (l >= wl && wl > 0 && strcmp(got + l - wl, want) == 0)
			return 1;
		if (site && *last_segment(want) != '\0' &&
		    strcmp(last_segment(got), last_segment(want)) == 0)
			return 1;
		/* A post's old address "/2015/01/02/slug" -> /posts/slug */
		if (site && strncmp(got, "/posts/", 7) == 0 &&
		    strstr(want, got + 7) != NULL)
			return 1;
	}
	return 0;
}

/* Internal links, each routed once. */
struct seen {
	char		**url;
	int		 *ok;
	size_t		  n;
};

static int
answers(const struct config *c, struct site *site, enum surface proto,
    const char *url)
{
	struct router_req	 req;
	struct response		 r;
	char			*path = xstrdup(url);
	int			 ok, hops;

	memset(&req, 0, sizeof(req));
	req.surface = proto;
	for (hops = 0; ; hops++) {
		path[strcspn(path, "?#")] = '\0';
		if (url_decode(path) == -1) {
			free(path);
			return 0;
		}
		req.path = path;
		response_init(&r);
		router_handle(c, site, &req, &r);
		ok = r.status == 20 || (r.status == 10 &&
		    strcmp(path, "/search") == 0);
		if (r.status / 10 == 3 && r.meta[0] == '/' && hops < 3) {
			free(path);
			path = xstrdup(r.meta);
			response_free(&r);
			continue;
		}
		response_free(&r);
		break;
	}
	free(path);
	return ok;
}

static int
check_link(struct seen *sn, const struct config *c, struct site *site,
    enum surface proto, const char *url, const char *from)
{
	size_t	 i;

	for (i = 0; i < sn->n; i++)
		if (strcmp(sn->url[i], url) == 0)
			return sn->ok[i];
	sn->url = xreallocarray(sn->url, sn->n + 1, sizeof(*sn->url));
	sn->ok = xreallocarray(sn->ok, sn->n + 1, sizeof(*sn->ok));
	sn->url[sn->n] = xstrdup(url);
	sn->ok[sn->n] = answers(c, site, proto, url);
	if (!sn->ok[sn->n] && getenv("CORPUS_VERBOSE") != NULL)
		fprintf(stderr, "%s: %s link %s answers no 20\n", from,
		    proto == SURFACE_GEMINI ? "gemini" : "gopher", url);
	return sn->ok[sn->n++];
}

static void
seen_free(struct seen *sn)
{
	size_t	 i;

	for (i = 0; i < sn->n; i++)
		free(sn->url[i]);
	free(sn->url);
	free(sn->ok);
}

/*
 * The link lines of a gemtext page: to "#..." (counted in *frag), and
 * to the capsule ("/..."), routed; returns how many of those failed.
 */
static unsigned
gmi_links(struct seen *sn, const struct config *c, struct site *site,
    const char *page, unsigned *nlinks, unsigned *frag, const char *from)
{
	const char	*p, *nl;
	char		*url;
	unsigned	 bad = 0;

	for (p = page; *p != '\0'; p = *nl ? nl + 1 : nl) {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);
		if (strncmp(p, "=> ", 3) != 0)
			continue;
		url = xstrndup(p + 3, strcspn(p + 3, " \n"));
		if (url[0] == '#')
			(*frag)++;
		else if (url[0] == '/' && url[1] != '/') {
			(*nlinks)++;
			if (!check_link(sn, c, site, SURFACE_GEMINI, url, from))
				bad++;
		}
		free(url);
	}
	return bad;
}

/* The same for a Gopher text's references to this capsule. */
static unsigned
gph_links(struct seen *sn, const struct config *c, struct site *site,
    const char *page, size_t len, unsigned *nlinks, const char *from)
{
	const char	*p = page, *end = page + len, *sel;
	char		*url;
	unsigned	 bad = 0;

	while ((p = memmem(p, (size_t)(end - p), "gopher://localhost:",
	    19)) != NULL) {
		p += 19;
		if ((sel = memchr(p, '/', (size_t)(end - p))) == NULL ||
		    sel + 2 >= end)
			break;
		sel += 2;		/* the '/' and the item type */
		url = xstrndup(sel, strcspn(sel, " \r\n\t"));
		(*nlinks)++;
		if (!check_link(sn, c, site, SURFACE_GOPHER, url, from))
			bad++;
		free(url);
		p = sel;
	}
	return bad;
}

/*
 * The items of a gophermap that lead into this capsule (host
 * "localhost", not an 'i' line), routed; returns how many fail.
 */
static unsigned
menu_links(struct seen *sn, const struct config *c, struct site *site,
    const char *page, size_t len, unsigned *nlinks, const char *from)
{
	const char	*p = page, *end = page + len, *nl, *t1, *t2;
	char		*sel;
	unsigned	 bad = 0;

	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		if (*p == 'i' || *p == '3' || *p == '.' ||
		    (t1 = memchr(p, '\t', (size_t)(nl - p))) == NULL ||
		    (t2 = memchr(t1 + 1, '\t', (size_t)(nl - t1 - 1))) ==
		    NULL || (size_t)(nl - t2) < 11 ||
		    strncmp(t2 + 1, "localhost\t", 10) != 0 ||
		    strncmp(t1 + 1, "URL:", 4) == 0)
			continue;
		sel = xstrndup(t1 + 1, (size_t)(t2 - t1 - 1));
		(*nlinks)++;
		if (!check_link(sn, c, site, SURFACE_GOPHER, sel, from))
			bad++;
		free(sel);
	}
	return bad;
}

/* The template pass alone over every post body: best of five, in ms. */
static double
time_templates(const char *dir, const struct archive *a, size_t *nwith)
{
	struct template_result	 r;
	struct meta		 m;
	struct fm_error		 fe;
	char			 path[4600], **src;
	size_t			*len, *off, i, round;
	double			 t0, t, best = 1e30;

	src = xcalloc(a->nposts, sizeof(*src));
	len = xcalloc(a->nposts, sizeof(*len));
	off = xcalloc(a->nposts, sizeof(*off));
	*nwith = 0;
	for (i = 0; i < a->nposts; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, a->posts[i]->path);
		if ((src[i] = util_read_file(path, SIZE_MAX, &len[i])) == NULL)
			continue;
		if (frontmatter_parse(src[i], len[i], &m, &fe) == 0) {
			off[i] = m.body_off;
			meta_free(&m);
		}
		if (template_present(src[i] + off[i], len[i] - off[i]))
			(*nwith)++;
	}
	for (round = 0; round < 5; round++) {
		t0 = harness_now_msf();
		for (i = 0; i < a->nposts; i++) {
			if (src[i] == NULL ||
			    !template_present(src[i] + off[i], len[i] - off[i]))
				continue;
			template_rewrite(src[i] + off[i], len[i] - off[i], &r);
			template_result_free(&r);
		}
		if ((t = harness_now_msf() - t0) < best)
			best = t;
	}
	for (i = 0; i < a->nposts; i++)
		free(src[i]);
	free(src);
	free(len);
	free(off);
	return best;
}

static const struct harness_test tests[] = {
	NAMED("corpus"),
};

int
main(int argc, char **argv)
{
	struct config	 c;
	struct archive	*a;
	struct site	*site;
	struct router_req req;
	struct response	 r;
	struct buf	 yaml = BUF_INIT;
	char		*dir, err[512], path[4600], *src, *page;
	char		 (*urls)[512];
	unsigned	 tgmi = 0, tgph = 0, excused = 0, pages_with = 0;
	unsigned	 nurl = 0, nkept = 0, g, h, nosum = 0;
	unsigned	 frag = 0, nint = 0, badint = 0, ngph = 0, badgph = 0;
	unsigned	 nmenu = 0, ntag = 0;
	struct seen	 sgmi = { 0 }, sgph = { 0 };
	static const char *const lists[] = { "/", "/posts/", "/tags/",
	    "/series/", "/gemlog/" };
	size_t		 i, k, n, len, nwith;
	double		 t0, t_load, t_render = 0, t_tpl;
	int		 excuse, no_web;

	HARNESS_INIT(argc, argv, tests);

	if ((dir = test_corpus_dir()) == NULL) {
		harness_skip("no 18f archive next to the checkout "
		    "(CAPSULED_CORPUS unset)");
		return harness_done();
	}
	log_set_level(LOG_LEVEL_ERROR);
	/* CORPUS_NO_WEB_URL: measure without it (links to nothing: text). */
	no_web = getenv("CORPUS_NO_WEB_URL") != NULL;
	buf_printf(&yaml, "hostname: localhost\ncapsule: %s\n%s", dir,
	    no_web ? "" : "web_url: https://18f.gsa.gov\n");
	if (config_load_buffer(&c, "/tmp/corpus.yaml", yaml.data, yaml.len,
	    err, sizeof(err)) == -1) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	t0 = harness_now_msf();
	a = archive_load(&c);
	t_load = harness_now_msf() - t0;
	OK(a != NULL, "the archive loads");
	if (a == NULL)
		return harness_done();
	printf("corpus: %s: %zu posts listed, loaded in %.0f ms\n", dir,
	    a->nposts, t_load);
	site = site_new(a, 0);
	memset(&req, 0, sizeof(req));
	urls = xcalloc(MAX_URLS, sizeof(*urls));
	for (i = 0; i < a->nposts; i++) {
		struct post	*p = a->posts[i];

		if (p->summary == NULL || *p->summary == '\0') {
			nosum++;
			if (getenv("CORPUS_VERBOSE") != NULL)
				fprintf(stderr, "%s: no summary\n", p->path);
		}
		snprintf(path, sizeof(path), "%s/%s", dir, p->path);
		if ((src = util_read_file(path, SIZE_MAX, &len)) == NULL)
			continue;
		excuse = raw_protects(src);
		snprintf(path, sizeof(path), "/posts/%s", p->slug);

		t0 = harness_now_msf();
		response_init(&r);
		req.surface = SURFACE_GEMINI;
		req.path = path;
		router_handle(&c, site, &req, &r);
		t_render += harness_now_msf() - t0;
		page = xstrndup(r.body ? r.body : "", r.bodylen);
		g = count_gmi(page, r.bodylen, excuse, &excused, p->path);
		ntag += tag_lines(page, r.bodylen, p->path);
		badint += gmi_links(&sgmi, &c, site, page, &nint, &frag,
		    p->path);
		response_free(&r);

		t0 = harness_now_msf();
		response_init(&r);
		req.surface = SURFACE_GOPHER;
		router_handle(&c, site, &req, &r);
		t_render += harness_now_msf() - t0;
		h = count_gph(r.body ? r.body : "", r.bodylen, excuse,
		    &excused, p->path);
		badgph += gph_links(&sgph, &c, site, r.body ? r.body : "",
		    r.bodylen, &ngph, p->path);
		response_free(&r);

		/* The post's menu: its links as items (Gopher). */
		snprintf(path, sizeof(path), "/posts/%s/", p->slug);
		response_init(&r);
		router_handle(&c, site, &req, &r);
		if (r.status == 20 && r.gopher_type == '1')
			badgph += menu_links(&sgph, &c, site, r.body ?
			    r.body : "", r.bodylen, &nmenu, p->path);
		response_free(&r);
		tgmi += g;
		tgph += h;
		if (g + h > 0)
			pages_with++;

		n = html_urls(src + p->body_off, urls, MAX_URLS);
		for (k = 0; k < n; k++) {
			nurl++;
			if (kept(page, urls[k]))
				nkept++;
			else if (getenv("CORPUS_VERBOSE") != NULL)
				fprintf(stderr, "%s: lost %s\n", p->path,
				    urls[k]);
		}
		free(page);
		free(src);
	}
	for (i = 0; i < nitems(lists); i++) {
		response_init(&r);
		req.surface = SURFACE_GEMINI;
		req.path = lists[i];
		router_handle(&c, site, &req, &r);
		page = xstrndup(r.body ? r.body : "", r.bodylen);
		badint += gmi_links(&sgmi, &c, site, page, &nint, &frag,
		    lists[i]);
		free(page);
		response_free(&r);
	}
	printf("corpus: rendered %zu posts over Gemini and Gopher in %.0f "
	    "ms\n", a->nposts, t_render);
	printf("corpus: link lines to a bare #fragment: %u\n", frag);
	printf("corpus: links to the capsule: Gemini %u (%zu distinct), %u "
	    "answer no 20; Gopher %u in texts and %u menu items (%zu "
	    "distinct), %u do not resolve\n", nint, sgmi.n, badint, ngph,
	    nmenu, sgph.n, badgph);
	printf("corpus: template syntax outside preformatted blocks: %u "
	    "Gemini lines, %u Gopher lines, on %u pages (not counted: %u "
	    "lines of {%% raw %%}-protected text, %u lines with it only in "
	    "`code`)\n", tgmi, tgph, pages_with, excused, incode);
	printf("corpus: raw HTML tags shown as text on Gemini pages: %u "
	    "lines\n", ntag);
	printf("corpus: URLs named in raw HTML kept as link lines: %u of "
	    "%u (%.1f %%)\n", nkept, nurl, nurl ? 100.0 * nkept / nurl : 0);
	t_tpl = time_templates(dir, a, &nwith);
	printf("corpus: template pass: %.1f ms for the %zu posts with template "
	    "syntax (of %zu), best of 5\n", t_tpl, nwith, a->nposts);
	printf("corpus: posts without a summary for the feeds: %u\n", nosum);
	INT_EQ(nosum, 0, "every post has a summary");
	INT_EQ(a->nposts, 509, "every post loaded and listed");
	INT_EQ(frag, 0, "link lines to a bare #fragment");
	OK(nint > 0 && badint == 0, "Gemini links to the capsule answer 20: "
	    "%u of %u do not", badint, nint);
	OK(ngph > 0 && nmenu > 0 && badgph == 0, "Gopher references and "
	    "menu items to the capsule resolve: %u of %u do not", badgph,
	    ngph + nmenu);
	INT_EQ(tgmi, 0, "template syntax on Gemini pages");
	INT_EQ(ntag, 0, "raw HTML tags shown as text");
	INT_EQ(tgph, 0, "template syntax on Gopher pages");
	if (!no_web)
		OK(nurl > 0 && nkept * 100 >= nurl * 95,
		    "URLs in raw HTML kept: %u of %u", nkept, nurl);
	free(urls);
	seen_free(&sgmi);
	seen_free(&sgph);
	site_unref(site);
	archive_unref(a);
	config_free(&c);
	buf_free(&yaml);
	free(dir);
	return harness_done();
}
