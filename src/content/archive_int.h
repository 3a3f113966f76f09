/*
 * archive_int.h -- what the files of the archive share: archive.c (the
 * snapshot: posts, series, tags, pages, lookups), record.c (file
 * records, settled reading), dirscan.c (listing folders and bundles),
 * slug.c (slugs, tag keys, post file names) and files.c (the files/
 * rule).  Not for other modules, which use archive.h.
 *
 * It does not include archive.h, so that archive.c may include it:
 * the snapshot's own struct (struct archive_priv, archive.c) stays
 * there, and the others reach the state they share through
 * archive_state().
 */
#ifndef CAPSULED_ARCHIVE_INT_H
#define CAPSULED_ARCHIVE_INT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "content/frontmatter.h"
#include "content/index.h"

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
	/* links.c: a hash of the link warnings last logged; 0: none. */
	atomic_ullong	 links_logged;
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

/*
 * What a snapshot keeps of its files beyond struct archive: its records
 * and the rules it read them by.  prev, total, full and t_scan serve
 * only while archive_reload_held() builds it.
 */
struct archive_state {
	struct archive_file **files;	/* one reference each */
	size_t		 nfiles;
	struct index	 file_rel;	/* "posts/x.md" -> file */
	const struct archive *prev;	/* while building: share from it */
	size_t		 max_file;	/* max_post_size */
	/* A user capsule (config.h): every file and folder is owner's. */
	int		 owned;
	uid_t		 owner;
	size_t		 max_total;	/* max_archive_size */
	size_t		 total;		/* Markdown bytes taken so far */
	int		 full;		/* max_total reached: skip the rest */
	long long	 t_scan;	/* CLOCK_REALTIME ns, scan start */
	/* The posts' old addresses, whole and by name (address.c). */
	struct addr_index addr_full, addr_name;
};

/* archive.c: the snapshot */
struct archive_state *archive_state(const struct archive *);
/*
 * Is a watch asked while this snapshot is built (archive_reload_held())?
 * And its answer about rel for ask (enum archive_ask); 0 without one.
 */
bool		 archive_watched(const struct archive *);
int		 archive_held(const struct archive *, const char *rel,
		    int ask);
/*
 * Log "rel:line:col: why" and count it (skipped: a file left out, which
 * the line says when why does not).
 */
void		 archive_warn(struct archive *, const char *rel,
		    unsigned line, unsigned col, const char *why,
		    int skipped);

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
 * not yet whole.  Borrowed: the snapshot's file list holds it.  An
 * absent file is quietly NULL when quiet_enoent.
 */
struct archive_file *record_get(struct archive *, int dirfd,
		    const char *name, const char *rel, int quiet_enoent);
void		 record_unref(struct archive_file *);	/* frees at zero */
/*
 * In a user capsule, is the file or folder st (rel in messages), or
 * the folder open at fd, another's, or writable by group or others?
 * 1, warned; the caller leaves it out.
 */
int		 record_not_owned(struct archive *, const char *rel,
		    const struct stat *st);
int		 record_dir_not_owned(struct archive *, int fd,
		    const char *rel);

/* dirscan.c: folders and bundles */
int		 dirscan_list(struct archive *, int dfd, const char *sub,
		    int posts, char ***namesp, size_t *np);
struct archive_file *dirscan_post_file(struct archive *, int pfd,
		    const char *name, const char *rel);

/* address.c: old addresses, once the posts have their slugs */
void		 address_index(struct archive *);
void		 address_free(struct archive_state *);

/* slug.c: names */
/*
 * The key tags are grouped by ("Small Web", "small-web" and "SMALL_WEB"
 * are one tag); malloc'd.
 */
char		*slug_tag_key(const char *name);
/*
 * The stem a post's slug and date come from: "2024-01-01-x" for
 * "2024-01-01-x.md" (or ".gmi", in any folder of posts/), the folder's
 * name for a bundle's "2024-01-01-x/index.md".
 */
void		 slug_post_stem(const char *name, char *stem, size_t size);
/* Is name (beneath posts/) a bundle's index, ".../index.md" or .gmi? */
int		 slug_post_bundle(const char *name);

#endif
