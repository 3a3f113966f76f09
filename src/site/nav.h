/*
 * nav.h -- the navigation pages of a snapshot, built as struct page
 * blocks (page.h) for either emitter.
 *
 * Each builder appends to a page the caller initialised and later frees;
 * the blocks borrow nothing but BLOCK_MARKDOWN sources, which point into
 * the snapshot, so the snapshot must outlive the page.  Links are site
 * paths ("/posts/x", "/tags/c/"); the emitters make them absolute where
 * a format needs it.  Knows the archive's shape, nothing of protocols.
 *
 * Pages that list posts with "YYYY-MM-DD Title" link labels (the home
 * page, /posts/, /series/<slug>/, /tags/<slug>/, /gemlog/) are valid
 * subscription feeds ("Subscribing to Gemini pages", a companion of the
 * Gemini specification): a "#" title first, an optional "##" subtitle,
 * and no other dated link label.
 */
#ifndef CAPSULED_NAV_H
#define CAPSULED_NAV_H

#include <stddef.h>

#include "site/page.h"

struct archive;
struct config;
struct doc;
struct post;
struct search_index;
struct series;
struct tag;

/* Tags shown on the home page; /tags/ lists them all. */
#define NAV_HOME_TAGS	12

/* The navigation pages a snapshot has one of (site.h caches them). */
enum nav_page {
	NAV_HOME,
	NAV_POSTS,
	NAV_SERIES,
	NAV_TAGS,
	NAV_GEMLOG,
	NAV_PLAN,
	NAV_NPAGES
};

/*
 * "/": title, subtitle, the intro of index.md, featured posts, the
 * latest c->latest_posts posts (10 when c is NULL), series, the most
 * used tags, links to the other pages and feeds, standalone pages.
 */
void	 nav_home(struct page *, const struct archive *,
	    const struct config *);
/* "/posts/": every post under a "## YYYY" heading, newest first. */
void	 nav_posts(struct page *, const struct archive *);
/* "/series/": every series with its summary, level, parts and time. */
void	 nav_series_index(struct page *, const struct archive *);
/* "/series/<slug>/": title, summary, intro, then the parts in order. */
void	 nav_series(struct page *, const struct archive *,
	    const struct series *);
/* "/tags/": every tag with its post count, most used first. */
void	 nav_tags(struct page *, const struct archive *);
/* "/tags/<slug>/": the posts with that tag, newest first. */
void	 nav_tag(struct page *, const struct archive *, const struct tag *);
/* "/gemlog/": "#" title, "##" subtitle, then dated links, newest first. */
void	 nav_gemlog(struct page *, const struct archive *);
/*
 * "/.plan", what Finger answers for the site: its title and subtitle,
 * the latest c->latest_posts posts with their dates, and the address of
 * its home on each surface that listens (c's ports, its base).
 */
void	 nav_plan(struct page *, const struct archive *,
	    const struct config *c);

/*
 * What goes before and after a post's rendered body (both protocols):
 * the header is "# Title", a date / reading time / author line and the
 * series it belongs to, ending with a blank line; the footer starts with
 * a blank line, then previous/next part, tags, and the way back.
 */
/*
 * "/~/": the users who publish a capsule here (docs/operating.md, "User
 * capsules"), each a link to "/~name/"; users are their configuration
 * views (config.h: base "/~name"), sorted.
 */
void	 nav_users(struct page *, const struct archive *,
	    const struct config *users, size_t n);
void	 nav_post_header(struct page *, const struct archive *,
	    const struct post *);
void	 nav_post_footer(struct page *, const struct archive *,
	    const struct post *);
/* The body of post, body[0..len): Markdown or gemtext, as it is. */
void	 nav_post_body(struct page *, const struct post *,
	    const char *body, size_t len);
/*
 * A post's menu (Gopher: /posts/<slug>/): title, date and author, the
 * text itself as the first link, then every link of body[0..len) (the
 * post's Markdown) numbered as in the text, and the footer.  Post links
 * elsewhere (LINK_TEXT) lead here over Gopher, so a reader can follow
 * every link of a post where a plain text could only print it.
 */
void	 nav_post_menu(struct page *, const struct archive *,
	    const struct post *, const char *body, size_t len);
/* The same for a page from pages/ (Gopher: /<page>/): title, text, links. */
void	 nav_doc_menu(struct page *, const struct archive *,
	    const struct doc *, const char *body, size_t len);

/*
 * "/search" with a query, run against the index of a snapshot: a
 * heading, the query, how many posts match, then for each hit
 * (search_run(), at most SEARCH_MAX_RESULTS) a dated link to the post
 * and its snippet, then a search link and the way home.  Gemini and
 * Gopher emit it alike (on Gopher the search link is a type-7 item).
 */
void	 nav_search(struct page *, const struct search_index *,
	    const char *q);
/* The page asking for a query (Gopher's answer to "/search" alone). */
void	 nav_search_prompt(struct page *, const struct archive *);

/* Minutes as "5 min", "1 h" or "2 h 5 min" into out. */
void	 nav_minutes(unsigned min, char out[32]);

#endif
