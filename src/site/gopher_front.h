/*
 * gopher_front.h -- what answers a Gopher request: the router's answer
 * read in Gopher, caps.txt, a "URL:" page, the Gopher+ forms.
 *
 * The site-level counterpart of the pure parsers in proto/gopher.h and
 * proto/gopherplus.h: conn.c hands gopher_respond() the request line
 * and sends the response it fills; everything here can be called
 * without a socket.  The names are the ones the Gopher front end had
 * when it lived in proto/.
 */
#ifndef CAPSULED_GOPHER_FRONT_H
#define CAPSULED_GOPHER_FRONT_H

#include <stddef.h>

#include "proto/gopher.h"
#include "proto/gopherplus.h"
#include "site/front.h"

struct buf;
struct config;
struct response;
struct router_users;
struct site;

/*
 * Make r's body a type-3 error menu saying msg (gopher_error_menu()), in
 * place of any body or file it held; its status is left as it was.
 */
void	 gopher_error(struct response *r, const char *msg);

/*
 * Answer the request line line[0..len) (no terminator; left as it is)
 * into r, which response_init() made: r's body is what to send, then
 * r's file when r->status is 2x and r->fd is not -1; with r->may_defer,
 * a page slow to render may come as r->job (router.h:
 * response_render()), to render before sending.  host and site (the
 * site state of host's capsule) are what the router serves from.
 *
 * A line that does not parse gets a type-3 error, an HTTP request line
 * gopher_http_reply(), a "URL:" selector gopher_url_page(), "caps.txt"
 * gopher_caps(); any other goes to the router.  Gopher has no
 * redirects: one to a path ("/posts" -> "/posts/", or configured) is
 * followed, twice at most; one to a URL, and every other status but 2x,
 * becomes a type-3 error.  A request with a Gopher+ field gets its
 * answer, or its error, in the Gopher+ form (gopherplus.h).  Returns the
 * status for the access log: 59 (bad line, HTTP), 20 (URL page, caps),
 * else the router's last status.
 */
int	 gopher_respond(const struct config *host, struct site *site,
	    const struct router_users *users, const char *line, size_t len,
	    struct response *r);

/* The Gopher surface's entry in fronts[] (site/front.h). */
enum front_do	 gopher_front_answer(const struct front_gen *,
		    const struct front_client *, const char *line,
		    size_t len, struct front_app *app, struct response *r);
void		 gopher_front_too_long(struct response *r);	/* 59 */
void		 gopher_front_slow_down(unsigned wait, struct response *r);
size_t		 gopher_front_header(struct response *r, char *out,
		    size_t outlen);		/* none: 0 */

/*
 * Append the capabilities file Gopher clients read at "caps.txt" (the
 * convention Gophernicus follows): CAPS, the version, the path
 * delimiters, the server software and version, the default encoding
 * (gopher_charset), the site's title and admin when given (NULL or ""
 * leaves the line out).  CRLF line ends.
 */
void	 gopher_caps(struct buf *out, const struct config *c,
	    const char *title, const char *admin);

/*
 * Rewrite r, the 2x answer to selector (as the client sent it; path is
 * its site path) with r->gopher_type set, into the form asked for, as
 * gopherplus_write() writes it (its file is the one after the body).
 * r's body becomes owned; its file, when DATA keeps it, is still sent
 * after the body (and closed otherwise).
 */
void	 gopherplus_answer(const struct gopherplus_site *,
	    enum gopherplus_form, const char *view, const char *block,
	    const char *selector, const char *path, struct response *r);

/*
 * Make r's body a Gopher+ error saying msg: "--1" CRLF, error code 1
 * (the item is not available) with the administrator, msg on one line,
 * "." CRLF.  Any body or file r held is dropped.
 */
void	 gopherplus_error(const struct gopherplus_site *, const char *msg,
	    struct response *r);

#endif
