/*
 * gopher_front.c -- a Gopher request line to its answer: the router's,
 * read in Gopher, or caps.txt, a "URL:" page, an error; and its Gopher+
 * form.
 *
 * The router answers in Gemini statuses, and Gopher has only menus,
 * texts and errors: redirects to a path are followed here, anything
 * else becomes a type-3 error line.  A Gopher+ request gets the
 * answer's bytes rewritten by proto/gopherplus.c, its items dated from
 * the snapshot through the URL layout (core/layout.h), without
 * rendering them.  No sockets: the response describes what conn.c
 * sends; a rewritten body is a buffer the response owns.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "content/archive.h"
#include "core/buf.h"
#include "core/config.h"
#include "core/fsafe.h"
#include "core/util.h"
#include "core/layout.h"
#include "core/url.h"
#include "proto/gemini.h"
#include "proto/gopher.h"
#include "proto/gopherplus.h"
#include "site/gopher_front.h"
#include "site/router.h"
#include "site/site.h"
#include "site/static.h"

/* s on one line (gopher_clean()), then CRLF. */
static void
one_line(struct buf *out, const char *s)
{
	gopher_clean(out, s, strlen(s));
	buf_addstr(out, "\r\n");
}

/* Gopher errors are one-line type-3 menus (RFC 1436). */
void
gopher_error(struct response *r, const char *msg)
{
	buf_truncate(&r->owned, 0);
	gopher_error_menu(&r->owned, msg);
	response_use_owned(r);
	if (r->fd != -1) {
		close(r->fd);
		r->fd = -1;
	}
}

void
gopher_caps(struct buf *out, const struct config *c, const char *title,
    const char *admin)
{
	/* The keys Gophernicus writes, CRLF-ended as it does. */
	buf_addstr(out, "CAPS\r\n\r\n"
	    "# What this Gopher server is, for the clients that ask.\r\n"
	    "\r\n"
	    "CapsVersion=1\r\n"
	    "ExpireCapsAfter=3600\r\n"
	    "\r\n"
	    "PathDelimeter=/\r\n"
	    "PathIdentity=.\r\n"
	    "PathParent=..\r\n"
	    "PathParentDouble=FALSE\r\n"
	    "PathKeepPreDelimeter=FALSE\r\n"
	    "\r\n"
	    "ServerSoftware=capsuled\r\n"
	    "ServerSoftwareVersion=" CAPSULED_VERSION "\r\n");
	buf_printf(out, "ServerDefaultEncoding=%s\r\n",
	    c->gopher_charset == CONFIG_CHARSET_ASCII ? "US-ASCII" : "UTF-8");
	if (title != NULL && *title != '\0') {
		buf_addstr(out, "ServerDescription=");
		one_line(out, title);
	}
	if (admin != NULL && *admin != '\0') {
		buf_addstr(out, "ServerAdmin=");
		one_line(out, admin);
	}
}

/* A Gopher error: a type-3 menu, or in the Gopher+ form asked for. */
static void
fail(struct response *r, const struct gopherplus_site *gs,
    enum gopherplus_form form, const char *msg)
{
	if (form == GOPHERPLUS_NONE)
		gopher_error(r, msg);
	else
		gopherplus_error(gs, msg, r);
}

_Static_assert(GEMINI_META_MAX < GOPHER_LINE_MAX + 2,
    "a redirect's target fits where a selector's path does");

/* What one Gopher answer is made from. */
struct answer_ctx {
	const struct config	*host;
	struct site		*site;
	const char		*search;	/* or NULL */
	const struct router_users *users; /* or NULL */
	int			 have_latest;	/* latest is worked out */
	time_t			 latest;	/* newest post's update */
};

/*
 * The RFC 1436 answer at the site path path[] (a redirect's target is
 * written back into it): a "URL:" page, caps.txt, or the router's,
 * redirects to a path followed, twice at most.  r's status says how it
 * went; nothing is made of an error yet.
 */
static void
answer(const struct answer_ctx *ac, char path[GOPHER_LINE_MAX + 2],
    struct response *r)
{
	struct router_req	 rreq;
	const struct archive	*a = ac->site != NULL ? ac->site->a : NULL;
	int			 hops;

	if (strncmp(path, "/URL:", 5) == 0) {
		/* An h-link followed by a client that does not know URL:. */
		gopher_url_page(&r->owned, path + 5);
		response_use_owned(r);
		r->gopher_type = 'h';
		response_status(r, 20, "text/html; charset=utf-8");
		return;
	}
	if (strcmp(path, LAYOUT_PATH_CAPS) == 0) {
		gopher_caps(&r->owned, ac->host, a != NULL ? a->title :
		    ac->host->site_title, a != NULL && a->author != NULL ?
		    a->author : ac->host->author);
		response_use_owned(r);
		r->gopher_type = '0';
		response_status(r, 20, "text/plain; charset=utf-8");
		return;
	}
	/*
	 * Access is the router's: Gopher has no client certificates, so
	 * a guarded path comes back 60, saying where to go instead.
	 */
	memset(&rreq, 0, sizeof(rreq));
	rreq.surface = SURFACE_GOPHER;
	rreq.path = path;
	rreq.query = ac->search;
	rreq.users = ac->users;
	router_handle(ac->host, ac->site, &rreq, r);
	/*
	 * Gopher has no redirects: follow ours ("/posts" -> "/posts/", and
	 * config "redirects:" to a path), whose targets come as a URL's
	 * path, percent-encoded.  One to a URL is told by the caller.
	 */
	for (hops = 0; r->status / 10 == 3 && r->meta[0] == '/' && hops < 2;
	    hops++) {
		int	defer = r->may_defer;
		char	to[sizeof(r->meta)];

		memcpy(to, r->meta, sizeof(to));
		if (url_decode(to) == -1)
			break;		/* told as a move, not followed */
		snprintf(path, GOPHER_LINE_MAX + 2, "%s", to);
		response_free(r);
		response_init(r);
		r->may_defer = defer;
		router_handle(ac->host, ac->site, &rreq, r);
	}
}

/* For Gopher+ views: how long the answer at path is, -1 if none. */
static long long
answer_size(void *ctx, const char *path)
{
	const struct answer_ctx	*ac = ctx;
	struct answer_ctx	 plain = { ac->host, ac->site, NULL, ac->users,
				    0, 0 };
	struct response		 r;
	char			 p[GOPHER_LINE_MAX + 2];
	long long		 n = -1;

	if (strlen(path) >= sizeof(p))
		return -1;
	memcpy(p, path, strlen(path) + 1);
	response_init(&r);
	answer(&plain, p, &r);
	if (r.status / 10 == 2)
		n = (long long)r.bodylen + (r.fd != -1 ? (long long)r.filelen :
		    0);
	response_free(&r);
	return n;
}

static time_t
newest(struct post *const *posts, size_t n)
{
	time_t	 t = 0;
	size_t	 i;

	for (i = 0; i < n; i++)
		if (posts[i]->updated.t > t)
			t = posts[i]->updated.t;
	return t;
}

/*
 * A file's mtime beneath the capsule, opened by the rule that serves
 * files (archive_files_open(): no dot-names, the configured links and
 * hard links, a user capsule's owner); 0 when it cannot be had.
 */
static time_t
file_date(const struct answer_ctx *ac, const char *rel, bool hardlinks)
{
	struct stat	 st;
	enum fsafe_kind	 kind;
	int		 fd;

	if ((fd = archive_files_open(ac->site->a, rel,
	    ac->host->follow_symlinks, hardlinks, &st, &kind)) == -1)
		return 0;
	close(fd);
	return st.st_mtime;
}

/*
 * A path of the static tree at "/" (site/static.h), capsule-relative,
 * malloc'd; NULL when the site has none.
 */
static char *
tree_rel(const struct answer_ctx *ac, const char *path)
{
	const struct config	*c = ac->host;

	if (c->owned && static_plain(ac->site->a))
		return xstrdup(path + 1);
	if (c->root == NULL || c->owned)
		return NULL;
	return path[1] != '\0' ? xasprintf("%s%s", c->root, path) :
	    xstrdup(c->root);
}

/*
 * Gopher+ dates (gopherplus.h): when the item at the site path last
 * changed, 0 when unknown: a post (and its menu) by its "updated" date,
 * a series or a tag (and their feeds) by its newest post, a page (and
 * its menu) or a file by its mtime, every other page of ours (home,
 * lists, feeds, search) by the newest post of all.  *size gets the
 * length of a post's or a page's Markdown, which its Gopher text is
 * close to (rendering a list's every post to measure it is not worth
 * it), else -1.
 */
static time_t
item_date(void *ctx, const char *path, long long *size)
{
	struct answer_ctx	*ac = ctx;
	const struct archive	*a = ac->site->a;
	const struct series	*se;
	const struct tag	*t;
	const struct post	*po;
	const struct doc	*d;
	struct layout_ref	 ref;
	char			 name[256], *rel;

	*size = -1;
	if (path[0] != '/' || strncmp(path, "/URL:", 5) == 0)
		return 0;
	if (ac->users != NULL && ac->host->userdirs != NULL &&
	    strncmp(path, LAYOUT_PATH_USER, strlen(LAYOUT_PATH_USER)) == 0) {
		/* A user's item: dated in the user's archive alone. */
		struct answer_ctx	 uc;
		const char		*rest;

		memset(&uc, 0, sizeof(uc));
		if ((uc.host = router_user(ac->users, path, &uc.site,
		    &rest)) == NULL)
			return 0;	/* "/~/", or nobody's */
		return item_date(&uc, rest, size);
	}
	layout_parse(path, 0, &ref);
	if ((ref.name != NULL && layout_name(&ref, name, sizeof(name)) == -1) ||
	    (ac->host->owned && static_plain(a)))
		ref.kind = LAYOUT_NONE;
	switch (ref.kind) {
	case LAYOUT_FILES:
		if (ref.bare)
			break;
		return file_date(ac, *ref.rest != '\0' ? path + 1 : "files",
		    ac->host->files_hardlinks);
	case LAYOUT_POST:
	case LAYOUT_POST_MENU:
		if ((po = archive_post(a, name)) == NULL)
			return 0;
		if (ref.kind == LAYOUT_POST)
			*size = (long long)po->srclen;
		return po->updated.t;
	case LAYOUT_SERIES:
	case LAYOUT_SERIES_FEED:
		if ((se = archive_series(a, name)) != NULL)
			return newest(se->parts, se->nparts);
		break;
	case LAYOUT_TAG:
	case LAYOUT_TAG_FEED:
		if ((t = archive_tag(a, name)) != NULL)
			return newest(t->posts, t->nposts);
		break;
	case LAYOUT_PAGE:
	case LAYOUT_PAGE_MENU:
		if ((d = archive_doc(a, name)) != NULL) {
			if (ref.kind == LAYOUT_PAGE)
				*size = (long long)d->srclen;
			/* The archive read it: no hard-link rule here. */
			return file_date(ac, d->path, true);
		}
		break;
	case LAYOUT_NONE:
		/* A static tree's file, by its mtime. */
		if ((rel = tree_rel(ac, path)) != NULL) {
			time_t	 when = *rel != '\0' ? file_date(ac, rel,
			    ac->host->files_hardlinks) : 0;

			free(rel);
			return when;
		}
		break;
	case LAYOUT_HOME:
	case LAYOUT_POSTS:
	case LAYOUT_SERIES_LIST:
	case LAYOUT_TAGS:
	case LAYOUT_GEMLOG:
	case LAYOUT_FEED:
	case LAYOUT_SEARCH:
	case LAYOUT_ROBOTS:
	case LAYOUT_PLAN:
	case LAYOUT_DRAFTS:
	case LAYOUT_DRAFT:
	case LAYOUT_BUNDLE_FILE:
	case LAYOUT_USERS:
	case LAYOUT_USER:
		break;
	}
	if (!ac->have_latest) {
		ac->latest = newest(a->posts, a->nposts);
		ac->have_latest = 1;
	}
	return ac->latest;
}

void
gopherplus_answer(const struct gopherplus_site *s, enum gopherplus_form form,
    const char *view, const char *block, const char *selector,
    const char *path, struct response *r)
{
	struct gopherplus_answer ans;
	struct buf		 out = BUF_INIT;
	int			 keep;

	if (form == GOPHERPLUS_NONE)
		return;
	ans.type = r->gopher_type;
	ans.mime = r->meta;
	ans.body = r->body;
	ans.bodylen = r->bodylen;
	ans.file = r->fd != -1;
	ans.filelen = r->filelen;
	keep = gopherplus_write(s, form, view, block, selector, path, &ans,
	    &out);
	response_take_body(r, &out, keep);
}

void
gopherplus_error(const struct gopherplus_site *s, const char *msg,
    struct response *r)
{
	struct buf	 out = BUF_INIT;

	gopherplus_write_error(s, msg, &out);
	response_take_body(r, &out, 0);
}

/*
 * A request for a user's item ("/~name..."): the Gopher+ admin is the
 * user's author, or the user, never the operator's.
 */
static void
user_admin(const struct router_users *users, const char *line, size_t len,
    struct gopherplus_site *gs)
{
	const struct config	*uc;
	struct site		*us;
	const char		*rest;
	char			*sel;

	sel = xstrndup(line, strcspn(line, "\t\r\n") < len ?
	    strcspn(line, "\t\r\n") : len);
	if (sel[0] == '/' && (uc = router_user(users, sel, &us, &rest)) !=
	    NULL)
		gs->admin = us->a->author != NULL ? us->a->author :
		    uc->base + 2;
	free(sel);
}

int
gopher_respond(const struct config *host, struct site *site,
    const struct router_users *users, const char *line, size_t len,
    struct response *r)
{
	struct gopher_request	 req;
	struct gopherplus_site	 gs;
	struct answer_ctx	 ac = { host, site, NULL, users, 0, 0 };
	const struct archive	*a = site != NULL ? site->a : NULL;
	const char		*err = NULL;
	char			 copy[GOPHER_LINE_MAX + 1];

	memset(&gs, 0, sizeof(gs));
	gs.host = host->hostname;
	gs.port = config_public_port(host, SURFACE_GOPHER);
	gs.admin = a != NULL && a->author != NULL ? a->author : host->author;
	if (users != NULL && host->userdirs != NULL && len > 2 &&
	    memchr(line, '~', len) != NULL)
		user_admin(users, line, len, &gs);
	gs.date = a != NULL ? item_date : NULL;
	gs.size = answer_size;
	gs.ctx = &ac;

	/* The parser cuts the line in place; the caller's stays whole. */
	if (len > GOPHER_LINE_MAX) {	/* gopher_request_end() says so */
		gopher_error(r, "Selector too long");
		return 59;
	}
	memcpy(copy, line, len);
	if (gopher_request_parse(copy, len, &req, &err) == -1) {
		if (req.is_http)
			gopher_error(r, err);
		else
			fail(r, &gs, req.form, err);
		return 59;
	}
	if (req.is_http) {
		/* A web browser pointed at the Gopher port: tell the person. */
		gopher_http_reply(&r->owned, host->hostname,
		    config_public_port(host, SURFACE_GOPHER));
		response_use_owned(r);
		return 59;
	}
	ac.search = req.search;
	/* The Gopher+ forms frame the body: it must be there to frame. */
	if (req.form != GOPHERPLUS_NONE)
		r->may_defer = 0;
	answer(&ac, req.path, r);
	if (r->status / 10 == 3) {
		char msg[sizeof("Moved to ") + GEMINI_META_MAX];

		snprintf(msg, sizeof(msg), "Moved to %s", r->meta);
		fail(r, &gs, req.form, msg);
	} else if (r->status / 10 != 2)
		fail(r, &gs, req.form, r->status == 51 ? "Not found" :
		    r->meta);
	else
		gopherplus_answer(&gs, req.form, req.view, req.block,
		    req.selector, req.path, r);
	return r->status;
}

enum front_do
gopher_front_answer(const struct front_gen *g, const struct front_client *fc,
    const char *line, size_t len, struct front_app *app, struct response *r)
{
	int	 h;

	(void)app;
	/* Gopher has no host names: the port says whose capsule. */
	if ((h = front_host_at(g, SURFACE_GOPHER, fc->port)) == -1) {
		gopher_error(r, "No host is served on this port");
		r->status = 53;
		return FRONT_ANSWER;
	}
	/* User capsules are the top-level host's (docs/operating.md). */
	r->status = gopher_respond(&g->hosts[h], g->sites[h],
	    h == 0 ? g->users : NULL, line, len, r);
	return FRONT_ANSWER;
}

void
gopher_front_too_long(struct response *r)
{
	gopher_error(r, "Selector too long");
	r->status = 59;
}

void
gopher_front_slow_down(unsigned wait, struct response *r)
{
	char	 msg[80];

	snprintf(msg, sizeof(msg), "Too many requests: slow down and try "
	    "again in %u second%s", wait, wait == 1 ? "" : "s");
	gopher_error(r, msg);
	r->status = 44;
}

size_t
gopher_front_header(struct response *r, char *out, size_t outlen)
{
	/* Gopher sends the body alone; an error is a menu of its own. */
	(void)r;
	(void)out;
	(void)outlen;
	return 0;
}
