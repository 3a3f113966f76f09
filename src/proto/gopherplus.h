/*
 * gopherplus.h -- the Gopher+ wire format (the Gopher+ document of
 * 1993, "Gopher+: upward compatible enhancements to the Internet
 * Gopher protocol"), for the clients that ask for it.
 *
 * A Gopher+ client adds a field to its request line: "+" for the item
 * itself after a length line, "!" for the item's attribute blocks, "$"
 * for a menu as the attribute blocks of its items (gopher.h parses the
 * field: enum gopherplus_form).  The server answers as RFC 1436 says
 * and this module writes that answer, a menu, a text or a file, in the
 * form asked for; site/gopher_front.c puts it into the response.  A
 * request without the field never comes here: plain Gopher stays
 * plain.  Pure functions over bytes: items are dated and measured by
 * the caller's callbacks, and nothing here knows the archive.
 */
#ifndef CAPSULED_GOPHERPLUS_H
#define CAPSULED_GOPHERPLUS_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "proto/gopher.h"

struct buf;

/* Who answers, for +INFO lines, +ADMIN blocks and items' dates. */
struct gopherplus_site {
	const char		*host;	/* the host name menus give */
	int			 port;	/* the port menus give */
	const char		*admin;	/* "Admin:"; NULL: host */
	/*
	 * When the item at a site path last changed, 0 when unknown, and
	 * in *size its length when that is cheap to know (-1 otherwise);
	 * NULL: no dates.
	 */
	time_t			(*date)(void *ctx, const char *path,
				    long long *size);
	/*
	 * The length of what this server answers at a site path, -1 when
	 * it answers nothing there; NULL: sizes unknown.  A +VIEWS line
	 * without a size makes the UMN client refuse the item, so every
	 * item that is not a menu is measured (by date's *size when it
	 * gives one, else with this).
	 */
	long long		(*size)(void *ctx, const char *path);
	void			*ctx;	/* for date and size */
};

/* An RFC 1436 answer, borrowed: what the Gopher+ forms are made of. */
struct gopherplus_answer {
	char		 type;		/* item type: '1' a menu, '0', '9' */
	const char	*mime;		/* its MIME type (a Gemini META:
					   "text/gemini; charset=utf-8") */
	const char	*body;
	size_t		 bodylen;
	int		 file;		/* a file of filelen bytes follows */
	uint64_t	 filelen;
};

/*
 * Append to out the answer ans to selector (as the client sent it;
 * path is its site path) in the form asked for; block ("ADMIN", any
 * case) keeps only that block, NULL keeps all; view is the MIME type a
 * DATA request named, or NULL.
 *
 *   DATA  a menu: "+-1" CRLF, the menu with "TAB +" after each item
 *         this server answers, "." CRLF (for the view
 *         application/gopher+-menu: as DIR); anything else: "+" length
 *         CRLF and the body (the file, if any, goes after out).
 *   INFO  "+-1" CRLF, the item's +INFO, +ADMIN and +VIEWS blocks, "."
 *         CRLF.
 *   DIR   a menu: "+-1" CRLF, for each of its lines an +INFO block (and
 *         +ADMIN and +VIEWS for the items this server answers), "."
 *         CRLF; anything else: as INFO.
 *
 * Returns 1 when ans's file is still to be sent after out (DATA of
 * anything but a menu; and GOPHERPLUS_NONE, which writes nothing), 0
 * when out is the whole answer.
 */
int	 gopherplus_write(const struct gopherplus_site *,
	    enum gopherplus_form, const char *view, const char *block,
	    const char *selector, const char *path,
	    const struct gopherplus_answer *ans, struct buf *out);

/*
 * Append a Gopher+ error saying msg: "--1" CRLF, error code 1 (the item
 * is not available) with the administrator, msg on one line, "." CRLF.
 */
void	 gopherplus_write_error(const struct gopherplus_site *,
	    const char *msg, struct buf *out);

#endif
