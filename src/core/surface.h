/*
 * surface.h -- the surfaces a capsule is served on, and the formats
 * their pages are written in: one table, read by the configuration
 * (each surface's port keys) and by the listeners.
 *
 * A surface is a protocol a reader comes by (Gemini, Gopher); a format
 * is what a page is written in for it (gemtext; Gopher's menus and
 * texts).  Two surfaces may share a format, and a decision about what a
 * page looks like is the format's, never the surface's.  What a surface
 * can carry (client certificates, uploads, programs) is its caps, so
 * that code above asks what a surface can do, not which one it is.
 * Adding a surface is one entry here and one in the front ends' table
 * (site/front.h), with a parser in proto/ (docs/design.md, "Adding a
 * surface").
 */
#ifndef CAPSULED_SURFACE_H
#define CAPSULED_SURFACE_H

enum surface {
	SURFACE_GEMINI,
	SURFACE_GOPHER,
	SURFACE_SPARTAN,
	SURFACE_NEX,
	SURFACE_FINGER,
	SURFACE_HTTP,		/* the web view: plain HTTP/1.1 behind a TLS
				   front (site/http_front.h) */
	SURFACE_N
};

/* What a page is written in. */
enum format {
	FORMAT_GEMTEXT,		/* text/gemini pages and documents */
	FORMAT_GOPHER,		/* Gopher menus (type 1) and plain texts */
	FORMAT_NEX,		/* Nex directories ("=> " link lines and
				   text) and plain texts */
	FORMAT_TEXT,		/* plain text with CRLF lines, links by
				   their gemini:// URLs (Finger's) */
	FORMAT_HTML,		/* small semantic HTML5 pages (the web
				   view's) */
};

/* What a surface can carry (struct surface_info.caps). */
#define SURFACE_CERTS	0x01	/* client certificates: zones, writers */
#define SURFACE_UPLOADS	0x02	/* Titan uploads share its port */
#define SURFACE_APPS	0x04	/* CGI programs and backends answer */
#define SURFACE_INPUT	0x08	/* asks for input with a status (10) */
#define SURFACE_NAMED	0x10	/* a request names its host: hosts may
				   share a port (virtual hosting) */

struct surface_info {
	const char	*name;		/* "gemini": its keys are gemini_port
					   and gemini_public_port, its log
					   lines say "gemini" */
	const char	*title;		/* "Gemini": in messages */
	int		 default_port;	/* 0: off unless configured */
	int		 url_port;	/* the port its URLs may leave out */
	int		 min_port;	/* 1: it cannot be turned off */
	int		 tls;		/* spoken over TLS */
	enum format	 format;
	unsigned	 caps;		/* SURFACE_* */
};

extern const struct surface_info surfaces[SURFACE_N];

/*
 * Does format f have menus of its own beside its documents (Gopher's
 * type 1: a post's menu, a directory's gophermap)?  Gemtext's pages are
 * both.
 */
int	 format_menus(enum format f);

#endif
