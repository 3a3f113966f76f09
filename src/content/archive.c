/*
 * archive.c -- scan a capsule directory into an immutable snapshot.
 *
 * archive_load() lists index.md, series/, posts/ and pages/ in sorted
 * name order (so every run gives the same result), reads each Markdown
 * file (and each post in gemtext, posts/x.gmi, and each page bundle's
 * index, posts/x/index.md) with one read(2) into an exact-size buffer,
 * splits its front matter (frontmatter.c), then links posts to series
 * and tags and builds the slug indexes.  A broken file is logged as
 * "posts/x.md:LINE:COL: why" and skipped; nothing a writer puts in the
 * capsule makes loading fail.  Files are opened beneath a directory fd
 * with O_NOFOLLOW and must be regular files: symlinks, FIFOs and
 * devices are skipped.
 *
 * archive_reload() does the same next to a previous snapshot: a file
 * whose stat (device, inode, size, mtime, ctime) is unchanged is not
 * read again; its record (bytes, front matter, first heading, word
 * count) is shared.  Everything built from the records -- posts,
 * series, tags, indexes -- is made anew, which is cheap
 * (linking 10,000 posts takes milliseconds) and keeps every page that
 * lists a post in step with it.
 *
 * archive_reload_held() asks a watch too: a file being written, or
 * found empty, or changing while it is read, keeps the record the
 * previous snapshot has (a new one is left out), so no half-written
 * post is published.
 *
 * Knows the file system and struct meta; nothing of protocols, sockets
 * or rendering (apart from asking render.c for a first heading, and
 * scan.c for the links a file has: links.c checks them after the load).
 * The snapshot owns every string and struct reachable from it, and one
 * reference to each file record it holds; the indexes borrow their keys
 * from the structs they point to.
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "content/archive.h"
#include "content/frontmatter.h"
#include "markdown/template.h"
#include "core/buf.h"
#include "core/config.h"
#include "core/date.h"
#include "core/fold.h"
#include "core/fsafe.h"
#include "core/layout.h"
#include "core/log.h"
#include "core/url.h"
#include "core/userdir.h"
#include "core/utf8.h"
#include "core/util.h"
#include "markdown/gemtext.h"
#include "markdown/render.h"
#include "markdown/scan.h"

#define ARCHIVE_MAX_FILE	(8u << 20)	/* max_post_size when unset */
#define WORDS_PER_MIN		200
#define SUMMARY_MAX		300	/* code points of a derived summary */
/*
 * A file changed less than this before a scan may change again within
 * the same timestamp tick (a jiffy on Linux, a second or two on some
 * file systems) without its stat changing: it is read again next time.
 */
#define ARCHIVE_RACY_NS		(2 * 1000000000LL)
/* Reads of a file that keeps changing under them before it is left. */
#define ARCHIVE_READ_TRIES	3

/* Open addressing, string key -> pointer; keys are borrowed. */
struct index {
	const char	**keys;
	void		**vals;
	size_t		  cap;		/* a power of two, or 0 */
};

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
};

/*
 * What the snapshot keeps beyond struct archive; archive_load() only.
 * Posts' strings other than slug are borrowed from their file records.
 */
struct archive_priv {
	struct archive	 pub;
	struct archive_file **files;	/* one reference each */
	size_t		 nfiles;
	struct index	 file_rel;	/* "posts/x.md" -> file */
	const struct archive *prev;	/* while building: share from it */
	archive_held_fn	 held;		/* while building, or NULL */
	void		*held_arg;
	size_t		 max_file;	/* max_post_size */
	/* A user capsule (config.h): every file and folder is owner's. */
	int		 owned;
	uid_t		 owner;
	size_t		 max_total;	/* max_archive_size */
	size_t		 total;		/* Markdown bytes taken so far */
	int		 full;		/* max_total reached: skip the rest */
	long long	 t_scan;	/* CLOCK_REALTIME ns, scan start */
	struct index	 post_slug;	/* slug -> post */
	struct index	 post_file;	/* "2024-01-01-x.md" -> post */
	struct index	 post_base;	/* "x" (no date, no .md) -> post */
	struct index	 series_slug;
	struct index	 tag_slug;
	struct index	 doc_name;
};

static struct archive_priv *
inner(const struct archive *a)
{
	return container_of(a, struct archive_priv, pub);
}

/* ---- index ---------------------------------------------------------- */

static uint64_t
hash(const char *s)
{
	uint64_t	 h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return h;
}

/* Room for n keys, never resized: callers know n up front. */
static void
index_init(struct index *x, size_t n)
{
	x->cap = 16;
	while (x->cap < 2 * n)
		x->cap *= 2;
	x->keys = xcalloc(x->cap, sizeof(*x->keys));
	x->vals = xcalloc(x->cap, sizeof(*x->vals));
}

static void
index_free(struct index *x)
{
	free(x->keys);
	free(x->vals);
	memset(x, 0, sizeof(*x));
}

static void *
index_get(const struct index *x, const char *key)
{
	size_t	 i;

	if (x->cap == 0 || key == NULL)
		return NULL;
	for (i = hash(key) & (x->cap - 1); x->keys[i] != NULL;
	    i = (i + 1) & (x->cap - 1))
		if (strcmp(x->keys[i], key) == 0)
			return x->vals[i];
	return NULL;
}

/* Insert unless present; returns the value now under key. */
static void *
index_put(struct index *x, const char *key, void *val)
{
	size_t	 i;

	for (i = hash(key) & (x->cap - 1); x->keys[i] != NULL;
	    i = (i + 1) & (x->cap - 1))
		if (strcmp(x->keys[i], key) == 0)
			return x->vals[i];
	x->keys[i] = key;
	x->vals[i] = val;
	return val;
}

/* ---- text ----------------------------------------------------------- */

/* One code point of the NUL-terminated p: its length, at least 1. */
static size_t
next_cp(const unsigned char *p, uint32_t *cp)
{
	return utf8_decode((const char *)p, strnlen((const char *)p, 4), cp);
}

static int
is_alnum(uint32_t c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9');
}

/* Punctuation and spaces outside ASCII, bad bytes: separators in a slug. */
static int
is_punct_cp(uint32_t cp)
{
	return cp == UTF8_INVALID || (cp >= 0x80 && cp <= 0xBF) ||
	    cp == 0xD7 || cp == 0xF7 || (cp >= 0x2000 && cp <= 0x206F) ||
	    (cp >= 0x3000 && cp <= 0x303F) || cp == 0xFEFF || cp == 0xFFFD;
}

struct slug {
	struct buf	 b;
	int		 sep;		/* a '-' is due before the next char */
};

static void
slug_add(struct slug *s, const char *w)
{
	if (s->sep && s->b.len > 0)
		buf_addc(&s->b, '-');
	s->sep = 0;
	buf_addstr(&s->b, w);
}

/* A word of its own: "c++" -> "c-plus-plus". */
static void
slug_word(struct slug *s, const char *w)
{
	s->sep = 1;
	slug_add(s, w);
	s->sep = 1;
}

/*
 * slug = 1*(a-z / 0-9) *("-" 1*(a-z / 0-9))
 * ASCII letters and digits are kept (lower-cased); Latin-1 and Latin
 * Extended-A letters fold to ASCII (é -> e, ß -> ss, ł -> l); "+" is
 * "plus", "&" is "and", "#" after a letter or digit is "sharp" (C#);
 * apostrophes vanish (don't -> dont); every other letter becomes a word
 * "u<hex>" (漢 -> u6f22), so every name has a reachable slug; anything
 * else is a separator, and runs of separators are one "-".
 */
char *
archive_slugify(const char *name)
{
	struct slug		 s;
	const unsigned char	*p = (const unsigned char *)name;
	const char		*ascii;
	char			 tmp[16];
	uint32_t		 cp;
	int			 prev_alnum = 0;

	buf_init(&s.b);
	s.sep = 0;
	while (*p != '\0') {
		p += next_cp(p, &cp);
		if (is_alnum(cp)) {
			tmp[0] = (char)(cp >= 'A' && cp <= 'Z' ? cp + 32 : cp);
			tmp[1] = '\0';
			slug_add(&s, tmp);
			prev_alnum = 1;
			continue;
		}
		if (cp == '\'' || cp == 0x2019)
			continue;
		if (cp == '+')
			slug_word(&s, "plus");
		else if (cp == '&')
			slug_word(&s, "and");
		else if (cp == '#' && prev_alnum)
			slug_word(&s, "sharp");
		else if ((ascii = fold_latin(cp)) != NULL) {
			slug_add(&s, ascii);
			prev_alnum = 1;
			continue;
		} else if (cp >= 0x80 && !is_punct_cp(cp)) {
			snprintf(tmp, sizeof(tmp), "u%lx", (unsigned long)cp);
			slug_word(&s, tmp);
		} else
			s.sep = 1;
		prev_alnum = 0;
	}
	buf_add(&s.b, "", 0);		/* NUL-terminated even when empty */
	return buf_release(&s.b);
}

char *
archive_file_slug(const char *fmslug, const char *name, int *used)
{
	struct date	 d;
	char		*stem, *s;
	const char	*base;
	size_t		 len = strlen(name);

	if (used != NULL)
		*used = 0;
	if (fmslug != NULL) {
		s = archive_slugify(fmslug);
		if (*s != '\0') {
			if (used != NULL)
				*used = 1;
			return s;
		}
		free(s);
	}
	if (len > 3 && strcmp(name + len - 3, ".md") == 0)
		len -= 3;
	stem = xstrndup(name, len);
	base = date_from_filename(stem, &d) == 0 ? stem + 11 : stem;
	s = archive_slugify(*base != '\0' ? base : stem);
	free(stem);
	return s;
}

/* Lower-case of cp for the letters we group tags by (Latin scripts). */
static uint32_t
lower_cp(uint32_t cp)
{
	if (cp >= 'A' && cp <= 'Z')
		return cp + 32;
	if (cp >= 0xC0 && cp <= 0xDE && cp != 0xD7)
		return cp + 32;
	if (((cp >= 0x100 && cp <= 0x137) || (cp >= 0x14A && cp <= 0x177)) &&
	    cp % 2 == 0)
		return cp + 1;
	if (((cp >= 0x139 && cp <= 0x148) || (cp >= 0x179 && cp <= 0x17E)) &&
	    cp % 2 == 1)
		return cp + 1;
	if (cp == 0x178)
		return 0xFF;
	return cp;
}

/*
 * The key tags are grouped by: case folded, runs of blanks, "-" and "_"
 * made one "-", ends trimmed.  "Small Web", "small-web" and "SMALL_WEB"
 * are one tag.
 */
static char *
tag_key(const char *name)
{
	struct buf		 b = BUF_INIT;
	const unsigned char	*p = (const unsigned char *)name, *q;
	uint32_t		 cp;
	int			 sep = 0;

	while (*p != '\0') {
		q = p;
		p += next_cp(p, &cp);
		if (cp == ' ' || cp == '\t' || cp == '-' || cp == '_' ||
		    cp == 0xA0) {
			sep = 1;
			continue;
		}
		if (sep && b.len > 0)
			buf_addc(&b, '-');
		sep = 0;
		if (cp == UTF8_INVALID)
			buf_addc(&b, *q);
		else
			utf8_add(&b, lower_cp(cp));
	}
	buf_add(&b, "", 0);
	return buf_release(&b);
}

/* Whitespace-separated tokens: a cheap byte scan, no Markdown parse. */
static unsigned
count_words(const char *s, size_t len)
{
	static const unsigned char blank[256] = {
		[' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\v'] = 1, ['\f'] = 1,
		['\r'] = 1,
	};
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 i, n = 0;
	unsigned		 prev = 1;	/* the byte before was blank */

	/* Branch-free so the compiler can vectorise it. */
	for (i = 0; i < len; i++) {
		n += prev & (blank[p[i]] ^ 1u);
		prev = blank[p[i]];
	}
	return n > UINT_MAX ? UINT_MAX : (unsigned)n;
}

/* A file name with bytes that would garble a log line. */
static int
bad_name(const char *name)
{
	for (; *name; name++)
		if ((unsigned char)*name < 0x20 || *name == 0x7F)
			return 1;
	return 0;
}

/* ---- files ---------------------------------------------------------- */

static void	warn_file(struct archive *, const char *, unsigned, unsigned,
		    const char *, int);

/*
 * In a user capsule, a file or folder that is another's, or that group
 * or others may write, is not read (core/userdir.h): 1, warned.
 */
static int
not_owned(struct archive *a, const char *rel, const struct stat *st)
{
	const struct archive_priv *ap = inner(a);
	char			 why[160], *path;

	if (!ap->owned || userdir_owned(st, ap->owner))
		return 0;
	snprintf(why, sizeof(why), "not owned by UID %ju alone (owner %ju, "
	    "mode %04o), skipped", (uintmax_t)ap->owner,
	    (uintmax_t)st->st_uid, (unsigned)(st->st_mode & 07777));
	/* The whole path: the operator reads it among many capsules'. */
	path = xasprintf("%s/%s", a->dir, rel);
	warn_file(a, path, 1, 1, why, 1);
	free(path);
	return 1;
}

/* not_owned() of the folder open at fd (rel names it); 1 on error too. */
static int
ap_owned_dir(struct archive *a, int fd, const char *rel)
{
	struct stat	 st;

	if (!inner(a)->owned)
		return 0;
	return fstat(fd, &st) == -1 || not_owned(a, rel, &st);
}

static void
warn_file(struct archive *a, const char *rel, unsigned line, unsigned col,
    const char *why, int skipped)
{
	log_warnx("%s:%u:%u: %s", rel, line, col, why);
	a->nwarnings++;
	if (skipped)
		a->nskipped++;
}

/*
 * Stat name beneath dirfd into *st.  Only a regular file passes;
 * anything else is a warning and -1.  rel names the file in messages.
 * Absent files are -1 with no warning when quiet_enoent.
 */
static int
stat_file(struct archive *a, int dirfd, const char *name, const char *rel,
    int quiet_enoent, struct stat *st)
{
	char	 why[160];

	if (fstatat(dirfd, name, st, AT_SYMLINK_NOFOLLOW) == -1) {
		if (errno == ENOENT && quiet_enoent)
			return -1;
		snprintf(why, sizeof(why), "%s, skipped", strerror(errno));
		warn_file(a, rel, 1, 1, why, 1);
		return -1;
	}
	if (S_ISLNK(st->st_mode)) {
		warn_file(a, rel, 1, 1, "symbolic link, skipped", 1);
		return -1;
	}
	if (!S_ISREG(st->st_mode)) {
		warn_file(a, rel, 1, 1, "not a regular file, skipped", 1);
		return -1;
	}
	return 0;
}

/* Did the file change between two stats of it (same open file)? */
static int
changed(const struct stat *a, const struct stat *b)
{
	return a->st_size != b->st_size ||
	    a->st_mtim.tv_sec != b->st_mtim.tv_sec ||
	    a->st_mtim.tv_nsec != b->st_mtim.tv_nsec ||
	    a->st_ctim.tv_sec != b->st_ctim.tv_sec ||
	    a->st_ctim.tv_nsec != b->st_ctim.tv_nsec;
}

/*
 * How many ms st's file is short of ARCHIVE_RECENT_MS old; 0 when it is
 * older.  Writes stamp the time of the kernel's coarse clock, never
 * later than now; a time ahead of now was set by hand (touch, rsync -t)
 * and says nothing.
 */
static int64_t
recent_left_ms(const struct stat *st)
{
	struct timespec	 now;
	int64_t		 ms;

	if (clock_gettime(CLOCK_REALTIME, &now) == -1)
		return 0;
	ms = ((int64_t)now.tv_sec - (int64_t)st->st_mtim.tv_sec) * 1000 +
	    ((int64_t)now.tv_nsec - (int64_t)st->st_mtim.tv_nsec) / 1000000;
	if (ms <= -10 || ms >= ARCHIVE_RECENT_MS)
		return 0;
	return ARCHIVE_RECENT_MS - (ms < 0 ? 0 : ms);
}

/*
 * A file a watch follows, modified moments ago, is let age before it is
 * read: a write stamps its time before its bytes land and tells the
 * watch after, so a file read at once could be half written with
 * nothing yet to say so.  Waiting here, a few ms on the loader's thread,
 * is cheaper than keeping the file back for one more build.  *st is
 * fd's again after each wait; a file that keeps changing is left to the
 * caller (ARCHIVE_ASK_RECENT).
 */
static void
let_age(int fd, struct stat *st)
{
	struct timespec	 ts;
	int64_t		 left;
	int		 waits;

	for (waits = 0; waits < ARCHIVE_RECENT_WAITS &&
	    (left = recent_left_ms(st)) > 0; waits++) {
		ts.tv_sec = 0;
		ts.tv_nsec = (long)left * 1000000L;
		while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
			;
		if (fstat(fd, st) == -1)
			return;		/* the read's own check tells */
	}
}

/*
 * Read name beneath dirfd whole into a malloc'd, NUL-terminated buffer,
 * and *st from the open file.  A warning and -1 when it cannot be read
 * or is no longer a regular file.  The file is stat'ed before and after
 * each read: a writer may be busy with it (README.md, "Live editing"),
 * so a size, mtime or ctime that moved under the read means the bytes
 * may be half old, half new.  Such a read is tried again, and after
 * ARCHIVE_READ_TRIES of them the answer is 1, nothing read: the caller
 * keeps the version it had.  With a watch, a file modified moments ago
 * is let age first (let_age()).
 */
static int
read_file(struct archive *a, int dirfd, const char *name, const char *rel,
    struct stat *st, char **srcp, size_t *lenp)
{
	struct stat	 after;
	char		*src, why[160];
	size_t		 len, got;
	ssize_t		 n;
	int		 fd, tries;

	if ((fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC)) == -1) {
		snprintf(why, sizeof(why), "%s, skipped", strerror(errno));
		warn_file(a, rel, 1, 1, why, 1);
		return -1;
	}
	/* It may have been swapped for something else since fstatat. */
	if (fstat(fd, st) == -1 || !S_ISREG(st->st_mode)) {
		close(fd);
		warn_file(a, rel, 1, 1, "not a regular file, skipped", 1);
		return -1;
	}
	if (not_owned(a, rel, st)) {
		close(fd);
		return -1;
	}
	if (inner(a)->held != NULL)
		let_age(fd, st);
	for (tries = 1;; tries++) {
		if ((unsigned long long)st->st_size > inner(a)->max_file) {
			close(fd);
			snprintf(why, sizeof(why), "larger than max_post_size "
			    "(%zu KiB), skipped", inner(a)->max_file >> 10);
			warn_file(a, rel, 1, 1, why, 1);
			return -1;
		}
		len = (size_t)st->st_size;
		src = xmalloc(len + 1);
		for (got = 0; got < len; got += (size_t)n) {
			n = pread(fd, src + got, len - got, (off_t)got);
			if (n == -1 && errno == EINTR) {
				n = 0;
				continue;
			}
			if (n == -1) {
				snprintf(why, sizeof(why), "%s, skipped",
				    strerror(errno));
				close(fd);
				free(src);
				warn_file(a, rel, 1, 1, why, 1);
				return -1;
			}
			if (n == 0)
				break;		/* it shrank */
		}
		if (fstat(fd, &after) == -1 || !S_ISREG(after.st_mode)) {
			close(fd);
			free(src);
			warn_file(a, rel, 1, 1, "cannot stat it again, skipped",
			    1);
			return -1;
		}
		if (got == len && !changed(st, &after))
			break;
		free(src);
		if (tries == ARCHIVE_READ_TRIES) {
			close(fd);
			log_debug("%s: changed while read, %d times", rel,
			    tries);
			return 1;
		}
		*st = after;
	}
	close(fd);
	src[got] = '\0';
	*srcp = src;
	*lenp = got;
	return 0;
}

static int
cmp_name(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* ---- posts' file names ---------------------------------------------- */

int
archive_md_name(const char *name)
{
	size_t	 len = strlen(name);

	return len > 3 && strcmp(name + len - 3, ".md") == 0;
}

int
archive_gmi_name(const char *name)
{
	size_t	 len = strlen(name);

	return len > 4 && strcmp(name + len - 4, ".gmi") == 0;
}

/* The length of a post file's extension: ".gmi" or ".md". */
static size_t
ext_len(const char *name)
{
	return archive_gmi_name(name) ? 4 : 3;
}

/* ---- page bundles --------------------------------------------------- */

/*
 * A page bundle: a folder of posts/ (a directory itself, not a link to
 * one) with an index.md or index.gmi in it, the post; the rest of the
 * folder is the post's files, served from disk (site/router.c).  The
 * name of the index, or NULL when de is no bundle.
 */
static const char *
bundle_index(int pfd, const struct dirent *de)
{
	static const char *const index[] = { "index.md", "index.gmi" };
	struct stat	 st;
	char		 path[NAME_MAX + 16];
	size_t		 i;

	if (de->d_type != DT_DIR && (de->d_type != DT_UNKNOWN ||
	    fstatat(pfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == -1 ||
	    !S_ISDIR(st.st_mode)))
		return NULL;
	for (i = 0; i < nitems(index); i++) {
		snprintf(path, sizeof(path), "%s/%s", de->d_name, index[i]);
		if (fstatat(pfd, path, &st, AT_SYMLINK_NOFOLLOW) == 0)
			return index[i];
	}
	return NULL;
}

/*
 * The stem a post's slug and date come from: "2024-01-01-x" for
 * "2024-01-01-x.md" (or ".gmi"), the folder's name for a bundle's
 * "2024-01-01-x/index.md".
 */
static void
post_stem(const char *name, char *stem, size_t size)
{
	const char	*slash = strchr(name, '/');
	size_t		 len;

	len = slash ? (size_t)(slash - name) : strlen(name) - ext_len(name);
	snprintf(stem, size, "%.*s", (int)len, name);
}

/* ---- listing ------------------------------------------------------- */

/*
 * The *.md names in dfd/sub, sorted; with posts, *.gmi names and page
 * bundles ("<folder>/index.md", bundle_index()) too.  Hidden files and
 * other names are left out.  Returns the directory's fd (to open the
 * files beneath), or -1 when it is absent (quietly) or unusable (a
 * warning).
 */
static int
list_names(struct archive *a, int dfd, const char *sub, int posts,
    char ***namesp, size_t *np)
{
	DIR		*d;
	struct dirent	*de;
	char		**names = NULL, why[160];
	const char	*bundle;
	size_t		 n = 0, cap = 0;
	int		 fd, fd2;

	*namesp = NULL;
	*np = 0;
	if ((fd = openat(dfd, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1) {
		if (errno == ENOENT)
			return -1;
		snprintf(why, sizeof(why), "%s, not loaded",
		    errno == ELOOP ? "symbolic link" : strerror(errno));
		warn_file(a, sub, 1, 1, why, 0);
		return -1;
	}
	if (ap_owned_dir(a, fd, sub)) {
		close(fd);
		return -1;
	}
	if ((fd2 = dup(fd)) == -1 || (d = fdopendir(fd2)) == NULL) {
		if (fd2 != -1)
			close(fd2);
		snprintf(why, sizeof(why), "%s, not loaded", strerror(errno));
		warn_file(a, sub, 1, 1, why, 0);
		close(fd);
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		bundle = NULL;
		if (de->d_name[0] == '.' || (!archive_md_name(de->d_name) &&
		    (!posts || (!archive_gmi_name(de->d_name) &&
		    (bundle = bundle_index(fd, de)) == NULL))))
			continue;
		if (bad_name(de->d_name)) {
			log_warnx("%s: a file name with control characters, "
			    "skipped", sub);
			a->nwarnings++;
			a->nskipped++;
			continue;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			names = xreallocarray(names, cap, sizeof(*names));
		}
		names[n++] = bundle ? xasprintf("%s/%s", de->d_name, bundle) :
		    xstrdup(de->d_name);
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof(*names), cmp_name);
	*namesp = names;
	*np = n;
	return fd;
}

static void
free_names(char **names, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/*
 * Where a first level-1 heading can end: after the first line that is an
 * ATX "# " heading or a setext "===" underline.  Parsing only that much
 * (most untitled posts open with their heading) keeps cmark from reading
 * thousands of whole posts; see first_heading().
 */
static size_t
heading_cut(const char *s, size_t len)
{
	const char	*p = s, *end = s + len, *nl, *q;

	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		for (q = p; q < nl && q - p < 3 && *q == ' '; q++)
			;
		if (q < nl && *q == '#' && (q + 1 == nl || q[1] == ' ' ||
		    q[1] == '\t' || q[1] == '\r'))
			return nl == end ? len : (size_t)(nl - s) + 1;
		if (q < nl && *q == '=') {
			while (q < nl && *q == '=')
				q++;
			while (q < nl && (*q == ' ' || *q == '\t' ||
			    *q == '\r'))
				q++;
			if (q == nl)
				return nl == end ? len : (size_t)(nl - s) + 1;
		}
		if (nl == end)
			break;
	}
	return 0;
}

/*
 * render_first_heading() of md, reading as little as gives the same
 * answer: blocks before a line do not depend on what follows it, but a
 * link reference defined further down could change the heading's text,
 * so a heading with a '[' in its source is read again in full.
 */
static char *
first_heading(const char *md, size_t len)
{
	char	*h;
	size_t	 cut;

	cut = heading_cut(md, len);
	if (cut > 0 && cut < len && memchr(md, '[', cut) == NULL) {
		if ((h = render_first_heading(md, cut)) != NULL)
			return h;
	}
	return render_first_heading(md, len);
}

/* Title: front matter, else the body's first heading, else fallback. */
static char *
pick_title(const struct archive_file *f, const char *fallback)
{
	if (f->m.title != NULL)
		return xstrdup(f->m.title);
	if (f->heading != NULL)
		return xstrdup(f->heading);
	return xstrdup(fallback);
}

/* ---- bodies -------------------------------------------------------- */

/*
 * What file_new() learns of a body: its first level-1 heading (a
 * gemtext one as written: gemtext has no entities; the renderer decodes
 * Markdown's) as one line, when front matter gives no title, and its
 * links that may name posts.
 */
static void
body_heading_links(struct archive_file *f)
{
	const char	*body = f->src + f->m.body_off;
	size_t		 len = f->len - f->m.body_off;
	char		*h = NULL, *t;

	if (f->m.title == NULL)
		h = f->gemtext ? gemtext_title(body, len) :
		    first_heading(body, len);
	if (h != NULL) {
		t = frontmatter_oneline(h, strlen(h), 0);
		free(h);
		if (*t != '\0' && frontmatter_cut(t, FM_TITLE_MAX))
			meta_warn(&f->m, f->m.body_line, 1, "the first "
			    "heading, as the title: longer than %d characters, "
			    "cut", FM_TITLE_MAX);
		if (*t != '\0')
			f->heading = t;
		else
			free(t);
	}
	if (f->gemtext)
		f->links = gemtext_links(body, len, f->m.body_line,
		    &f->nlinks);
	else
		f->links = scan_links(body, len, f->m.body_line, &f->nlinks);
}

/* ---- file records --------------------------------------------------- */

static long long
ts_ns(const struct timespec *ts)
{
	return (long long)ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

static int
same_stat(const struct archive_file *f, const struct stat *st)
{
	return f->dev == st->st_dev && f->ino == st->st_ino &&
	    f->size == st->st_size &&
	    ts_ns(&f->mtim) == ts_ns(&st->st_mtim) &&
	    ts_ns(&f->ctim) == ts_ns(&st->st_ctim);
}

static void
file_unref(struct archive_file *f)
{
	size_t	 i;

	if (f == NULL || atomic_fetch_sub(&f->refs, 1) != 1)
		return;
	/* Before meta_free(), which forgets ntags. */
	if (f->tagkeys != NULL)
		for (i = 0; i < f->m.ntags; i++)
			free(f->tagkeys[i]);
	free(f->tagkeys);
	free(f->rel);
	free(f->src);
	if (!f->bad)
		meta_free(&f->m);
	free(f->heading);
	free(f->tnotes);
	free(f->summary);
	scan_links_free(f->links, f->nlinks);
	free(f->base);
	free(f);
}

/* What a post borrows from its file record (see struct archive_file). */
static void
post_file_keys(struct archive_file *f)
{
	struct date	 d;
	char		 stem[NAME_MAX + 1];
	size_t		 i;

	post_stem(f->rel + strlen("posts/"), stem, sizeof(stem));
	if (date_from_filename(stem, &d) == 0 && stem[11] != '\0')
		f->base = xstrdup(stem + 11);
	else
		f->base = xstrdup(stem);
	f->tagkeys = xcalloc(f->m.ntags, sizeof(*f->tagkeys));
	for (i = 0; i < f->m.ntags; i++)
		f->tagkeys[i] = tag_key(f->m.tags[i]);
}

/*
 * The body's template constructs read for what they mean, once, when
 * the file is read: src then holds the front matter and the rewritten
 * body, so headings, word counts, links, search and every rendering
 * see no template syntax, and rendering (on the request path) pays
 * nothing for it.
 */
static void
read_templates(struct archive_file *f)
{
	struct template_result	 r;
	char			*src;
	size_t			 off = f->m.body_off;

	if (!template_present(f->src + off, f->len - off))
		return;
	template_rewrite(f->src + off, f->len - off, &r);
	src = xmalloc(off + r.len + 1);
	memcpy(src, f->src, off);
	memcpy(src + off, r.body, r.len + 1);
	free(f->src);
	f->src = src;
	f->len = off + r.len;
	f->tnotes = r.notes;
	f->ntnotes = r.nnotes;
	f->ntmore = r.nmore;
	r.notes = NULL;
	template_result_free(&r);
}

/* What read_templates() did, as "posts/x.md:LINE:COL: template: ...". */
static void
log_templates(struct archive *a, const struct archive_file *f)
{
	const struct template_note	*n;
	char				 why[160];
	size_t				 i;

	for (i = 0; i < f->ntnotes; i++) {
		n = &f->tnotes[i];
		if (n->what == TEMPLATE_REMOVED) {
			snprintf(why, sizeof(why), "template: removed %s",
			    n->text);
			warn_file(a, f->rel, f->m.body_line + n->line - 1,
			    n->col, why, 0);
		} else
			log_info("%s:%u:%u: template: approximated %s",
			    f->rel, f->m.body_line + n->line - 1, n->col,
			    n->text);
	}
	if (f->ntmore > 0) {
		snprintf(why, sizeof(why), "template: %zu more constructs "
		    "removed or read approximately", f->ntmore);
		warn_file(a, f->rel, 1, 1, why, 0);
	}
}

/* A record of src[0..len) (taken over), read as st said. */
static struct archive_file *
file_new(const struct archive_priv *ap, const char *rel,
    const struct stat *st, char *src, size_t len)
{
	struct archive_file	*f;
	const char		*body;
	long long		 newest;

	f = xcalloc(1, sizeof(*f));
	atomic_init(&f->refs, 1);
	f->rel = xstrdup(rel);
	f->dev = st->st_dev;
	f->ino = st->st_ino;
	f->size = st->st_size;
	f->mtim = st->st_mtim;
	f->ctim = st->st_ctim;
	newest = ts_ns(&st->st_mtim);
	if (ts_ns(&st->st_ctim) > newest)
		newest = ts_ns(&st->st_ctim);
	f->trusted = newest < ap->t_scan - ARCHIVE_RACY_NS;
	if (frontmatter_parse(src, len, &f->m, &f->fe) == -1) {
		f->bad = true;
		memset(&f->m, 0, sizeof(f->m));
		free(src);
		return f;
	}
	f->src = src;
	f->len = len;
	f->gemtext = strncmp(rel, "posts/", 6) == 0 && archive_gmi_name(rel);
	if (!f->gemtext)		/* Hugo's templates are Markdown's */
		read_templates(f);
	len = f->len;
	body = f->src + f->m.body_off;
	body_heading_links(f);
	f->words = count_words(body, len - f->m.body_off);
	if (!f->gemtext && f->m.summary == NULL &&
	    strncmp(rel, "posts/", 6) == 0)
		f->summary = render_summary(body, len - f->m.body_off,
		    SUMMARY_MAX);
	if (strncmp(rel, "posts/", 6) == 0)
		post_file_keys(f);
	return f;
}

/*
 * Keep old, the previous snapshot's record of rel, because the file is
 * being written (held) or changed while it was read: one more
 * reference to it, or NULL (a new file, left out until it is whole).
 */
static struct archive_file *
keep_old(struct archive *a, struct archive_file *old, const char *rel)
{
	a->nheld++;
	if (old == NULL) {
		log_debug("%s: being written: left out until it is whole",
		    rel);
		return NULL;
	}
	log_debug("%s: being written: the version before stays", rel);
	atomic_fetch_add(&old->refs, 1);
	return old;
}

/*
 * name beneath dirfd (rel in messages) as a file record: the previous
 * snapshot's when the file is unchanged, or still being written, else
 * read and parsed now.  NULL when it is skipped (warned), or new and
 * not yet whole.  The record is borrowed: a's file list holds it, even
 * a broken one, so an unchanged broken file is not parsed again (its
 * warning is repeated: every snapshot logs its own).
 */
static struct archive_file *
get_file(struct archive *a, int dirfd, const char *name, const char *rel,
    int quiet_enoent)
{
	struct archive_priv	*ap = inner(a);
	struct archive_file	*f = NULL, *old = NULL;
	struct stat		 st;
	char			*src, why[160];
	size_t			 len = 0, i;
	int			 held, rv;

	if (stat_file(a, dirfd, name, rel, quiet_enoent, &st) == -1 ||
	    not_owned(a, rel, &st))
		return NULL;
	if (ap->full) {
		a->nskipped++;		/* warned once, below */
		return NULL;
	}
	if (ap->prev != NULL)
		old = index_get(&inner(ap->prev)->file_rel, rel);
	/* Half-written: what it was counts, not what it is for now. */
	if ((held = ap->held != NULL && ap->held(ap->held_arg, rel,
	    ARCHIVE_ASK_BEFORE))) {
		if (old == NULL)
			return keep_old(a, NULL, rel);
		st.st_size = old->size;
	}
	/* The size checks come first: a reused file counts all the same. */
	if ((unsigned long long)st.st_size > ap->max_file) {
		snprintf(why, sizeof(why), "larger than max_post_size (%zu "
		    "KiB), skipped", ap->max_file >> 10);
		warn_file(a, rel, 1, 1, why, 1);
		return NULL;
	}
	if ((size_t)st.st_size > ap->max_total - ap->total) {
		snprintf(why, sizeof(why), "max_archive_size (%zu MiB) "
		    "reached: this file and every one after it skipped",
		    ap->max_total >> 20);
		warn_file(a, rel, 1, 1, why, 1);
		ap->full = 1;
		return NULL;
	}
	ap->total += (size_t)st.st_size;
	if (held)
		f = keep_old(a, old, rel);
	else if (old != NULL && old->trusted && same_stat(old, &st)) {
		atomic_fetch_add(&old->refs, 1);
		f = old;
		a->nreused++;
	} else if ((rv = read_file(a, dirfd, name, rel, &st, &src,
	    &len)) == -1)
		return NULL;
	else if (rv == 1 || len == 0 || (ap->held != NULL &&
	    ap->held(ap->held_arg, rel, recent_left_ms(&st) > 0 ?
	    ARCHIVE_ASK_RECENT : ARCHIVE_ASK_READ))) {
		/*
		 * Changed while read, or a writer began meanwhile (or may
		 * have: its event not yet seen); or empty.
		 * An empty file is how one looks that is being rewritten:
		 * open(2) with O_TRUNC shows size 0 before the kernel queues
		 * the inotify event that tells of the writer (ext4 truncates
		 * first, and that can wait on its journal), so no watch can
		 * hold it yet.  It is never a post: what was stays, or
		 * nothing.
		 */
		if (rv == 0)
			free(src);
		if ((f = keep_old(a, old, rel)) == NULL)
			return NULL;
	} else {
		f = file_new(ap, rel, &st, src, len);
		a->nread++;
	}
	if (ap->nfiles % 64 == 0)
		ap->files = xreallocarray(ap->files, ap->nfiles + 64,
		    sizeof(*ap->files));
	ap->files[ap->nfiles++] = f;
	if (f->bad) {
		warn_file(a, rel, f->fe.line, f->fe.col, f->fe.msg, 1);
		return NULL;
	}
	if (f->m.nignored > 0) {
		snprintf(why, sizeof(why), "%s%s", f->m.ignored.msg,
		    f->m.nignored > 1 ? " (and more values below)" : "");
		warn_file(a, rel, f->m.ignored.line, f->m.ignored.col, why, 0);
	}
	for (i = 0; i < f->m.nwarns; i++)
		warn_file(a, rel, f->m.warns[i].line, f->m.warns[i].col,
		    f->m.warns[i].msg, 0);
	log_templates(a, f);
	return f;
}

/*
 * get_file() for a name of list_names("posts"): a bundle's index is
 * read beneath its folder, opened without following a link, so that a
 * folder swapped for a link after the listing leads nowhere.
 */
static struct archive_file *
get_post_file(struct archive *a, int pfd, const char *name, const char *rel)
{
	struct archive_file	*f;
	const char		*slash = strchr(name, '/');
	char			 dir[NAME_MAX + 1], why[160];
	int			 bfd;

	if (slash == NULL)
		return get_file(a, pfd, name, rel, 0);
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - name), name);
	if ((bfd = openat(pfd, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1) {
		snprintf(why, sizeof(why), "%s, skipped", strerror(errno));
		warn_file(a, rel, 1, 1, why, 1);
		return NULL;
	}
	if (ap_owned_dir(a, bfd, dir)) {
		close(bfd);
		return NULL;
	}
	f = get_file(a, bfd, slash + 1, rel, 0);
	close(bfd);
	return f;
}

/* ---- index.md ------------------------------------------------------- */

static void
load_index(struct archive *a, int dfd, const struct config *c)
{
	struct archive_file	*f;
	const struct meta	*m = NULL;

	if ((f = get_file(a, dfd, "index.md", "index.md", 1)) != NULL) {
		m = &f->m;
		a->index_src = f->src;
		a->index_len = f->len;
		a->index_body_off = m->body_off;
	}
	if (m != NULL && m->title)
		a->title = xstrdup(m->title);
	else if (c->site_title && *c->site_title)
		a->title = xstrdup(c->site_title);
	else if (f != NULL && f->heading != NULL)
		a->title = xstrdup(f->heading);
	if (a->title == NULL || *a->title == '\0') {
		free(a->title);
		a->title = xstrdup(c->hostname && *c->hostname ? c->hostname :
		    "capsule");
	}
	if (m != NULL && m->subtitle)
		a->subtitle = xstrdup(m->subtitle);
	else if (c->site_subtitle && *c->site_subtitle)
		a->subtitle = xstrdup(c->site_subtitle);
	if (m != NULL && m->author)
		a->author = xstrdup(m->author);
	else if (c->author && *c->author)
		a->author = xstrdup(c->author);
	if (m != NULL && m->lang)
		a->lang = xstrdup(m->lang);
	else
		a->lang = xstrdup(c->lang && *c->lang ? c->lang : "en");
}

/* ---- series/ -------------------------------------------------------- */

static struct series *
series_new(struct archive *a, char *slug, char *title)
{
	struct series	*s;

	s = xcalloc(1, sizeof(*s));
	s->slug = slug;
	s->title = title;
	a->series[a->nseries++] = s;	/* sized in archive_load() */
	index_put(&inner(a)->series_slug, s->slug, s);
	return s;
}

static void
load_series_files(struct archive *a, int dfd, char **names, size_t n)
{
	struct archive_file	*f;
	struct series		*s;
	char			*rel, *slug, *stem, why[256];
	size_t			 i;

	for (i = 0; i < n; i++) {
		rel = xasprintf("series/%s", names[i]);
		if ((f = get_file(a, dfd, names[i], rel, 0)) == NULL) {
			free(rel);
			continue;
		}
		stem = xstrndup(names[i], strlen(names[i]) - 3);
		slug = archive_slugify(stem);
		if (*slug == '\0' || f->m.draft ||
		    index_get(&inner(a)->series_slug, slug) != NULL) {
			if (*slug == '\0')
				warn_file(a, rel, 1, 1, "no usable characters "
				    "in the file name, skipped", 1);
			else if (!f->m.draft) {
				snprintf(why, sizeof(why), "another file "
				    "already has the series slug \"%s\", "
				    "skipped", slug);
				warn_file(a, rel, 1, 1, why, 1);
			}
			free(slug);
			free(stem);
			free(rel);
			continue;
		}
		s = series_new(a, slug, pick_title(f, stem));
		s->summary = xstrdup_null(f->m.summary);
		s->level = xstrdup_null(f->m.level);
		s->audience = xstrdup_null(f->m.audience);
		s->src = f->src;
		s->srclen = f->len;
		s->body_off = f->m.body_off;
		free(stem);
		free(rel);
	}
}

/* ---- posts/ --------------------------------------------------------- */

/* An undated draft takes the day its file last changed (UTC). */
static int
draft_date(const struct archive_file *f, struct date *d)
{
	struct tm	 tm;
	time_t		 t = f->mtim.tv_sec;
	const char	*errstr;
	char		 ymd[16];

	if (gmtime_r(&t, &tm) == NULL ||
	    strftime(ymd, sizeof(ymd), "%Y-%m-%d", &tm) != 10)
		return -1;
	return date_parse(ymd, 10, d, &errstr);
}

/* NULL when skipped (warned); a draft has p->draft set. */
static struct post *
load_post(struct archive *a, int pfd, const char *name)
{
	struct archive_priv	*ap = inner(a);
	struct archive_file	*f;
	const struct meta	*m;
	struct post		*p, *other;
	struct date		 fdate;
	const char		*errstr, *rel;
	char			 stem[NAME_MAX + 1], why[320];
	size_t			 i;
	int			 has_fdate, used;

	snprintf(why, sizeof(why), "posts/%s", name);
	if ((f = get_post_file(a, pfd, name, why)) == NULL)
		return NULL;
	rel = f->rel;
	m = &f->m;
	if (m->draft)
		log_debug("%s: draft: only /drafts/ shows it", rel);
	post_stem(name, stem, sizeof(stem));
	has_fdate = date_from_filename(stem, &fdate) == 0;
	if (!has_fdate && strlen(stem) == 10 &&
	    date_parse(stem, 10, &fdate, &errstr) == 0)
		has_fdate = 1;		/* "2024-01-02.md": the date is all */
	if (!m->has_date && !has_fdate && m->draft)
		has_fdate = draft_date(f, &fdate) == 0;	/* undated draft */
	if (!m->has_date && !has_fdate) {
		warn_file(a, rel, 1, 1, "no date (front matter or "
		    "YYYY-MM-DD- file name)", 1);
		return NULL;
	}

	p = xcalloc(1, sizeof(*p));
	p->path = f->rel;
	p->file = f;
	p->date = m->has_date ? m->date : fdate;
	p->updated = m->has_updated ? m->updated : p->date;
	p->slug = archive_file_slug(m->slug, stem, &used);
	if (m->slug != NULL && !used) {
		snprintf(why, sizeof(why), "slug \"%s\" has no usable "
		    "characters; using the file name", m->slug);
		warn_file(a, rel, 1, 1, why, 0);
	}
	if (*p->slug == '\0') {
		free(p->slug);
		p->slug = xstrdup(p->date.ymd);
	}
	/*
	 * Drafts are in no index: their slugs are theirs alone.  Two
	 * posts with one slug are both kept: files are loaded in name
	 * order, so the first keeps it and the other is told apart by its
	 * date ("x-2024-01-12"), then by a number ("x-2024-01-12-2"), the
	 * same on every load.
	 */
	if ((other = m->draft ? archive_draft(a, p->slug) :
	    index_put(&ap->post_slug, p->slug, p)) != p && other != NULL) {
		char	*alt = xasprintf("%s-%s", p->slug, p->date.ymd);
		size_t	 n = 2;

		while (index_get(&ap->post_slug, alt) != NULL ||
		    archive_draft(a, alt) != NULL) {
			free(alt);
			alt = xasprintf("%s-%s-%zu", p->slug, p->date.ymd,
			    n++);
		}
		snprintf(why, sizeof(why), "slug \"%s\" already used by %s; "
		    "this post is /posts/%s", p->slug, other->path, alt);
		warn_file(a, rel, 1, 1, why, 0);
		free(p->slug);
		p->slug = alt;
		if (!m->draft)
			index_put(&ap->post_slug, p->slug, p);
	}
	if (!m->draft) {
		index_put(&ap->post_file, p->path + strlen("posts/"), p);
		index_put(&ap->post_base, f->base, p);
	}

	p->src = f->src;
	p->srclen = f->len;
	p->body_off = m->body_off;
	p->body_line = m->body_line;
	/* Borrowed from the file record, like every string but the slug. */
	p->title = m->title ? m->title : f->heading ? f->heading : f->base;
	p->ntags = m->ntags;
	p->tagnames = xcalloc(p->ntags, sizeof(*p->tagnames));
	for (i = 0; i < p->ntags; i++)
		p->tagnames[i] = m->tags[i];
	p->tags = xcalloc(p->ntags, sizeof(*p->tags));
	p->series_name = m->series;
	p->part = m->part;
	p->summary = m->summary ? m->summary : f->summary;
	p->lang = m->lang;
	p->author = m->author;
	p->featured = m->featured;
	p->draft = m->draft;
	p->gemtext = f->gemtext;
	p->bundle = strchr(name, '/') != NULL;
	p->words = f->words;
	p->links = f->links;
	p->nlinks = f->nlinks;
	p->reading_min = (p->words + WORDS_PER_MIN / 2) / WORDS_PER_MIN;
	if (p->reading_min == 0)
		p->reading_min = 1;
	return p;
}

/* Newest first; the slug breaks ties so the order is total. */
static int
cmp_post_new(const void *x, const void *y)
{
	const struct post	*a = *(struct post *const *)x;
	const struct post	*b = *(struct post *const *)y;

	if (a->date.t != b->date.t)
		return a->date.t < b->date.t ? 1 : -1;
	return strcmp(a->slug, b->slug);
}

/* Parts: numbered ones first by number, then by date, then slug. */
static int
cmp_part(const void *x, const void *y)
{
	const struct post	*a = *(struct post *const *)x;
	const struct post	*b = *(struct post *const *)y;

	if ((a->part != 0) != (b->part != 0))
		return a->part != 0 ? -1 : 1;
	if (a->part != b->part)
		return a->part < b->part ? -1 : 1;
	if (a->date.t != b->date.t)
		return a->date.t < b->date.t ? -1 : 1;
	return strcmp(a->slug, b->slug);
}

static int
cmp_series(const void *x, const void *y)
{
	const struct series	*a = *(struct series *const *)x;
	const struct series	*b = *(struct series *const *)y;
	int			 r;

	if ((r = strcasecmp(a->title, b->title)) != 0)
		return r;
	return strcmp(a->slug, b->slug);
}

static int
cmp_tag(const void *x, const void *y)
{
	const struct tag	*a = *(struct tag *const *)x;
	const struct tag	*b = *(struct tag *const *)y;

	if (a->nposts != b->nposts)
		return a->nposts < b->nposts ? 1 : -1;
	return strcmp(a->slug, b->slug);
}

static int
cmp_doc(const void *x, const void *y)
{
	return strcmp((*(struct doc *const *)x)->name,
	    (*(struct doc *const *)y)->name);
}

/*
 * Attach posts to series, oldest post first so that a series without a
 * file is named as its first post wrote it; then order the parts.
 */
static void
link_series(struct archive *a)
{
	struct series	*s;
	struct post	*p;
	char		*slug;
	size_t		 i, k;

	for (i = a->nposts; i-- > 0;) {
		p = a->posts[i];
		if (p->series_name == NULL)
			continue;
		slug = archive_slugify(p->series_name);
		if (*slug == '\0') {
			free(slug);
			continue;
		}
		if ((s = index_get(&inner(a)->series_slug, slug)) == NULL)
			s = series_new(a, slug, xstrdup(p->series_name));
		else
			free(slug);
		s->parts = xreallocarray(s->parts, s->nparts + 1,
		    sizeof(*s->parts));
		s->parts[s->nparts++] = p;
		p->series = s;
	}
	for (i = 0; i < a->nseries; i++) {
		s = a->series[i];
		if (s->nparts > 1)
			qsort(s->parts, s->nparts, sizeof(*s->parts),
			    cmp_part);
		for (k = 0; k < s->nparts; k++) {
			p = s->parts[k];
			p->series_pos = k + 1;
			p->prev = k > 0 ? s->parts[k - 1] : NULL;
			p->next = k + 1 < s->nparts ? s->parts[k + 1] : NULL;
			s->reading_min += p->reading_min;
		}
	}
	if (a->nseries > 1)
		qsort(a->series, a->nseries, sizeof(*a->series), cmp_series);
}

/* Tag grouping state while link_tags() runs. */
struct tagger {
	struct index	 bykey;		/* tag_key() -> tag; keys borrowed */
};

/*
 * The tag that name (written in post p) belongs to, made on first
 * sight; NULL when the name has nothing to make a slug of.
 */
static struct tag *
tag_for(struct archive *a, struct tagger *tg, const struct post *p,
    const char *name, const char *key)
{
	struct archive_priv	*ap = inner(a);
	struct tag		*t, *o;
	char			*slug, *alt = NULL, why[512];
	size_t			 sfx;

	if ((t = index_get(&tg->bykey, key)) != NULL)
		return t;
	slug = archive_slugify(name);
	if (*slug == '\0') {
		free(slug);
		return NULL;
	}
	/* Another name already has this slug: "cafe" after "Café". */
	if ((o = index_get(&ap->tag_slug, slug)) != NULL) {
		sfx = 2;
		do {
			free(alt);
			alt = xasprintf("%s-%zu", slug, sfx++);
		} while (index_get(&ap->tag_slug, alt) != NULL);
		snprintf(why, sizeof(why), "tags \"%s\" and \"%s\" both "
		    "make the slug \"%s\"; using \"%s\"", o->name, name, slug,
		    alt);
		warn_file(a, p->path, 1, 1, why, 0);
		free(slug);
		slug = alt;
	}
	t = xcalloc(1, sizeof(*t));
	t->slug = slug;
	t->name = xstrdup(name);
	index_put(&ap->tag_slug, t->slug, t);
	index_put(&tg->bykey, key, t);	/* the file record's key */
	a->tags[a->ntags++] = t;
	return t;
}

/*
 * Group tag names by tag_key() ("Small Web", "small-web", "SMALL_WEB"
 * are one tag), oldest post first, so a tag keeps the display form it
 * was first written with.  Names whose keys differ but slugify alike
 * ("c++" is safe: it is "c-plus-plus"; "Café" and "cafe" are not) are
 * distinct tags, the later one with a "-2" suffix, and a warning.
 */
static void
link_tags(struct archive *a)
{
	struct tagger	 tg;
	struct tag	*t;
	struct post	*p;
	size_t		 i, j, k, n, total = 0;

	for (i = 0; i < a->nposts; i++)
		total += a->posts[i]->ntags;
	index_init(&tg.bykey, total);
	index_init(&inner(a)->tag_slug, total);
	a->tags = xcalloc(total, sizeof(*a->tags));

	for (i = a->nposts; i-- > 0;) {
		p = a->posts[i];
		for (j = 0, k = 0; j < p->ntags; j++) {
			/* Keys line up with the names until compacted. */
			t = tag_for(a, &tg, p, p->tagnames[j],
			    p->file->tagkeys[j]);
			for (n = 0; t != NULL && n < k; n++)
				if (p->tags[n] == t)
					t = NULL;	/* twice in one post */
			if (t == NULL)
				continue;	/* the name is borrowed */
			p->tagnames[k] = p->tagnames[j];
			p->tags[k++] = t;
			t->nposts++;
		}
		p->ntags = k;
	}
	for (i = 0; i < a->ntags; i++) {
		a->tags[i]->posts = xcalloc(a->tags[i]->nposts,
		    sizeof(struct post *));
		a->tags[i]->nposts = 0;
	}
	for (i = 0; i < a->nposts; i++) {		/* newest first */
		p = a->posts[i];
		for (j = 0; j < p->ntags; j++)
			p->tags[j]->posts[p->tags[j]->nposts++] = p;
	}
	if (a->ntags > 1)
		qsort(a->tags, a->ntags, sizeof(*a->tags), cmp_tag);
	index_free(&tg.bykey);
}

static void
load_posts(struct archive *a, int dfd)
{
	struct archive_priv	*ap = inner(a);
	struct post		*p;
	char			**names;
	size_t			 n, i;
	int			 pfd;

	pfd = list_names(a, dfd, "posts", 1, &names, &n);
	index_init(&ap->post_slug, n);
	index_init(&ap->post_file, n);
	index_init(&ap->post_base, n);
	a->posts = xcalloc(n, sizeof(*a->posts));
	a->drafts = xcalloc(n, sizeof(*a->drafts));
	for (i = 0; i < n; i++)
		if ((p = load_post(a, pfd, names[i])) == NULL)
			continue;
		else if (p->draft)
			a->drafts[a->ndrafts++] = p;
		else
			a->posts[a->nposts++] = p;
	if (a->nposts > 1)
		qsort(a->posts, a->nposts, sizeof(*a->posts), cmp_post_new);
	if (a->ndrafts > 1)
		qsort(a->drafts, a->ndrafts, sizeof(*a->drafts), cmp_post_new);
	free_names(names, n);
	if (pfd != -1)
		close(pfd);
}

/* ---- pages/ --------------------------------------------------------- */

static void
load_pages(struct archive *a, int dfd)
{
	struct archive_file *f;
	struct doc	*d;
	char		**names, *rel, *name;
	size_t		 n, i;
	int		 fd;

	fd = list_names(a, dfd, "pages", 0, &names, &n);
	index_init(&inner(a)->doc_name, n);
	a->docs = xcalloc(n, sizeof(*a->docs));
	for (i = 0; i < n; i++) {
		rel = xasprintf("pages/%s", names[i]);
		name = xstrndup(names[i], strlen(names[i]) - 3);
		/* A name the router answers itself (core/layout.h). */
		if (layout_reserved(name)) {
			warn_file(a, rel, 1, 1, "the name is one of the "
			    "server's own paths, skipped", 1);
			free(name);
			free(rel);
			continue;
		}
		f = get_file(a, fd, names[i], rel, 0);
		free(rel);
		if (f == NULL || f->m.draft) {
			free(name);
			continue;
		}
		d = xcalloc(1, sizeof(*d));
		d->name = name;
		d->path = f->rel;
		d->file = f;
		d->title = pick_title(f, name);
		d->lang = xstrdup_null(f->m.lang);
		d->src = f->src;
		d->srclen = f->len;
		d->body_off = f->m.body_off;
		d->links = f->links;
		d->nlinks = f->nlinks;
		a->docs[a->ndocs++] = d;
		index_put(&inner(a)->doc_name, d->name, d);
	}
	/* Sorted by name already: list_names() sorts "x.md" the same way. */
	if (a->ndocs > 1)
		qsort(a->docs, a->ndocs, sizeof(*a->docs), cmp_doc);
	free_names(names, n);
	if (fd != -1)
		close(fd);
}

/* ---- the snapshot --------------------------------------------------- */

/* Ids, once every array has its final order: see archive.h. */
static void
number(struct archive *a)
{
	size_t	 i;

	for (i = 0; i < a->nposts; i++)
		a->posts[i]->id = i;
	for (i = 0; i < a->ndrafts; i++)
		a->drafts[i]->id = i;
	for (i = 0; i < a->nseries; i++)
		a->series[i]->id = i;
	for (i = 0; i < a->ntags; i++)
		a->tags[i]->id = i;
	for (i = 0; i < a->ndocs; i++)
		a->docs[i]->id = i;
}

struct archive *
archive_load(const struct config *c)
{
	return archive_reload_held(c, NULL, NULL, NULL);
}

struct archive *
archive_reload(const struct config *c, const struct archive *prev)
{
	return archive_reload_held(c, prev, NULL, NULL);
}

struct archive *
archive_reload_held(const struct config *c, const struct archive *prev,
    archive_held_fn held, void *held_arg)
{
	struct archive_priv	*ap;
	struct archive		*a;
	struct timespec		 now;
	struct stat		 st;
	char			**names, *real;
	size_t			 n, i;
	int			 dfd, sfd;

	/* A user's capsule is no link (core/userdir.h), and stays the user's. */
	if ((dfd = open(c->capsule_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC |
	    (c->owned ? O_NOFOLLOW : 0))) == -1) {
		log_warn("%s", c->capsule_dir);
		return NULL;
	}
	if (c->owned && (fstat(dfd, &st) == -1 ||
	    !userdir_owned(&st, (uid_t)c->owner_uid))) {
		log_warnx("%s: no longer the user's alone, not loaded",
		    c->capsule_dir);
		close(dfd);
		return NULL;
	}
	ap = xcalloc(1, sizeof(*ap));
	a = &ap->pub;
	atomic_init(&a->refs, 1);
	if ((real = realpath(c->capsule_dir, NULL)) != NULL) {
		a->dir = xstrdup(real);
		free(real);
	} else
		a->dir = xstrdup(c->capsule_dir);
	if (c->nlink_aliases > 0) {
		a->link_aliases = xreallocarray(NULL, c->nlink_aliases,
		    sizeof(*a->link_aliases));
		for (i = 0; i < c->nlink_aliases; i++)
			a->link_aliases[i] = xstrdup(c->link_aliases[i]);
		a->nlink_aliases = c->nlink_aliases;
	}
	a->web_url = xstrdup_null(c->web_url);
	a->hostname = xstrdup_null(c->hostname);
	a->files_links = c->follow_symlinks;
	a->files_hardlinks = c->files_hardlinks != 0;
	ap->owned = c->owned;
	ap->owner = (uid_t)c->owner_uid;
	ap->max_file = c->max_post_size > 0 ? c->max_post_size :
	    ARCHIVE_MAX_FILE;
	ap->max_total = c->max_archive_size > 0 ? c->max_archive_size :
	    (size_t)1 << 30;
	clock_gettime(CLOCK_REALTIME, &now);
	ap->t_scan = ts_ns(&now);
	/* Another capsule shares nothing with this one. */
	if (prev != NULL && strcmp(prev->dir, a->dir) == 0)
		ap->prev = prev;
	ap->held = held;
	ap->held_arg = held_arg;

	load_index(a, dfd, c);

	sfd = list_names(a, dfd, "series", 0, &names, &n);
	load_posts(a, dfd);
	/* Series come from files and from posts: n + nposts at most. */
	index_init(&ap->series_slug, n + a->nposts);
	a->series = xcalloc(n + a->nposts, sizeof(*a->series));
	load_series_files(a, sfd, names, n);
	free_names(names, n);
	if (sfd != -1)
		close(sfd);
	link_series(a);
	link_tags(a);
	load_pages(a, dfd);
	close(dfd);
	number(a);

	/* The next snapshot finds its unchanged files here. */
	index_init(&ap->file_rel, ap->nfiles);
	for (i = 0; i < ap->nfiles; i++)
		index_put(&ap->file_rel, ap->files[i]->rel, ap->files[i]);
	ap->prev = NULL;
	ap->held = NULL;
	return a;
}

void
archive_ref(struct archive *a)
{
	atomic_fetch_add(&a->refs, 1);
}

void
archive_unref(struct archive *a)
{
	struct archive_priv	*ap;
	struct post		*p;
	struct series		*s;
	struct tag		*t;
	struct doc		*d;
	size_t			 i;

	if (a == NULL || atomic_fetch_sub(&a->refs, 1) != 1)
		return;
	ap = inner(a);
	for (i = 0; i < a->nposts + a->ndrafts; i++) {
		p = i < a->nposts ? a->posts[i] : a->drafts[i - a->nposts];
		free(p->slug);		/* the rest borrows from p->file */
		free(p->tagnames);
		free(p->tags);
		free(p);
	}
	free(a->posts);
	free(a->drafts);
	for (i = 0; i < a->nseries; i++) {
		s = a->series[i];
		free(s->slug);
		free(s->title);
		free(s->summary);
		free(s->level);
		free(s->audience);
		free(s->parts);
		free(s);
	}
	free(a->series);
	for (i = 0; i < a->ntags; i++) {
		t = a->tags[i];
		free(t->slug);
		free(t->name);
		free(t->posts);
		free(t);
	}
	free(a->tags);
	for (i = 0; i < a->ndocs; i++) {
		d = a->docs[i];
		free(d->name);
		free(d->title);
		free(d->lang);
		free(d);
	}
	free(a->docs);
	for (i = 0; i < a->nlink_aliases; i++)
		free(a->link_aliases[i]);
	free(a->link_aliases);
	free(a->web_url);
	free(a->hostname);
	free(a->dir);
	free(a->title);
	free(a->subtitle);
	free(a->author);
	free(a->lang);
	for (i = 0; i < ap->nfiles; i++)
		file_unref(ap->files[i]);
	free(ap->files);
	index_free(&ap->file_rel);
	index_free(&ap->post_slug);
	index_free(&ap->post_file);
	index_free(&ap->post_base);
	index_free(&ap->series_slug);
	index_free(&ap->tag_slug);
	index_free(&ap->doc_name);
	free(ap);
}

struct post *
archive_post(const struct archive *a, const char *slug)
{
	return index_get(&inner(a)->post_slug, slug);
}

struct post *
archive_draft(const struct archive *a, const char *slug)
{
	size_t	 i;

	for (i = 0; i < a->ndrafts; i++)
		if (a->drafts[i] != NULL && strcmp(a->drafts[i]->slug, slug) == 0)
			return a->drafts[i];
	return NULL;
}

struct post *
archive_post_file(const struct archive *a, const char *name)
{
	return index_get(&inner(a)->post_file, name);
}

struct post *
archive_post_base(const struct archive *a, const char *base)
{
	return index_get(&inner(a)->post_base, base);
}

struct series *
archive_series(const struct archive *a, const char *slug)
{
	return index_get(&inner(a)->series_slug, slug);
}

struct tag *
archive_tag(const struct archive *a, const char *slug)
{
	return index_get(&inner(a)->tag_slug, slug);
}

struct doc *
archive_doc(const struct archive *a, const char *name)
{
	return index_get(&inner(a)->doc_name, name);
}

int
archive_hidden_name(const char *path)
{
	return path[0] == '.' || strstr(path, "/.") != NULL;
}

/*
 * What refuses the regular file st once it is open, as an errno, or 0:
 * a second name for it may be one from anywhere on the file system (a
 * hard link cannot be told from the original), and in a user capsule
 * it must be its owner's alone (core/userdir.h).
 */
static int
file_refused(const struct archive *a, const struct stat *st,
    bool hardlinks)
{
	const struct archive_priv *ap = inner(a);

	if (st->st_nlink > 1 && !hardlinks)
		return EMLINK;
	if (ap->owned && !userdir_owned(st, ap->owner))
		return EPERM;
	return 0;
}

int
archive_files_open(const struct archive *a, const char *rel, int links,
    bool hardlinks, struct stat *st, enum fsafe_kind *kind)
{
	int	 fd, why;

	if (archive_hidden_name(rel)) {
		errno = ENOENT;
		return -1;
	}
	if ((fd = fsafe_open(a->dir, rel, (enum fsafe_links)links, st,
	    kind)) == -1)
		return -1;
	/* A directory has a link per subdirectory; only its owner counts. */
	why = *kind == FSAFE_FILE ? file_refused(a, st, hardlinks) :
	    file_refused(a, st, true);
	if (why != 0) {
		close(fd);
		errno = why;
		return -1;
	}
	return fd;
}

int
archive_bundle_open(const struct archive *a, const struct post *p,
    const char *name, bool hardlinks, struct stat *st)
{
	enum fsafe_kind	 kind;
	const char	*slash;
	char		*rel;
	int		 fd, why;

	if (!p->bundle || (slash = strrchr(p->path, '/')) == NULL ||
	    *name == '\0' || strcmp(name, slash + 1) == 0) {
		errno = ENOENT;
		return -1;
	}
	rel = xasprintf("%.*s/%s", (int)(slash - p->path), p->path, name);
	fd = archive_hidden_name(rel) ? -1 : fsafe_open(a->dir, rel,
	    FSAFE_LINKS_NONE, st, &kind);
	free(rel);
	if (fd == -1) {
		errno = ENOENT;
		return -1;
	}
	why = kind != FSAFE_FILE ? ENOENT : file_refused(a, st, hardlinks);
	if (why != 0) {
		close(fd);
		errno = why;
		return -1;
	}
	return fd;
}
