/*
 * archive_int.h -- what the files of the archive share: archive.c (the
 * snapshot: posts, series, tags, pages, lookups), record.c (file
 * records, settled reading), dirscan.c (listing folders and bundles),
 * address.c (old addresses) and files.c (the files/ rule).  Not for
 * other modules, which use archive.h.
 *
 * Included only by: archive.c, record.c, dirscan.c, address.c, files.c
 *
 * Calls go one way: archive.c calls the others, and none of them calls
 * archive.c.  record.c and dirscan.c read a capsule for the snapshot
 * being built through a struct archive_scan that archive.c fills: the
 * rules, the previous snapshot's records, and where to tell what they
 * find (a warning, whether a file is being written); they return what
 * they read, and archive.c decides what it becomes.
 */
#ifndef CAPSULED_ARCHIVE_INT_H
#define CAPSULED_ARCHIVE_INT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "content/archive.h"
#include "content/frontmatter.h"
#include "content/index.h"
#include "core/log.h"

struct archive;
struct scan_link;
struct stat;
struct template_note;

/*
 * One Markdown file as read: its bytes, its front matter and what is
 * derived from them alone.  Immutable once made, and shared by the
 * snapshots that hold it (each holds one reference) while the file does
 * not change.
 */
struct archive_file {
	atomic_uint	 refs;
	char		*rel;		/* "posts/x.md" */
	dev_t		 dev;		/* stat when read */
	ino_t		 ino;
	off_t		 size;
	struct timespec	 mtim, ctim;
	bool		 trusted;	/* an equal stat means equal bytes */
	bool		 bad;		/* front matter refused: see fe */
	bool		 gemtext;	/* a .gmi post: the body is gemtext */
	struct fm_error	 fe;
	char		*src;		/* NUL-terminated; NULL when bad */
	size_t		 len;
	struct meta	 m;		/* zeroed when bad */
	char		*heading;	/* first heading, one line; or NULL */
	unsigned	 words;		/* in the body */
	struct scan_link *links;	/* that may name posts: links.c */
	size_t		 nlinks;
	/*
	 * Template constructs removed or approximated in the body, which
	 * src holds rewritten (template.h); logged by every snapshot.
	 */
	struct template_note *tnotes;	/* owned */
	size_t		 ntnotes, ntmore;
	/*
	 * A bundle's index whose shortcodes read its folder's file list:
	 * the list's hash then, which must still hold for the record to
	 * be reused (an added or removed image changes the rewrite).
	 */
	bool		 bundled;
	uint64_t	 bundle_hash;
	/*
	 * Its templates asked where a file they name is (a site's own
	 * figure tag: record.c's probe): the answer may change with no
	 * change to the file, so the record is read again each time.
	 */
	bool		 probed;
	char		*summary;	/* first paragraph when m has none */
	/*
	 * For posts: the name (a bundle's: its folder's) without date
	 * prefix and ".md" or ".gmi" (the title when there is no other,
	 * and a key links find posts by), and
	 * each tag's grouping key.  Posts borrow these and m's strings,
	 * so a rebuild copies nothing that did not change.
	 */
	char		*base;
	char		**tagkeys;	/* m.ntags of them */
	/* The bytes read, hashed: a touched file is not a changed one. */
	uint64_t	 src_hash;
};

/* A key of the old-address index (address.c) and the post it names. */
struct addr_entry {
	char		*key;		/* owned */
	struct post	*p;		/* borrowed */
};

struct addr_index {
	struct addr_entry *v;		/* owned; sorted by key, then post */
	size_t		 n, cap;
};

/* The posts' old addresses, whole and by name (address.c). */
struct addr_tables {
	struct addr_index full, name;
};

/*
 * Where a warning (lvl LOG_LEVEL_WARN: counted) or a note
 * (LOG_LEVEL_INFO) goes: "rel:line:col: why" (line 0: "rel: why"),
 * said by archive_say().  skipped: a file left out, which the line says
 * when why does not.
 */
typedef void	(*archive_warn_fn)(void *arg, enum log_level lvl,
		    const char *rel, unsigned line, unsigned col,
		    const char *why, int skipped);

/*
 * One reading of a capsule for a snapshot being built: what record.c
 * and dirscan.c read by, what they have taken, and where they tell it.
 * archive.c fills it, lends it to them for the build and keeps files.
 */
struct archive_scan {
	const char	*dir;		/* the capsule, absolute: messages */
	size_t		 max_file;	/* max_post_size */
	size_t		 max_total;	/* max_archive_size */
	/* A user capsule (config.h): every file and folder owner's. */
	int		 owned;
	uid_t		 owner;
	bool		 hardlinks;	/* files_hardlinks */
	long long	 t_scan;	/* CLOCK_REALTIME ns, scan start */
	/* The previous snapshot's records by rel: shared when unchanged. */
	const struct index *prev;
	struct archive_file **files;	/* taken: one reference each */
	size_t		 nfiles;
	size_t		 total;		/* Markdown bytes taken so far */
	int		 full;		/* max_total reached: skip the rest */
	unsigned	 nread;		/* read and parsed */
	unsigned	 nreused;	/* shared with the previous snapshot */
	unsigned	 nheld;		/* being written: kept, or left out */
	unsigned	 nquiet;	/* skipped unsaid, past max_total */
	archive_warn_fn	 warn;		/* archive.c's */
	void		*warn_arg;
	archive_held_fn	 held;		/* the watch's, or NULL */
	void		*held_arg;
};

/*
 * Tell s's sink a warning, or a note; ask s's watch whether rel is being
 * written.
 */
static inline void
scan_warn(struct archive_scan *s, const char *rel, unsigned line,
    unsigned col, const char *why, int skipped)
{
	s->warn(s->warn_arg, LOG_LEVEL_WARN, rel, line, col, why, skipped);
}

static inline void
scan_note(struct archive_scan *s, const char *rel, unsigned line,
    unsigned col, const char *why)
{
	s->warn(s->warn_arg, LOG_LEVEL_INFO, rel, line, col, why, 0);
}

static inline int
scan_held(const struct archive_scan *s, const char *rel,
    enum archive_ask ask)
{
	return s->held != NULL && s->held(s->held_arg, rel, ask);
}

static inline long long
archive_ns(const struct timespec *ts)
{
	return (long long)ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

/* record.c: file records */
/*
 * name beneath dirfd (rel in messages) as a file record: the previous
 * snapshot's when the file is unchanged, or still being written, else
 * read and parsed now.  NULL when it is skipped (warned), or new and
 * not yet whole.  Borrowed: s->files holds it.  An absent file is
 * quietly NULL when quiet_enoent.
 */
struct archive_file *record_get(struct archive_scan *s, int dirfd,
		    const char *name, const char *rel, int quiet_enoent);
void		 record_unref(struct archive_file *);	/* frees at zero */
/*
 * In a user capsule, is the folder open at fd (rel in messages)
 * another's, or writable by group or others?  1, warned; the caller
 * leaves it out.
 */
int		 record_dir_not_owned(struct archive_scan *s, int fd,
		    const char *rel);

/* dirscan.c: folders and bundles */
/*
 * The source names of the folder sub of the capsule open at dfd, sorted
 * (with posts, of every folder of posts/ and its bundles: dirscan.c).
 * Returns the folder's fd (to open the files beneath), or -1 when it is
 * absent (quietly) or unusable (a warning).
 */
int		 dirscan_list(struct archive_scan *s, int dfd, const char *sub,
		    int posts, char ***namesp, size_t *np);
struct archive_file *dirscan_post_file(struct archive_scan *s, int pfd,
		    const char *name, const char *rel);

/* address.c: old addresses, once the posts have their slugs */
void		 address_index(struct addr_tables *,
		    struct post *const *posts, size_t nposts);
void		 address_free(struct addr_tables *);
/* archive_post_name() and archive_post_address() of archive.h. */
struct post	*address_name(const struct addr_tables *, const char *name,
		    int *ambiguous);
struct post	*address_find(const struct addr_tables *, const char *path,
		    int *ambiguous);

/* files.c: the files/ rule */
/*
 * What refuses the regular file st once it is open, as an errno, or 0:
 * a second hard link unless hardlinks, and in a user capsule (owned) a
 * file that is not owner's alone (core/userdir.h).
 */
int		 files_refused(const struct stat *st, bool hardlinks,
		    int owned, uid_t owner);

#endif
