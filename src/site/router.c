/*
 * router.c -- a request path to a response description (README.md, "URL
 * layout").
 *
 * One router serves both protocols: the same paths name the same things
 * over Gemini and Gopher, and only the emitter differs.  This file is the
 * dispatch: which path names which thing.  The pages, menus and feeds it
 * names are made, cached and typed by response.c (response_serve_text()),
 * the capsule's files opened by static.c; the few answers made per
 * request (search, drafts, the users' list, robots.txt) are here.  No
 * socket I/O.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "content/archive.h"
#include "content/links.h"
#include "core/buf.h"
#include "core/config.h"
#include "core/layout.h"
#include "core/config_types.h"
#include "core/redirect.h"
#include "core/url.h"
#include "core/utf8.h"
#include "core/util.h"
#include "proto/gopher.h"
#include "site/nav.h"
#include "site/page.h"
#include "site/response.h"
#include "site/router.h"
#include "site/site.h"
#include "site/static.h"

/* The longest slug, page or user name a path is looked up by. */
#define ROUTER_NAME_MAX		512

/* The item type of a file's path: config_file_type()'s. */
static char
file_item(const struct config *cfg, const char *url)
{
	char	 type;

	config_file_type(cfg->types, url, &type);
	return type;
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
	port = config_public_port(cfg, SURFACE_GOPHER);
	/* With a mount, a path of the tree (or a user's) carries none. */
	if (cfg->mount != NULL && !cfg->owned && !links_generated(a, url))
		return xasprintf("gopher://%s:%d/%c%s", cfg->hostname, port,
		    url[strlen(url) - 1] == '/' ? '1' : file_item(cfg, url), url);
	/* A post or a page is followed through its menu (nav.h). */
	layout_parse(url, 0, &ref);
	if (ref.kind == LAYOUT_POST || (ref.kind == LAYOUT_PAGE &&
	    layout_name(&ref, name, sizeof(name)) == 0 &&
	    archive_doc(a, name) != NULL))
		return xasprintf("gopher://%s:%d/1%s%s/", cfg->hostname, port,
		    cfg->base != NULL ? cfg->base : "", url);
	type = url[strlen(url) - 1] == '/' ? '1' :
	    page_file_path(url) ? file_item(cfg, url) : '0';
	return xasprintf("gopher://%s:%d/%c%s%s", cfg->hostname, port, type,
	    cfg->base != NULL ? cfg->base : "", url);
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
		response_serve_text(rt, TEXT_POST, p->id, r);
	else if (ref->kind == LAYOUT_POST_MENU && rt->proto == PROTO_GOPHER)
		response_serve_text(rt, TEXT_POST_MENU, p->id, r);
	else if (ref->kind == LAYOUT_POST_MENU) {
		to = layout_path(LAYOUT_POST, slug, NULL);
		response_status(r, 31, "%s", to);
		free(to);
	} else		/* a file of its folder, as the archive says */
		static_bundle_file(rt, p, ref->rest, r);
}

/* "/series/<slug>/" and its feed; "/series/<slug>" gets the slash. */
static void
route_series(const struct route *rt, const struct layout_ref *ref,
    const char *slug, struct response *r)
{
	struct series	*s = archive_series(rt->a, slug);

	if (s == NULL)
		response_status(r, 51, "Not found");
	else if (ref->bare)
		response_status(r, 31, "%s/", rt->reqpath);
	else
		response_serve_text(rt, ref->kind == LAYOUT_SERIES ?
		    TEXT_SERIES : TEXT_SERIES_FEED, s->id, r);
}

/* "/tags/<slug>/" and its feed; "/tags/<slug>" gets the slash. */
static void
route_tag(const struct route *rt, const struct layout_ref *ref,
    const char *slug, struct response *r)
{
	struct tag	*t = archive_tag(rt->a, slug);

	if (t == NULL)
		response_status(r, 51, "Not found");
	else if (ref->bare)
		response_status(r, 31, "%s/", rt->reqpath);
	else
		response_serve_text(rt, ref->kind == LAYOUT_TAG ? TEXT_TAG :
		    TEXT_TAG_FEED, t->id, r);
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
		response_serve_text(rt, TEXT_DOC, d->id, r);
	else if (rt->proto == PROTO_GOPHER)
		response_serve_text(rt, TEXT_DOC_MENU, d->id, r);
	else {
		to = layout_path(LAYOUT_PAGE, name, NULL);
		response_redirect(rt, to, r);
		free(to);
	}
}

/*
 * "/search": Gemini asks for the query with 10; Gopher's "/search" with
 * no search string gets a menu holding the search item.  Results are
 * made per request (a few milliseconds), never cached; the first search
 * of a snapshot, which builds its index, on libuv's pool when the caller
 * can wait.
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
	} else if (r->may_defer && !site_search_ready(rt->site)) {
		/* The index is built on the pool (response.h). */
		response_defer_search(rt, q, r);
		free(q);
		page_free(&p);
		return;
	} else
		nav_search(&p, site_search(rt->site), q);
	free(q);
	response_set_body(r, response_menu(rt, &p), "text/gemini", rt->a->lang,
	    '1');
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
	char		*url;
	size_t		 i;

	if (rt->proto != PROTO_GEMINI || !rt->writer) {
		response_status(r, 51, "Not found");
		return;
	}
	if (ref->bare) {
		response_status(r, 31, LAYOUT_PATH_DRAFTS);
		return;
	}
	if (ref->kind == LAYOUT_DRAFTS) {
		page_init(&p);
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
		response_set_body(r, response_menu(rt, &p), "text/gemini",
		    a->lang, '1');
		page_free(&p);
		return;
	}
	if ((post = archive_draft(a, slug)) == NULL) {
		response_status(r, 51, "Not found");
		return;
	}
	response_set_body(r, response_post(rt, post), "text/gemini",
	    post->lang ? post->lang : a->lang, '0');
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
		response_serve_text(rt, TEXT_NAV, NAV_HOME, r);
		break;
	case LAYOUT_POSTS:
		response_serve_text(rt, TEXT_NAV, NAV_POSTS, r);
		break;
	case LAYOUT_SERIES_LIST:
		response_serve_text(rt, TEXT_NAV, NAV_SERIES, r);
		break;
	case LAYOUT_TAGS:
		response_serve_text(rt, TEXT_NAV, NAV_TAGS, r);
		break;
	case LAYOUT_GEMLOG:
		response_serve_text(rt, TEXT_NAV, NAV_GEMLOG, r);
		break;
	case LAYOUT_FEED:
		response_serve_text(rt, TEXT_FEED, 0, r);
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
		static_file(rt, rt->reqpath, r);
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
	b = response_menu(rt, &p);
	page_free(&p);
	response_set_body(r, b, "text/gemini", rt->a->lang, '1');
}

static int
user_cmp(const void *key, const void *elt)
{
	const char		*name = key;
	const struct config	*c = elt;

	return strcmp(name, c->base + strlen(LAYOUT_PATH_USER)); /* "/~name" */
}

/* The user ref names (its whole name, any length), or NULL. */
static const struct config *
find_user(const struct router_users *u, const struct layout_ref *ref)
{
	const struct config	*c;
	char			*name;

	if (u == NULL || ref->kind != LAYOUT_USER || ref->namelen == 0)
		return NULL;
	name = xstrndup(ref->name, ref->namelen);
	c = bsearch(name, u->cfgs, u->n, sizeof(*u->cfgs), user_cmp);
	free(name);
	return c;
}

const struct config *
router_user(const struct router_users *u, const char *path,
    struct site **site, const char **rest)
{
	struct layout_ref	 ref;
	const struct config	*c;

	if (u == NULL)
		return NULL;
	layout_parse(path, LAYOUT_USERDIRS, &ref);
	if ((c = find_user(u, &ref)) == NULL)
		return NULL;
	*site = u->sites[c - u->cfgs];
	*rest = ref.bare ? "/" : ref.rest;
	return c;
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
	char			*to;

	if (ref->kind == LAYOUT_USERS && ref->bare) {
		response_status(r, 31, LAYOUT_PATH_USERS);
		return;
	}
	if (ref->kind == LAYOUT_USERS) {
		serve_users(rt, u, r);
		return;
	}
	if ((c = find_user(u, ref)) == NULL) {
		response_status(r, 51, "Not found");
		return;
	}
	if (ref->bare) {
		/* "/~name" -> "/~name/": relative links need the slash. */
		to = xasprintf("%s/", c->base);
		response_redirect(rt, to, r);
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

/*
 * "mount": the generated pages under cfg->mount only (its base, so
 * their links and redirects carry it), and the static tree every other
 * path; robots.txt stays at the top, where crawlers look, unless the
 * tree has one.  Configured redirects answer what both leave 51.
 */
static void
route_mounted(const struct route *rt, const struct router_req *req,
    struct response *r)
{
	const struct config	*cfg = rt->cfg;
	struct route		 sub = *rt;
	struct layout_ref	 ref;
	size_t			 n = strlen(cfg->mount);
	const char		*to;
	int			 status;

	if (strncmp(req->path, cfg->mount, n) == 0 && req->path[n] == '\0') {
		response_status(r, 31, "%s/", req->path);
		return;
	}
	if (strncmp(req->path, cfg->mount, n) == 0 && req->path[n] == '/') {
		sub.reqpath = req->path + n;
		layout_parse(sub.reqpath, 0, &ref);
		route_path(&sub, &ref, req->query, r);
		redirect_base(cfg, r);
	} else if (!static_tree(rt, req->path, r) || r->status == 51) {
		response_status(r, 51, "Not found");
		if (strcmp(req->path, LAYOUT_PATH_ROBOTS) == 0 &&
		    cfg->robots != NULL)
			serve_robots(rt, r);
	}
	if (r->status == 51 &&
	    (to = config_redirect(cfg, req->path, &status)) != NULL)
		response_status(r, status, "%s", to);
}

void
router_handle(const struct config *cfg, struct site *site,
    const struct router_req *req, struct response *r)
{
	struct route	 rt = { cfg, site, site->a, req->proto, req->path,
			    req->writer, router_gopher_url };
	struct layout_ref ref;
	struct buf	 to;
	int		 status;

	layout_parse(req->path, req->users != NULL && cfg->userdirs != NULL ?
	    LAYOUT_USERDIRS : 0, &ref);
	if (ref.kind == LAYOUT_USERS || ref.kind == LAYOUT_USER) {
		route_user(&rt, req, &ref, r);
		return;
	}
	if (cfg->owned && static_plain(rt.a)) {
		/* A user capsule without the layout: a tree, all of it. */
		static_tree(&rt, req->path, r);
		redirect_base(cfg, r);
		return;
	}
	if (cfg->mount != NULL && !cfg->owned) {
		route_mounted(&rt, req, r);
		return;
	}
	route_path(&rt, &ref, req->query, r);
	/* Generated pages win; the static tree has what they leave. */
	if (r->status == 51 && cfg->root != NULL && !cfg->owned)
		static_tree(&rt, req->path, r);
	/* Content wins: "redirects:" only answers what would be 51. */
	if (r->status == 51 && cfg->nredirects > 0) {
		buf_init(&to);
		if (redirect_find(cfg->redirects, cfg->nredirects, req->path,
		    req->proto == PROTO_GEMINI, &to, &status))
			response_status(r, status, "%s", to.data);
		buf_free(&to);
	}
	redirect_base(cfg, r);
}
