/*
 * gopherplus.h -- the Gopher+ forms of an answer (the Gopher+ document
 * of 1993, "Gopher+: upward compatible enhancements to the Internet
 * Gopher protocol"), for the clients that ask for them.
 *
 * A Gopher+ client adds a field to its request line: "+" for the item
 * itself after a length line, "!" for the item's attribute blocks, "$"
 * for a menu as the attribute blocks of its items.  gopher.c parses the
 * field and answers as RFC 1436 says; this module then rewrites that
 * answer, a menu, a text or a file in a struct response, into the form
 * asked for.  A request without the field never comes here: plain
 * Gopher stays plain.  Knows the archive only to date items; no sockets.
 */
#ifndef CAPSULED_GOPHERPLUS_H
#define CAPSULED_GOPHERPLUS_H

#include "core/fsafe.h"

struct archive;
struct response;

/* What a Gopher+ field asks for. */
enum gopherplus_form {
	GOPHERPLUS_NONE,	/* no Gopher+ field: RFC 1436 */
	GOPHERPLUS_DATA,	/* "+" [view]: the item after a length line */
	GOPHERPLUS_INFO,	/* "!" [+block]: the item's attribute blocks */
	GOPHERPLUS_DIR,		/* "$" [+block]: a menu, one +INFO per item */
};

/* Who answers, for +INFO lines, +ADMIN blocks and items' dates. */
struct gopherplus_site {
	const char		*host;	/* the host name menus give */
	int			 port;	/* the port menus give */
	const char		*admin;	/* "Admin:"; NULL: host */
	const struct archive	*a;	/* items' dates; NULL: none */
	enum fsafe_links	 links;	/* for the dates of files */
	/*
	 * The length of what this server answers at a site path, -1 when
	 * it answers nothing there; NULL: sizes unknown.  A +VIEWS line
	 * without a size makes the UMN client refuse the item, so every
	 * item that is not a menu is measured (posts and pages by their
	 * Markdown, the rest with this).
	 */
	long long		(*size)(void *ctx, const char *path);
	void			*size_ctx;
};

/*
 * Rewrite r, the 2x answer to selector (as the client sent it; path is
 * its site path) with r->gopher_type set, into the form asked for;
 * block ("ADMIN", any case) keeps only that block, NULL keeps all; view
 * is the MIME type a DATA request named, or NULL.
 *
 *   DATA  a menu: "+-1" CRLF, the menu with "TAB +" after each item
 *         this server answers, "." CRLF (for the view
 *         application/gopher+-menu: as DIR); anything else: "+" length
 *         CRLF and the bytes (the body, then r's file).
 *   INFO  "+-1" CRLF, the item's +INFO, +ADMIN and +VIEWS blocks, "."
 *         CRLF.
 *   DIR   a menu: "+-1" CRLF, for each of its lines an +INFO block (and
 *         +ADMIN and +VIEWS for the items this server answers), "."
 *         CRLF; anything else: as INFO.
 *
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
