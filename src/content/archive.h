/*
 * archive.h -- the writer's archive on disk as an immutable snapshot.
 *
 * archive_load() scans a capsule directory (docs/writing.md, "The
 * capsule") into a struct archive: posts newest first, series with
 * ordered parts, tags with their posts, standalone pages (struct doc),
 * and slug indexes.  A snapshot is built off the serving threads and never changed once
 * served (links_check() counts its warnings before); readers hold a
 * reference (archive_ref/archive_unref) and take no lock.  The snapshot
 * owns every struct and string reachable from it.  The source bytes and
 * front matter of each file live in a file record (struct archive_file,
 * private) that the next snapshot shares when the file has not changed:
 * archive_reload().
 *
 * What is made from a snapshot while it is served -- rendered pages,
 * the search index -- belongs to the site layer (site/site.h), which
 * keys it by the id each post, series, tag and page has here.
 *
 * Knows libyaml (through frontmatter.c) and the file system; nothing of
 * protocols, caches or sockets.
 */
#ifndef CAPSULED_ARCHIVE_H
#define CAPSULED_ARCHIVE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "content/slug.h"
#include "core/date.h"
#include "core/log.h"

struct archive_file;
struct config;
struct scan_link;
struct series;
struct tag;

/*
 * A post.  Its strings -- all but slug, which it owns -- and the array
 * of tag names' strings are borrowed from its file record, which the
 * snapshot holds and the next snapshot shares while the file does not
 * change.
 */
struct post {
	size_t		 id;		/* place in a->posts (a draft's: in
					   a->drafts), 0 the newest */
	char		*path;		/* "posts/x.md", "posts/x.gmi",
					   "posts/x/index.md" (a bundle) */
	char		*slug;		/* unique among posts; owned */
	char		*title;		/* entities decoded, one line */
	struct date	 date;
	struct date	 updated;	/* == date when front matter has none */
	char		**tagnames;	/* display forms, as written; the
					   array is owned, the names not */
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
	char		*author_names;	/* owned: author, its keys named by
					   an authors file; or NULL */
	bool		 featured;
	bool		 draft;		/* in a->drafts, never in a->posts */
	bool		 unlisted;	/* in no list: see struct archive */
	bool		 gemtext;	/* the body is gemtext (a .gmi file),
					   not Markdown */
	bool		 bundle;	/* path is "posts/<folder>/index.md"
					   (or .gmi): the folder's other files
					   are the post's, at /posts/<slug>/ */
	struct archive_file *file;	/* borrowed: the snapshot holds it */
	char		*src;		/* the whole file; borrowed from file */
	size_t		 srclen;
	size_t		 body_off;	/* the body starts at src + body_off */
	unsigned	 body_line;	/* 1-based line of src + body_off */
	unsigned	 words;
	unsigned	 reading_min;	/* ~200 words a minute, at least 1 */
	/* Links that may name a post (scan_links()); borrowed from file. */
	const struct scan_link *links;
	size_t		 nlinks;
};

struct series {
	size_t		 id;		/* place in a->series */
	char		*slug;
	char		*title;		/* series/<slug>.md title, else name */
	char		*path;		/* "series/<file>.md" (owned), or NULL */
	char		*summary;	/* or NULL */
	char		*level;		/* or NULL */
	char		*audience;	/* or NULL */
	char		*src;		/* series/<slug>.md (borrowed) or NULL */
	size_t		 srclen;
	size_t		 body_off;	/* the intro */
	struct post	**parts;	/* by part, then date; borrowed */
	size_t		 nparts;
	unsigned	 reading_min;	/* sum over parts */
};

struct tag {
	size_t		 id;		/* place in a->tags */
	char		*slug;		/* unique, URL-safe */
	char		*name;		/* display form (first seen) */
	struct post	**posts;	/* newest first; borrowed */
	size_t		 nposts;
};

/* A standalone page from pages/ (about, now, uses...). */
struct doc {
	size_t		 id;		/* place in a->docs */
	char		*name;		/* "about" for pages/about.md */
	char		*path;		/* "pages/about.md"; borrowed */
	char		*title;
	char		*lang;		/* or NULL */
	struct archive_file *file;	/* borrowed: the snapshot holds it */
	char		*src;		/* borrowed from the file record */
	size_t		 srclen;
	size_t		 body_off;
	const struct scan_link *links;	/* as a post's; borrowed */
	size_t		 nlinks;
	bool		 unlisted;	/* in no list: see struct archive */
};

struct archive {
	atomic_uint	 refs;
	char		*dir;		/* absolute capsule directory */

	/* Site, from index.md front matter, else the config. */
	char		*title;
	char		*subtitle;	/* or NULL */
	char		*author;	/* or NULL */
	char		*lang;
	char		*index_src;	/* index.md, borrowed; or NULL */
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
	/*
	 * Posts and pages an access rule guards (archive_unlisted_fn):
	 * found by their slug or name and served to whoever may read
	 * them, but in no list, feed, tag, series, search or menu, like
	 * drafts.  They follow the listed ones in the same arrays, with
	 * ids after theirs: posts[nposts..nposts + nunlisted), docs[ndocs..
	 * ndocs + nunlisted_docs).
	 */
	size_t		 nunlisted;
	size_t		 nunlisted_docs;
	/*
	 * Posts with "draft: true", newest first; owned.  In no index,
	 * list, feed, tag, series or search: only /drafts/ (authorised
	 * clients) reads them, through archive_draft().
	 */
	struct post	**drafts;
	size_t		 ndrafts;
	/* The config's link_aliases (old web URLs of posts); owned. */
	char		**link_aliases;
	size_t		 nlink_aliases;
	/* The config's web_url (the writer's old web site); owned, or NULL. */
	char		*web_url;
	/* The config's hostname (the capsule's own links); owned, or NULL. */
	char		*hostname;
	/* The config's follow_symlinks (enum fsafe_links), files_hardlinks. */
	int		 files_links;
	bool		 files_hardlinks;
	/* A user capsule (config.h): what is served is owner's alone. */
	int		 owned;
	uid_t		 owner;
	/* The config's root (a static tree at "/"): owned, or NULL. */
	char		*static_root;
	/*
	 * Files of folders at the top that are none of the capsule's own
	 * ("assets/y.png") and that its posts and pages link to: served
	 * at "/<name>" (content/links.c finds them when it checks the
	 * links, links_check(), and answers links_asset()).  Sorted,
	 * owned; only those, so that no other file of such a folder (a
	 * generator's templates, its configuration) is ever served.
	 */
	char		**assets;
	size_t		 nassets;

	unsigned	 nwarnings;	/* logged while loading */
	unsigned	 nskipped;	/* files skipped with a warning */
	unsigned	 nread;		/* files read and parsed */
	unsigned	 nreused;	/* files shared with the previous one */
	unsigned	 nheld;		/* being written: the previous
					   version kept, or a new one left
					   out (archive_reload_held()) */
};

/*
 * Scan c->capsule_dir.  Never fails for content: a broken file is logged
 * as "posts/x.md:LINE:COL: why" and skipped.  Returns NULL only when the
 * directory itself cannot be read (logged).  The result has one
 * reference, owned by the caller.
 */
struct archive	*archive_load(const struct config *c);
/*
 * The same, sharing with prev (may be NULL) every file whose device,
 * inode, size, mtime and ctime (nanoseconds) are unchanged and were
 * already old when prev read it (a file changed twice within the file
 * system's timestamp granularity is read again, never trusted).  Only
 * the parsed files are shared: posts, series, tags, pages and indexes
 * are new.  prev is only
 * read; the caller keeps its reference.  Safe on any thread while
 * others serve from prev.
 */
struct archive	*archive_reload(const struct config *c,
		    const struct archive *prev);
/*
 * What an archive_held_fn is asked about the file rel.  The second and
 * third questions come after a changed file was read: a writer's first
 * piece can reach the disk, and be read, before the event that tells
 * of the writer has been seen by whoever watches.
 */
enum archive_ask {
	ARCHIVE_ASK_BEFORE,	/* before it is looked at: known to be
				   being written? */
	ARCHIVE_ASK_READ,	/* just read: being written, or can that
				   not be said yet? */
	ARCHIVE_ASK_RECENT,	/* just read, and still modified moments
				   ago (ARCHIVE_RECENT_MS) after waiting:
				   a write may not be known yet */
};
/*
 * A file modified less than this long ago may still be being written,
 * its writer unknown to the watch: the kernel's coarse clock (one tick,
 * 4 ms at HZ=250, 10 ms at HZ=100) and the copy of one write's bytes.
 * The loader waits for it to age, ARCHIVE_RECENT_WAITS times at most.
 */
#define ARCHIVE_RECENT_MS	20
#define ARCHIVE_RECENT_WAITS	3
/*
 * Is the file rel ("posts/x.md") of the capsule being written right now
 * (app/watch.c knows)?  Called on the thread that builds, during the
 * build.  Saying 1 to ARCHIVE_ASK_READ or ARCHIVE_ASK_RECENT without
 * knowing it for sure is the watcher's promise to ask for another build
 * soon.
 */
typedef int	(*archive_held_fn)(void *arg, const char *rel,
		    enum archive_ask);
/*
 * archive_reload(), with held(arg, rel, ...) asked about every file
 * before it is read and again after: a file being written keeps the
 * record prev has of it, and a new one is left out until it is whole.
 * Without
 * held (NULL), and always, a file that changes while it is read (its
 * size, mtime or ctime moved) is read again, and kept as prev has it
 * when it goes on changing; an empty file is taken for one being
 * written (open(2) with O_TRUNC, before the first write): kept as prev
 * has it, or left out.
 */
struct archive	*archive_reload_held(const struct config *c,
		    const struct archive *prev, archive_held_fn held,
		    void *arg);
/*
 * Is the post or page at the site path url ("/posts/<slug>", "/<page>")
 * to be kept out of every list of the snapshot?  The server's access
 * rules say (site/access.h); the archive only obeys.
 */
typedef int	(*archive_unlisted_fn)(void *arg, const char *url);
/* How a snapshot is loaded: archive_reload_held()'s held, and more. */
struct archive_hooks {
	archive_held_fn	 held;		/* NULL: nothing is held */
	void		*held_arg;
	archive_unlisted_fn unlisted;	/* NULL: everything is listed */
	void		*unlisted_arg;
	/*
	 * A load with no previous snapshot: 0, every line logged (--check,
	 * --render); 1, counted and the first few kept instead, for
	 * archive_said() (the server's first start; docs/logging.md,
	 * "Diagnostics").
	 */
	int		 summarise;
};
/* archive_reload_held() with every hook: h may be NULL (none). */
struct archive	*archive_reload_hooked(const struct config *c,
		    const struct archive *prev, const struct archive_hooks *h);
void		 archive_ref(struct archive *);
void		 archive_unref(struct archive *);	/* frees at zero */

/* Lookups by slug or name; NULL when absent.  Borrowed. */
struct post	*archive_post(const struct archive *, const char *slug);
struct series	*archive_series(const struct archive *, const char *slug);
struct tag	*archive_tag(const struct archive *, const char *slug);
struct doc	*archive_doc(const struct archive *, const char *name);
/* A draft by slug (linear: drafts are few); NULL when absent. */
struct post	*archive_draft(const struct archive *, const char *slug);
/*
 * A post by its file name ("2024-01-01-x.md", "x.gmi", a bundle's
 * "2024-01-01-x/index.md"), or by that name (a bundle's folder name)
 * without date prefix and ".md" or ".gmi" ("x"): how links between
 * files find posts (content/links.c).  NULL when absent.
 */
struct post	*archive_post_file(const struct archive *, const char *name);
struct post	*archive_post_base(const struct archive *, const char *base);
/*
 * The post an address of the writer's old site names (path: decoded,
 * "2026/03/26/x", "/blog/2022/01/x/", "x.html"; docs/writing.md,
 * "Links"): the one that declares the whole address, else the one whose
 * name is its last segment, of the link's date when several have that
 * name.  NULL when none does, with *ambiguous set when several posts
 * could be meant and nothing tells them apart.  archive_post_name() is
 * the same for one name ("x", "2024-01-02-x").  Borrowed.
 */
struct post	*archive_post_address(const struct archive *, const char *path,
		    int *ambiguous);
struct post	*archive_post_name(const struct archive *, const char *name,
		    int *ambiguous);

/*
 * Open a file as the server serves it, so that a link is never resolved
 * to what the server would refuse: rel "files/..." (no name starting
 * with '.', symbolic links as links (follow_symlinks, enum fsafe_links)
 * says, one hard link unless hardlinks (files_hardlinks)), or name in
 * the folder of the post p (the same, but no symbolic link at
 * all, since a link beside a post could lead to another post's source
 * or a draft; never the post's own index; only a regular file; beside a
 * single-file post, in its asset folder first (archive_bundle_rel()),
 * no .md or .gmi file and nothing in a bundle's folder).  The
 * router passes its configuration's rules, the link check the
 * snapshot's copy of them (files_links, files_hardlinks).  As
 * fsafe_open(): an fd and *st, *kind; or -1 with errno (ENOENT for what
 * is not served, EMLINK for a second hard link, EPERM in a user capsule
 * for what is not its owner's alone: core/userdir.h).
 */
struct stat;
enum fsafe_kind;
/*
 * Does a name in path start with '.' (".git/", an editor's ".x.swp")?
 * Such files are not for readers: never served, nor listed.
 */
int		 archive_hidden_name(const char *path);
int		 archive_files_open(const struct archive *, const char *rel,
		    int links, bool hardlinks, struct stat *st,
		    enum fsafe_kind *kind);
int		 archive_bundle_open(const struct archive *,
		    const struct post *p, const char *name, bool hardlinks,
		    struct stat *st);
/*
 * The name inside the capsule of the file name of the post p's folder,
 * the one archive_bundle_open() opens, malloc'd: in a single-file
 * post's asset folder when that holds it (core/capfile.h: Hexo's
 * "posts/x/a.png" beside "posts/x.md"), else beside the post (in a
 * bundle's folder).  What access rules decide on.
 */
char		*archive_bundle_rel(const struct archive *,
		    const struct post *p, const char *name);

/*
 * The files of the page bundle folder dir as its index.md's shortcodes
 * see them when the server reads it (markdown/template.h's
 * template_files): sorted, what the server would serve of the folder
 * (regular files, no hidden name, no link, no second hard link unless
 * hardlinks: content/files.c), the index left out.  How many, *names
 * malloc'd (free with archive_bundle_names_free()); 0 when dir cannot
 * be opened.
 */
size_t		 archive_bundle_names(const char *dir, bool hardlinks,
		    char ***names);
void		 archive_bundle_names_free(char **names, size_t n);
/*
 * Where a file named by a template construct of the file rel ("posts/
 * x.md") of the capsule dir is (markdown/template.h's probe): beside
 * it, in a post's asset folder (core/capfile.h), or from the capsule's
 * top or files/ as a site's root.  Fill tp for it with
 * archive_probe_begin(); archive_probe_end() when done.  Only looks:
 * what is served is the link's to say (content/links.c).
 */
struct template_probe;
struct archive_probe {
	const char	*dir, *rel;	/* borrowed */
	int		 capfd;		/* the capsule, once asked; or -1 */
	bool		 asked;		/* the probe was asked */
};
void		 archive_probe_begin(struct archive_probe *, const char *dir,
		    const char *rel, struct template_probe *tp);
void		 archive_probe_end(struct archive_probe *);
/*
 * What a line of a load is about: the kinds the first start counts.
 */
enum archive_said_kind {
	ARCHIVE_SAID_SKIPPED,		/* a file left out */
	ARCHIVE_SAID_LINK,		/* a link that names nothing */
	ARCHIVE_SAID_TEMPLATE,		/* a template construct removed */
	ARCHIVE_SAID_APPROX,		/* one read approximately (a note) */
	ARCHIVE_SAID_OTHER,		/* any other warning */
	ARCHIVE_SAID_NOTE,		/* any other note (info) */
	ARCHIVE_SAID_NKINDS
};

#define ARCHIVE_SAID_FIRST	5	/* warning lines a summary keeps */

/*
 * Log line (a warning or note of a's load, about the file rel of the
 * capsule: "posts/x.md", or NULL for none), standing for n problems of
 * kind, at level lvl -- once: a line the previous snapshot of the
 * capsule said too is said again only when rel's bytes changed (a save
 * that only touched it says nothing); in a summarised load
 * (archive_hooks.summarise) it is counted, and kept among the first
 * few, instead (and logged at LOG_LEVEL_DEBUG).  For the loader
 * (content/, site/static.c's check of the root tree), before a is
 * published; the lines of the build itself are decided once it has read
 * every file.
 */
void		 archive_say(struct archive *a, const char *rel,
		    enum archive_said_kind kind, unsigned n,
		    enum log_level lvl, const char *line);
/* What a summarised load said instead of logging it. */
struct archive_said {
	unsigned	 n[ARCHIVE_SAID_NKINDS];	/* by kind */
	/* The first warning lines, borrowed from a. */
	const char	*first[ARCHIVE_SAID_FIRST];
	size_t		 nfirst;
};
/* 1 with *s filled when a was summarised, else 0. */
int		 archive_said(const struct archive *a,
		    struct archive_said *s);

#endif
