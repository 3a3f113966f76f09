/*
 * response.h -- what to send for a request: the response object, its
 * deferred rendering, and (within site/) the texts a site caches.
 *
 * The front ends (through router.h) see struct response and its
 * functions.  The second half is for router.c (dispatch) and static.c
 * (files) only: one request's route, the one path by which every page,
 * menu and feed is made, cached and typed, and the emitters from the
 * page model to gemtext or Gopher.  Knows the archive, the site's cache
 * slots, the page model and the feeds; nothing of request lines,
 * dispatch or sockets.  A response may borrow bytes from the site's
 * cache (site.h): it holds a reference to that blob, released by
 * response_free() once the response is written.  A route borrows
 * everything it points at from the caller, for the request.
 */
#ifndef CAPSULED_RESPONSE_H
#define CAPSULED_RESPONSE_H

#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "proto/gemini.h"		/* GEMINI_META_MAX */
#include "core/surface.h"

struct archive;
struct blob;
struct config;
struct page;
struct post;
struct render_job;
struct site;
struct slot;

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
	/*
	 * Bytes of the budget of bodies made for one request that r holds
	 * (response_hold()), given back by response_free().
	 */
	size_t		 held;
	/*
	 * What a front end keeps of its request between its answer() and
	 * its header() (site/front.h): its own struct, flat, owned (freed
	 * by response_free()); NULL for none.  Nothing else reads it.
	 */
	void		*front;
	/*
	 * Set by header(): the connection reads the next request after
	 * this answer instead of closing.
	 */
	int		 keep;
};

void	 response_init(struct response *);
void	 response_free(struct response *);	/* closes fd */
/*
 * r->job's page rendered, published to its site's cache slot, and made
 * r's body; nothing without a job.  A post or page whose Markdown is
 * large, or has a table row with very many columns, a feed with the
 * content of such posts (atom_full_content), a search, a file to keep
 * in memory and a static tree's listing or menu (site/listing.h) are
 * left so by router_handle() when r->may_defer: its status and META are
 * final, its body comes from this call, which may take a second or
 * more and is meant for another thread (libuv's pool).  Any thread,
 * while r's site and configuration live (the caller holds their
 * generation).
 */
void	 response_render(struct response *r);
/* The body is what r->owned holds (body and bodylen point at it). */
void	 response_use_owned(struct response *r);
/*
 * r's body becomes out's bytes (taken: out is left empty), whatever it
 * was: a blob it borrowed is let go, and a file it was to send is
 * closed unless keep_file (a front end that writes bytes of its own
 * before the file's).  Status and META stay.
 */
void	 response_take_body(struct response *r, struct buf *out,
	    int keep_file);
/* Set an error or redirect: status and a printf'd META. */
void	 response_status(struct response *, int status, const char *fmt,
	    ...) __attribute__((format(printf, 3, 4)));

/* ---- within site/ ----------------------------------------------------- */

/*
 * How plain text in format f names a site path, absolutely (gopher://,
 * nex://): router_absolute_url(), which the router, the one that knows
 * the URL layout, puts in every route.
 */
typedef char	*response_url_fn(const struct config *,
		    const struct archive *, enum format f, const char *url);

/* What one request is about: enough to render it from scratch. */
struct route {
	const struct config	*cfg;		/* the site's view */
	const struct config	*host;		/* whose access rules apply:
						   cfg, or a user capsule's
						   host */
	struct site		*site;
	struct archive		*a;		/* site->a */
	enum format		 format;	/* what pages are written in */
	unsigned		 caps;		/* the surface's (surface.h) */
	const char		*reqpath;	/* for messages */
	int			 writer;	/* may read drafts */
	response_url_fn		*absolute_url;
};

/*
 * The texts a site keeps in its cache slots, each made from one thing
 * of the archive, named by its id (its place in the archive's array;
 * for TEXT_NAV an enum nav_page; TEXT_FEED has none).
 */
enum text_kind {
	TEXT_NAV,		/* a navigation page (nav.h) */
	TEXT_SERIES,		/* a series' page */
	TEXT_TAG,		/* a tag's page */
	TEXT_POST,		/* a post: gemtext or Gopher text */
	TEXT_POST_MENU,		/* a post's Gopher menu */
	TEXT_DOC,		/* a page of pages/ */
	TEXT_DOC_MENU,		/* a page's Gopher menu */
	TEXT_FEED,		/* /atom.xml (atom.h) */
	TEXT_SERIES_FEED,	/* a series' Atom feed */
	TEXT_TAG_FEED,		/* a tag's Atom feed */
	TEXT_NKINDS
};

/*
 * Answer r with the text of kind k made of thing id: from its slot, or
 * made now and published there, or, when it is slow to make and the
 * caller can wait (r->may_defer), left to response_render() with its
 * status and META final.  The one cached-text path of the router.
 */
void	 response_serve_text(const struct route *, enum text_kind k,
	    size_t id, struct response *r);

/*
 * A page model emitted for rt's protocol, as a blob in no slot (one
 * reference, the caller's): response_menu() a gemtext page or a Gopher
 * menu, response_document() a document (gemtext, or Gopher text with
 * CRLF line ends) whose relative links are from the file from.
 */
struct blob *response_menu(const struct route *rt, struct page *p);
struct blob *response_document(const struct route *rt, struct page *p,
	    const char *from);
/*
 * A gemtext file of a static tree (gmi[0..len), at the site path url,
 * which the tree's base goes before: a user capsule's, not a mount's)
 * in rt's format, as a gemtext post is: over Gopher its text wrapped,
 * links numbered (menu 0), or its menu, the text then its links as
 * items, then the file as written at url + "/" RESPONSE_GMI_RAW (menu
 * 1); on the web view a page.  Its links are resolved against url
 * alone, as a client resolves them; the archive does not rewrite them.
 * A blob in no slot (one reference).
 */
#define RESPONSE_GMI_RAW	"raw"
struct blob *response_gemtext_file(const struct route *rt, const char *gmi,
	    size_t len, const char *url, const char *base, int menu);
/* The post's page (header, body, footer) emitted, in no slot. */
struct blob *response_post(const struct route *rt, struct post *post);

/*
 * What an HTML page p names besides its body, into t: its addresses on
 * Gemini and Gopher (p->self as plain text names it, gemini:// and
 * gopher:// with the item type, on the surfaces that listen; malloc'd
 * into *gem and *gph, or NULL, the caller's to free), its language and
 * the site's feed.
 */
struct page_target;
void	 response_html_target(const struct route *rt, const struct page *p,
	    struct page_target *t, char **gem, char **gph);

/*
 * The MIME type of rt's pages and documents: "text/gemini", which the
 * front ends of the formats of lines type as their protocols do, or
 * "text/html".
 */
const char *response_page_type(const struct route *rt);
/* The port rt's format's absolute links name (Gopher's menus). */
int	 response_public_port(const struct route *rt);

/* The body is b's bytes: r takes the caller's reference to it. */
void	 response_use_blob(struct response *r, struct blob *b);
/* A 20 of this type with b for body (r takes the caller's reference). */
void	 response_set_body(struct response *r, struct blob *b,
	    const char *mime, const char *lang, char gopher_type);
/*
 * 31 to the site path to, percent-encoded for Gemini; 59 when it does
 * not fit META.
 */
void	 response_redirect(const struct route *rt, const char *to,
	    struct response *r);
/*
 * How a file is read whole into its slot (static.c's): its blob, with a
 * reference for the caller, or NULL when it was not kept.
 */
typedef struct blob *response_fill_fn(const struct route *,
		    struct slot *, int fd, uint64_t len);
/*
 * Leave r's body, the file fd (len bytes, as fstat(2) said) to be kept
 * in slot, to response_render(), which reads it with fill, or streams
 * it when fill keeps nothing; r owns fd from here on.  r's status and
 * META are as set.
 */
void	 response_defer_file(const struct route *rt, struct slot *slot,
	    int fd, uint64_t len, response_fill_fn *fill,
	    struct response *r);
/*
 * Leave the results page of the search q (copied) to response_render():
 * the first search of a snapshot builds its index (site_search()),
 * seconds for a big capsule, which no worker's loop should wait for.
 */
void	 response_defer_search(const struct route *rt, const char *q,
	    struct response *r);
/*
 * How a body is made on the pool (static.c's listings and menus of a
 * tree's directory): r's body, made from arg, which stays the job's.
 */
typedef void	 response_make_fn(const struct route *rt, void *arg,
		    struct response *r);
/*
 * Leave r's body to response_render(), which calls make(rt, arg, r);
 * the job owns arg from here on and frees it with arg_free, made or
 * not.  r's status and META are as set.
 */
void	 response_defer_make(const struct route *rt, response_make_fn *make,
	    void *arg, void (*arg_free)(void *), struct response *r);

/*
 * A body made for one request alone (not kept in a slot, where every
 * reader shares one copy: a listing or menu of a tree the watcher does
 * not follow) lives as long as its reader takes to read it, which a
 * slow reader makes long.  Up to RESPONSE_HOLD_FREE bytes of such a
 * body are its own, about what a TLS connection holds anyway; the
 * bytes above that come from one budget of RESPONSE_HOLD_BUDGET bytes
 * shared by every response of the process, first come, first served,
 * given back when the response is freed.
 */
#define RESPONSE_HOLD_FREE	((size_t)64 << 10)
#define RESPONSE_HOLD_BUDGET	((size_t)8 << 20)
/*
 * Hold len bytes for r's body: returns how many of them it may keep,
 * len when the budget has them, else RESPONSE_HOLD_FREE and what was
 * left of the budget (the caller cuts the body there).  Any thread.
 */
size_t	 response_hold(struct response *r, size_t len);
/* Bytes of the budget held by every response together. */
size_t	 response_held(void);

#endif
