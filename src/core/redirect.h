/*
 * redirect.h -- "redirects" rules (core/config.h) at work: which rule
 * a path meets, the target it makes, and the check for loops that
 * config.c runs at load.
 *
 * A rule is exact ("/old: /new") or a prefix rule, written with a
 * trailing '*' (capsuled.yaml(5), "redirects": "/blog/" and a '*', to
 * "/posts/" and a '*'): it holds every path that starts with its prefix,
 * and the rest of the path is the capture.  A '*' inside a segment
 * ("/blog/" and "*.gmi") takes part of that segment.  All are
 * core/pathrule.h's rules (exact, the prefix rule's '*' a final one),
 * matched and ranked as every path rule is: a run of '/' counts as one,
 * an exact rule wins, then the longest.  In a target, '*' and "$1" stand
 * for the first capture, "$2" to "$9" for the others a pattern has (a
 * "$N" it has not is copied as it is), "%p" for the whole request path
 * (gmid's spelling); everything else is copied.  For Gemini, captures and
 * the target's own text are percent-encoded where a URL may not carry
 * them raw (non-ASCII, spaces...), so a redirect never puts a raw "é" on
 * the wire.  Knows nothing of the configuration file (config.c fills the
 * rules), the router or sockets.
 */
#ifndef CAPSULED_REDIRECT_H
#define CAPSULED_REDIRECT_H

#include <stddef.h>

#include "core/pathrule.h"

struct buf;

/*
 * One entry of "redirects" (core/config.h): an old path (or, for a
 * prefix rule, every path under a prefix), where it went, and for how
 * long; the functions below match and expand them.
 */
struct config_redirect {
	struct pathrule	 rule;		/* from, compiled: redirect_index() */
	char		*from;		/* owned: "/old/path", decoded, without
					   a prefix rule's '*'; then the bytes
					   of to (after its NUL, or after a few
					   spare ones when the index made a run
					   of '/' one) */
	char		*to;		/* borrowed from from's block:
					   "/new/path" or a URL, as written
					   ('*', "$1", "%p" expanded later) */
	int		 status;	/* 31 permanent, 30 temporary */
	int		 prefix;	/* 1: from was written "/prefix*" */
};


/* Longest chain of redirects to paths that the load accepts. */
#define REDIRECT_MAX_HOPS	8

/*
 * Compile the rules of v[0..n) and index them for redirect_match(),
 * their order untouched; once the last is added, before anything
 * matches them (config.c, at load).  Each rule's from has its runs of
 * '/' made one.
 */
void		 redirect_index(struct config_redirect *v, size_t n);

/*
 * The rule of v[0..n) (indexed) that path (decoded) meets: an exact
 * one first, else the prefix rule with the longest prefix; NULL for
 * none.
 */
const struct config_redirect *redirect_match(const struct config_redirect *v,
		    size_t n, const char *path);

/*
 * r's target for path, into out (reset, NUL-terminated): percent-encoded
 * when encode is set (a Gemini META), else the path itself (Gopher
 * follows a redirect inside the server, as site/response.c's
 * response_redirect() does).  Returns 0, or -1 when it would be longer
 * than a Gemini META (nothing usable).
 */
int		 redirect_expand(const struct config_redirect *r,
		    const char *path, int encode, struct buf *out);

/*
 * The redirect of v[0..n) (a configuration's "redirects") for path: 1
 * with the target in out and *status (31 or 30) set, or 0 for none.
 */
int		 redirect_find(const struct config_redirect *v, size_t n,
		    const char *path, int encode, struct buf *out,
		    int *status);

/*
 * Follow each rule of v[0..n) from a path it holds through the rules
 * its targets meet: -1 with msg filled ("/loop1 -> /loop2 -> /loop1")
 * when a chain comes back to a path it saw or runs past
 * REDIRECT_MAX_HOPS, else 0.
 */
int		 redirect_loops(const struct config_redirect *v, size_t n,
		    char *msg, size_t len);

#endif
