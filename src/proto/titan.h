/*
 * titan.h -- Titan uploads (the Gemini companion protocol): the request
 * line and its parameters, and who may write.
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
 * (mime text/markdown, text/x-markdown or text/plain, or none) or
 * gemtext (text/gemini: a capsule's own .gmi posts), and
 * authorises with the client certificate (config "titan_writers"), so
 * a token is accepted and ignored.
 *
 * Knows the configuration and the URL layout; nothing of sockets,
 * TLS or files.  The upload session (net/titan_upload.c) takes the
 * body and has the content layer (content/publish.h) write the post.
 */
#ifndef CAPSULED_TITAN_H
#define CAPSULED_TITAN_H

#include <stddef.h>

#include "proto/gemini.h"

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
 * archive_slugify() writes slugs (layout_slug()).  Returns 0 with req
 * filled, or the status to send (59, or 53 for another host or port)
 * with *meta set to a static message.
 */
int	 titan_request_parse(const char *line, size_t len,
	    const struct gemini_host *hosts, size_t nhosts,
	    struct titan_request *req, const char **meta);

/* 1 when mime may be written as a post ("" counts: none given). */
int	 titan_mime_ok(const char *mime);

/* 1 when hash (tlsconn_client_hash()) is one of c->titan_writers. */
int	 titan_writer(const struct config *c, const char *hash);

#endif
