/*
 * atom.c -- Atom feeds (RFC 4287) of posts.
 *
 * Writes XML into a struct buf from borrowed posts; knows nothing of
 * requests or caching (the router keeps the bytes in a cache slot).
 * Everything written as text goes through escape_xml(), which escapes,
 * repairs UTF-8 and drops what XML 1.0 cannot carry, so no title or
 * summary can make the document ill-formed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "content/archive.h"
#include "content/links.h"
#include "core/buf.h"
#include "core/date.h"
#include "core/escape.h"
#include "core/layout.h"
#include "core/url.h"
#include "core/util.h"
#include "markdown/render.h"
#include "site/atom.h"

#define ATOM_NS		"http://www.w3.org/2005/Atom"

static void
xml_str(struct buf *out, const char *s)
{
	if (s != NULL)
		escape_xml(out, s, strlen(s));
}

/* <name>text</name> on one indented line. */
static void
element(struct buf *out, const char *indent, const char *name,
    const char *text)
{
	buf_printf(out, "%s<%s>", indent, name);
	xml_str(out, text);
	buf_printf(out, "</%s>\n", name);
}

/* base + percent-encoded path, XML-escaped. */
static void
abs_url(struct buf *out, const char *base, const char *path)
{
	struct buf	 u = BUF_INIT;

	buf_addstr(&u, base != NULL ? base : "");
	url_encode_path(path, &u);
	escape_xml(out, u.data, u.len);
	buf_free(&u);
}

static void
add_link(struct buf *out, const char *indent, const char *rel,
    const char *type, const char *base, const char *path)
{
	buf_printf(out, "%s<link rel=\"%s\" type=\"%s\" href=\"", indent, rel,
	    type);
	abs_url(out, base, path);
	buf_addstr(out, "\"/>\n");
}

static const struct date *
entry_updated(const struct post *p)
{
	return p->updated.t >= p->date.t ? &p->updated : &p->date;
}

/* Full content: how the links of one post's body are written. */
struct entry_links {
	const struct archive	*archive;	/* or NULL */
	const char		*from;		/* the post's "posts/x.md" */
	const char		*base;		/* "gemini://host" */
};

/*
 * A feed is read away from the capsule, so a link to one of our pages
 * goes out absolute: links to other posts' files (and old web URLs of
 * them) are resolved as on the post's own page, then every site path
 * gets the base.  Relative and external links are left as written.
 */
static char *
entry_link(void *ctx, const char *url)
{
	struct entry_links	*el = ctx;
	const char		*path;
	char			*to = NULL, *abs;

	if (el->archive != NULL)
		to = links_resolve(el->archive, el->from, url);
	path = to != NULL ? to : url;
	if (path[0] != '/' || path[1] == '/')
		return to;
	abs = xasprintf("%s%s", el->base, path);
	free(to);
	return abs;
}

static void
entry(struct buf *out, const struct atom_feed *f, const char *base,
    const struct post *p, const char *feed_author)
{
	struct entry_links		 el = { f->archive, p->path, base };
	struct render_opts		 ropts = { .rewrite = entry_link,
					    .rewrite_ctx = &el };
	struct buf			 tmp = BUF_INIT;
	char				 ts[32], *path;
	size_t				 i;

	path = layout_path(LAYOUT_POST, p->slug, NULL);
	buf_addstr(out, "  <entry>\n    <id>");
	abs_url(out, base, path);
	buf_addstr(out, "</id>\n");
	element(out, "    ", "title",
	    p->title != NULL && *p->title != '\0' ? p->title : p->slug);
	date_rfc3339(entry_updated(p), ts);
	element(out, "    ", "updated", ts);
	date_rfc3339(&p->date, ts);
	element(out, "    ", "published", ts);
	if (p->author != NULL && *p->author != '\0' &&
	    strcmp(p->author, feed_author) != 0) {
		buf_addstr(out, "    <author>");
		element(out, "", "name", p->author);
		buf_truncate(out, out->len - 1);	/* the newline */
		buf_addstr(out, "</author>\n");
	}
	add_link(out, "    ", "alternate", "text/gemini", base, path);
	for (i = 0; i < p->ntags; i++) {
		if (p->tags == NULL || p->tags[i] == NULL)
			continue;
		buf_addstr(out, "    <category term=\"");
		xml_str(out, p->tags[i]->slug);
		buf_addstr(out, "\" label=\"");
		xml_str(out, p->tagnames != NULL && p->tagnames[i] != NULL ?
		    p->tagnames[i] : p->tags[i]->name);
		buf_addstr(out, "\"/>\n");
	}
	if (p->summary != NULL && *p->summary != '\0')
		element(out, "    ", "summary", p->summary);
	if (f->full && p->src != NULL && p->srclen > p->body_off) {
		(p->gemtext ? render_gemtext_gmi : render_gemtext)(
		    p->src + p->body_off, p->srclen - p->body_off, &ropts,
		    &tmp);
		buf_addstr(out, "    <content type=\"text\">");
		escape_xml(out, tmp.data ? tmp.data : "", tmp.len);
		buf_addstr(out, "</content>\n");
	}
	buf_addstr(out, "  </entry>\n");
	buf_free(&tmp);
	free(path);
}

char *
atom_base(const char *host, int port)
{
	const char	*l = "", *r = "";

	if (host == NULL || *host == '\0')
		host = "localhost";
	if (strchr(host, ':') != NULL && host[0] != '[') {
		l = "[";
		r = "]";
	}
	if (port > 0 && port != 1965)
		return xasprintf("gemini://%s%s%s:%d", l, host, r, port);
	return xasprintf("gemini://%s%s%s", l, host, r);
}

void
atom_feed(struct buf *out, const struct atom_feed *f)
{
	const struct archive	*a = f->archive;
	const struct post	*newest = NULL;
	const char		*author, *id, *lang;
	struct date		 now;
	char			 ts[32], *base;
	size_t			 i;

	author = f->author;
	if ((author == NULL || *author == '\0') && a != NULL)
		author = a->author;
	if (author == NULL || *author == '\0')
		author = f->title != NULL && *f->title != '\0' ? f->title :
		    "anonymous";
	lang = f->lang != NULL ? f->lang : a != NULL ? a->lang : NULL;
	id = f->alternate != NULL ? f->alternate :
	    f->self != NULL ? f->self : "/";
	base = atom_base(f->host, f->port);
	if (f->base != NULL) {		/* a user capsule: "/~name" */
		char	*b = xasprintf("%s%s", base, f->base);

		free(base);
		base = b;
	}

	buf_addstr(out, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n");
	buf_addstr(out, "<feed xmlns=\"" ATOM_NS "\"");
	if (lang != NULL && *lang != '\0') {
		buf_addstr(out, " xml:lang=\"");
		xml_str(out, lang);
		buf_addc(out, '"');
	}
	buf_addstr(out, ">\n  <id>");
	abs_url(out, base, id);
	buf_addstr(out, "</id>\n");
	element(out, "  ", "title", f->title != NULL ? f->title : "");
	if (f->subtitle != NULL && *f->subtitle != '\0')
		element(out, "  ", "subtitle", f->subtitle);

	/* The latest entry's updated, or now for an empty feed. */
	for (i = 0; i < f->nposts; i++)
		if (newest == NULL ||
		    entry_updated(f->posts[i])->t > entry_updated(newest)->t)
			newest = f->posts[i];
	if (newest != NULL)
		date_rfc3339(entry_updated(newest), ts);
	else {
		memset(&now, 0, sizeof(now));
		now.t = f->now != 0 ? f->now : time(NULL);
		date_rfc3339(&now, ts);
	}
	element(out, "  ", "updated", ts);

	buf_addstr(out, "  <author>");
	element(out, "", "name", author);
	buf_truncate(out, out->len - 1);
	buf_addstr(out, "</author>\n");
	if (f->self != NULL)
		add_link(out, "  ", "self", "application/atom+xml", base,
		    f->self);
	if (f->alternate != NULL)
		add_link(out, "  ", "alternate", "text/gemini", base,
		    f->alternate);
	buf_addstr(out, "  <generator>capsuled</generator>\n");
	for (i = 0; i < f->nposts; i++)
		entry(out, f, base, f->posts[i], author);
	buf_addstr(out, "</feed>\n");
	free(base);
}

size_t
atom_entries(size_t nposts)
{
	return nposts < ATOM_MAX_ENTRIES ? nposts : ATOM_MAX_ENTRIES;
}

/*
 * What the three feeds share: where they are published, and the
 * archive's title, subtitle and author.
 */
static void
feed_defaults(struct atom_feed *f, const struct archive *a,
    const struct atom_target *at)
{
	memset(f, 0, sizeof(*f));
	f->host = at->host;
	f->base = at->base;
	f->port = at->port;
	f->full = at->full;
	f->archive = a;
	f->title = a->title;
	f->subtitle = a->subtitle;
	f->author = a->author;
}

void
atom_site(struct buf *out, const struct archive *a,
    const struct atom_target *at)
{
	struct atom_feed	 f;

	feed_defaults(&f, a, at);
	f.self = LAYOUT_PATH_FEED;
	f.alternate = LAYOUT_PATH_GEMLOG;
	f.posts = a->posts;
	f.nposts = atom_entries(a->nposts);
	atom_feed(out, &f);
}

void
atom_series(struct buf *out, const struct archive *a, const struct series *s,
    const struct atom_target *at)
{
	struct atom_feed	 f;
	char			*self, *alt, *title;

	feed_defaults(&f, a, at);
	self = layout_path(LAYOUT_SERIES_FEED, s->slug, NULL);
	alt = layout_path(LAYOUT_SERIES, s->slug, NULL);
	f.self = self;
	f.alternate = alt;
	/* One rule for every feed but the site's: "Site: what it holds". */
	title = xasprintf("%s: %s", a->title, s->title);
	f.title = title;
	f.posts = s->parts;
	f.nposts = s->nparts;
	atom_feed(out, &f);
	free(self);
	free(alt);
	free(title);
}

void
atom_tag(struct buf *out, const struct archive *a, const struct tag *t,
    const struct atom_target *at)
{
	struct atom_feed	 f;
	char			*self, *alt, *title;

	feed_defaults(&f, a, at);
	self = layout_path(LAYOUT_TAG_FEED, t->slug, NULL);
	alt = layout_path(LAYOUT_TAG, t->slug, NULL);
	/* A tag's name alone ("c") says little: the site's title first. */
	title = xasprintf("%s: %s", a->title, t->name);	/* as a series' */
	f.self = self;
	f.alternate = alt;
	f.title = title;
	f.posts = t->posts;
	f.nposts = atom_entries(t->nposts);
	atom_feed(out, &f);
	free(self);
	free(alt);
	free(title);
}
