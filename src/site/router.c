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
#include "core/buf.h"
#include "core/config.h"
#include "core/mime.h"
#include "core/url.h"
#include "core/utf8.h"
#include "core/util.h"
#include "site/nav.h"
#include "site/page.h"
#include "site/response.h"
#include "site/router.h"
#include "site/site.h"
#include "site/static.h"

char *
router_gopher_url(const struct config *cfg, const struct archive *a,
    const char *url)
{
	int		 port;
	char		 type;

	if (url[0] != '/' || url[1] == '/')
		return NULL;
	port = cfg->gopher_public_port ? cfg->gopher_public_port :
	    cfg->gopher_port;
	/* A post or a page is followed through its menu (nav.h). */
	if ((strncmp(url, "/posts/", 7) == 0 && url[7] != '\0' &&
	    strchr(url + 7, '/') == NULL) || (strchr(url + 1, '/') == NULL &&
	    archive_doc(a, url + 1) != NULL))
		return xasprintf("gopher://%s:%d/1%s%s/", cfg->hostname, port,
		    cfg->base != NULL ? cfg->base : "", url);
	type = url[strlen(url) - 1] == '/' ? '1' :
	    page_file_path(url) ? mime_gopher_type(url) : '0';
	return xasprintf("gopher://%s:%d/%c%s%s", cfg->hostname, port, type,
	    cfg->base != NULL ? cfg->base : "", url);
}

/*
 * Split "/<section>/<name><rest>": returns the length of name and points
 * *rest after it ("" or "/" or "/atom.xml" ...).
 */
static size_t
segment(const char *s, const char **rest)
{
	size_t	 len = strcspn(s, "/");

	*rest = s + len;
	return len;
}

/* "/posts/slug", "/tags/slug/", "/series/slug/atom.xml", ... */
static void
route_section(const struct route *rt, const char *path, const char *section,
    const char *name, size_t namelen, const char *rest, struct response *r)
{
	char		 key[512];
	struct archive	*a = rt->a;

	if (namelen >= sizeof(key)) {
		response_status(r, 51, "Not found");
		return;
	}
	memcpy(key, name, namelen);
	key[namelen] = '\0';

	if (strcmp(section, "posts") == 0) {
		struct post *p = archive_post(a, key);

		if (p == NULL)
			response_status(r, 51, "Not found");
		else if (*rest == '\0')
			response_serve_text(rt, TEXT_POST, p->id, r);
		else if (strcmp(rest, "/") == 0 && rt->proto == PROTO_GOPHER)
			response_serve_text(rt, TEXT_POST_MENU, p->id, r);
		else if (strcmp(rest, "/") == 0)
			response_status(r, 31, "/posts/%s", key);
		else if (p->bundle)
			static_bundle_file(rt, p, rest + 1, r);
		else
			response_status(r, 51, "Not found");
		return;
	}
	if (strcmp(section, "series") == 0) {
		struct series *s = archive_series(a, key);

		if (s == NULL)
			response_status(r, 51, "Not found");
		else if (*rest == '\0')
			response_status(r, 31, "%s/", path);
		else if (strcmp(rest, "/") == 0)
			response_serve_text(rt, TEXT_SERIES, s->id, r);
		else if (strcmp(rest, "/atom.xml") == 0)
			response_serve_text(rt, TEXT_SERIES_FEED, s->id, r);
		else
			response_status(r, 51, "Not found");
		return;
	}
	/* tags */
	{
		struct tag *t = archive_tag(a, key);

		if (t == NULL)
			response_status(r, 51, "Not found");
		else if (*rest == '\0')
			response_status(r, 31, "%s/", path);
		else if (strcmp(rest, "/") == 0)
			response_serve_text(rt, TEXT_TAG, t->id, r);
		else if (strcmp(rest, "/atom.xml") == 0)
			response_serve_text(rt, TEXT_TAG_FEED, t->id, r);
		else
			response_status(r, 51, "Not found");
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
serve_drafts(const struct route *rt, const char *path, struct response *r)
{
	struct archive	*a = rt->a;
	struct post	*post;
	struct page	 p;
	const char	*slug = path + strlen("/drafts/");
	char		*url;
	size_t		 i;

	if (rt->proto != PROTO_GEMINI || !rt->writer) {
		response_status(r, 51, "Not found");
		return;
	}
	if (path[7] == '\0') {
		response_status(r, 31, "/drafts/");
		return;
	}
	if (*slug == '\0') {
		page_init(&p);
		page_heading(&p, 1, "Drafts");
		page_text(&p, "Only writers see these: drafts are in no list, "
		    "feed, search or Gopher menu.");
		page_blank(&p);
		if (a->ndrafts == 0)
			page_text(&p, "No drafts.");
		for (i = 0; i < a->ndrafts; i++) {
			url = xasprintf("/drafts/%s", a->drafts[i]->slug);
			page_link(&p, LINK_DOCUMENT, url,
			    a->drafts[i]->date.ymd, "%s", a->drafts[i]->title);
			free(url);
		}
		page_blank(&p);
		page_link(&p, LINK_MENU, "/", NULL, "Home");
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

static void
route_path(const struct route *rt, const char *query, struct response *r)
{
	static const struct {
		const char	*path;
		enum nav_page	 page;
	} navs[] = {
		{ "/", NAV_HOME },
		{ "/posts/", NAV_POSTS },
		{ "/series/", NAV_SERIES },
		{ "/tags/", NAV_TAGS },
		{ "/gemlog/", NAV_GEMLOG },
	};
	const struct config *cfg = rt->cfg;
	struct archive	*a = rt->a;
	const char	*path = rt->reqpath, *rest;
	size_t		 i, len;
	struct doc	*d;

	for (i = 0; i < nitems(navs); i++) {
		if (strcmp(path, navs[i].path) == 0) {
			response_serve_text(rt, TEXT_NAV, navs[i].page, r);
			return;
		}
		/* "/posts" -> "/posts/": relative links need the slash. */
		len = strlen(navs[i].path);
		if (len > 1 && strncmp(path, navs[i].path, len - 1) == 0 &&
		    path[len - 1] == '\0') {
			response_status(r, 31, "%s", navs[i].path);
			return;
		}
	}
	if (strcmp(path, "/atom.xml") == 0 ||
	    strcmp(path, "/gemlog/atom.xml") == 0) {
		response_serve_text(rt, TEXT_FEED, 0, r);
		return;
	}
	if (strcmp(path, "/search") == 0) {
		serve_search(rt, query, r);
		return;
	}
	if (strncmp(path, "/drafts", 7) == 0 &&
	    (path[7] == '\0' || path[7] == '/')) {
		serve_drafts(rt, path, r);
		return;
	}
	if (strncmp(path, "/files/", 7) == 0 || strcmp(path, "/files") == 0) {
		if (path[6] == '\0')
			response_status(r, 31, "/files/");
		else
			static_file(rt, path, r);
		return;
	}
	if (strncmp(path, "/posts/", 7) == 0) {
		len = segment(path + 7, &rest);
		route_section(rt, path, "posts", path + 7, len, rest, r);
		return;
	}
	if (strncmp(path, "/series/", 8) == 0) {
		len = segment(path + 8, &rest);
		route_section(rt, path, "series", path + 8, len, rest, r);
		return;
	}
	if (strncmp(path, "/tags/", 6) == 0) {
		len = segment(path + 6, &rest);
		route_section(rt, path, "tags", path + 6, len, rest, r);
		return;
	}
	if (strcmp(path, "/robots.txt") == 0 && cfg->robots != NULL) {
		serve_robots(rt, r);
		return;
	}
	/* "/<page>" from pages/; "/<page>/" redirects to it. */
	len = segment(path + 1, &rest);
	if (len > 0 && len < 256 && (*rest == '\0' || strcmp(rest, "/") == 0)) {
		char name[256], to[258];

		memcpy(name, path + 1, len);
		name[len] = '\0';
		if ((d = archive_doc(a, name)) != NULL) {
			if (*rest == '\0')
				response_serve_text(rt, TEXT_DOC, d->id, r);
			else if (rt->proto == PROTO_GOPHER)
				response_serve_text(rt, TEXT_DOC_MENU, d->id,
				    r);
			else {
				snprintf(to, sizeof(to), "/%s", name);
				response_redirect(rt, to, r);
			}
			return;
		}
	}
	response_status(r, 51, "Not found");
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
    struct response *r)
{
	const struct router_users *u = req->users;
	const struct config	*c;
	struct router_req	 sub;
	char			 name[256];
	const char		*p = req->path + 2, *rest;
	size_t			 len;

	if (*p == '\0') {
		response_status(r, 31, "/~/");
		return;
	}
	if (strcmp(p, "/") == 0) {
		serve_users(rt, u, r);
		return;
	}
	len = segment(p, &rest);
	if (len == 0 || len >= sizeof(name)) {
		response_status(r, 51, "Not found");
		return;
	}
	memcpy(name, p, len);
	name[len] = '\0';
	if ((c = bsearch(name, u->cfgs, u->n, sizeof(*u->cfgs),
	    user_cmp)) == NULL) {
		response_status(r, 51, "Not found");
		return;
	}
	if (*rest == '\0') {
		/* "/~name" -> "/~name/": relative links need the slash. */
		response_status(r, 31, "/~%s/", name);
		return;
	}
	sub = *req;
	sub.path = rest;
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
	    !response_site_path(r->meta))
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
			    req->writer, router_gopher_url };
	const char	*to;
	int		 status;

	if (req->users != NULL && cfg->userdirs != NULL &&
	    strncmp(req->path, "/~", 2) == 0) {
		route_user(&rt, req, r);
		return;
	}
	route_path(&rt, req->query, r);
	/* Content wins: "redirects:" only answers what would be 51. */
	if (r->status == 51 &&
	    (to = config_redirect(cfg, req->path, &status)) != NULL)
		response_status(r, status, "%s", to);
	redirect_base(cfg, r);
}
