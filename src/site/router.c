/*
 * router.c -- a request path to a response description (README.md, "URL
 * layout").
 *
 * One router serves both protocols: the same paths name the same things
 * over Gemini and Gopher, and only the emitter differs.  Rendered pages
 * are made on first request and published into the site's cache slots
 * (site.h; compare-and-swap, no lock), so every later request borrows the
 * same bytes, holding a reference to them (cache.h: an evicted page
 * lives until the responses sending it are done).  Static files are
 * opened here (beneath the capsule, see fsafe.c) and streamed by
 * conn.c.  No socket I/O.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "content/archive.h"
#include "content/links.h"
#include "core/buf.h"
#include "core/config.h"
#include "core/fsafe.h"
#include "core/layout.h"
#include "core/log.h"
#include "core/mime.h"
#include "core/url.h"
#include "core/userdir.h"
#include "core/utf8.h"
#include "core/util.h"
#include "markdown/render.h"
#include "markdown/scan.h"
#include "proto/gopher.h"
#include "site/atom.h"
#include "site/nav.h"
#include "site/page.h"
#include "site/router.h"
#include "site/site.h"

/*
 * Markdown slower to render than a worker's loop may wait for: larger
 * than this many bytes, or with a line of more '|' than that (a table
 * row: cmark-gfm's tables cost about the square of their columns).
 * Measured with render_gemtext() on a 2-core machine under load (best
 * of three): prose 100 KiB 19 ms, 1 MiB 230 ms, 8 MiB 2.5 s; a table
 * of 5,000 rows and 5 columns 146 ms; one row of 500 columns 1.5 ms, of
 * 2,000 18 ms, of 8,000 355 ms.  16 KiB of prose is about 3 ms there.
 */
#define RENDER_INLINE_MAX	(16u << 10)
#define RENDER_PIPES_MAX	256
/* The longest slug, page or user name a path is looked up by. */
#define ROUTER_NAME_MAX		512

/* What one request is about: enough to render it from scratch. */
struct route {
	const struct config	*cfg;
	struct site		*site;
	struct archive		*a;		/* site->a */
	enum proto		 proto;
	const char		*reqpath;	/* for messages */
	int			 writer;	/* may read drafts */
};

void
response_init(struct response *r)
{
	memset(r, 0, sizeof(*r));
	buf_init(&r->owned);
	r->fd = -1;
}

void
response_use_owned(struct response *r)
{
	r->body = r->owned.data;
	r->bodylen = r->owned.len;
}

/* A page left for response_render(): what it takes to make it. */
struct render_job {
	struct route	 rt;		/* reqpath: NULL */
	struct slot	*slot;
	struct post	*post;		/* one of a post, */
	struct doc	*doc;		/* a doc, */
	int		 menu;		/* (their Gopher menus) */
	struct post *const *posts;	/* or a feed of these posts */
	size_t		 nposts;
	char		*self;		/* the feed's, owned */
	char		*alternate;
	char		*title;
	int		 fd;		/* or a file to read whole (owned),
					   or -1 */
	uint64_t	 filelen;	/* its size, as fstat(2) said */
};

static struct blob *fill_file(const struct route *, struct slot *, int,
		    uint64_t);

static void
job_free(struct render_job *j)
{
	if (j == NULL)
		return;
	free(j->self);
	free(j->alternate);
	free(j->title);
	if (j->fd != -1)
		close(j->fd);
	free(j);
}

void
response_free(struct response *r)
{
	job_free(r->job);
	r->job = NULL;
	buf_free(&r->owned);
	if (r->fd != -1)
		close(r->fd);
	r->fd = -1;
	blob_unref(r->blob);
	r->blob = NULL;
	r->body = NULL;
	r->bodylen = 0;
}

void
response_status(struct response *r, int status, const char *fmt, ...)
{
	va_list	 ap;

	r->status = status;
	va_start(ap, fmt);
	vsnprintf(r->meta, sizeof(r->meta), fmt, ap);
	va_end(ap);
}

/* A 20 of this type: its body comes from set_body() or a render job. */
static void
set_type(struct response *r, const char *mime, const char *lang,
    char gopher_type)
{
	r->gopher_type = gopher_type;
	if (lang != NULL)
		response_status(r, 20, "%s; charset=utf-8; lang=%s", mime,
		    lang);
	else
		response_status(r, 20, "%s", mime);
}

static void
set_body(struct response *r, struct blob *b, const char *mime,
    const char *lang, char gopher_type)
{
	r->blob = b;		/* our reference, dropped by response_free */
	r->body = b->data;
	r->bodylen = b->len;
	set_type(r, mime, lang, gopher_type);
}

/* Link hooks handed to the renderers. */
struct link_ctx {
	const struct route	*rt;
	const char		*from;		/* "posts/x.md" */
};

/*
 * A link of the writer's, resolved in the archive.  In a user capsule a
 * path of the site is the capsule's own: it gets the base ("/~name"), so
 * "/posts/x" or "/~other/x" written there stay within it.  Gopher's
 * absolute_link() adds the base itself, once it has told the kind of
 * page from the path.
 */
static char *
rewrite_link(void *ctx, const char *url)
{
	struct link_ctx	*lc = ctx;
	const char	*base = lc->rt->cfg->base;
	char		*to, *with;

	to = links_resolve(lc->rt->a, lc->from, url);
	if (base == NULL || lc->rt->proto != PROTO_GEMINI ||
	    !layout_site_path(to != NULL ? to : url))
		return to;
	with = xasprintf("%s%s", base, to != NULL ? to : url);
	free(to);
	return with;
}

static int
public_port(const struct route *rt)
{
	if (rt->proto == PROTO_GEMINI)
		return rt->cfg->gemini_port;
	return gopher_public_port(rt->cfg);
}

char *
router_gopher_url(const struct config *cfg, const struct archive *a,
    const char *url)
{
	struct layout_ref ref;
	char		 name[ROUTER_NAME_MAX];
	int		 port;
	char		 type;

	if (!layout_site_path(url))
		return NULL;
	port = gopher_public_port(cfg);
	/* A post or a page is followed through its menu (nav.h). */
	layout_parse(url, 0, &ref);
	if (ref.kind == LAYOUT_POST || (ref.kind == LAYOUT_PAGE &&
	    layout_name(&ref, name, sizeof(name)) == 0 &&
	    archive_doc(a, name) != NULL))
		return xasprintf("gopher://%s:%d/1%s%s/", cfg->hostname, port,
		    cfg->base != NULL ? cfg->base : "", url);
	type = url[strlen(url) - 1] == '/' ? '1' :
	    page_file_path(url) ? mime_gopher_type(url) : '0';
	return xasprintf("gopher://%s:%d/%c%s%s", cfg->hostname, port, type,
	    cfg->base != NULL ? cfg->base : "", url);
}

/* Gopher text names our own pages by absolute gopher:// URLs. */
static char *
absolute_link(void *ctx, const char *url)
{
	struct link_ctx	*lc = ctx;

	return router_gopher_url(lc->rt->cfg, lc->rt->a, url);
}

static void
target_init(struct page_target *t, const struct route *rt,
    struct link_ctx *lc, const char *from)
{
	memset(t, 0, sizeof(*t));
	lc->rt = rt;
	lc->from = from;
	t->host = rt->cfg->hostname;
	t->base = rt->cfg->base;
	t->port = public_port(rt);
	t->width = rt->cfg->gopher_width;
	t->ropts.width = rt->cfg->gopher_width;
	t->ropts.rewrite = rewrite_link;
	t->ropts.rewrite_ctx = lc;
	if (rt->proto == PROTO_GOPHER) {
		t->ropts.absolute = absolute_link;
		t->ropts.absolute_ctx = lc;
		t->ascii = rt->cfg->gopher_charset == CONFIG_CHARSET_ASCII;
		t->ropts.ascii = t->ascii;
	}
}

/*
 * Emit a navigation page: a gemtext page, or a Gopher menu.  from is
 * the file its Markdown blocks come from, for their relative links.
 */
static struct blob *
emit_menu_from(const struct route *rt, struct page *p, const char *from)
{
	struct page_target	 t;
	struct link_ctx		 lc;
	struct buf		 out = BUF_INIT;
	struct blob		*b;

	target_init(&t, rt, &lc, from);
	if (rt->proto == PROTO_GEMINI)
		page_emit_gemtext(p, &t, &out);
	else
		page_emit_gophermap(p, &t, &out);
	b = blob_new(out.data ? out.data : "", out.len);
	buf_free(&out);
	return b;
}

static struct blob *
emit_menu(const struct route *rt, struct page *p)
{
	return emit_menu_from(rt, p, "index.md");
}

/*
 * Gopher text documents go out with CRLF line ends (RFC 1436), without
 * dot-stuffing or a final "." line, as Gophernicus and current clients
 * do; converted once, when the page is cached.
 */
static void
crlf(struct buf *b)
{
	struct buf	 out = BUF_INIT;
	const char	*s, *end, *nl;
	size_t		 nlines = 0;

	if (b->len == 0)		/* data may be NULL: no arithmetic */
		return;
	/* Lines are copied whole: a byte at a time was 10 % of a render. */
	s = b->data;
	end = b->data + b->len;
	for (nl = s; (nl = memchr(nl, '\n', (size_t)(end - nl))) != NULL;
	    nl++)
		nlines++;
	buf_reserve(&out, b->len + nlines);
	for (; (nl = memchr(s, '\n', (size_t)(end - s))) != NULL; s = nl + 1) {
		buf_add(&out, s, (size_t)(nl - s));
		if (nl == b->data || nl[-1] != '\r')
			buf_addc(&out, '\r');
		buf_addc(&out, '\n');
	}
	buf_add(&out, s, (size_t)(end - s));
	buf_free(b);
	*b = out;
}

/* Emit a document (post or page): gemtext, or Gopher plain text. */
static struct blob *
emit_document(const struct route *rt, struct page *p, const char *from)
{
	struct page_target	 t;
	struct link_ctx		 lc;
	struct buf		 out = BUF_INIT;
	struct blob		*b;

	target_init(&t, rt, &lc, from);
	if (rt->proto == PROTO_GEMINI)
		page_emit_gemtext(p, &t, &out);
	else {
		page_emit_text(p, &t, &out);
		crlf(&out);
	}
	b = blob_new(out.data ? out.data : "", out.len);
	buf_free(&out);
	return b;
}

/* The slot of this request's rendering of thing id of kind k. */
static struct slot *
which_slot(const struct route *rt, enum site_kind k, size_t id)
{
	return site_slot(rt->site, k, id, rt->proto == PROTO_GEMINI ?
	    SITE_GEMINI : SITE_GOPHER);
}

static void
serve_nav(const struct route *rt, enum nav_page which, struct response *r)
{
	struct slot		*slot = which_slot(rt, SITE_NAV, which);
	struct blob		*b;
	struct page		 p;

	if ((b = cache_get(slot)) == NULL) {
		page_init(&p);
		switch (which) {
		case NAV_HOME:
			nav_home(&p, rt->a, rt->cfg);
			break;
		case NAV_POSTS:
			nav_posts(&p, rt->a);
			break;
		case NAV_SERIES:
			nav_series_index(&p, rt->a);
			break;
		case NAV_TAGS:
			nav_tags(&p, rt->a);
			break;
		case NAV_GEMLOG:
			nav_gemlog(&p, rt->a);
			break;
		case NAV_NPAGES:
			break;
		}
		b = site_cache_put(rt->site, slot, emit_menu(rt, &p));
		page_free(&p);
	}
	set_body(r, b, "text/gemini", rt->a->lang, '1');
}

/* Would md[0..len) keep a loop waiting (RENDER_INLINE_MAX)? */
static int
slow_to_render(const char *md, size_t len)
{
	const char	*p, *end = md + len;
	size_t		 pipes = 0;

	if (len > RENDER_INLINE_MAX)
		return 1;
	for (p = md; p < end; p++) {
		if (*p == '\n')
			pipes = 0;
		else if (*p == '|' && ++pipes > RENDER_PIPES_MAX)
			return 1;
	}
	return 0;
}

/*
 * The page of slot, not there yet, is left to response_render() (the
 * caller can wait for it: r->may_defer): r gets its status and META now,
 * and a job the caller fills in.
 */
static struct render_job *
defer(const struct route *rt, struct slot *slot, struct response *r,
    const char *mime, const char *lang, char gopher_type)
{
	struct render_job	*j;

	j = xcalloc(1, sizeof(*j));
	j->rt = *rt;
	j->rt.reqpath = NULL;		/* the request's, gone by then */
	j->slot = slot;
	j->fd = -1;
	job_free(r->job);
	r->job = j;
	set_type(r, mime, lang, gopher_type);
	return j;
}

/*
 * A post's Markdown as its pages show it: a body that opens with the
 * title would show it twice, so that heading is left out.
 */
static const char *
post_body(const struct post *post, size_t *lenp)
{
	const char	*body = post->src + post->body_off;
	size_t		 len = post->srclen - post->body_off, skip;

	skip = scan_repeated_title(body, len, post->title);
	*lenp = len - skip;
	return body + skip;
}

static struct blob *
render_post(const struct route *rt, struct slot *slot, struct post *post)
{
	const char	*body;
	size_t		 len;
	struct page	 p;
	struct blob	*b;

	page_init(&p);
	nav_post_header(&p, rt->a, post);
	body = post_body(post, &len);
	nav_post_body(&p, post, body, len);
	nav_post_footer(&p, rt->a, post);
	b = site_cache_put(rt->site, slot, emit_document(rt, &p, post->path));
	page_free(&p);
	return b;
}

static struct blob *
render_doc(const struct route *rt, struct slot *slot, struct doc *d)
{
	struct page	 p;
	struct blob	*b;

	page_init(&p);
	page_heading(&p, 1, "%s", d->title);
	page_markdown(&p, d->src + d->body_off, d->srclen - d->body_off);
	b = site_cache_put(rt->site, slot, emit_document(rt, &p, d->path));
	page_free(&p);
	return b;
}

/*
 * A post's Gopher menu: the text as its first item, then the links the
 * text can only print, as items (nav_post_menu()).  Its Markdown is
 * rendered to number them, so it is as slow as the text.
 */
static struct blob *
render_post_menu(const struct route *rt, struct slot *slot,
    struct post *post)
{
	const char	*body;
	size_t		 len;
	struct page	 p;
	struct blob	*b;

	page_init(&p);
	/* The body render_post() renders, so the numbers agree. */
	body = post_body(post, &len);
	nav_post_menu(&p, rt->a, post, body, len);
	b = site_cache_put(rt->site, slot, emit_menu_from(rt, &p,
	    post->path));
	page_free(&p);
	return b;
}

/* A page's Gopher menu: the text, then its links as items. */
static struct blob *
render_doc_menu(const struct route *rt, struct slot *slot, struct doc *d)
{
	struct page	 p;
	struct blob	*b;

	page_init(&p);
	nav_doc_menu(&p, rt->a, d, d->src + d->body_off,
	    d->srclen - d->body_off);
	b = site_cache_put(rt->site, slot, emit_menu_from(rt, &p, d->path));
	page_free(&p);
	return b;
}

/* A feed with every post's content is slow when they are together. */
static int
slow_feed(struct post *const *posts, size_t nposts)
{
	size_t	 i, len = 0;

	for (i = 0; i < nposts; i++) {
		len += posts[i]->srclen - posts[i]->body_off;
		if (len > RENDER_INLINE_MAX || slow_to_render(posts[i]->src +
		    posts[i]->body_off, posts[i]->srclen - posts[i]->body_off))
			return 1;
	}
	return 0;
}

static struct blob *
render_feed(const struct route *rt, struct slot *slot, const char *self,
    const char *alternate, const char *title, struct post *const *posts,
    size_t nposts)
{
	struct atom_feed	 f;
	struct buf		 out = BUF_INIT;
	struct blob		*b;

	memset(&f, 0, sizeof(f));
	f.host = rt->cfg->hostname;
	f.base = rt->cfg->base;
	f.port = rt->cfg->gemini_port;
	f.self = self;
	f.alternate = alternate;
	f.title = title;
	f.subtitle = rt->a->subtitle;
	f.author = rt->a->author;
	f.archive = rt->a;
	f.posts = posts;
	f.nposts = nposts;
	f.full = rt->cfg->atom_full_content;
	atom_feed(&out, &f);
	b = site_cache_put(rt->site, slot, blob_new(out.data ? out.data : "",
	    out.len));
	buf_free(&out);
	return b;
}

void
response_render(struct response *r)
{
	struct render_job	*j = r->job;
	struct blob		*b;

	if (j == NULL)
		return;
	/* Another request may have rendered it meanwhile. */
	if ((b = cache_get(j->slot)) != NULL)
		;
	else if (j->fd != -1) {
		if ((b = fill_file(&j->rt, j->slot, j->fd,
		    j->filelen)) == NULL) {
			/* Not kept (it changed while read): streamed. */
			r->fd = j->fd;
			r->filelen = j->filelen;
			j->fd = -1;
			r->job = NULL;
			job_free(j);
			return;
		}
	}
	else if (j->post != NULL)
		b = j->menu ? render_post_menu(&j->rt, j->slot, j->post) :
		    render_post(&j->rt, j->slot, j->post);
	else if (j->doc != NULL)
		b = j->menu ? render_doc_menu(&j->rt, j->slot, j->doc) :
		    render_doc(&j->rt, j->slot, j->doc);
	else
		b = render_feed(&j->rt, j->slot, j->self, j->alternate,
		    j->title, j->posts, j->nposts);
	r->blob = b;
	r->body = b->data;
	r->bodylen = b->len;
	r->job = NULL;
	job_free(j);
}

static void
serve_post(const struct route *rt, struct post *post, struct response *r)
{
	struct slot		*slot = which_slot(rt, SITE_POST, post->id);
	struct blob		*b;
	const char		*lang = post->lang ? post->lang : rt->a->lang;

	if ((b = cache_get(slot)) == NULL) {
		if (r->may_defer && slow_to_render(post->src + post->body_off,
		    post->srclen - post->body_off)) {
			defer(rt, slot, r, "text/gemini", lang, '0')->post = post;
			return;
		}
		b = render_post(rt, slot, post);
	}
	set_body(r, b, "text/gemini", lang, '0');
}

static void
serve_post_menu(const struct route *rt, struct post *post,
    struct response *r)
{
	struct slot		*slot = site_slot(rt->site, SITE_POST,
				    post->id, SITE_GOPHER_MENU);
	struct blob		*b;
	const char		*lang = post->lang ? post->lang : rt->a->lang;
	struct render_job	*j;

	if ((b = cache_get(slot)) == NULL) {
		if (r->may_defer && slow_to_render(post->src + post->body_off,
		    post->srclen - post->body_off)) {
			j = defer(rt, slot, r, "text/gemini", lang, '1');
			j->post = post;
			j->menu = 1;
			return;
		}
		b = render_post_menu(rt, slot, post);
	}
	set_body(r, b, "text/gemini", lang, '1');
}

static void
serve_doc_menu(const struct route *rt, struct doc *d, struct response *r)
{
	struct slot		*slot = site_slot(rt->site, SITE_DOC, d->id,
				    SITE_GOPHER_MENU);
	struct blob		*b;
	const char		*lang = d->lang ? d->lang : rt->a->lang;
	struct render_job	*j;

	if ((b = cache_get(slot)) == NULL) {
		if (r->may_defer && slow_to_render(d->src + d->body_off,
		    d->srclen - d->body_off)) {
			j = defer(rt, slot, r, "text/gemini", lang, '1');
			j->doc = d;
			j->menu = 1;
			return;
		}
		b = render_doc_menu(rt, slot, d);
	}
	set_body(r, b, "text/gemini", lang, '1');
}

static void
serve_doc(const struct route *rt, struct doc *d, struct response *r)
{
	struct slot		*slot = which_slot(rt, SITE_DOC, d->id);
	struct blob		*b;
	const char		*lang = d->lang ? d->lang : rt->a->lang;

	if ((b = cache_get(slot)) == NULL) {
		if (r->may_defer && slow_to_render(d->src + d->body_off,
		    d->srclen - d->body_off)) {
			defer(rt, slot, r, "text/gemini", lang, '0')->doc = d;
			return;
		}
		b = render_doc(rt, slot, d);
	}
	set_body(r, b, "text/gemini", lang, '0');
}

static void
serve_series(const struct route *rt, struct series *s, struct response *r)
{
	struct slot		*slot = which_slot(rt, SITE_SERIES, s->id);
	struct blob		*b;
	struct page		 p;

	if ((b = cache_get(slot)) == NULL) {
		page_init(&p);
		nav_series(&p, rt->a, s);
		b = site_cache_put(rt->site, slot, emit_menu(rt, &p));
		page_free(&p);
	}
	set_body(r, b, "text/gemini", rt->a->lang, '1');
}

static void
serve_tag(const struct route *rt, struct tag *t, struct response *r)
{
	struct slot		*slot = which_slot(rt, SITE_TAG, t->id);
	struct blob		*b;
	struct page		 p;

	if ((b = cache_get(slot)) == NULL) {
		page_init(&p);
		nav_tag(&p, rt->a, t);
		b = site_cache_put(rt->site, slot, emit_menu(rt, &p));
		page_free(&p);
	}
	set_body(r, b, "text/gemini", rt->a->lang, '1');
}

/*
 * Atom feeds are the same bytes over both protocols (Gopher serves them
 * as type 0), so they have one cache slot.
 */
static void
serve_atom(const struct route *rt, struct slot *slot,
    const char *self, const char *alternate, const char *title,
    struct post *const *posts, size_t nposts, struct response *r)
{
	struct render_job	*j;
	struct blob		*b;

	if ((b = cache_get(slot)) == NULL) {
		if (r->may_defer && rt->cfg->atom_full_content &&
		    slow_feed(posts, nposts)) {
			j = defer(rt, slot, r, "application/atom+xml", NULL, '0');
			j->posts = posts;
			j->nposts = nposts;
			j->self = xstrdup_null(self);
			j->alternate = xstrdup_null(alternate);
			j->title = xstrdup_null(title);
			return;
		}
		b = render_feed(rt, slot, self, alternate, title, posts,
		    nposts);
	}
	set_body(r, b, "application/atom+xml", NULL, '0');
}

/*
 * A name a request can ask for: valid UTF-8 without C0 controls or DEL,
 * as url.c and gopher.c want a path.  Other names are not listed: a
 * link to them could only ever get 59, and a text/gemini; charset=utf-8
 * listing must not carry their bytes.
 */
static int
listable(const char *name)
{
	const unsigned char	*p;

	for (p = (const unsigned char *)name; *p != '\0'; p++)
		if (*p < 0x20 || *p == 0x7f)
			return 0;
	return utf8_valid(name, strlen(name));
}

/*
 * name (listable()) as a listing shows it: C1 controls and U+2028/2029,
 * line breaks to some readers, as \xHH a byte at a time (as the log
 * writes them).  The caller frees the result.
 */
static char *
shown(const char *name)
{
	struct buf	 b = BUF_INIT;
	size_t		 len = strlen(name), i = 0, n, k;
	uint32_t	 cp;

	while (i < len) {
		n = utf8_decode(name + i, len - i, &cp);
		if ((cp >= 0x80 && cp < 0xa0) || cp == 0x2028 || cp == 0x2029)
			for (k = 0; k < n; k++)
				buf_printf(&b, "\\x%02x",
				    (unsigned char)name[i + k]);
		else
			buf_add(&b, name + i, n);
		i += n;
	}
	buf_addc(&b, '\0');
	return buf_release(&b);
}

/* One entry of a listing: what serve_listing() keeps of a dirent. */
struct listed {
	char	*name;
	int	 isdir;
};

/* Listings sort as alphasort() would: by strcoll() of the names. */
static int
listed_cmp(const void *a, const void *b)
{
	return strcoll(((const struct listed *)a)->name,
	    ((const struct listed *)b)->name);
}

/* A directory under files/: a listing made from the page model. */
static void
serve_listing(const struct route *rt, int dfd, const char *urlpath,
    struct response *r)
{
	struct page	 p;
	struct stat	 st;
	struct listed	*ents = NULL;
	struct blob	*b;
	DIR		*d;
	struct dirent	*e;
	size_t		 n = 0, cap = 0, i, len;
	char		*url, *name;
	int		 type;

	if ((d = fdopendir(dfd)) == NULL) {
		close(dfd);
		response_status(r, 51, "Not found");
		return;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;	/* hidden files, "." and ".." */
		if (!listable(e->d_name))
			continue;
		type = e->d_type;
		if (type == DT_UNKNOWN)	/* a file system without d_type */
			type = fstatat(dirfd(d), e->d_name, &st,
			    AT_SYMLINK_NOFOLLOW) == -1 ? DT_UNKNOWN :
			    IFTODT(st.st_mode);
		if (type == DT_REG && !rt->cfg->files_hardlinks &&
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) ==
		    0 && st.st_nlink > 1)
			continue;	/* never served: see serve_file() */
		if (type == DT_FIFO || type == DT_SOCK ||
		    type == DT_CHR || type == DT_BLK)
			continue;	/* never served: not listed either */
		if (rt->cfg->owned && (fstatat(dirfd(d), e->d_name, &st, 0) ==
		    -1 || !userdir_owned(&st, rt->cfg->owner_uid)))
			continue;	/* never served: archive_files_open() */
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			ents = xreallocarray(ents, cap, sizeof(*ents));
		}
		/*
		 * The name and type only: readdir() hands out records
		 * shorter than struct dirent, so copying a whole one
		 * reads past the end of the last record in its buffer.
		 */
		ents[n].name = xstrdup(e->d_name);
		ents[n++].isdir = type == DT_DIR;
	}
	closedir(d);
	if (n > 1)		/* an empty listing has no array: NULL */
		qsort(ents, n, sizeof(*ents), listed_cmp);

	page_init(&p);
	name = shown(urlpath);
	page_heading(&p, 1, "Index of %s", name);
	free(name);
	page_blank(&p);
	if (strcmp(urlpath, "/files/") != 0) {
		/* Absolute: a Gopher selector cannot be relative. */
		len = strlen(urlpath) - 1;
		while (len > 0 && urlpath[len - 1] != '/')
			len--;
		url = xstrndup(urlpath, len);
		page_link(&p, LINK_MENU, url, NULL, "..");
		free(url);
	}
	for (i = 0; i < n; i++) {
		int isdir = ents[i].isdir;

		url = xasprintf("%s%s%s", urlpath, ents[i].name,
		    isdir ? "/" : "");
		name = shown(ents[i].name);
		page_link(&p, isdir ? LINK_MENU : LINK_FILE, url, NULL,
		    "%s%s", name, isdir ? "/" : "");
		free(name);
		free(url);
		free(ents[i].name);
	}
	free(ents);
	b = emit_menu(rt, &p);
	page_free(&p);
	/* Listings are not cached: the directory is live, not a snapshot. */
	buf_add(&r->owned, b->data, b->len);
	free(b);
	response_use_owned(r);
	r->gopher_type = '1';
	response_status(r, 20, "text/gemini; charset=utf-8");
}

/*
 * 31 to the site path to: percent-encoded for Gemini, where META is a
 * URI reference ("/files/a b/" would end the URL at the space, "?" start
 * a query, "%" an escape).  Gopher's redirects are followed inside the
 * server (conn.c), which wants the path itself.  A target that does not
 * fit META once encoded cannot be sent whole: 59.
 */
static void
redirect(const struct route *rt, const char *to, struct response *r)
{
	struct buf	 b = BUF_INIT;

	if (rt->proto != PROTO_GEMINI) {
		response_status(r, 31, "%s", to);
		return;
	}
	url_encode_path(to, &b);
	if (b.len < sizeof(r->meta))
		response_status(r, 31, "%.*s", (int)b.len, b.data);
	else
		response_status(r, 59, "Bad request: the URL to redirect to "
		    "is too long");
	buf_free(&b);
}

_Static_assert((int)FSAFE_LINKS_INSIDE == (int)CONFIG_LINKS_INSIDE &&
    (int)FSAFE_LINKS_ANY == (int)CONFIG_LINKS_ANY &&
    (int)FSAFE_LINKS_NONE == (int)CONFIG_LINKS_NONE,
    "follow_symlinks: config.h and fsafe.h agree");

/*
 * Why archive_files_open() or archive_bundle_open() said no, in the log
 * when the operator may want to know: a user capsule's file that is not
 * the user's alone (core/userdir.h).
 */
static void
open_refused(const struct route *rt, const char *path)
{
	if (errno == EMLINK)
		log_debug("%s: more than one hard link, not served "
		    "(files_hardlinks)", path);
	else if (errno == EPERM)
		log_warnx("%s/%s: not owned by UID %u alone, or writable by "
		    "others: not served", rt->a->dir, path + (path[0] == '/'),
		    rt->cfg->owner_uid);
	else if (errno != ENOENT)
		log_debug("%s: %s", path, strerror(errno));
}

/*
 * Open "/files/..." path as files/ allows (archive_files_open(), which
 * the link check asks too; in a user capsule, the owner's files only):
 * the descriptor, or -1 for "not found".
 */
static int
files_open(const struct route *rt, const char *path, struct stat *st,
    enum fsafe_kind *kind)
{
	int	 fd;

	/* path is "/files/..."; the capsule-relative name drops the '/'. */
	if ((fd = archive_files_open(rt->a, path + 1, rt->cfg->follow_symlinks,
	    rt->cfg->files_hardlinks, st, kind)) == -1)
		open_refused(rt, path);
	return fd;
}

/* A 20 for the file path, typed by its extension. */
static void
file_type(const struct route *rt, const char *path, struct response *r)
{
	const char	*mime;

	mime = mime_type(path);
	r->gopher_type = mime_gopher_type(path);
	if (strcmp(mime, "text/gemini") == 0)
		response_status(r, 20, "text/gemini; charset=utf-8; lang=%s",
		    rt->a->lang);
	else if (mime_is_text(mime))
		response_status(r, 20, "%s; charset=utf-8", mime);
	else
		response_status(r, 20, "%s", mime);
}

/*
 * May a file of st's size be kept in memory (file_cache_max), and
 * trusted without a look at the disk for as long as the site lives?
 * Only while the watcher follows the capsule: a change there then asks
 * for a new site, whose cache starts empty.  With "watch: false" every
 * request reads the disk as it is.  Nor with "follow_symlinks: any",
 * whose links may lead out of the capsule, where nothing is watched.
 */
static int
file_cacheable(const struct route *rt, const struct stat *st)
{
	const struct config	*c = rt->cfg;

	return c->watch && c->file_cache_max > 0 &&
	    c->follow_symlinks != CONFIG_LINKS_ANY &&
	    (st == NULL || (uint64_t)st->st_size <= c->file_cache_max);
}

/*
 * Read the file fd (len bytes, as fstat(2) said) whole and keep it in
 * slot: its blob, with a reference for the caller, or NULL when it
 * changed while read (a writer at work: the next request looks again).
 */
static struct blob *
fill_file(const struct route *rt, struct slot *slot, int fd, uint64_t len)
{
	struct stat	 st0, st1;
	char		*data;
	size_t		 got = 0;
	ssize_t		 n;
	struct blob	*b;

	if (fstat(fd, &st0) == -1 || (uint64_t)st0.st_size != len)
		return NULL;
	data = xmalloc(len > 0 ? (size_t)len : 1);
	while (got < len) {
		n = pread(fd, data + got, (size_t)len - got, (off_t)got);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	/* The same size and time after as before: whole, not torn. */
	if (got != len || fstat(fd, &st1) == -1 ||
	    st1.st_size != st0.st_size ||
	    st1.st_mtim.tv_sec != st0.st_mtim.tv_sec ||
	    st1.st_mtim.tv_nsec != st0.st_mtim.tv_nsec) {
		free(data);
		return NULL;
	}
	b = site_cache_put(rt->site, slot, blob_new(data, (size_t)len));
	free(data);
	return b;
}

/*
 * Answer with the regular file fd (st) of the capsule, rel its name in
 * it ("files/a.png", "posts/x/a.png"), checked as its place says: from
 * memory when small enough (file_cacheable()), read once into the
 * site's slot for rel, and on the pool when the caller can wait
 * (r->may_defer: a disk may be slow); else streamed by conn.c.
 */
static void
serve_fd(const struct route *rt, const char *rel, int fd,
    const struct stat *st, struct response *r)
{
	struct slot	*slot;
	struct blob	*b;

	file_type(rt, rel, r);
	if (!file_cacheable(rt, st)) {
		r->fd = fd;
		r->filelen = (uint64_t)st->st_size;
		return;
	}
	slot = site_file_slot(rt->site, rel, 1);
	if ((b = cache_get(slot)) == NULL) {
		if (r->may_defer) {
			struct render_job *j = defer(rt, slot, r, "", NULL,
			    r->gopher_type);

			file_type(rt, rel, r);	/* over defer()'s type */
			j->fd = fd;
			j->filelen = (uint64_t)st->st_size;
			return;
		}
		if ((b = fill_file(rt, slot, fd,
		    (uint64_t)st->st_size)) == NULL) {
			r->fd = fd;
			r->filelen = (uint64_t)st->st_size;
			return;
		}
	}
	close(fd);
	r->blob = b;		/* our reference, dropped by response_free */
	r->body = b->data;
	r->bodylen = b->len;
}

/*
 * The file rel from memory, if the site holds it: no look at the disk
 * (file_cacheable()).  Returns 1 when r is answered.
 */
static int
serve_kept(const struct route *rt, const char *rel, struct response *r)
{
	struct slot	*slot;
	struct blob	*b;

	if (!file_cacheable(rt, NULL) ||
	    (slot = site_file_slot(rt->site, rel, 0)) == NULL ||
	    (b = cache_get(slot)) == NULL)
		return 0;
	file_type(rt, rel, r);
	r->blob = b;
	r->body = b->data;
	r->bodylen = b->len;
	return 1;
}

/*
 * The directory dir ("/files/.../") has a page of its own: its
 * index.gmi, a regular file as files/ serves them.  Returns its
 * descriptor (st filled), or -1.
 */
static int
dir_index(const struct route *rt, const char *dir, char **idxpath,
    struct stat *st)
{
	enum fsafe_kind	 kind;
	int		 fd;

	*idxpath = xasprintf("%sindex.gmi", dir);
	if ((fd = files_open(rt, *idxpath, st, &kind)) != -1 &&
	    kind != FSAFE_FILE) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/*
 * A directory under files/ (fd, path ending in '/').  Gemini serves its
 * index.gmi when it has one; Gopher, which has no gemtext page, lists
 * it.  Without an index, "listings: false" makes it not found.
 */
static void
serve_dir(const struct route *rt, int fd, const char *path,
    struct response *r)
{
	struct stat	 st;
	char		*idx;
	int		 ifd;

	ifd = dir_index(rt, path, &idx, &st);
	if (ifd != -1 && rt->proto == PROTO_GEMINI) {
		close(fd);
		serve_fd(rt, idx + 1, ifd, &st, r);
		free(idx);
		return;
	}
	free(idx);
	if (ifd != -1)
		close(ifd);
	else if (!rt->cfg->listings) {
		close(fd);
		response_status(r, 51, "Not found");
		return;
	}
	serve_listing(rt, fd, path, r);
}

static void
serve_file(const struct route *rt, const char *path, struct response *r)
{
	struct stat	 st;
	enum fsafe_kind	 kind;
	int		 fd;

	/* path is "/files/...": the capsule-relative name drops the '/'. */
	if (!archive_hidden_name(path) && serve_kept(rt, path + 1, r))
		return;
	if ((fd = files_open(rt, path, &st, &kind)) == -1) {
		response_status(r, 51, "Not found");
		return;
	}
	if (kind == FSAFE_DIR) {
		if (path[strlen(path) - 1] != '/') {
			char *to = xasprintf("%s/", path);

			close(fd);
			redirect(rt, to, r);
			free(to);
			return;
		}
		serve_dir(rt, fd, path, r);
		return;
	}
	serve_fd(rt, path + 1, fd, &st, r);
}

/*
 * "/posts/<slug>/<name>": a file of the page bundle post is, from its
 * folder on disk, as archive_bundle_open() allows (the rules of files/,
 * no symbolic link at all).
 */
static void
serve_bundle_file(const struct route *rt, const struct post *p,
    const char *name, struct response *r)
{
	struct stat	 st;
	const char	*slash = strrchr(p->path, '/');
	char		*rel;
	int		 fd;

	rel = xasprintf("%.*s/%s", (int)(slash - p->path), p->path, name);
	if (!archive_hidden_name(rel) && serve_kept(rt, rel, r)) {
		free(rel);
		return;
	}
	if ((fd = archive_bundle_open(rt->a, p, name, rt->cfg->files_hardlinks,
	    &st)) == -1) {
		open_refused(rt, rel);
		free(rel);
		response_status(r, 51, "Not found");
		return;
	}
	serve_fd(rt, rel, fd, &st, r);
	free(rel);
}

/* "/posts/<slug>", its menu "/posts/<slug>/", a bundle's file. */
static void
route_post(const struct route *rt, const struct layout_ref *ref,
    const char *slug, struct response *r)
{
	struct post	*p = archive_post(rt->a, slug);
	char		*to;

	if (p == NULL)
		response_status(r, 51, "Not found");
	else if (ref->kind == LAYOUT_POST)
		serve_post(rt, p, r);
	else if (ref->kind == LAYOUT_POST_MENU && rt->proto == PROTO_GOPHER)
		serve_post_menu(rt, p, r);
	else if (ref->kind == LAYOUT_POST_MENU) {
		to = layout_path(LAYOUT_POST, slug, NULL);
		response_status(r, 31, "%s", to);
		free(to);
	} else if (p->bundle)
		serve_bundle_file(rt, p, ref->rest, r);
	else
		response_status(r, 51, "Not found");
}

/* "/series/<slug>/" and its feed; "/series/<slug>" gets the slash. */
static void
route_series(const struct route *rt, const struct layout_ref *ref,
    const char *slug, struct response *r)
{
	struct series	*s = archive_series(rt->a, slug);
	char		*self, *alt;

	if (s == NULL)
		response_status(r, 51, "Not found");
	else if (ref->bare)
		response_status(r, 31, "%s/", rt->reqpath);
	else if (ref->kind == LAYOUT_SERIES)
		serve_series(rt, s, r);
	else {
		self = layout_path(LAYOUT_SERIES_FEED, s->slug, NULL);
		alt = layout_path(LAYOUT_SERIES, s->slug, NULL);
		serve_atom(rt, site_slot(rt->site, SITE_SERIES, s->id,
		    SITE_ATOM), self, alt, s->title, s->parts, s->nparts, r);
		free(self);
		free(alt);
	}
}

/* "/tags/<slug>/" and its feed; "/tags/<slug>" gets the slash. */
static void
route_tag(const struct route *rt, const struct layout_ref *ref,
    const char *slug, struct response *r)
{
	struct tag	*t = archive_tag(rt->a, slug);
	char		*self, *alt, *title;

	if (t == NULL)
		response_status(r, 51, "Not found");
	else if (ref->bare)
		response_status(r, 31, "%s/", rt->reqpath);
	else if (ref->kind == LAYOUT_TAG)
		serve_tag(rt, t, r);
	else {
		self = layout_path(LAYOUT_TAG_FEED, t->slug, NULL);
		alt = layout_path(LAYOUT_TAG, t->slug, NULL);
		title = xasprintf("%s: %s", rt->a->title, t->name);
		serve_atom(rt, site_slot(rt->site, SITE_TAG, t->id,
		    SITE_ATOM), self, alt, title, t->posts, t->nposts, r);
		free(self);
		free(alt);
		free(title);
	}
}

/* "/<page>" from pages/; Gemini's "/<page>/" redirects to it. */
static void
route_page(const struct route *rt, const struct layout_ref *ref,
    const char *name, struct response *r)
{
	struct doc	*d = archive_doc(rt->a, name);
	char		*to;

	if (d == NULL)
		response_status(r, 51, "Not found");
	else if (ref->kind == LAYOUT_PAGE)
		serve_doc(rt, d, r);
	else if (rt->proto == PROTO_GOPHER)
		serve_doc_menu(rt, d, r);
	else {
		to = layout_path(LAYOUT_PAGE, name, NULL);
		redirect(rt, to, r);
		free(to);
	}
}

/*
 * "/search": Gemini asks for the query with 10; Gopher's "/search" with
 * no search string gets a menu holding the search item.  Results are
 * made per request (a few milliseconds), never cached.
 */
static void
serve_search(const struct route *rt, const char *query, struct response *r)
{
	struct page	 p;
	char		*q = NULL;

	if (query != NULL) {
		q = xstrdup(query);
		/* Gemini sends it percent-encoded; Gopher as typed. */
		if (rt->proto == PROTO_GEMINI && (url_decode(q) == -1 ||
		    !utf8_valid(q, strlen(q)))) {
			free(q);
			response_status(r, 59, "Bad request: the query is not "
			    "percent-encoded UTF-8");
			return;
		}
	}
	page_init(&p);
	if (q == NULL || q[strspn(q, " \t\r\n")] == '\0') {
		if (rt->proto == PROTO_GEMINI) {
			free(q);
			page_free(&p);
			response_status(r, 10, "Search the archive");
			return;
		}
		nav_search_prompt(&p, rt->a);
	} else
		nav_search(&p, site_search(rt->site), q);
	free(q);
	set_body(r, emit_menu(rt, &p), "text/gemini", rt->a->lang, '1');
	page_free(&p);
}

/*
 * "/drafts/" and "/drafts/<slug>": for writers over Gemini only; 51 for
 * everyone else, as if there were nothing there.  Drafts change often
 * and are read by one person: rendered per request, never cached.
 */
static void
serve_drafts(const struct route *rt, const struct layout_ref *ref,
    const char *slug, struct response *r)
{
	struct archive	*a = rt->a;
	struct post	*post;
	struct page	 p;
	const char	*body;
	char		*url;
	size_t		 i, len;

	if (rt->proto != PROTO_GEMINI || !rt->writer) {
		response_status(r, 51, "Not found");
		return;
	}
	if (ref->bare) {
		response_status(r, 31, LAYOUT_PATH_DRAFTS);
		return;
	}
	page_init(&p);
	if (ref->kind == LAYOUT_DRAFTS) {
		page_heading(&p, 1, "Drafts");
		page_text(&p, "Only writers see these: drafts are in no list, "
		    "feed, search or Gopher menu.");
		page_blank(&p);
		if (a->ndrafts == 0)
			page_text(&p, "No drafts.");
		for (i = 0; i < a->ndrafts; i++) {
			url = layout_path(LAYOUT_DRAFT, a->drafts[i]->slug,
			    NULL);
			page_link(&p, LINK_DOCUMENT, url,
			    a->drafts[i]->date.ymd, "%s", a->drafts[i]->title);
			free(url);
		}
		page_blank(&p);
		page_link(&p, LINK_MENU, LAYOUT_PATH_HOME, NULL, "Home");
		set_body(r, emit_menu(rt, &p), "text/gemini", a->lang, '1');
		page_free(&p);
		return;
	}
	if ((post = archive_draft(a, slug)) == NULL) {
		page_free(&p);
		response_status(r, 51, "Not found");
		return;
	}
	nav_post_header(&p, a, post);
	body = post_body(post, &len);
	nav_post_body(&p, post, body, len);
	nav_post_footer(&p, a, post);
	set_body(r, emit_document(rt, &p, post->path), "text/gemini",
	    post->lang ? post->lang : a->lang, '0');
	page_free(&p);
}

/* /robots.txt from the configuration: text/plain, Gopher type 0. */
static void
serve_robots(const struct route *rt, struct response *r)
{
	/* Copied: the body must not outlive a configuration it borrows. */
	buf_add(&r->owned, rt->cfg->robots, strlen(rt->cfg->robots));
	response_use_owned(r);
	r->gopher_type = '0';
	response_status(r, 20, "text/plain; charset=utf-8");
}

/*
 * The dispatch: one case per kind of path that core/layout.c parses;
 * a new route is an entry in its table and a case here.
 */
static void
route_path(const struct route *rt, const struct layout_ref *ref,
    const char *query, struct response *r)
{
	struct archive	*a = rt->a;
	char		 name[ROUTER_NAME_MAX];

	name[0] = '\0';
	/* "/posts" -> "/posts/": relative links need the slash. */
	if (ref->bare && ref->name == NULL && ref->kind != LAYOUT_DRAFTS) {
		response_status(r, 31, "%s/", rt->reqpath);
		return;
	}
	if (ref->name != NULL && layout_name(ref, name, sizeof(name)) == -1) {
		response_status(r, 51, "Not found");
		return;
	}
	switch (ref->kind) {
	case LAYOUT_HOME:
		serve_nav(rt, NAV_HOME, r);
		break;
	case LAYOUT_POSTS:
		serve_nav(rt, NAV_POSTS, r);
		break;
	case LAYOUT_SERIES_LIST:
		serve_nav(rt, NAV_SERIES, r);
		break;
	case LAYOUT_TAGS:
		serve_nav(rt, NAV_TAGS, r);
		break;
	case LAYOUT_GEMLOG:
		serve_nav(rt, NAV_GEMLOG, r);
		break;
	case LAYOUT_FEED:
		serve_atom(rt, site_slot(rt->site, SITE_NAV, NAV_GEMLOG,
		    SITE_ATOM), LAYOUT_PATH_FEED, LAYOUT_PATH_GEMLOG, a->title,
		    a->posts, a->nposts < 50 ? a->nposts : 50, r);
		break;
	case LAYOUT_SEARCH:
		serve_search(rt, query, r);
		break;
	case LAYOUT_ROBOTS:
		if (rt->cfg->robots != NULL)
			serve_robots(rt, r);
		else
			response_status(r, 51, "Not found");
		break;
	case LAYOUT_DRAFTS:
	case LAYOUT_DRAFT:
		serve_drafts(rt, ref, name, r);
		break;
	case LAYOUT_FILES:
		serve_file(rt, rt->reqpath, r);
		break;
	case LAYOUT_POST:
	case LAYOUT_POST_MENU:
	case LAYOUT_BUNDLE_FILE:
		route_post(rt, ref, name, r);
		break;
	case LAYOUT_SERIES:
	case LAYOUT_SERIES_FEED:
		route_series(rt, ref, name, r);
		break;
	case LAYOUT_TAG:
	case LAYOUT_TAG_FEED:
		route_tag(rt, ref, name, r);
		break;
	case LAYOUT_PAGE:
	case LAYOUT_PAGE_MENU:
		route_page(rt, ref, name, r);
		break;
	case LAYOUT_USERS:	/* router_handle()'s, with user capsules */
	case LAYOUT_USER:
	case LAYOUT_NONE:
		response_status(r, 51, "Not found");
		break;
	}
}

/* "/~/": the users who publish, made as every navigation page is. */
static void
serve_users(const struct route *rt, const struct router_users *u,
    struct response *r)
{
	struct page	 p;
	struct blob	*b;

	page_init(&p);
	nav_users(&p, rt->a, u->cfgs, u->n);
	b = emit_menu(rt, &p);
	page_free(&p);
	set_body(r, b, "text/gemini", rt->a->lang, '1');
}

static int
user_cmp(const void *key, const void *elt)
{
	const char		*name = key;
	const struct config	*c = elt;

	return strcmp(name, c->base + 2);	/* "/~name" */
}

/*
 * "/~", "/~/" and "/~name..." of the top-level site: the user capsules.
 * The name is looked up whole among the users, and the rest of the path
 * goes to that user's site alone: nothing in it can name another
 * capsule, since the parser has removed every dot segment.
 */
static void
route_user(const struct route *rt, const struct router_req *req,
    const struct layout_ref *ref, struct response *r)
{
	const struct router_users *u = req->users;
	const struct config	*c;
	struct router_req	 sub;
	char			 name[256], *to;

	if (ref->kind == LAYOUT_USERS && ref->bare) {
		response_status(r, 31, LAYOUT_PATH_USERS);
		return;
	}
	if (ref->kind == LAYOUT_USERS) {
		serve_users(rt, u, r);
		return;
	}
	if (ref->namelen == 0 || layout_name(ref, name, sizeof(name)) == -1 ||
	    (c = bsearch(name, u->cfgs, u->n, sizeof(*u->cfgs),
	    user_cmp)) == NULL) {
		response_status(r, 51, "Not found");
		return;
	}
	if (ref->bare) {
		/* "/~name" -> "/~name/": relative links need the slash. */
		to = layout_path(LAYOUT_USER, name, "/");
		response_status(r, 31, "%s", to);
		free(to);
		return;
	}
	sub = *req;
	sub.path = ref->rest;
	sub.users = NULL;
	sub.writer = 0;		/* the operator's writers: not the user's */
	router_handle(c, u->sites[c - u->cfgs], &sub, r);
}

/*
 * A redirect to a path of a site with a base: the path within the site
 * made the path from the top ("/posts/" -> "/~name/posts/").  META that
 * would not fit is 59.
 */
static void
redirect_base(const struct config *cfg, struct response *r)
{
	size_t	 blen, mlen;

	if (cfg->base == NULL || r->status / 10 != 3 ||
	    !layout_site_path(r->meta))
		return;
	blen = strlen(cfg->base);
	mlen = strlen(r->meta);
	if (blen + mlen >= sizeof(r->meta)) {
		response_status(r, 59, "Bad request: the URL to redirect to "
		    "is too long");
		return;
	}
	memmove(r->meta + blen, r->meta, mlen + 1);
	memcpy(r->meta, cfg->base, blen);
}

void
router_handle(const struct config *cfg, struct site *site,
    const struct router_req *req, struct response *r)
{
	struct route	 rt = { cfg, site, site->a, req->proto, req->path,
			    req->writer };
	struct layout_ref ref;
	const char	*to;
	int		 status;

	layout_parse(req->path, req->users != NULL && cfg->userdirs != NULL ?
	    LAYOUT_USERDIRS : 0, &ref);
	if (ref.kind == LAYOUT_USERS || ref.kind == LAYOUT_USER) {
		route_user(&rt, req, &ref, r);
		return;
	}
	route_path(&rt, &ref, req->query, r);
	/* Content wins: "redirects:" only answers what would be 51. */
	if (r->status == 51 &&
	    (to = config_redirect(cfg, req->path, &status)) != NULL)
		response_status(r, status, "%s", to);
	redirect_base(cfg, r);
}
