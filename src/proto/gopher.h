/*
 * gopher.h -- the Gopher request line: where it ends, what it asks for
 * (RFC 1436), and the answers that are wire format only.
 *
 * No sockets.  conn.c reads until gopher_request_end() finds a line and
 * hands it to site/gopher_front.h's gopher_respond(), which splits it
 * in place with gopher_request_parse(), gives req.path to the router
 * and turns what the router says in Gemini terms (a status, a
 * redirect) into a Gopher answer: a menu, a text, or a type-3 error
 * from gopher_error_menu().  An HTTP request line sent to the Gopher
 * port is recognised and answered in HTTP, with gopher_http_reply().
 * The parser and the formatters are pure functions over bytes.
 */
#ifndef CAPSULED_GOPHER_H
#define CAPSULED_GOPHER_H

#include <stddef.h>
#include <sys/types.h>

struct buf;
struct config;

#define GOPHER_LINE_MAX		1024	/* bytes before the CRLF or LF */
#define GOPHER_REQUEST_MAX	(GOPHER_LINE_MAX + 2)	/* with CRLF */

#define GOPHER_INCOMPLETE	(-1)
#define GOPHER_TOO_LONG		(-2)

/*
 * Look for the end of a request in buf[0..len).  Returns the length of
 * the line without its terminator (0..GOPHER_LINE_MAX) once a LF has
 * arrived (a CR just before it is not counted), GOPHER_INCOMPLETE when
 * more bytes may still come, or GOPHER_TOO_LONG when the line before
 * the LF is longer than GOPHER_LINE_MAX or GOPHER_REQUEST_MAX bytes have
 * arrived without one.  Bytes after the first LF are not looked at.
 */
ssize_t	 gopher_request_end(const char *buf, size_t len);

/* What a Gopher+ field asks for (proto/gopherplus.h writes it). */
enum gopherplus_form {
	GOPHERPLUS_NONE,	/* no Gopher+ field: RFC 1436 */
	GOPHERPLUS_DATA,	/* "+" [view]: the item after a length line */
	GOPHERPLUS_INFO,	/* "!" [+block]: the item's attribute blocks */
	GOPHERPLUS_DIR,		/* "$" [+block]: a menu, one +INFO per item */
};

struct gopher_request {
	char	*selector;	/* in line: raw, never percent-decoded */
	char	*search;	/* in line: the search field; NULL if none */
	enum gopherplus_form form;
	char	*view;		/* in line: "+" view's MIME type; NULL if none */
	char	*block;		/* in line: "!+"/"$+" block name ("ADMIN");
				   NULL: every block */
	char	*url;		/* in line: after "URL:" for an h-link
				   selector (a common convention, not in RFC 1436); NULL otherwise */
	int	 is_http;	/* "GET /x HTTP/1.1" and the like */
	/*
	 * The selector as a site path: a '/' put in front when it has none
	 * ("" is "/"), otherwise byte for byte; valid UTF-8, no control
	 * character, no "." or ".." segment.  For HTTP, the request target's
	 * path, percent-decoded, then checked the same way.
	 */
	char	 path[GOPHER_LINE_MAX + 2];
};

/*
 * Parse the request line line[0..len) (no terminator) in place; line[len]
 * must be writable (it gets a NUL: conn.c's buffer has the terminator
 * there).  Grammar:
 *
 *   request  = selector [ TAB search ] [ TAB gopher+ *( TAB field ) ]
 *   gopher+  = "+" [ mimetype ] / "!" [ "+" word ] / "$" [ "+" word ]
 *   http     = method SP request-target SP "HTTP/" DIGIT [ "." DIGIT ]
 *
 * The first field after the selector is the Gopher+ field when it reads
 * as one, else the search string, and the Gopher+ field may follow it;
 * req->form, view and block say what it asks.  Fields after those (the
 * data flag of an ASK form, which is not served) are ignored.  Returns 0
 * with req filled, or -1 with
 * *errstr set to a static message fit for a type-3 error line; on -1
 * req->is_http still says whether to answer in HTTP.  Rejected: a line
 * over GOPHER_LINE_MAX, NUL, CR, LF or other control characters,
 * invalid UTF-8 (selector and search), dot segments.
 */
int	 gopher_request_parse(char *line, size_t len,
	    struct gopher_request *req, const char **errstr);

/*
 * Append a whole one-item error menu to out (RFC 1436 item type 3,
 * with the dummy fields Gopher servers commonly use):
 *   "3" msg TAB "fake" TAB "(NULL)" TAB "0" CRLF "." CRLF
 * msg is cleaned (TAB, CR, LF, other control characters become spaces,
 * invalid UTF-8 bytes '?') and cut to 70 bytes on a character boundary;
 * NULL or empty gives "Error".
 */
void	 gopher_error_menu(struct buf *out, const char *msg);

/*
 * Append a complete HTTP/1.0 "400 Bad Request" response (headers with
 * Content-Length and Connection: close, then a short plain-text body
 * that points to gopher://hostname:port/) for a web browser that came to
 * the Gopher port.  hostname comes from the configuration; an IPv6
 * address gets brackets; port 70 is left out of the URL.
 */
void	 gopher_http_reply(struct buf *out, const char *hostname, int port);

/*
 * For a "URL:<url>" selector (the 'h' item convention for links to
 * other protocols, which old clients request from us): a small HTML
 * page that sends the reader on to url.  url is escaped for HTML.
 */
void	 gopher_url_page(struct buf *out, const char *url);

/*
 * Append s[0..len) fit for one field of a Gopher line (a menu's display
 * string, a Gopher+ block line, caps.txt's value): TAB, CR and LF, which
 * end a field or a line (RFC 1436: UNASCII = ASCII - [Tab CR-LF NUL]),
 * become spaces; other bytes are copied.
 */
void	 gopher_clean(struct buf *out, const char *s, size_t len);

#endif
