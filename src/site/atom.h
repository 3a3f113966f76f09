/*
 * atom.h -- Atom (RFC 4287) feeds of posts.
 *
 * atom_feed() writes one complete feed document into a struct buf from a
 * struct atom_feed the caller fills; atom_site(), atom_series() and
 * atom_tag() fill it from a snapshot for the three feeds the server
 * publishes (the router sends what they write, nothing else).  Ids and
 * hrefs are absolute ("gemini://host/posts/x"), the same URLs the
 * gemtext pages link to, so a reader that follows both the gemlog page
 * and the Atom feed sees the same entries.  Knows the post
 * struct and XML escaping; nothing of requests.
 */
#ifndef CAPSULED_ATOM_H
#define CAPSULED_ATOM_H

#include <stddef.h>
#include <time.h>

#include "core/buf.h"
#include "markdown/render.h"

struct archive;
struct post;
struct series;
struct tag;

/*
 * Entries in the site and tag feeds, the latest posts (series feeds
 * carry every part): atom_entries().
 */
#define ATOM_MAX_ENTRIES	50

/* Where the server publishes its feeds, and what their entries carry. */
struct atom_target {
	const char	*host;		/* public host name */
	const char	*base;		/* before every path: "/~name", or
					   NULL */
	int		 port;		/* Gemini port; 1965 is left out */
	int		 full;		/* atom_full_content: the bodies */
};

struct atom_feed {
	const char	*host;		/* public host name */
	const char	*base;		/* before every path: "/~name", or
					   NULL */
	int		 port;		/* Gemini port; 1965 is left out */
	const char	*self;		/* this feed's path: "/atom.xml" */
	const char	*alternate;	/* page path "/gemlog/"; the id */
	const char	*title;
	const char	*subtitle;	/* or NULL */
	const char	*author;	/* or NULL: archive's, else title */
	const char	*lang;		/* xml:lang, or NULL: archive's */
	const struct archive *archive;	/* or NULL; fallbacks only */
	struct post *const *posts;	/* borrowed; every one is written */
	size_t		 nposts;
	/*
	 * 1: <content> = the body as gemtext, its links to our pages
	 * made absolute (resolved through archive when it is set).
	 */
	int		 full;
	time_t		 now;		/* updated when empty; 0 = time(NULL) */
};

/*
 * "gemini://host", or "gemini://host:port" when port is not 1965 (or
 * 0); an IPv6 literal gets brackets.  malloc'd.
 */
char	*atom_base(const char *host, int port);

/*
 * Append the feed document to out.  Ids and hrefs are atom_base() plus
 * the percent-encoded path.  Feed updated = the latest entry's updated,
 * or now when there are no entries.  Entry updated = post->updated
 * (never before post->date), published = post->date, both RFC 3339.
 * Text is XML-escaped, invalid UTF-8 replaced by U+FFFD, and control
 * characters other than TAB, LF and CR dropped.  Never fails.
 */
void	 atom_feed(struct buf *out, const struct atom_feed *);

/* How many of n posts, newest first, a site or tag feed carries. */
size_t	 atom_entries(size_t nposts);

/*
 * The three feeds the server publishes, filled from the snapshot: the
 * archive's subtitle, author and lang; titled by the archive's title,
 * the series' title, and "<archive's title>: <tag's name>":
 *   /atom.xml                  latest ATOM_MAX_ENTRIES posts; alt /gemlog/
 *   /series/<slug>/atom.xml    every part; alternate /series/<slug>/
 *   /tags/<slug>/atom.xml      latest ATOM_MAX_ENTRIES; alt /tags/<slug>/
 * Summaries only, or the bodies too with at->full.
 */
void	 atom_site(struct buf *out, const struct archive *,
	    const struct atom_target *at);
void	 atom_series(struct buf *out, const struct archive *,
	    const struct series *, const struct atom_target *at);
void	 atom_tag(struct buf *out, const struct archive *,
	    const struct tag *, const struct atom_target *at);

#endif
