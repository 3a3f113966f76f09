/*
 * router.c -- a request to what answers it (docs/operating.md, "URL
 * layout"): resolved once, admitted by the access rules, then served.
 *
 * One router serves every surface: the same paths name the same things,
 * and only the format of the pages differs.  A request is first
 * resolved into a resource (resolve()): what it names (a generated
 * page, a path of a static tree, a page bundle's file, a program, a
 * redirect made while resolving) and its identity (struct ident: its
 * URL from the top of the host, and for a file its name inside the
 * capsule, whatever URL reached it).  access_admit() decides on that
 * identity before a byte is served, for every kind of resource and
 * every surface; nothing here or in a front end asks a rule any other
 * way.  Then serve() answers: the pages, menus and feeds it names are
 * made, cached and typed by response.c (response_serve_text()), the
 * capsule's files opened by static.c; the few answers made per request
 * (search, drafts, the users' list, robots.txt) are here.  No socket
 * I/O.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "content/archive.h"
#include "content/links.h"
#include "core/buf.h"
#include "core/config.h"
#include "core/config_apps.h"
#include "core/config_types.h"
#include "core/layout.h"
#include "core/redirect.h"
#include "core/robots.h"
#include "core/url.h"
#include "core/utf8.h"
#include "core/util.h"
#include "proto/gopher.h"
#include "site/access.h"
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

/*
 * Is the site path url, as links name files (content/links.h: '%', '#'
 * and '?' of a name encoded), an asset of the capsule?
 */
static int
asset_path(const struct archive *a, const char *url)
{
	char	*rel;
	int	 yes;

	rel = xstrdup(url + 1);
	yes = url_decode(rel) == 0 && links_asset(a, rel);
	free(rel);
	return yes;
}

/* Is url a gemtext file's path, by its type? */
static int
tree_gemtext(const struct config *cfg, const char *url)
{
	char	 type;

	return url[strlen(url) - 1] != '/' && strcasecmp(config_file_type(
	    cfg->types, url, &type), "text/gemini") == 0;
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
	layout_parse(url, 0, &ref);
	/* With a mount, a path of the tree (or a user's) carries none. */
	if (cfg->mount != NULL && !cfg->owned && !links_generated(a, url))
		return xasprintf("gopher://%s:%d/%c%s%s", cfg->hostname, port,
		    url[strlen(url) - 1] == '/' || tree_gemtext(cfg, url) ?
		    '1' : file_item(cfg, url), url, tree_gemtext(cfg, url) ?
		    "/" : "");
	/*
	 * A post or a page is followed through its menu (nav.h), and so is
	 * a gemtext file of a static tree (static.c).
	 */
	if ((ref.kind == LAYOUT_NONE || ref.kind == LAYOUT_FILES) &&
	    !asset_path(a, url) && tree_gemtext(cfg, url))
		return xasprintf("gopher://%s:%d/1%s%s/", cfg->hostname, port,
		    cfg->base != NULL ? cfg->base : "", url);
	if (ref.kind == LAYOUT_POST || (ref.kind == LAYOUT_PAGE &&
	    layout_name(&ref, name, sizeof(name)) == 0 &&
	    archive_doc(a, name) != NULL))
		return xasprintf("gopher://%s:%d/1%s%s/", cfg->hostname, port,
		    cfg->base != NULL ? cfg->base : "", url);
	type = url[strlen(url) - 1] == '/' ? '1' : page_file_path(url) ||
	    (ref.kind == LAYOUT_NONE && asset_path(a, url)) ?
	    file_item(cfg, url) : '0';
	return xasprintf("gopher://%s:%d/%c%s%s", cfg->hostname, port, type,
	    cfg->base != NULL ? cfg->base : "", url);
}

/*
 * The site path url as an absolute URL of surface s (nex://, or
 * gemini:// in Finger's text): plain text names it so.
 */
static char *
scheme_url(const struct config *cfg, const struct archive *a,
    enum surface s, const char *url)
{
	struct buf	 b = BUF_INIT;
	int		 port = config_public_port(cfg, s);

	if (!layout_site_path(url))
		return NULL;
	buf_printf(&b, "%s://%s", surfaces[s].name, cfg->hostname);
	if (port != surfaces[s].url_port && port > 0)
		buf_printf(&b, ":%d", port);
	/* With a mount, a path of the tree carries none (as Gopher's). */
	if (cfg->base != NULL && (cfg->mount == NULL || cfg->owned ||
	    links_generated(a, url)))
		url_encode_path(cfg->base, &b);
	url_encode_path(url, &b);
	buf_addc(&b, '\0');
	return buf_release(&b);
}

char *
router_absolute_url(const struct config *cfg, const struct archive *a,
    enum format f, const char *url)
{
	switch (f) {
	case FORMAT_GEMTEXT:
		break;
	case FORMAT_GOPHER:
		return router_gopher_url(cfg, a, url);
	case FORMAT_NEX:
		return scheme_url(cfg, a, SURFACE_NEX, url);
	case FORMAT_TEXT:		/* the capsule's own address */
		return scheme_url(cfg, a, SURFACE_GEMINI, url);
	case FORMAT_HTML:
		break;
	}
	return NULL;			/* gemtext and HTML links need none */
}

/* ---- resources -------------------------------------------------------- */

/* What a request names, found before anything is served. */
enum res_kind {
	RES_NOTHING,		/* 51, or what answers that (redirects) */
	RES_STATUS,		/* an answer made while resolving (a
				   redirect to the slash, a bad name): r */
	RES_TEXT,		/* a text of the site's cache */
	RES_SEARCH,		/* "/search" and its query */
	RES_DRAFTS,		/* "/drafts/", "/drafts/<slug>" */
	RES_ROBOTS,		/* "/robots.txt" */
	RES_USERS,		/* "/~/" */
	RES_TREE,		/* a path of a static tree */
	RES_BUNDLE_FILE,	/* a file of a page bundle's folder */
	RES_ASSET,		/* a file a post links to, outside the
				   capsule's folders (content/links.h) */
	RES_APP,		/* a program or a backend */
};

struct resource {
	enum res_kind	 kind;
	struct route	 rt;		/* the site that answers it */
	struct ident	 id;		/* what access decides on */
	char		*file;		/* owned: id.file, or NULL */
	const char	*path;		/* the path within the site */
	const char	*query;		/* decoded for RES_SEARCH, or NULL */
	/*
	 * What redirects to a path of the site start with: its base
	 * (a user capsule's "/~name", a mount), or NULL.
	 */
	const char	*base;
	int		 redirects;	/* 51 may be a configured redirect */
	int		 robots;	/* 51 at "/robots.txt" is robots */
	enum text_kind	 text;		/* RES_TEXT: which, of what */
	size_t		 textid;
	enum static_which tree;		/* RES_TREE: which tree */
	/*
	 * The root tree has what a generated page's path leaves (without
	 * a mount): a 51 of the site's is looked up there once more.
	 */
	int		 then_root;
	struct post	*post;		/* RES_BUNDLE_FILE: whose, */
	const char	*name;		/* and which file */
	int		 draft_list;	/* RES_DRAFTS: the list, or */
	char		 slug[ROUTER_NAME_MAX];	/* one draft */
};

static void
res_free(struct resource *res)
{
	free(res->file);
	free(res->query == NULL ? NULL : (char *)res->query);
}

/* A redirect decided while resolving: r holds it. */
static void
res_redirect(struct resource *res, struct response *r, const char *to)
{
	res->kind = RES_STATUS;
	response_redirect(&res->rt, to, r);
}

/*
 * Is file (named inside the capsule) in the CGI directory?  Its programs
 * are run, never served as files, whatever tree would reach them (a
 * "root" or "cgi: files"): their source may hold secrets.
 */
static int
in_cgi(const struct config *cfg, const char *file)
{
	size_t	 n;

	if (cfg->cgi == NULL || file == NULL)
		return 0;
	n = strlen(cfg->cgi);
	return strncmp(file, cfg->cgi, n) == 0 && (file[n] == '\0' ||
	    file[n] == '/');
}

/* The path in tree w of res's site, named inside the capsule. */
static void
res_tree(struct resource *res, enum static_which w, const char *path)
{
	res->kind = RES_TREE;
	res->tree = w;
	res->path = path;
	free(res->file);
	res->file = static_ident(&res->rt, w, path);
	res->id.file = res->file;
	if (in_cgi(res->rt.cfg, res->file))
		res->kind = RES_NOTHING;
}

/*
 * "/search": the query, decoded when the surface sends it as a URL's
 * (percent-encoded UTF-8, else 59).
 */
static void
resolve_search(struct resource *res, const struct router_req *req,
    struct response *r)
{
	char	*q;

	res->kind = RES_SEARCH;
	if (req->query == NULL)
		return;
	q = xstrdup(req->query);
	if (req->query_encoded && (url_decode(q) == -1 ||
	    !utf8_valid(q, strlen(q)))) {
		free(q);
		res->kind = RES_STATUS;
		response_status(r, 59, "Bad request: the query is not "
		    "percent-encoded UTF-8");
		return;
	}
	res->query = q;
}

/*
 * A generated page's path (within the site: a mount is stripped) to
 * what it names.  RES_NOTHING when the layout has nothing there.
 */
static void
resolve_generated(struct resource *res, const struct router_req *req,
    const char *path, struct response *r)
{
	const struct archive	*a = res->rt.a;
	struct layout_ref	 ref;
	struct post		*p;
	struct series		*se;
	struct tag		*t;
	struct doc		*d;
	char			*to, *name = res->slug;

	layout_parse(path, 0, &ref);
	res->path = path;
	res->kind = RES_NOTHING;
	name[0] = '\0';
	/* "/posts" -> "/posts/": relative links need the slash. */
	if (ref.bare && ref.name == NULL && ref.kind != LAYOUT_DRAFTS) {
		to = xasprintf("%s/", path);
		res_redirect(res, r, to);
		free(to);
		return;
	}
	if (ref.name != NULL && layout_name(&ref, name, ROUTER_NAME_MAX) ==
	    -1)
		return;
	res->kind = RES_TEXT;
	res->textid = 0;
	switch (ref.kind) {
	case LAYOUT_HOME:
		res->text = TEXT_NAV;
		res->textid = NAV_HOME;
		return;
	case LAYOUT_POSTS:
		res->text = TEXT_NAV;
		res->textid = NAV_POSTS;
		return;
	case LAYOUT_SERIES_LIST:
		res->text = TEXT_NAV;
		res->textid = NAV_SERIES;
		return;
	case LAYOUT_TAGS:
		res->text = TEXT_NAV;
		res->textid = NAV_TAGS;
		return;
	case LAYOUT_GEMLOG:
		res->text = TEXT_NAV;
		res->textid = NAV_GEMLOG;
		return;
	case LAYOUT_FEED:
		res->text = TEXT_FEED;
		return;
	case LAYOUT_SEARCH:
		resolve_search(res, req, r);
		return;
	case LAYOUT_ROBOTS:
		res->kind = res->rt.cfg->robots != NULL ? RES_ROBOTS :
		    RES_NOTHING;
		return;
	case LAYOUT_PLAN:
		res->text = TEXT_NAV;
		res->textid = NAV_PLAN;
		return;
	case LAYOUT_DRAFTS:
	case LAYOUT_DRAFT:
		/* For writers only: as if nothing were there for others. */
		res->kind = RES_NOTHING;
		if (!res->rt.writer || (ref.kind == LAYOUT_DRAFT &&
		    archive_draft(a, name) == NULL))
			return;
		res->kind = RES_DRAFTS;
		res->draft_list = ref.kind == LAYOUT_DRAFTS;
		if (ref.bare)
			res_redirect(res, r, LAYOUT_PATH_DRAFTS);
		return;
	case LAYOUT_FILES:
		res_tree(res, STATIC_FILES, path);
		return;
	case LAYOUT_POST:
	case LAYOUT_POST_MENU:
	case LAYOUT_BUNDLE_FILE:
		if ((p = archive_post(a, name)) == NULL)
			break;
		res->textid = p->id;
		if (ref.kind == LAYOUT_POST)
			res->text = TEXT_POST;
		else if (ref.kind == LAYOUT_POST_MENU &&
		    format_menus(res->rt.format))
			res->text = TEXT_POST_MENU;
		else if (ref.kind == LAYOUT_POST_MENU) {
			to = layout_path(LAYOUT_POST, name, NULL);
			res->kind = RES_STATUS;
			response_status(r, 31, "%s", to);
			free(to);
		} else {	/* a file of its folder, as the archive says */
			res->kind = RES_BUNDLE_FILE;
			res->post = p;
			res->name = ref.rest;
			res->file = archive_bundle_rel(a, p, ref.rest);
			res->id.file = res->file;
		}
		return;
	case LAYOUT_SERIES:
	case LAYOUT_SERIES_FEED:
		if ((se = archive_series(a, name)) == NULL)
			break;
		res->text = ref.kind == LAYOUT_SERIES ? TEXT_SERIES :
		    TEXT_SERIES_FEED;
		res->textid = se->id;
		if (ref.bare) {
			res->kind = RES_STATUS;
			response_status(r, 31, "%s/", path);
		}
		return;
	case LAYOUT_TAG:
	case LAYOUT_TAG_FEED:
		if ((t = archive_tag(a, name)) == NULL)
			break;
		res->text = ref.kind == LAYOUT_TAG ? TEXT_TAG : TEXT_TAG_FEED;
		res->textid = t->id;
		if (ref.bare) {
			res->kind = RES_STATUS;
			response_status(r, 31, "%s/", path);
		}
		return;
	case LAYOUT_PAGE:
	case LAYOUT_PAGE_MENU:
		if ((d = archive_doc(a, name)) == NULL)
			break;
		res->textid = d->id;
		if (ref.kind == LAYOUT_PAGE)
			res->text = TEXT_DOC;
		else if (format_menus(res->rt.format))
			res->text = TEXT_DOC_MENU;
		else {
			to = layout_path(LAYOUT_PAGE, name, NULL);
			res_redirect(res, r, to);
			free(to);
		}
		return;
	case LAYOUT_NONE:
		/* "/assets/y.png": a file the capsule's links name. */
		if (links_asset(a, path + 1)) {
			res->kind = RES_ASSET;
			res->file = xstrdup(path + 1);
			res->id.file = res->file;
			if (in_cgi(res->rt.cfg, res->file))
				res->kind = RES_NOTHING;
			return;
		}
		break;
	case LAYOUT_USERS:	/* resolve()'s, with user capsules */
	case LAYOUT_USER:
		break;
	}
	res->kind = RES_NOTHING;
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

/* Answer from cfg's site (a host's, or a user capsule's) at path. */
static void	 resolve_in(struct resource *, const struct config *cfg,
		    struct site *site, const struct router_req *req,
		    const char *path, struct response *r);

/*
 * "/~", "/~/" and "/~name..." of the top-level site: the user capsules.
 * The name is looked up whole among the users, and the rest of the path
 * goes to that user's site alone: nothing in it can name another
 * capsule, since the parser has removed every dot segment.
 */
static void
resolve_user(struct resource *res, const struct router_req *req,
    const struct layout_ref *ref, struct response *r)
{
	const struct router_users *u = req->users;
	const struct config	*c;
	struct router_req	 sub;
	char			*to;

	if (ref->kind == LAYOUT_USERS) {
		res->kind = RES_USERS;
		if (ref->bare) {
			res->kind = RES_STATUS;
			response_status(r, 31, LAYOUT_PATH_USERS);
		}
		return;
	}
	if ((c = find_user(u, ref)) == NULL) {
		res->kind = RES_NOTHING;
		return;
	}
	if (ref->bare) {
		/* "/~name" -> "/~name/": relative links need the slash. */
		to = xasprintf("%s/", c->base);
		res_redirect(res, r, to);
		free(to);
		return;
	}
	sub = *req;
	sub.users = NULL;
	sub.writer = 0;		/* the operator's writers: not the user's */
	resolve_in(res, c, u->sites[c - u->cfgs], &sub, ref->rest, r);
}

static void
resolve_in(struct resource *res, const struct config *cfg, struct site *site,
    const struct router_req *req, const char *path, struct response *r)
{
	struct layout_ref	 ref;
	size_t			 n;

	res->rt.cfg = cfg;
	res->rt.site = site;
	res->rt.a = site->a;
	res->rt.writer = req->writer;
	res->rt.reqpath = path;
	res->path = path;
	layout_parse(path, req->users != NULL && cfg->userdirs != NULL ?
	    LAYOUT_USERDIRS : 0, &ref);
	if (ref.kind == LAYOUT_USERS || ref.kind == LAYOUT_USER) {
		resolve_user(res, req, &ref, r);
		return;
	}
	res->base = cfg->base;
	res->redirects = !cfg->owned;
	if (static_plain(site->a) && (cfg->owned || cfg->root != NULL)) {
		/*
		 * A capsule without the layout (no index.md, posts or pages)
		 * and a tree: the tree, all of it, without a generated page
		 * (a user's plain capsule; a host that only serves files).
		 */
		if (!cfg->owned)
			res->base = NULL;
		res_tree(res, STATIC_ROOT, path);
		res->robots = !cfg->owned && strcmp(path, LAYOUT_PATH_ROBOTS) == 0;
		return;
	}
	if (cfg->mount == NULL || cfg->owned) {
		resolve_generated(res, req, path, r);
		/*
		 * Generated pages win; the static tree has what they leave,
		 * and its own robots.txt, which the writer put there.
		 */
		res->then_root = cfg->root != NULL && !cfg->owned;
		if ((res->kind == RES_NOTHING || res->kind == RES_ROBOTS) &&
		    res->then_root) {
			res->robots = res->kind == RES_ROBOTS;
			res_tree(res, STATIC_ROOT, path);
			res->then_root = 0;
		}
		return;
	}
	/*
	 * "mount": the generated pages under cfg->mount only (its base,
	 * so their links and redirects carry it), and the static tree
	 * every other path; robots.txt stays at the top, where crawlers
	 * look, unless the tree has one, and so does the plan, which
	 * Finger asks for there (a tree serves no dot-file).
	 */
	n = strlen(cfg->mount);
	if (strcmp(path, LAYOUT_PATH_PLAN) == 0)
		resolve_generated(res, req, path, r);
	else if (strncmp(path, cfg->mount, n) == 0 && path[n] == '\0') {
		res->base = NULL;	/* a path from the top already */
		res->kind = RES_STATUS;
		response_status(r, 31, "%s/", path);
	} else if (strncmp(path, cfg->mount, n) == 0 && path[n] == '/') {
		res->rt.reqpath = path + n;
		resolve_generated(res, req, path + n, r);
	} else {
		res->base = NULL;
		res_tree(res, STATIC_ROOT, path);
		res->robots = strcmp(path, LAYOUT_PATH_ROBOTS) == 0;
	}
}

/*
 * What req names on host cfg (site its site), into res; r gets the
 * answers made while resolving (RES_STATUS).
 */
static void
resolve(struct resource *res, const struct config *cfg, struct site *site,
    const struct router_req *req, struct response *r)
{
	memset(res, 0, sizeof(*res));
	res->rt.host = cfg;
	res->rt.format = surfaces[req->surface].format;
	res->rt.caps = surfaces[req->surface].caps;
	res->rt.absolute_url = router_absolute_url;
	res->id.url = req->path;
	/* Programs, and the servers of "fastcgi", "scgi" and "proxy". */
	if ((res->rt.caps & SURFACE_APPS) &&
	    (layout_under(cfg->cgi, req->path) || config_app_find(cfg->apps,
	    cfg->napps, cfg->hostname, req->path) != NULL)) {
		res->rt.cfg = cfg;
		res->rt.site = site;
		res->rt.a = site->a;
		res->kind = RES_APP;
		res->path = req->path;
		res->redirects = 1;	/* over it, with redirects_first */
		return;
	}
	resolve_in(res, cfg, site, req, req->path, r);
}

/* ---- serving ---------------------------------------------------------- */

/*
 * "/search": asked for on a surface that asks for input so (10); else a
 * page with the search item until there is a query.  Results are made
 * per request (a few milliseconds), never cached; the first search of a
 * snapshot, which builds its index, on libuv's pool when the caller
 * can wait.
 */
static void
serve_search(const struct route *rt, const char *q, struct response *r)
{
	struct page	 p;

	page_init(&p);
	if (q == NULL || q[strspn(q, " \t\r\n")] == '\0') {
		if (rt->caps & SURFACE_INPUT) {
			page_free(&p);
			response_status(r, 10, "Search the archive");
			return;
		}
		nav_search_prompt(&p, rt->a);
	} else if (r->may_defer && !site_search_ready(rt->site)) {
		/* The index is built on the pool (response.h). */
		response_defer_search(rt, q, r);
		page_free(&p);
		return;
	} else
		nav_search(&p, site_search(rt->site), q);
	page_self(&p, LAYOUT_PATH_SEARCH);
	response_set_body(r, response_menu(rt, &p), response_page_type(rt),
	    rt->a->lang, '1');
	page_free(&p);
}

/*
 * "/drafts/" and "/drafts/<slug>", for writers (resolve_generated()
 * admits no one else).  Drafts change often and are read by one person:
 * rendered per request, never cached.
 */
static void
serve_drafts(const struct resource *res, struct response *r)
{
	const struct route	*rt = &res->rt;
	struct archive		*a = rt->a;
	struct post		*post;
	struct page		 p;
	char			*url;
	size_t			 i;

	if (res->draft_list) {
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
		response_set_body(r, response_menu(rt, &p),
		    response_page_type(rt), a->lang, '1');
		page_free(&p);
		return;
	}
	if ((post = archive_draft(a, res->slug)) == NULL) {
		response_status(r, 51, "Not found");
		return;
	}
	response_set_body(r, response_post(rt, post), response_page_type(rt),
	    post->lang ? post->lang : a->lang, '0');
}

/* Whose robots.txt a format's surfaces serve (core/robots.h). */
static enum robots_for
robots_for(enum format f)
{
	switch (f) {
	case FORMAT_GEMTEXT:
	case FORMAT_NEX:		/* small-web crawlers read Gemini's */
	case FORMAT_TEXT:
		break;
	case FORMAT_GOPHER:
		return ROBOTS_GOPHER;
	case FORMAT_HTML:
		return ROBOTS_WEB;
	}
	return ROBOTS_GEMINI;
}

/*
 * /robots.txt from the configuration, for the surface's crawlers:
 * text/plain, Gopher type 0.
 */
static void
serve_robots(const struct route *rt, struct response *r)
{
	/* Made into r: the body must not outlive the configuration. */
	if (!robots_txt(rt->cfg->robots, robots_for(rt->format),
	    &r->owned)) {
		response_status(r, 51, "Not found");
		return;
	}
	response_use_owned(r);
	r->gopher_type = '0';
	response_status(r, 20, "text/plain; charset=utf-8");
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
	page_self(&p, LAYOUT_PATH_USERS);
	b = response_menu(rt, &p);
	page_free(&p);
	response_set_body(r, b, response_page_type(rt), rt->a->lang, '1');
}

/*
 * A redirect to a path of a site with a base: the path within the site
 * made the path from the top ("/posts/" -> "/~name/posts/").  META that
 * would not fit is 59.
 */
static void
redirect_base(const char *base, struct response *r)
{
	size_t	 blen, mlen;

	if (base == NULL || r->status / 10 != 3 ||
	    !layout_site_path(r->meta))
		return;
	blen = strlen(base);
	mlen = strlen(r->meta);
	if (blen + mlen >= sizeof(r->meta)) {
		response_status(r, 59, "Bad request: the URL to redirect to "
		    "is too long");
		return;
	}
	memmove(r->meta + blen, r->meta, mlen + 1);
	memcpy(r->meta, base, blen);
}

/* What res names, into r: its answer, after access_admit(). */
static void
serve(struct resource *res, const struct router_req *req, struct response *r)
{
	const struct route	*rt = &res->rt;

	switch (res->kind) {
	case RES_NOTHING:
		response_status(r, 51, "Not found");
		break;
	case RES_STATUS:
	case RES_APP:
		break;
	case RES_TEXT:
		response_serve_text(rt, res->text, res->textid, r);
		break;
	case RES_SEARCH:
		serve_search(rt, res->query, r);
		break;
	case RES_DRAFTS:
		serve_drafts(res, r);
		break;
	case RES_ROBOTS:
		serve_robots(rt, r);
		break;
	case RES_USERS:
		serve_users(rt, req->users, r);
		break;
	case RES_TREE:
		static_serve(rt, res->tree, res->path, r);
		if (r->status == 51 && res->robots && rt->cfg->robots != NULL)
			serve_robots(rt, r);
		break;
	case RES_BUNDLE_FILE:
		static_bundle_file(rt, res->post, res->name, r);
		break;
	case RES_ASSET:
		static_asset(rt, res->file, r);
		break;
	}
}

/*
 * The rule of host cfg's "redirects" that holds path, into r (its
 * status and target): 1, or 0 for none (r untouched).
 */
static int
configured_redirect(const struct config *cfg, const char *path,
    struct response *r)
{
	struct buf	 to;
	int		 status, found = 0;

	if (cfg->nredirects == 0)
		return 0;
	buf_init(&to);
	if (redirect_find(cfg->redirects, cfg->nredirects, path, 1, &to,
	    &status)) {
		response_status(r, status, "%s", to.data);
		found = 1;
	}
	buf_free(&to);
	return found;
}

enum router_do
router_handle(const struct config *cfg, struct site *site,
    const struct router_req *req, struct response *r)
{
	struct resource	 res;

	resolve(&res, cfg, site, req, r);
	if (access_admit(cfg, res.rt.cfg, &res.id, req->client, r) == -1) {
		res_free(&res);
		return ROUTER_ANSWER;
	}
	/*
	 * "redirects_first": a rule answers what it holds whatever is
	 * there, a file, a page or a program (gmid's "block return");
	 * admitted first, as the path it answers for.
	 */
	if (cfg->redirects_first && res.redirects &&
	    configured_redirect(cfg, req->path, r)) {
		res_free(&res);
		return ROUTER_ANSWER;
	}
	if (res.kind == RES_APP) {
		res_free(&res);
		return ROUTER_APP;
	}
	serve(&res, req, r);
	/*
	 * A generated path with nothing behind it (a bundle's file not
	 * there, "/files/x" not in files/) is the root tree's: a resource
	 * of its own, admitted on its own identity.
	 */
	if (r->status == 51 && res.then_root) {
		res_tree(&res, STATIC_ROOT, res.path);
		res.base = NULL;
		if (access_admit(cfg, res.rt.cfg, &res.id, req->client, r) ==
		    -1) {
			res_free(&res);
			return ROUTER_ANSWER;
		}
		static_serve(&res.rt, STATIC_ROOT, res.path, r);
	}
	/* Content wins: "redirects:" only answers what would be 51. */
	if (r->status != 51 || !res.redirects ||
	    !configured_redirect(cfg, req->path, r))
		redirect_base(res.base, r);
	res_free(&res);
	return ROUTER_ANSWER;
}
