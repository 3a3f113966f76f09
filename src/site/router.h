/*
 * router.h -- a request path to what to send: cached bytes, a freshly
 * rendered page, or a file to stream.
 *
 * No I/O on sockets: conn.c writes what the response describes.  The same
 * paths serve Gemini and Gopher (docs/operating.md, "URL layout").  The
 * response object (struct response, response_render()) is response.h's.
 */
#ifndef CAPSULED_ROUTER_H
#define CAPSULED_ROUTER_H

#include <stddef.h>

#include "core/surface.h"
#include "site/response.h"

struct archive;
struct config;
struct site;
struct zone_client;

/*
 * The user capsules ("userdirs") of a generation, sorted by name: user
 * i's configuration view (its base "/~name", its owner) and site.
 */
struct router_users {
	size_t			 n;
	const struct config	*cfgs;
	struct site *const	*sites;
};

/*
 * The user capsule of u that path ("/~name...") names, or NULL: its
 * configuration view, with *site its site and *rest the path within
 * it ("/" for a bare "/~name").  For Gopher+, which dates a user's
 * items in the user's archive.
 */
const struct config *router_user(const struct router_users *u,
	    const char *path, struct site **site, const char **rest);

/* A request as the router sees it. */
struct router_req {
	enum surface	 surface;	/* what it came by */
	const char	*path;		/* percent-decoded, starts with '/',
					   already free of dot segments */
	const char	*query;		/* as received, or NULL */
	int		 writer;	/* the client certificate is one of
					   cfg->titan_writers */
	/*
	 * With cfg->userdirs: the user capsules, answering "/~/" and
	 * "/~name/..."; NULL: those paths are the site's own.
	 */
	const struct router_users *users;
	/*
	 * What the client's certificate is worth to access rules
	 * (site/zone.h); NULL on a surface without certificates, where a
	 * guarded path is refused.
	 */
	const struct zone_client *client;
	int		 query_encoded;	/* query is percent-encoded (a URL's) */
};

/* What the router decided. */
enum router_do {
	ROUTER_ANSWER,		/* r holds the answer */
	ROUTER_APP,		/* a program or backend of cfg answers the
				   path (on a surface that carries them) */
};

/*
 * Answer req from site (the host's, whose configuration is cfg) into r.
 * The request is resolved once into what it names (a generated page, a
 * file or directory of a static tree, a page bundle's file, a program,
 * a redirect), and access.h decides on that before anything is served:
 * a guarded path gets the rule's refusal in r.  A program's or a
 * backend's path, on a surface that carries them, is ROUTER_APP (r
 * untouched) once admitted.
 *
 * /robots.txt is made from cfg->robots for the surface's crawlers
 * (core/robots.h), unless a static tree at "/" has its own; a path
 * that nothing answers but cfg's "redirects" lists gets 31 (30 if
 * listed as temporary) with its target (a path, or an absolute URL
 * that Gopher cannot follow).  A writer (and only a writer) reads
 * /drafts/ and /drafts/<slug>; everyone else gets 51 there.  "/search" asks for its query (10, on a surface
 * that asks for input so) or answers a page with a search item, until
 * it has a query, then the results.  Redirects to a path come
 * percent-encoded, as a URL's path.
 *
 * A site whose cfg->base is set (a user capsule, "/~name") answers paths
 * within it ("/posts/x"), and every path it writes into links and
 * redirects starts with the base.  req->users routes "/~name/rest" to
 * that user's site as "/rest", and answers "/~/" with the list of users.
 */
enum router_do router_handle(const struct config *cfg, struct site *site,
	    const struct router_req *req, struct response *r);

/*
 * The site path url ("/posts/x", "/tags/", "/files/a.png") as the
 * absolute gopher:// URL that Gopher text names it by, with cfg's
 * hostname and public Gopher port and the item type (a post or a page
 * of a: its menu); NULL (malloc'd otherwise) when url is not a site
 * path.
 */
char	*router_gopher_url(const struct config *cfg,
	    const struct archive *a, const char *url);
/* The same for plain text of format f: gopher:// or nex:// (a
 * response_url_fn, response.h); NULL for a format without one. */
char	*router_absolute_url(const struct config *cfg,
	    const struct archive *a, enum format f, const char *url);

#endif
