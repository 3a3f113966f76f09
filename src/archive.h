/*
 * archive.h -- the writer's archive on disk as an immutable snapshot.
 *
 * archive_load() scans a capsule directory (DESIGN.md §1) into a
 * struct archive: posts newest first, series with ordered parts, tags
 * with their posts, standalone pages (struct doc), and slug indexes.  A snapshot is
 * built off the serving threads and never changed after; readers hold a
 * reference (archive_ref/archive_unref) and take no lock.  The snapshot
 * owns every struct and string reachable from it, including the source
 * bytes of each file and the render cache slots.
 *
 * Knows libyaml (through frontmatter.c) and the file system; nothing of
 * protocols or sockets.
 */
#ifndef CAPSULED_ARCHIVE_H
#define CAPSULED_ARCHIVE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "date.h"

struct config;
struct series;
struct tag;

/*
 * Rendered bytes, made on first request and published into a cache slot
 * with compare-and-swap; freed with the snapshot.
 */
struct blob {
	size_t	 len;
	char	 data[];		/* NUL-terminated for convenience */
};

enum cache_slot {
	CACHE_GEMINI,			/* the whole response body */
	CACHE_GOPHER,
	CACHE_ATOM,
	CACHE_NSLOTS
};

struct post {
	char		*path;		/* "posts/x.md", relative to capsule */
	char		*slug;		/* unique among posts */
	char		*title;		/* entities decoded, one line */
	struct date	 date;
	struct date	 updated;	/* == date when front matter has none */
	char		**tagnames;	/* display forms, as written */
	struct tag	**tags;		/* borrowed, same order as tagnames */
	size_t		 ntags;
	char		*series_name;	/* as written, or NULL */
	struct series	*series;	/* borrowed, or NULL */
	int		 part;		/* from front matter; 0 = not given */
	size_t		 series_pos;	/* 1-based place in series->parts */
	struct post	*prev, *next;	/* neighbours in the series; borrowed */
	char		*summary;	/* or NULL */
	char		*lang;		/* or NULL: the site's */
	char		*author;	/* or NULL: the site's */
	bool		 featured;
	bool		 draft;		/* drafts are never in a snapshot */
	char		*src;		/* the whole file, owned */
	size_t		 srclen;
	size_t		 body_off;	/* Markdown starts at src + body_off */
	unsigned	 body_line;	/* 1-based line of src + body_off */
	unsigned	 words;
	unsigned	 reading_min;	/* ~200 words a minute, at least 1 */
	_Atomic(struct blob *) cache[CACHE_NSLOTS];
};

struct series {
	char		*slug;
	char		*title;		/* series/<slug>.md title, else name */
	char		*summary;	/* or NULL */
	char		*level;		/* or NULL */
	char		*audience;	/* or NULL */
	char		*src;		/* series/<slug>.md, owned; or NULL */
	size_t		 srclen;
	size_t		 body_off;	/* the intro */
	struct post	**parts;	/* by part, then date; borrowed */
	size_t		 nparts;
	unsigned	 reading_min;	/* sum over parts */
	_Atomic(struct blob *) cache[CACHE_NSLOTS];
};

struct tag {
	char		*slug;		/* unique, URL-safe */
	char		*name;		/* display form (first seen) */
	struct post	**posts;	/* newest first; borrowed */
	size_t		 nposts;
	_Atomic(struct blob *) cache[CACHE_NSLOTS];
};

/* A standalone page from pages/ (about, now, uses...). */
struct doc {
	char		*name;		/* "about" for pages/about.md */
	char		*path;		/* "pages/about.md" */
	char		*title;
	char		*lang;		/* or NULL */
	char		*src;
	size_t		 srclen;
	size_t		 body_off;
	_Atomic(struct blob *) cache[CACHE_NSLOTS];
};

/* Navigation pages that have one instance per snapshot. */
enum nav_page {
	NAV_HOME,
	NAV_POSTS,
	NAV_SERIES,
	NAV_TAGS,
	NAV_GEMLOG,
	NAV_NPAGES
};

struct archive {
	atomic_uint	 refs;
	char		*dir;		/* absolute capsule directory */

	/* Site, from index.md front matter, else the config. */
	char		*title;
	char		*subtitle;	/* or NULL */
	char		*author;	/* or NULL */
	char		*lang;
	char		*index_src;	/* index.md, owned; or NULL */
	size_t		 index_len;
	size_t		 index_body_off;

	struct post	**posts;	/* newest first; owned */
	size_t		 nposts;
	struct series	**series;	/* by title; owned */
	size_t		 nseries;
	struct tag	**tags;		/* most posts first, then slug; owned */
	size_t		 ntags;
	struct doc	**docs;		/* pages/, by name; owned */
	size_t		 ndocs;

	unsigned	 nwarnings;	/* logged while loading */
	unsigned	 nskipped;	/* files skipped with a warning */

	_Atomic(struct blob *) nav[NAV_NPAGES][CACHE_NSLOTS];
};

/*
 * Scan c->capsule_dir.  Never fails for content: a broken file is logged
 * as "posts/x.md:LINE:COL: why" and skipped.  Returns NULL only when the
 * directory itself cannot be read (logged).  The result has one
 * reference, owned by the caller.
 */
struct archive	*archive_load(const struct config *c);
void		 archive_ref(struct archive *);
void		 archive_unref(struct archive *);	/* frees at zero */

/* Lookups by slug or name; NULL when absent.  Borrowed. */
struct post	*archive_post(const struct archive *, const char *slug);
struct series	*archive_series(const struct archive *, const char *slug);
struct tag	*archive_tag(const struct archive *, const char *slug);
struct doc	*archive_doc(const struct archive *, const char *name);

/*
 * Rewrite a link found in the file at from_path ("posts/a.md") if it
 * names another post's Markdown file ("b.md", "../posts/b.md",
 * "/posts/2024-01-01-b.md"): returns the malloc'd "/posts/<slug>", or
 * NULL when the link is to be left as written.
 */
char		*archive_resolve_link(const struct archive *,
		    const char *from_path, const char *url);

/* Tag display name -> URL slug (lower-case, see README); malloc'd. */
char		*archive_slugify(const char *name);

/*
 * Publish b into *slot unless another thread already did; returns the
 * blob that is in the slot afterwards (ours, or theirs with ours freed).
 */
struct blob	*blob_publish(_Atomic(struct blob *) *slot, struct blob *b);
struct blob	*blob_new(const char *data, size_t len);

#endif
