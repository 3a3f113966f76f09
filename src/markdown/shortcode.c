/*
 * shortcode.c -- the names of template constructs in one table, their
 * arguments, and what they stand for (shortcode.h).
 *
 * Pure: reads the construct's text and the bundle's file names it is
 * given, writes into the caller's buffers.  template.c owns the pass
 * over the body and decides where the meaning goes.
 */
#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/entity.h"
#include "core/escape.h"
#include "core/layout.h"
#include "core/util.h"
#include "markdown/html.h"
#include "markdown/shortcode.h"

/*
 * The names, as Jekyll, Eleventy, Hugo and their themes spell them:
 * a name is matched against every rule, and says what all the rules it
 * matches say (an embed: the first).
 */
enum how { IS, STARTS, HAS };

static const struct name_rule {
	enum how		 how;
	unsigned		 kind;		/* SC_* */
	enum shortcode_embed	 embed;		/* or 0 */
	const char		*names[5];	/* NULL-ended */
} name_rules[] = {
	{ IS, SC_POST, 0, { "post_url", "post_path" } },
	{ IS, SC_POST | SC_LABELLED, 0, { "post_link" } },
	/* Hexo's: a file of the post's asset folder. */
	{ IS, SC_ASSET, 0, { "asset_path" } },
	{ IS, SC_ASSET | SC_LABELLED, 0, { "asset_link" } },
	{ IS, SC_ASSET | SC_LABELLED | SC_IMAGE_EXACT, 0,
	    { "asset_img", "asset_image" } },
	{ IS, SC_LINK, 0, { "link", "ref", "relref" } },
	{ IS, SC_INCLUDE, 0,
	    { "include", "include_relative", "render", "partial" } },
	/* Embeds, in this order: "youtube-gist" is a video. */
	{ HAS, 0, SC_EMBED_YOUTUBE, { "youtube" } },
	{ HAS, 0, SC_EMBED_VIMEO, { "vimeo" } },
	{ IS, 0, SC_EMBED_TWEET, { "x", "twitter" } },
	{ HAS, 0, SC_EMBED_TWEET, { "tweet" } },
	{ HAS, 0, SC_EMBED_GIST, { "gist" } },
	{ HAS, 0, SC_EMBED_INSTAGRAM, { "instagram" } },
	/* Images; "figure" alone is one exactly, "my-figure" a guess. */
	{ STARTS, SC_IMAGE | SC_IMAGE_EXACT, 0, { "image", "img" } },
	{ IS, SC_IMAGE_EXACT, 0, { "figure" } },
	{ HAS, SC_IMAGE, 0, { "figure" } },
	{ IS, SC_IMAGE, 0, { "picture", "photo" } },
	{ HAS, SC_PROC, 0, { "imgproc" } },
	{ HAS, SC_GALLERY, 0, { "gallery" } },
	/* Block tags and their Liquid ends. */
	{ IS, SC_RAW, 0, { "raw" } },
	{ IS, SC_COMMENT, 0, { "comment" } },
	/* Jekyll's highlight; Hexo's and Octopress's codeblock, code. */
	{ IS, SC_HIGHLIGHT, 0, { "highlight", "codeblock", "code" } },
	{ IS, SC_RAW | SC_END, 0, { "endraw" } },
	{ IS, SC_COMMENT | SC_END, 0, { "endcomment" } },
	{ IS, SC_HIGHLIGHT | SC_END, 0,
	    { "endhighlight", "endcodeblock", "endcode" } },
};

/* Does name match one of r's names, as r says? */
static int
rule_matches(const struct name_rule *r, const char *name)
{
	const char	*pat;
	size_t		 k;

	for (k = 0; k < nitems(r->names) && (pat = r->names[k]) != NULL;
	    k++)
		switch (r->how) {
		case IS:
			if (strcmp(name, pat) == 0)
				return 1;
			break;
		case STARTS:
			if (strncmp(name, pat, strlen(pat)) == 0)
				return 1;
			break;
		case HAS:
			if (strstr(name, pat) != NULL)
				return 1;
			break;
		}
	return 0;
}

unsigned
shortcode_kind(const char *name, enum shortcode_embed *embed)
{
	const struct name_rule	*r;
	unsigned		 kind = 0;
	size_t			 i;

	if (embed != NULL)
		*embed = SC_EMBED_NONE;
	for (i = 0; i < nitems(name_rules); i++) {
		r = &name_rules[i];
		if (!rule_matches(r, name))
			continue;
		kind |= r->kind;
		if (embed != NULL && *embed == SC_EMBED_NONE)
			*embed = r->embed;
	}
	return kind;
}

/* Liquid's filters that keep a path a path, and the others we know. */
static const struct filter_rule {
	enum shortcode_filter	 filter;
	const char		*names[10];	/* NULL-ended */
} filter_rules[] = {
	{ SC_FILTER_PATH, { "url", "relative_url", "absolute_url", "relurl",
	    "absurl", "escape", "uri_escape", "url_encode", "strip" } },
	{ SC_FILTER_PREPEND, { "prepend" } },
	{ SC_FILTER_APPEND, { "append" } },
	{ SC_FILTER_EMBED, { "embed" } },
};

enum shortcode_filter
shortcode_filter(const char *name)
{
	size_t	 i, k;

	for (i = 0; i < nitems(filter_rules); i++)
		for (k = 0; k < nitems(filter_rules[i].names) &&
		    filter_rules[i].names[k] != NULL; k++)
			if (strcmp(name, filter_rules[i].names[k]) == 0)
				return filter_rules[i].filter;
	return SC_FILTER_UNKNOWN;
}

size_t
shortcode_args(const char *s, size_t len, struct shortcode_arg *a,
    size_t max)
{
	size_t	 i = 0, n = 0, k;
	char	 q;

	while (i < len && n < max) {
		while (i < len && (isspace((unsigned char)s[i]) || s[i] == ','))
			i++;
		if (i >= len)
			break;
		a[n].key = NULL;
		a[n].klen = 0;
		if (s[i] != '"' && s[i] != '\'') {
			for (k = i; k < len && (isalnum((unsigned char)s[k]) ||
			    s[k] == '_' || s[k] == '-'); k++)
				;
			if (k > i && k < len && (s[k] == '=' || (s[k] == ':' &&
			    k + 1 < len && isspace((unsigned char)s[k + 1])))) {
				a[n].key = s + i;
				a[n].klen = k - i;
				i = k + 1;
				while (i < len && isspace((unsigned char)s[i]))
					i++;
			}
		}
		if (i < len && (s[i] == '"' || s[i] == '\'')) {
			q = s[i++];
			for (k = i; k < len && s[k] != q; k++)
				;
			a[n].val = s + i;
			a[n].vlen = k - i;
			i = k < len ? k + 1 : k;
		} else {
			for (k = i; k < len && !isspace((unsigned char)s[k]) &&
			    s[k] != ','; k++)
				;
			a[n].val = s + i;
			a[n].vlen = k - i;
			i = k;
		}
		n++;
	}
	return n;
}

const struct shortcode_arg *
shortcode_named(const struct shortcode_arg *a, size_t n, const char *key)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (a[i].key != NULL && a[i].klen == strlen(key) &&
		    strncasecmp(a[i].key, key, a[i].klen) == 0 &&
		    a[i].vlen > 0)
			return &a[i];
	return NULL;
}

const struct shortcode_arg *
shortcode_nth(const struct shortcode_arg *a, size_t n, size_t which)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (a[i].key == NULL && which-- == 0)
			return &a[i];
	return NULL;
}

void
shortcode_put_url(struct buf *b, const char *u, size_t len, int html)
{
	size_t	 i;

	for (i = 0; i < len; i++) {
		switch (u[i]) {
		case ' ':
			buf_addstr(b, "%20");
			break;
		case '<':
			buf_addstr(b, "%3C");
			break;
		case '>':
			buf_addstr(b, "%3E");
			break;
		case '(':
		case ')':
		case '\\':
			if (!html)
				buf_addc(b, '\\');
			buf_addc(b, u[i]);
			break;
		case '\n':
		case '\r':
		case '\t':
			break;
		case '"':
			if (!html) {
				buf_addstr(b, "%22");
				break;
			}
			/* FALLTHROUGH */
		default:
			if (html)		/* what is left: & and " */
				escape_html(b, u + i, 1);
			else
				buf_addc(b, u[i]);
		}
	}
}

void
shortcode_put_label(struct buf *b, const char *s, size_t len, int html)
{
	struct buf	 dec = BUF_INIT;
	size_t		 i;
	int		 sp = 0;

	/*
	 * The writer's text is HTML's ("&ldquo;"): in HTML it is decoded
	 * first, so that escaping its '&' does not show the reference as
	 * written.  Markdown decodes references in link text itself.
	 */
	if (html) {
		entity_decode_all(&dec, s, len);
		s = dec.data != NULL ? dec.data : "";
		len = dec.len;
	}
	for (i = 0; i < len; i++) {
		if (isspace((unsigned char)s[i])) {
			sp = 1;
			continue;
		}
		if (sp && b->len > 0)
			buf_addc(b, ' ');
		sp = 0;
		if (html)
			escape_html(b, s + i, 1);
		else {
			if (strchr("\\[]*_`<>!", s[i]) != NULL)
				buf_addc(b, '\\');
			buf_addc(b, s[i]);
		}
	}
	buf_free(&dec);
}

void
shortcode_site_path(struct buf *b, const char *p, size_t len)
{
	size_t	 i;

	for (i = 0; i < len && (isalnum((unsigned char)p[i]) || p[i] == '+' ||
	    p[i] == '-' || p[i] == '.'); i++)
		;
	if (!(i < len && p[i] == ':') && !(len > 0 && p[0] == '/'))
		buf_addc(b, '/');
	buf_add(b, p, len);
}

void
shortcode_post_path(struct buf *b, const char *p, size_t len, int post)
{
	const char	*base;

	while (len > 0 && *p == '/')
		p++, len--;
	if (len > 7 && strncmp(p, "_posts/", 7) == 0)
		post = 1;
	if (len > 8 && strncmp(p, "content/", 8) == 0)
		p += 8, len -= 8;
	if (post) {
		for (base = p + len; base > p && base[-1] != '/'; base--)
			;
		len -= (size_t)(base - p);
		p = base;
		if (len > 9 && strncmp(p + len - 9, ".markdown", 9) == 0)
			len -= 9;
		else if (len > 3 && strncmp(p + len - 3, ".md", 3) == 0)
			len -= 3;
		/* The post's file, at its place in the capsule. */
		buf_addstr(b, LAYOUT_PATH_POSTS);
		shortcode_put_url(b, p, len, 0);
		buf_addstr(b, ".md");
		return;
	}
	buf_addc(b, '/');
	shortcode_put_url(b, p, len, 0);
}

static int
is_url(const char *s, size_t len)
{
	return (len > 8 && strncasecmp(s, "https://", 8) == 0) ||
	    (len > 7 && strncasecmp(s, "http://", 7) == 0) ||
	    (len > 2 && strncmp(s, "//", 2) == 0);
}

/* What a link to an embed of each kind says without a title. */
static const char *const embed_labels[] = {
	[SC_EMBED_NONE] = "",
	[SC_EMBED_YOUTUBE] = "YouTube video",
	[SC_EMBED_VIMEO] = "Vimeo video",
	[SC_EMBED_TWEET] = "Tweet",
	[SC_EMBED_GIST] = "Gist",
	[SC_EMBED_INSTAGRAM] = "Instagram post",
};

int
shortcode_embed(enum shortcode_embed kind, const struct shortcode_arg *a,
    size_t n, struct buf *u, struct buf *l)
{
	const struct shortcode_arg	*id, *user, *file, *title;
	char				*e, *v;
	int				 gist = kind == SC_EMBED_GIST;

	if (kind == SC_EMBED_NONE)
		return 0;
	id = shortcode_named(a, n, "id");
	if (id == NULL)
		id = shortcode_named(a, n, "url");
	if (id == NULL)
		id = shortcode_named(a, n, "src");
	user = shortcode_named(a, n, "user");
	if (id == NULL) {
		id = shortcode_nth(a, n, gist && user == NULL ? 1 : 0);
		if (gist && user == NULL)
			user = shortcode_nth(a, n, 0);
		if (kind == SC_EMBED_TWEET && shortcode_nth(a, n, 1) != NULL) {
			user = shortcode_nth(a, n, 0);
			id = shortcode_nth(a, n, 1);
		}
	}
	if (id == NULL || id->vlen == 0)
		return 0;
	title = shortcode_named(a, n, "title");
	if (is_url(id->val, id->vlen)) {
		v = xstrndup(id->val, id->vlen);
		e = html_embed_url(v);
		buf_addstr(u, e);
		free(e);
		free(v);
	} else {
		switch (kind) {
		case SC_EMBED_NONE:
			return 0;
		case SC_EMBED_YOUTUBE:
			buf_printf(u, "https://www.youtube.com/watch?v=%.*s",
			    (int)id->vlen, id->val);
			break;
		case SC_EMBED_VIMEO:
			buf_printf(u, "https://vimeo.com/%.*s", (int)id->vlen,
			    id->val);
			break;
		case SC_EMBED_TWEET:
			if (user != NULL)
				buf_printf(u, "https://twitter.com/%.*s/status/"
				    "%.*s", (int)user->vlen, user->val,
				    (int)id->vlen, id->val);
			else
				buf_printf(u, "https://twitter.com/i/status/"
				    "%.*s", (int)id->vlen, id->val);
			break;
		case SC_EMBED_GIST:
			if (user != NULL)
				buf_printf(u, "https://gist.github.com/"
				    "%.*s/%.*s", (int)user->vlen, user->val,
				    (int)id->vlen, id->val);
			else
				buf_printf(u, "https://gist.github.com/%.*s",
				    (int)id->vlen, id->val);
			file = shortcode_named(a, n, "file");
			if (file == NULL)
				file = shortcode_nth(a, n, 2);
			if (file != NULL && user != NULL)
				buf_printf(u, "#file-%.*s", (int)file->vlen,
				    file->val);
			break;
		case SC_EMBED_INSTAGRAM:
			buf_printf(u, "https://www.instagram.com/p/%.*s/",
			    (int)id->vlen, id->val);
			break;
		}
	}
	if (title != NULL)
		buf_add(l, title->val, title->vlen);
	else
		buf_addstr(l, embed_labels[kind]);
	return 1;
}

/*
 * An image construct: its source and label.  Named parameters first
 * (src, image, img, url, path; caption, alt, title), then positional:
 * the first is the source, and the label the first later one that
 * reads like text rather than a class name.  The caption wins over the
 * alt text: it is the writer's own words for every reader, and a link
 * line has room for one label.
 */
int
shortcode_image(const struct shortcode_arg *a, size_t n,
    const struct shortcode_arg **src, const struct shortcode_arg **label)
{
	static const char *const srcs[] = { "src", "image", "img", "url",
	    "path", "file" };
	static const char *const labels[] = { "caption", "alt", "title",
	    "description" };
	const struct shortcode_arg	*p;
	size_t			 i, k;
	int			 word;

	*src = *label = NULL;
	for (i = 0; i < nitems(srcs) && *src == NULL; i++)
		*src = shortcode_named(a, n, srcs[i]);
	for (i = 0; i < nitems(labels) && *label == NULL; i++)
		*label = shortcode_named(a, n, labels[i]);
	if (*src == NULL && (*src = shortcode_nth(a, n, 0)) == NULL)
		return 0;
	if (*label != NULL)
		return 1;
	for (i = 1; (p = shortcode_nth(a, n, i)) != NULL; i++) {
		if (p == *src || p->vlen == 0)
			continue;
		/* "image-open-source-blog": a class name, not a label. */
		for (word = 1, k = 0; k < p->vlen && word; k++)
			word = islower((unsigned char)p->val[k]) ||
			    isdigit((unsigned char)p->val[k]) ||
			    p->val[k] == '-' || p->val[k] == '_';
		if (!word && p->val[0] != '(') {
			*label = p;
			return 1;
		}
		if (*label == NULL)
			*label = p;
	}
	return 1;
}

void
shortcode_include_name(const struct shortcode_arg *a, size_t n, char *out,
    size_t size)
{
	const struct shortcode_arg	*f = shortcode_nth(a, n, 0);
	const char		*p, *e;
	size_t			 k;

	out[0] = '\0';
	if (f == NULL)
		return;
	e = f->val + f->vlen;
	for (p = e; p > f->val && p[-1] != '/'; p--)
		;
	for (k = 0; p < e && *p != '.' && k < size - 1; p++)
		out[k++] = (char)tolower((unsigned char)*p);
	out[k] = '\0';
}

int
shortcode_image_name(const char *name, size_t len)
{
	static const char *const exts[] = { ".jpg", ".jpeg", ".png", ".gif",
	    ".webp", ".svg", ".avif", ".bmp", ".tif", ".tiff" };
	size_t	 i, k;

	for (i = 0; i < nitems(exts); i++) {
		k = strlen(exts[i]);
		if (len > k && strncasecmp(name + len - k, exts[i], k) == 0)
			return 1;
	}
	return 0;
}

static int
image_file(const char *name)
{
	return shortcode_image_name(name, strlen(name));
}

/* Is name, its extension left out, pat ("x" for "x.jpg")? */
static int
same_stem(const char *name, const char *pat, size_t plen)
{
	const char	*dot = strrchr(name, '.'), *slash = strrchr(name, '/');

	return dot != NULL && (slash == NULL || dot > slash) &&
	    (size_t)(dot - name) == plen && strncasecmp(name, pat, plen) == 0;
}

/* Does name, or the part of it after its last '/', start with pat? */
static int
starts_with(const char *name, const char *pat, size_t plen)
{
	const char	*base = strrchr(name, '/');

	base = base != NULL ? base + 1 : name;
	return strncasecmp(name, pat, plen) == 0 ||
	    strncasecmp(base, pat, plen) == 0;
}

int
shortcode_bundle_relative(const char *s, size_t len)
{
	size_t	 i;

	if (len == 0 || s[0] == '/' || s[0] == '#' || s[0] == '{')
		return 0;
	for (i = 0; i < len && (isalnum((unsigned char)s[i]) || s[i] == '+' ||
	    s[i] == '-' || s[i] == '.'); i++)
		;
	return !(i < len && s[i] == ':');
}

/*
 * The bundle's files that pat names, as Hugo's resource matching picks
 * them: the file of that name; else the one of that name without its
 * extension; else, of images only, those that match pat as a glob
 * (fnmatch(3), any case; '*' also spans folders, as Hugo's "**"), or
 * without glob characters those whose name or last part starts with
 * it (docsy's imgproc asks for "**name*").  At most max indexes into
 * m, in the files' order; returns how many.
 */
size_t
shortcode_bundle_match(const char *const *names, size_t nnames,
    const char *pat, size_t plen, size_t *m, size_t max)
{
	char		 p[256];
	size_t		 i, n = 0;
	int		 glob;

	if (names == NULL || max == 0)
		return 0;
	while (plen >= 2 && pat[0] == '.' && pat[1] == '/')
		pat += 2, plen -= 2;
	if (plen == 0 || plen >= sizeof(p) || memchr(pat, '\0', plen) != NULL)
		return 0;
	memcpy(p, pat, plen);
	p[plen] = '\0';
	for (i = 0; i < nnames; i++)
		if (strcasecmp(names[i], p) == 0) {
			m[0] = i;
			return 1;
		}
	for (i = 0; i < nnames; i++)
		if (same_stem(names[i], p, plen)) {
			m[0] = i;
			return 1;
		}
	glob = strpbrk(p, "*?[") != NULL;
	for (i = 0; i < nnames && n < max; i++) {
		if (!image_file(names[i]))
			continue;
		if (glob ? fnmatch(p, names[i], FNM_CASEFOLD) == 0 :
		    starts_with(names[i], p, plen))
			m[n++] = i;
	}
	return n;
}

