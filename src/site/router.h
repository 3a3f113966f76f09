/*
 * router.h -- a request path to what to send: cached bytes, a freshly
 * rendered page, or a file to stream.
 *
 * No I/O on sockets: conn.c writes what the response describes.  The
 * same paths serve Gemini and Gopher (README.md, "URL layout").  A response may
 * borrow bytes from the site's cache (site.h): it holds a reference to
 * that blob, released by response_free() once the response is written.
 */
#ifndef CAPSULED_ROUTER_H
#define CAPSULED_ROUTER_H

#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "proto/gemini.h"		/* GEMINI_META_MAX */
#include "proto/proto.h"

struct archive;
struct blob;
struct config;
struct render_job;
struct site;

struct response {
	int		 status;	/* Gemini status; Gopher maps 2x/5x */
	/* Gemini META (MIME type, message, redirect target), NUL-ended */
	char		 meta[GEMINI_META_MAX + 1];
	const char	*body;		/* borrowed: blob or owned.data */
	size_t		 bodylen;
	struct blob	*blob;		/* one reference, or NULL */
	struct buf	 owned;		/* body rendered for this request */
	int		 fd;		/* a file to stream after the body; -1 */
	uint64_t	 filelen;
	char		 gopher_type;	/* Gopher: '0', '1', '9'... of body */
	/*
	 * Set by the caller before router_handle(): it can wait for a page
	 * that is slow to render (response_render()).  0 renders every
	 * page at once.
	 */
	int		 may_defer;
	struct render_job *job;		/* owned: the body still to make */
};

void	 response_init(struct response *);
void	 response_free(struct response *);	/* closes fd */
/*
 * r->job's page rendered, published to its site's cache slot, and made
 * r's body; nothing without a job.  A post or page whose Markdown is
 * large, or has a table row with very many columns, and a feed with the
 * content of such posts (atom_full_content), are left so by
 * router_handle() when r->may_defer: its status and META are final,
 * its body comes from this call, which may take a second or more and
 * is meant for another thread (libuv's pool).  Any thread, while r's
 * site and configuration live (the caller holds their generation).
 */
void	 response_render(struct response *r);
/* The body is what r->owned holds (body and bodylen point at it). */
void	 response_use_owned(struct response *r);
/* Set an error or redirect: status and a printf'd META. */
void	 response_status(struct response *, int status, const char *fmt,
	    ...) __attribute__((format(printf, 3, 4)));

/*
 * The user capsules ("userdirs") of a generation, sorted by name: user
 * i's configuration view (its base "/~name", its owner) and site.
 */
struct router_users {
	size_t			 n;
	const struct config	*cfgs;
	struct site *const	*sites;
};

/* A request as the router sees it. */
struct router_req {
	enum proto	 proto;
	const char	*path;		/* percent-decoded, starts with '/',
					   already free of dot segments */
	const char	*query;		/* as received, or NULL */
	int		 writer;	/* Gemini: the client certificate is
					   one of cfg->titan_writers */
	/*
	 * With cfg->userdirs: the user capsules, answering "/~/" and
	 * "/~name/..."; NULL: those paths are the site's own.
	 */
	const struct router_users *users;
};

/*
 * Answer req from site (the host's, whose configuration is cfg) into r.
 * /robots.txt comes from cfg->robots; a path that nothing answers but
 * cfg's "redirects" lists gets 31 (30 if listed as temporary) with its
 * target (a path, or an absolute URL that Gopher cannot follow).  A writer (and only a
 * writer, over Gemini) reads /drafts/ and /drafts/<slug>; everyone else
 * gets 51 there.  "/search" answers 10 (Gemini) or a menu with a search
 * item (Gopher) until it has a query, then the results.
 */
/*
 * A site whose cfg->base is set (a user capsule, "/~name") answers paths
 * within it ("/posts/x"), and every path it writes into links and
 * redirects starts with the base.  req->users routes "/~name/rest" to
 * that user's site as "/rest", and answers "/~/" with the list of users.
 */
void	 router_handle(const struct config *cfg, struct site *site,
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

#endif
