/*
 * titan.h -- Titan uploads (the Gemini companion protocol), the parts
 * that need no socket: the request line and its parameters, who may
 * write, what an upload must hold, and writing it to the capsule
 * without ever leaving a partial file.
 *
 * The protocol (transjovian.org "The Titan Specification"): on the
 * Gemini port, after the TLS handshake, the client sends
 *
 *   titan://host/path;size=N;mime=TYPE;token=TOKEN CRLF
 *
 * then exactly N bytes, and gets an ordinary Gemini response.  The
 * parameters follow the path, each ";key=value" (they are not a query);
 * size is required, mime is optional (text/gemini when absent), token
 * is optional; no other parameter is defined.  A size of 0 deletes the
 * resource.  capsuled writes posts only, /posts/<slug>, as Markdown
 * (mime text/markdown, text/x-markdown or text/plain, or none), and
 * authorises with the client certificate (config "titan_writers"), so
 * a token is accepted and ignored.
 *
 * Knows the file system, the configuration, front matter and the
 * archive's lookups; nothing of sockets or TLS (conn.c reads the body
 * and calls these, titan_store() and titan_trash() on a pool thread).
 */
#ifndef CAPSULED_TITAN_H
#define CAPSULED_TITAN_H

#include <stddef.h>

#include "proto/gemini.h"

struct archive;
struct config;

#define TITAN_MIME_MAX		128
#define TITAN_TOKEN_MAX		256
#define TITAN_SLUG_MAX		200

struct titan_request {
	struct gemini_request	 g;	/* the URL without its parameters */
	size_t			 size;	/* bytes that follow the CRLF */
	char			 mime[TITAN_MIME_MAX];	/* "" if not given */
	char			 token[TITAN_TOKEN_MAX]; /* "" if not given */
	char			 slug[TITAN_SLUG_MAX + 1]; /* /posts/<slug> */
	size_t			 loglen;	/* line bytes before ";" */
};

/*
 * Parse the request line line[0..len) (no CRLF), whose scheme is titan:
 *
 *   titan-url = "titan://" authority path 1*( ";" param ) [ "?" query ]
 *   param     = key "=" value          ; value percent-decoded
 *   key       = "size" / "mime" / "token" / other (ignored)
 *   size      = 1*19DIGIT
 *
 * The line without its parameters must be a request gemini.c accepts
 * for hosts[0..nhosts); its path must be /posts/<slug> with slug as
 * archive_slugify() writes slugs.  Returns 0 with req filled, or the
 * status to send (59, or 53 for another host or port) with *meta set
 * to a static message.
 */
int	 titan_request_parse(const char *line, size_t len,
	    const struct gemini_host *hosts, size_t nhosts,
	    struct titan_request *req, const char **meta);

/* 1 when mime may be written as a post ("" counts: none given). */
int	 titan_mime_ok(const char *mime);

/* 1 when hash (tlsconn_client_hash()) is one of c->titan_writers. */
int	 titan_writer(const struct config *c, const char *hash);

/*
 * The file under posts/ that slug is written to: the one a's post or
 * draft with that slug came from (a dated name is kept), else
 * "<slug>.md".  Into name[0..namelen).
 */
void	 titan_target(const struct archive *a, const char *slug,
	    char *name, size_t namelen);

/*
 * Check an upload for posts/<name> at /posts/<slug>: valid UTF-8 with
 * no NUL, front matter that parses, a date (front matter or a dated
 * file name) and a slug that stays the same.  Returns 0 with *draft set
 * from the front matter, or -1 with why (fit for a 59 META) filled.
 */
int	 titan_check(const char *data, size_t len, const char *slug,
	    const char *name, int *draft, char *why, size_t whylen);

/*
 * Write data[0..len) as <capsule>/posts/<name>, atomically: a hidden
 * temporary file in posts/ (never named *.md), written, fsync'd, then
 * renamed over name, then the directory fsync'd.  The old file's mode
 * is kept.  A crash leaves the old file or the new one, never a mix; at
 * worst a ".titan-*.tmp" file that nothing reads.  Returns 0, or -1
 * with why filled (the temporary file removed).
 */
int	 titan_store(const char *capsule, const char *name, const char *data,
	    size_t len, char *why, size_t whylen);

/*
 * Move <capsule>/posts/<name> to <capsule>/.trash/<name>.<UTC time>
 * (never over another file there): nothing is ever removed.  Returns 0;
 * 1 when there is no such post file; -1 with why filled.
 */
int	 titan_trash(const char *capsule, const char *name, char *why,
	    size_t whylen);

#endif
