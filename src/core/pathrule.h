/*
 * pathrule.h -- configured path rules: which rule of a set a request
 * path meets, and what its '*'s captured.
 *
 * One matcher for every setting that applies to a part of a site:
 * redirects, application prefixes, path_meta, the CGI directory,
 * certificate zones.
 *
 * rule    = "/" *( segment "/" ) [ segment ] / ""   ("" is "/")
 * segment = 1*( byte but "/" )   where each '*' is a wildcard
 *
 * (A '*' after a '/' would end or open a C comment, so the examples
 * here are written as C string literals in a row: "/old/" "*" is the
 * rule /old/ followed by a star.)
 *
 *   - A rule without '*' is a prefix, matched segment by segment:
 *     "/family" (or "/family/") holds "/family" and "/family/x", not
 *     "/familyx"; "/" holds every path.  With PATHRULE_EXACT it holds
 *     the path itself only, and a trailing '/' counts ("/blog/" is not
 *     "/blog").
 *   - A '*' that ends the rule takes the rest of the path, '/' and all,
 *     and may be empty: "/old/" "*" holds "/old/" and everything below
 *     it (not "/old"); "/wiki*" holds "/wiki", "/wikipedia", "/wiki/x".
 *   - Any other '*' takes part of one segment (no '/'), maybe nothing:
 *     "/blog/" "*.gmi" holds "/blog/x.gmi", not "/blog/a/x.gmi";
 *     "/users/" "*" "/public" holds "/users/bob/public".  A segment may
 *     hold several; each takes as little as it can, but the last.
 *     Without PATHRULE_EXACT such a rule holds what lies below what it
 *     matched too, as a prefix does.
 *   - A run of '/' counts as one, in the rule and in the path.
 *   - No decoding: the rule is taken as written (the configuration
 *     holds decoded text) and the path as given; the URL parsers
 *     (core/url.c's url_parse(), proto/gopher.c for selectors) decode a
 *     request's path before anything matches it.  A literal '*' cannot
 *     be matched by itself.
 *
 * One tie rule.  Of the rules that hold a path, the longest wins: a
 * rule's length is its bytes but its '*'s (a run of '/' as one, a
 * prefix's trailing '/' not counted), and at equal length one without
 * any '*' beats a pattern ("/blog/" over "/blog/" "*", which is as
 * long).  At equal length, a rule naming the request's host wins over
 * one for every host; then the pattern whose first '*' comes later;
 * then the rule written first.
 *
 * Knows nothing of the configuration, requests or sockets.  A rule
 * borrows its text and host from the caller's entry; the links
 * pathrule_index() sets are indices into the caller's array, whose
 * order it leaves alone.  Nothing here allocates but pathrule_index()'s
 * scratch while it sorts.
 */
#ifndef CAPSULED_PATHRULE_H
#define CAPSULED_PATHRULE_H

#include <stddef.h>

#define PATHRULE_EXACT	0x1	/* the path itself, nothing below */
#define PATHRULE_REST	0x2	/* as if the text ended in '*': for
				   redirects, which keep a prefix rule's
				   key without it */

/* Captures a match records: "$1" to "$9" of a redirect's target. */
#define PATHRULE_CAPS	9

/* No rule: the end of a link. */
#define PATHRULE_NONE	((size_t)-1)

/*
 * One compiled rule, the first member of the caller's entry (a zone, a
 * redirect, an application...), so that pathrule_index() and
 * pathrule_find() can walk an array of entries as qsort() does.
 */
struct pathrule {
	const char	*text;		/* borrowed: the caller's, runs of '/'
					   made one by pathrule_compile() */
	const char	*host;		/* borrowed; NULL: every host */
	size_t		 len;		/* bytes of text that match: without a
					   final '*' (then PATHRULE_REST) nor
					   a prefix's final '/' */
	size_t		 anchor;	/* bytes of text before its first '*' */
	size_t		 weight;	/* the tie rule: 2 per byte but '*', 1
					   more for a rule without '*' */
	unsigned	 nstars;	/* its '*'s, a final one too */
	unsigned	 flags;		/* PATHRULE_EXACT, PATHRULE_REST */
	int		 dead;		/* text neither "" nor "/...": holds
					   nothing */
	/* Set by pathrule_index(): indices into the caller's array. */
	size_t		 root;		/* the search tree's root */
	size_t		 left, right;	/* by anchor, then array order */
	size_t		 head;		/* the first rule of this anchor */
	size_t		 same;		/* the next rule of this anchor */
	size_t		 up;		/* the head of the longest anchor that
					   is a prefix of this one */
};

/*
 * What a match took from the path: pointers into it, valid as long as
 * it is.  rest is where the rule's own text stopped: "" or "/..." below
 * a prefix, the start of a final '*''s capture, or the path's end.
 */
struct pathrule_match {
	const char	*rest;
	const char	*cap[PATHRULE_CAPS];	/* the first nine '*'s */
	size_t		 caplen[PATHRULE_CAPS];
	size_t		 ncap;
};

/*
 * Compile text (a rule, as the grammar above) into r, for every host
 * when host is NULL.  Runs of '/' in text are made one in place, and r
 * borrows text and host: both must outlive it.  A text that is neither
 * "" nor starts with '/' compiles to a rule that holds nothing (the
 * configuration refuses those).
 */
void	 pathrule_compile(struct pathrule *r, char *text, unsigned flags,
	    const char *host);

/*
 * Does r hold path (a request path, decoded)?  1, with m filled when
 * not NULL; 0 otherwise.  A path that does not start with '/' is held
 * by no rule.
 */
int	 pathrule_match(const struct pathrule *r, const char *path,
	    struct pathrule_match *m);

/*
 * The tie rule above: does a (at ai in its caller's order) win over b
 * (at bi), both holding the path?  For callers that weigh rules they
 * matched themselves (site/zone.c: a zone also holds the files its path
 * names).
 */
int	 pathrule_wins(const struct pathrule *a, size_t ai,
	    const struct pathrule *b, size_t bi);

/*
 * Link base[0..n) (entries of size bytes, each starting with a compiled
 * struct pathrule) into a search tree for pathrule_find(); their order
 * is kept.  Call again after a rule is added or compiled again.
 */
void	 pathrule_index(void *base, size_t n, size_t size);

/*
 * The entry of base[0..n) (indexed) whose rule holds path for host
 * (NULL: only rules for every host count), by the tie rule above, or
 * NULL.  want, when not NULL, skips the entries it returns 0 for (a
 * path_meta entry that sets no lang, when lang is asked for).  m, when
 * not NULL, gets the winner's captures.  Allocates nothing; O(log n)
 * plus the rules whose literal head is a prefix of path.
 */
const void *pathrule_find(const void *base, size_t n, size_t size,
	    const char *host, const char *path,
	    int (*want)(const void *entry, void *arg), void *arg,
	    struct pathrule_match *m);

/*
 * A path r holds, into buf (size len): its text with each '*' as "x"
 * (the load's check for redirect loops follows one).  Returns 0, or -1
 * when it does not fit.
 */
int	 pathrule_example(const struct pathrule *r, char *buf, size_t len);

#endif
