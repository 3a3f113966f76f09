/*
 * response.c -- the response object, the texts a site caches, and
 * their deferred rendering.
 *
 * Every page, menu and feed goes out through response_serve_text():
 * rendered on first request and published into the site's cache slots
 * (site.h; compare-and-swap, no lock), so every later request borrows
 * the same bytes, holding a reference to them (cache.h: an evicted page
 * lives until the responses sending it are done).  What differs between
 * them, their slot, type and maker, is the table texts[].  One that is
 * slow to make is left to response_render() when the caller can wait.
 * The emitters wire the page model (page.h) to gemtext or Gopher and
 * the writer's links to the archive (links.h).  No socket I/O.
 */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "content/archive.h"
#include "content/links.h"
#include "core/buf.h"
#include "core/config.h"
#include "core/layout.h"
#include "core/url.h"
#include "core/utf8.h"
#include "core/util.h"
#include "markdown/gemtext.h"
#include "markdown/render.h"
#include "markdown/scan.h"
#include "proto/gemini.h"
#include "proto/gopher.h"
#include "site/atom.h"
#include "site/nav.h"
#include "site/page.h"
#include "site/response.h"
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

/* ---- the response object -------------------------------------------- */

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

void
response_take_body(struct response *r, struct buf *out, int keep_file)
{
	blob_unref(r->blob);
	r->blob = NULL;
	buf_free(&r->owned);
	r->owned = *out;
	buf_init(out);
	if (r->owned.data == NULL)
		buf_addstr(&r->owned, "");
	response_use_owned(r);
	if (!keep_file && r->fd != -1) {
		close(r->fd);
		r->fd = -1;
	}
}

/* A body left for response_render(): what it takes to make it. */
struct render_job {
	struct route	 rt;		/* reqpath: NULL */
	struct slot	*slot;
	enum text_kind	 kind;		/* the text kind of id, */
	size_t		 id;
	int		 fd;		/* or a file to read whole (owned),
					   or -1 */
	uint64_t	 filelen;	/* its size, as fstat(2) said */
	response_fill_fn *fill;		/* how */
	char		*query;		/* or a search's results (owned) */
	response_make_fn *make;		/* or a body made from arg, */
	void		*arg;		/* owned: */
	void		(*arg_free)(void *);	/* freed with this */
};

static void
job_free(struct render_job *j)
{
	if (j == NULL)
		return;
	if (j->fd != -1)
		close(j->fd);
	free(j->query);
	if (j->arg_free != NULL)
		j->arg_free(j->arg);
	free(j);
}

/* Bytes above RESPONSE_HOLD_FREE that all responses hold together. */
static atomic_size_t	 held_total;

size_t
response_hold(struct response *r, size_t len)
{
	size_t	 want, have, take;

	if (len <= RESPONSE_HOLD_FREE)
		return len;
	want = len - RESPONSE_HOLD_FREE;
	have = atomic_load(&held_total);
	do {
		take = have >= RESPONSE_HOLD_BUDGET ? 0 :
		    RESPONSE_HOLD_BUDGET - have;
		if (take > want)
			take = want;
		if (take == 0)
			return RESPONSE_HOLD_FREE;
	} while (!atomic_compare_exchange_weak(&held_total, &have,
	    have + take));
	r->held += take;
	return RESPONSE_HOLD_FREE + take;
}

size_t
response_held(void)
{
	return atomic_load(&held_total);
}

void
response_free(struct response *r)
{
	job_free(r->job);
	r->job = NULL;
	if (r->held > 0)
		atomic_fetch_sub(&held_total, r->held);
	r->held = 0;
	buf_free(&r->owned);
	if (r->fd != -1)
		close(r->fd);
	r->fd = -1;
	blob_unref(r->blob);
	r->blob = NULL;
	r->body = NULL;
	r->bodylen = 0;
	free(r->front);
	r->front = NULL;
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

/*
 * A 20 of this type: its body comes from response_set_body() or a
 * render job.
 */
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

void
response_use_blob(struct response *r, struct blob *b)
{
	r->blob = b;		/* our reference, dropped by response_free */
	r->body = b->data;
	r->bodylen = b->len;
}

void
response_set_body(struct response *r, struct blob *b, const char *mime,
    const char *lang, char gopher_type)
{
	response_use_blob(r, b);
	set_type(r, mime, lang, gopher_type);
}

/* ---- emitters: the page model to gemtext or Gopher ------------------- */

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
	switch (lc->rt->format) {
	case FORMAT_GEMTEXT:
	case FORMAT_HTML:
		break;
	case FORMAT_GOPHER:		/* absolute_link() adds it */
	case FORMAT_NEX:
	case FORMAT_TEXT:
		return to;
	}
	if (base == NULL || !layout_site_path(to != NULL ? to : url) ||
	    (lc->rt->cfg->mount != NULL && !lc->rt->cfg->owned &&
	    !links_generated(lc->rt->a, to != NULL ? to : url)))
		return to;
	with = xasprintf("%s%s", base, to != NULL ? to : url);
	free(to);
	return with;
}

int
response_public_port(const struct route *rt)
{
	switch (rt->format) {
	case FORMAT_GEMTEXT:
		return config_public_port(rt->cfg, SURFACE_GEMINI);
	case FORMAT_GOPHER:
		break;
	case FORMAT_NEX:
		return config_public_port(rt->cfg, SURFACE_NEX);
	case FORMAT_TEXT:		/* its links are gemini:// URLs */
		return config_public_port(rt->cfg, SURFACE_GEMINI);
	case FORMAT_HTML:
		return config_public_port(rt->cfg, SURFACE_HTTP);
	}
	return config_public_port(rt->cfg, SURFACE_GOPHER);
}

/* Plain text names our own pages by absolute URLs (gopher://, nex://). */
static char *
absolute_link(void *ctx, const char *url)
{
	struct link_ctx	*lc = ctx;

	return lc->rt->absolute_url(lc->rt->cfg, lc->rt->a, lc->rt->format,
	    url);
}

static void
target_init(struct page_target *t, const struct route *rt,
    struct link_ctx *lc, const char *from)
{
	memset(t, 0, sizeof(*t));
	lc->rt = rt;
	lc->from = from;
	t->format = rt->format;
	t->host = rt->cfg->hostname;
	t->base = rt->cfg->base;
	t->port = response_public_port(rt);
	t->width = rt->cfg->gopher_width;
	t->types = rt->cfg->types;
	t->ropts.width = rt->cfg->gopher_width;
	t->ropts.rewrite = rewrite_link;
	t->ropts.rewrite_ctx = lc;
	switch (rt->format) {
	case FORMAT_GEMTEXT:
	case FORMAT_HTML:		/* links are paths */
		break;
	case FORMAT_GOPHER:
		t->ascii = rt->cfg->gopher_charset == CONFIG_CHARSET_ASCII;
		t->ropts.ascii = t->ascii;
		/* FALLTHROUGH */
	case FORMAT_NEX:
	case FORMAT_TEXT:
		t->ropts.absolute = absolute_link;
		t->ropts.absolute_ctx = lc;
		break;
	}
}

/*
 * The path a Gemini client asks for the page made from the file from
 * ("/posts/<slug>", "/<page>"), which Gopher text resolves relative
 * links against (render_opts.base); NULL when from is no post or page.
 */
static char *
page_base(const struct route *rt, const char *from)
{
	struct post	*p;
	struct doc	*d;
	char		*stem, *base = NULL;

	if (strncmp(from, "posts/", 6) == 0 &&
	    (p = archive_post_file(rt->a, from + 6)) != NULL)
		return layout_path(LAYOUT_POST, p->slug, NULL);
	if (strncmp(from, "pages/", 6) == 0) {
		stem = xstrndup(from + 6, strcspn(from + 6, "."));
		if ((d = archive_doc(rt->a, stem)) != NULL)
			base = layout_path(LAYOUT_PAGE, d->name, NULL);
		free(stem);
	}
	return base;
}

/*
 * The view a page of the tree beside a mount (static.c's root_tree():
 * no base) names paths in, in *tree: its paths are the server's as
 * they are, so no mount goes before them, even where one is a path a
 * generated page has under the mount ("/", the tree's home, is not
 * "/gemlog/"; "/gemlog/" is not "/gemlog/gemlog/").  Else cfg.
 */
static const struct config *
tree_view(const struct config *cfg, const char *base, struct config *tree)
{
	if (base != NULL || cfg->mount == NULL || cfg->owned)
		return cfg;
	*tree = *cfg;
	tree->base = tree->mount = NULL;
	return tree;
}

void
response_html_target(const struct route *rt, const struct page *p,
    struct page_target *t, char **gem, char **gph)
{
	struct config		 tree;
	const struct config	*cfg = tree_view(rt->cfg, t->base, &tree);

	*gem = *gph = NULL;
	t->lang = rt->a->lang;
	if (rt->a->nposts > 0) {
		t->feed = LAYOUT_PATH_FEED;
		t->feed_base = rt->cfg->base;
	}
	if (p->self == NULL)
		return;
	if (config_public_port(cfg, SURFACE_GEMINI) > 0)
		*gem = rt->absolute_url(cfg, rt->a, FORMAT_TEXT, p->self);
	if (config_public_port(cfg, SURFACE_GOPHER) > 0)
		*gph = rt->absolute_url(cfg, rt->a, FORMAT_GOPHER, p->self);
	t->alt_gemini = *gem;
	t->alt_gopher = *gph;
}

/*
 * Emit a page model: gemtext; over Gopher a menu, or the plain text of a
 * document (a post or page).  from is the file its Markdown blocks come
 * from, for their relative links.
 */
static struct blob *
emit(const struct route *rt, struct page *p, const char *from,
    int document)
{
	struct page_target	 t;
	struct link_ctx		 lc;
	struct buf		 out = BUF_INIT;
	struct blob		*b;
	char			*base = NULL, *gem = NULL, *gph = NULL;

	target_init(&t, rt, &lc, from);
	switch (rt->format) {
	case FORMAT_GEMTEXT:
		break;
	case FORMAT_GOPHER:
	case FORMAT_NEX:
	case FORMAT_TEXT:
		/* Text resolves relative links against the page's path. */
		t.ropts.base = base = page_base(rt, from);
		break;
	case FORMAT_HTML:
		response_html_target(rt, p, &t, &gem, &gph);
		break;
	}
	page_emit(p, &t, document, &out);
	b = blob_new(out.data ? out.data : "", out.len);
	buf_free(&out);
	free(base);
	free(gem);
	free(gph);
	return b;
}

struct blob *
response_menu(const struct route *rt, struct page *p)
{
	return emit(rt, p, "index.md", 0);
}

struct blob *
response_gemtext_file(const struct route *rt, const char *gmi, size_t len,
    const char *url, const char *base, int menu)
{
	struct page_target	 t;
	struct link_ctx		 lc;
	struct page		 p;
	struct buf		 out = BUF_INIT;
	struct blob		*b;
	struct config		 tree;
	struct route		 trt = *rt;
	char			*title, *raw, *gem = NULL, *gph = NULL;

	/* Its links are the server's paths: Gopher's take no mount. */
	trt.cfg = tree_view(rt->cfg, base, &tree);
	target_init(&t, &trt, &lc, NULL);
	t.base = base;			/* the tree's, not the mount's */
	/* A hand-written file: its links mean what a client makes them. */
	t.ropts.rewrite = NULL;
	t.ropts.rewrite_ctx = NULL;
	t.ropts.base = url;
	page_init(&p);
	page_self(&p, url);
	if (!menu)
		page_source(&p, gmi, len, 1);
	else {
		/* As a post's menu: the text, its links, then the file. */
		title = gemtext_title(gmi, len);
		page_heading(&p, 1, "%s", title != NULL ? title :
		    strrchr(url, '/') + 1);
		free(title);
		page_blank(&p);
		page_link(&p, LINK_DOCUMENT, url, NULL, "Read the text");
		page_blank(&p);
		page_source_links(&p, gmi, len, 1);
		page_blank(&p);
		raw = xasprintf("%s/" RESPONSE_GMI_RAW, url);
		page_link(&p, LINK_DOCUMENT, raw, NULL, "The file as written "
		    "(gemtext)");
		free(raw);
	}
	if (rt->format == FORMAT_HTML)
		response_html_target(rt, &p, &t, &gem, &gph);
	page_emit(&p, &t, !menu, &out);
	page_free(&p);
	free(gem);
	free(gph);
	b = blob_new(out.data ? out.data : "", out.len);
	buf_free(&out);
	return b;
}

struct blob *
response_document(const struct route *rt, struct page *p, const char *from)
{
	return emit(rt, p, from, 1);
}

/* ---- the texts a site caches ----------------------------------------- */

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

#define TYPE_GEMTEXT	"text/gemini"
#define TYPE_ATOM	"application/atom+xml"

const char *
response_page_type(const struct route *rt)
{
	switch (rt->format) {
	case FORMAT_GEMTEXT:
	case FORMAT_GOPHER:
	case FORMAT_NEX:
	case FORMAT_TEXT:		/* their front ends type them */
		break;
	case FORMAT_HTML:
		return "text/html";
	}
	return TYPE_GEMTEXT;
}

/* What differs between the kinds of text: the rest is one path. */
static const struct text_rule {
	enum site_kind	 site;		/* its slot: the thing's kind */
	enum site_render render;	/* and rendering; SITE_NRENDERS:
					   the request's protocol's */
	const char	*mime;
	char		 gopher_type;
	enum {
		EMIT_MENU,		/* page or menu: response_menu() */
		EMIT_DOCUMENT,		/* response_document() */
		EMIT_FEED,		/* Atom: atom.h, no page */
	}		 emit;
} texts[TEXT_NKINDS] = {
	[TEXT_NAV] = { SITE_NAV, SITE_NRENDERS, TYPE_GEMTEXT, '1',
	    EMIT_MENU },
	[TEXT_SERIES] = { SITE_SERIES, SITE_NRENDERS, TYPE_GEMTEXT, '1',
	    EMIT_MENU },
	[TEXT_TAG] = { SITE_TAG, SITE_NRENDERS, TYPE_GEMTEXT, '1', EMIT_MENU },
	[TEXT_POST] = { SITE_POST, SITE_NRENDERS, TYPE_GEMTEXT, '0',
	    EMIT_DOCUMENT },
	[TEXT_POST_MENU] = { SITE_POST, SITE_GOPHER_MENU, TYPE_GEMTEXT, '1',
	    EMIT_MENU },
	[TEXT_DOC] = { SITE_DOC, SITE_NRENDERS, TYPE_GEMTEXT, '0',
	    EMIT_DOCUMENT },
	[TEXT_DOC_MENU] = { SITE_DOC, SITE_GOPHER_MENU, TYPE_GEMTEXT, '1',
	    EMIT_MENU },
	/* Feeds: the same bytes over both protocols (Gopher: type 0). */
	[TEXT_FEED] = { SITE_NAV, SITE_ATOM, TYPE_ATOM, '0', EMIT_FEED },
	[TEXT_SERIES_FEED] = { SITE_SERIES, SITE_ATOM, TYPE_ATOM, '0',
	    EMIT_FEED },
	[TEXT_TAG_FEED] = { SITE_TAG, SITE_ATOM, TYPE_ATOM, '0', EMIT_FEED },
};

/* The slot of this request's rendering of text k of id. */
static struct slot *
text_slot(const struct route *rt, enum text_kind k, size_t id)
{
	enum site_render	 render = texts[k].render;

	if (render == SITE_NRENDERS)
		render = site_render_of(rt->format);
	else if (render == SITE_GOPHER_MENU)	/* the format's menu */
		render = site_menu_render_of(rt->format);
	if (k == TEXT_FEED)
		id = NAV_GEMLOG;	/* the feed of /gemlog/ */
	return site_slot(rt->site, texts[k].site, id, render);
}

/* Its lang= (the post's or page's, else the site's); none for a feed. */
static const char *
text_lang(const struct route *rt, enum text_kind k, size_t id)
{
	const char	*lang = NULL;

	switch (k) {
	case TEXT_POST:
	case TEXT_POST_MENU:
		lang = rt->a->posts[id]->lang;
		break;
	case TEXT_DOC:
	case TEXT_DOC_MENU:
		lang = rt->a->docs[id]->lang;
		break;
	case TEXT_FEED:
	case TEXT_SERIES_FEED:
	case TEXT_TAG_FEED:
		return NULL;
	default:
		break;
	}
	return lang != NULL ? lang : rt->a->lang;
}

/*
 * Is text k of id slow to make: a post's or page's Markdown (its Gopher
 * menu renders it too, to number its links), or a feed with the content
 * of such posts?  Navigation pages never are.
 */
static int
text_slow(const struct route *rt, enum text_kind k, size_t id)
{
	const struct archive	*a = rt->a;
	const struct post	*post;
	const struct doc	*d;
	const struct series	*s;
	const struct tag	*t;

	switch (k) {
	case TEXT_POST:
	case TEXT_POST_MENU:
		post = a->posts[id];
		return slow_to_render(post->src + post->body_off,
		    post->srclen - post->body_off);
	case TEXT_DOC:
	case TEXT_DOC_MENU:
		d = a->docs[id];
		return slow_to_render(d->src + d->body_off,
		    d->srclen - d->body_off);
	case TEXT_FEED:
		return rt->cfg->atom_full_content && slow_feed(a->posts,
		    atom_entries(a->nposts));
	case TEXT_SERIES_FEED:
		s = a->series[id];
		return rt->cfg->atom_full_content && slow_feed(s->parts,
		    s->nparts);
	case TEXT_TAG_FEED:
		t = a->tags[id];
		return rt->cfg->atom_full_content && slow_feed(t->posts,
		    atom_entries(t->nposts));
	default:
		return 0;
	}
}

/*
 * A post's or a page's Markdown, src[off..srclen), as its pages show
 * it: a body that opens with the title would show it twice, so that
 * heading is left out.
 */
static const char *
shown_body(const char *src, size_t srclen, size_t off, const char *title,
    size_t *lenp)
{
	size_t	 skip;

	skip = scan_repeated_title(src + off, srclen - off, title);
	*lenp = srclen - off - skip;
	return src + off + skip;
}

static const char *
post_body(const struct post *post, size_t *lenp)
{
	return shown_body(post->src, post->srclen, post->body_off,
	    post->title, lenp);
}

static const char *
doc_body(const struct doc *d, size_t *lenp)
{
	return shown_body(d->src, d->srclen, d->body_off, d->title, lenp);
}

static void
post_page(struct page *p, const struct archive *a, struct post *post)
{
	const char	*body;
	size_t		 len;

	nav_post_header(p, a, post);
	body = post_body(post, &len);
	nav_post_body(p, post, body, len);
	nav_post_footer(p, a, post);
}

/* The site path text k of id is served at, for the page to name. */
static void
self_of(const struct route *rt, enum text_kind k, size_t id, struct page *p)
{
	static const char *const navs[NAV_NPAGES] = {
		[NAV_HOME] = LAYOUT_PATH_HOME,
		[NAV_POSTS] = LAYOUT_PATH_POSTS,
		[NAV_SERIES] = LAYOUT_PATH_SERIES,
		[NAV_TAGS] = LAYOUT_PATH_TAGS,
		[NAV_GEMLOG] = LAYOUT_PATH_GEMLOG,
		[NAV_PLAN] = LAYOUT_PATH_PLAN,
	};
	const struct archive	*a = rt->a;
	char			*url = NULL;

	switch (k) {
	case TEXT_NAV:
		if (id < NAV_NPAGES && navs[id] != NULL)
			page_self(p, navs[id]);
		return;
	case TEXT_SERIES:
		url = layout_path(LAYOUT_SERIES, a->series[id]->slug, NULL);
		break;
	case TEXT_TAG:
		url = layout_path(LAYOUT_TAG, a->tags[id]->slug, NULL);
		break;
	case TEXT_POST:
	case TEXT_POST_MENU:
		url = layout_path(LAYOUT_POST, a->posts[id]->slug, NULL);
		break;
	case TEXT_DOC:
	case TEXT_DOC_MENU:
		url = layout_path(LAYOUT_PAGE, a->docs[id]->name, NULL);
		break;
	case TEXT_FEED:
	case TEXT_SERIES_FEED:
	case TEXT_TAG_FEED:
	case TEXT_NKINDS:
		return;
	}
	if (url != NULL)
		page_self(p, url);
	free(url);
}

/*
 * The page model of text k of id; returns the file its Markdown comes
 * from, for its relative links.
 */
static const char *
text_page(const struct route *rt, enum text_kind k, size_t id,
    struct page *p)
{
	struct archive	*a = rt->a;
	struct post	*post;
	struct doc	*d;
	const char	*body;
	size_t		 len;

	self_of(rt, k, id, p);
	switch (k) {
	case TEXT_NAV:
		switch ((enum nav_page)id) {
		case NAV_HOME:
			nav_home(p, a, rt->cfg);
			break;
		case NAV_POSTS:
			nav_posts(p, a);
			break;
		case NAV_SERIES:
			nav_series_index(p, a);
			break;
		case NAV_TAGS:
			nav_tags(p, a);
			break;
		case NAV_GEMLOG:
			nav_gemlog(p, a);
			break;
		case NAV_PLAN:
			nav_plan(p, a, rt->cfg);
			break;
		case NAV_NPAGES:
			break;
		}
		break;
	case TEXT_SERIES:
		nav_series(p, a, a->series[id]);
		break;
	case TEXT_TAG:
		nav_tag(p, a, a->tags[id]);
		break;
	case TEXT_POST:
		post = a->posts[id];
		post_page(p, a, post);
		return post->path;
	case TEXT_POST_MENU:
		/*
		 * The text first, then the links the text can only print,
		 * as items; from the body TEXT_POST renders, so the numbers
		 * agree.
		 */
		post = a->posts[id];
		body = post_body(post, &len);
		nav_post_menu(p, a, post, body, len);
		return post->path;
	case TEXT_DOC:
		d = a->docs[id];
		page_heading(p, 1, "%s", d->title);
		body = doc_body(d, &len);
		page_source(p, body, len, 0);
		return d->path;
	case TEXT_DOC_MENU:
		d = a->docs[id];
		body = doc_body(d, &len);
		nav_doc_menu(p, a, d, body, len);
		return d->path;
	default:
		break;
	}
	return "index.md";
}

/* The feed text k of id: what atom.c builds, for the server's place. */
static void
text_feed(const struct route *rt, enum text_kind k, size_t id,
    struct buf *out)
{
	const struct config	*c = rt->cfg;
	struct atom_target	 t = { c->hostname, c->base, config_public_port(c, SURFACE_GEMINI),
				    c->atom_full_content };

	if (k == TEXT_SERIES_FEED)
		atom_series(out, rt->a, rt->a->series[id], &t);
	else if (k == TEXT_TAG_FEED)
		atom_tag(out, rt->a, rt->a->tags[id], &t);
	else
		atom_site(out, rt->a, &t);
}

/* Text k of id made for rt, published in its slot (site_cache_put()). */
static struct blob *
text_make(const struct route *rt, struct slot *slot, enum text_kind k,
    size_t id)
{
	struct page	 p;
	struct buf	 out = BUF_INIT;
	struct blob	*b;
	const char	*from;

	if (texts[k].emit == EMIT_FEED) {
		text_feed(rt, k, id, &out);
		b = blob_new(out.data ? out.data : "", out.len);
		buf_free(&out);
	} else {
		page_init(&p);
		from = text_page(rt, k, id, &p);
		b = emit(rt, &p, from, texts[k].emit == EMIT_DOCUMENT);
		page_free(&p);
	}
	return site_cache_put(rt->site, slot, b);
}

struct blob *
response_post(const struct route *rt, struct post *post)
{
	struct page	 p;
	struct blob	*b;

	page_init(&p);
	post_page(&p, rt->a, post);
	b = response_document(rt, &p, post->path);
	page_free(&p);
	return b;
}

/*
 * The body of r, not there yet, is left to response_render() (the
 * caller can wait for it: r->may_defer): a job the caller fills in.
 */
static struct render_job *
defer(const struct route *rt, struct slot *slot, struct response *r)
{
	struct render_job	*j;

	j = xcalloc(1, sizeof(*j));
	j->rt = *rt;
	j->rt.reqpath = NULL;		/* the request's, gone by then */
	j->slot = slot;
	j->fd = -1;
	job_free(r->job);
	r->job = j;
	return j;
}

void
response_defer_file(const struct route *rt, struct slot *slot, int fd,
    uint64_t len, response_fill_fn *fill, struct response *r)
{
	struct render_job	*j = defer(rt, slot, r);

	j->fd = fd;
	j->filelen = len;
	j->fill = fill;
}

void
response_defer_search(const struct route *rt, const char *q,
    struct response *r)
{
	struct render_job	*j = defer(rt, NULL, r);

	j->query = xstrdup(q);
	set_type(r, response_page_type(rt), rt->a->lang, '1');
}

void
response_defer_make(const struct route *rt, response_make_fn *make,
    void *arg, void (*arg_free)(void *), struct response *r)
{
	struct render_job	*j = defer(rt, NULL, r);

	j->make = make;
	j->arg = arg;
	j->arg_free = arg_free;
}

void
response_serve_text(const struct route *rt, enum text_kind k, size_t id,
    struct response *r)
{
	const struct text_rule	*tr = &texts[k];
	struct slot		*slot = text_slot(rt, k, id);
	const char		*lang = text_lang(rt, k, id);
	const char		*mime = tr->emit == EMIT_FEED ? tr->mime :
				    response_page_type(rt);
	struct render_job	*j;
	struct blob		*b;

	if ((b = cache_get(slot)) == NULL) {
		if (r->may_defer && text_slow(rt, k, id)) {
			j = defer(rt, slot, r);
			j->kind = k;
			j->id = id;
			set_type(r, mime, lang, tr->gopher_type);
			return;
		}
		b = text_make(rt, slot, k, id);
	}
	response_set_body(r, b, mime, lang, tr->gopher_type);
}

void
response_render(struct response *r)
{
	struct render_job	*j = r->job;
	struct page		 p;
	struct blob		*b;

	if (j == NULL)
		return;
	if (j->make != NULL) {
		/* r's own job goes first: make() fills r as it likes. */
		r->job = NULL;
		j->make(&j->rt, j->arg, r);
		job_free(j);
		return;
	}
	if (j->query != NULL) {
		page_init(&p);
		nav_search(&p, site_search(j->rt.site), j->query);
		page_self(&p, LAYOUT_PATH_SEARCH);
		b = response_menu(&j->rt, &p);
		page_free(&p);
	/* Another request may have rendered it meanwhile. */
	} else if ((b = cache_get(j->slot)) != NULL)
		;
	else if (j->fd != -1) {
		if ((b = j->fill(&j->rt, j->slot, j->fd, j->filelen)) ==
		    NULL) {
			/* Not kept (it changed while read): streamed. */
			r->fd = j->fd;
			r->filelen = j->filelen;
			j->fd = -1;
			r->job = NULL;
			job_free(j);
			return;
		}
	} else
		b = text_make(&j->rt, j->slot, j->kind, j->id);
	response_use_blob(r, b);
	r->job = NULL;
	job_free(j);
}

/*
 * 31 to the site path to, percent-encoded: META is a URI reference
 * ("/files/a b/" would end the URL at the space, "?" start a query, "%"
 * an escape).  A front end that follows redirects inside the server
 * (Gopher's) decodes it first.  A target that does not fit META once
 * encoded cannot be sent whole: 59.
 */
void
response_redirect(const struct route *rt, const char *to, struct response *r)
{
	struct buf	 b = BUF_INIT;

	(void)rt;
	url_encode_path(to, &b);
	if (b.len < sizeof(r->meta))
		response_status(r, 31, "%.*s", (int)b.len, b.data);
	else
		response_status(r, 59, "Bad request: the URL to redirect to "
		    "is too long");
	buf_free(&b);
}

