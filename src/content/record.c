/*
 * record.c -- file records: a capsule's Markdown (or gemtext) file read
 * whole, once it has settled, and what is derived from it alone.
 *
 * record_get() gives the record of one file for the snapshot being
 * built: the previous snapshot's when the file's stat (device, inode,
 * size, mtime, ctime) is unchanged (and, for a bundle's index whose
 * shortcodes read its folder, the folder's file list), else a new one,
 * read with one
 * pread(2) loop into an exact-size buffer and parsed: front matter
 * (frontmatter.c), an MDX or HTML body made Markdown (markdown/mdx.c,
 * markdown/htmlbody.c),
 * Hugo-style templates rewritten (markdown/template.c),
 * the first heading, the word count, the links (markdown/scan.c,
 * markdown/gemtext.c) and the summary.  A file is opened beneath a
 * directory fd with O_NOFOLLOW and must be a regular file; in a user
 * capsule it must be its owner's alone (core/userdir.h).  A bundle's
 * index is shown its folder's files as the server would serve them
 * (core/dirwalk.h walks the folder, core/capfile.h and content/files.c
 * say which files).
 *
 * Settled reading: a file being written, found empty, or changing while
 * it is read keeps the record the previous snapshot has of it (a new one
 * is left out), so no half-written post is published; with a watch
 * (archive_reload_held()), a file modified moments ago is let age first.
 *
 * A record is immutable once made and shared by every snapshot that
 * holds it, each with one reference (record_unref()).  Knows the file
 * system and struct meta; nothing of the posts, series and tags made
 * from records, nor of the snapshot: it reads through the struct
 * archive_scan content/archive.c lends it, and tells that of warnings
 * and asks it whether a file is being written.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "content/archive.h"
#include "content/archive_int.h"
#include "content/frontmatter.h"
#include "content/slug.h"
#include "core/buf.h"
#include "core/capfile.h"
#include "core/date.h"
#include "core/dirwalk.h"
#include "core/hash.h"
#include "core/log.h"
#include "core/userdir.h"
#include "core/util.h"
#include "markdown/gemtext.h"
#include "markdown/htmlbody.h"
#include "markdown/mdx.h"
#include "markdown/render.h"
#include "markdown/scan.h"
#include "markdown/template.h"

#define SUMMARY_MAX		300	/* code points of a derived summary */
/*
 * A file changed less than this before a scan may change again within
 * the same timestamp tick (a jiffy on Linux, a second or two on some
 * file systems) without its stat changing: it is read again next time.
 */
#define ARCHIVE_RACY_NS		(2 * 1000000000LL)
/* Reads of a file that keeps changing under them before it is left. */
#define ARCHIVE_READ_TRIES	3

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

/* Is rel a file of posts/ ("posts/x.md", "posts/x/index.md")? */
static int
posts_file(const char *rel)
{
	return strncmp(rel, CAPFILE_POSTS "/", sizeof(CAPFILE_POSTS)) == 0;
}

/*
 * In a user capsule, a file or folder that is another's, or that group
 * or others may write, is not read (core/userdir.h): 1, warned.
 */
static int
not_owned(struct archive_scan *s, const char *rel, const struct stat *st)
{
	char	 why[160], *path;

	if (!s->owned || userdir_owned(st, s->owner))
		return 0;
	snprintf(why, sizeof(why), "not owned by UID %ju alone (owner %ju, "
	    "mode %04o), skipped", (uintmax_t)s->owner,
	    (uintmax_t)st->st_uid, (unsigned)(st->st_mode & 07777));
	/* The whole path: the operator reads it among many capsules'. */
	path = xasprintf("%s/%s", s->dir, rel);
	scan_warn(s, path, 1, 1, why, 1);
	free(path);
	return 1;
}

/* not_owned() of the folder at fd (rel names it); 1 on error too. */
int
record_dir_not_owned(struct archive_scan *s, int fd, const char *rel)
{
	struct stat	 st;

	if (!s->owned)
		return 0;
	return fstat(fd, &st) == -1 || not_owned(s, rel, &st);
}


/*
 * Stat name beneath dirfd into *st.  Only a regular file passes;
 * anything else is a warning and -1.  rel names the file in messages.
 * Absent files are -1 with no warning when quiet_enoent.
 */
static int
stat_file(struct archive_scan *s, int dirfd, const char *name,
    const char *rel, int quiet_enoent, struct stat *st)
{
	char	 why[160];

	if (fstatat(dirfd, name, st, AT_SYMLINK_NOFOLLOW) == -1) {
		if (errno == ENOENT && quiet_enoent)
			return -1;
		snprintf(why, sizeof(why), "%s, skipped", strerror(errno));
		scan_warn(s, rel, 1, 1, why, 1);
		return -1;
	}
	if (S_ISLNK(st->st_mode)) {
		scan_warn(s, rel, 1, 1, "symbolic link, skipped", 1);
		return -1;
	}
	if (!S_ISREG(st->st_mode)) {
		scan_warn(s, rel, 1, 1, "not a regular file, skipped", 1);
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
 * and *st from the open file.  A warning and -1 when it cannot be read or
 * is no longer a regular file.  The file is stat'ed before and after each
 * read: a writer may be busy with it (docs/operating.md, "Live editing"),
 * so a size, mtime or ctime that moved under the read means the bytes may
 * be half old, half new.  Such a read is tried again, and after
 * ARCHIVE_READ_TRIES of them the answer is 1, nothing read: the caller
 * keeps the version it had.  With a watch, a file modified moments ago is
 * let age first (let_age()).
 */
static int
read_file(struct archive_scan *s, int dirfd, const char *name,
    const char *rel, struct stat *st, char **srcp, size_t *lenp)
{
	struct stat	 after;
	char		*src, why[160];
	size_t		 len, got, max = s->max_file;
	ssize_t		 n;
	int		 fd, tries;

	if ((fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC)) == -1) {
		snprintf(why, sizeof(why), "%s, skipped", strerror(errno));
		scan_warn(s, rel, 1, 1, why, 1);
		return -1;
	}
	/* It may have been swapped for something else since fstatat. */
	if (fstat(fd, st) == -1 || !S_ISREG(st->st_mode)) {
		close(fd);
		scan_warn(s, rel, 1, 1, "not a regular file, skipped", 1);
		return -1;
	}
	if (not_owned(s, rel, st)) {
		close(fd);
		return -1;
	}
	if (s->held != NULL)
		let_age(fd, st);
	for (tries = 1;; tries++) {
		if ((unsigned long long)st->st_size > max) {
			close(fd);
			snprintf(why, sizeof(why), "larger than max_post_size "
			    "(%zu KiB), skipped", max >> 10);
			scan_warn(s, rel, 1, 1, why, 1);
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
				scan_warn(s, rel, 1, 1, why, 1);
				return -1;
			}
			if (n == 0)
				break;		/* it shrank */
		}
		if (fstat(fd, &after) == -1 || !S_ISREG(after.st_mode)) {
			close(fd);
			free(src);
			scan_warn(s, rel, 1, 1, "cannot stat it again, "
			    "skipped", 1);
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

static int
same_stat(const struct archive_file *f, const struct stat *st)
{
	return f->dev == st->st_dev && f->ino == st->st_ino &&
	    f->size == st->st_size &&
	    archive_ns(&f->mtim) == archive_ns(&st->st_mtim) &&
	    archive_ns(&f->ctim) == archive_ns(&st->st_ctim);
}

void
record_unref(struct archive_file *f)
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
	size_t		 i, n;

	slug_post_stem(f->rel + sizeof(CAPFILE_POSTS), stem, sizeof(stem));
	n = date_from_filename(stem, &d);
	f->base = xstrdup(stem[n] != '\0' ? stem + n : stem);
	f->tagkeys = xcalloc(f->m.ntags, sizeof(*f->tagkeys));
	for (i = 0; i < f->m.ntags; i++)
		f->tagkeys[i] = slug_tag_key(f->m.tags[i]);
}

#define BUNDLE_MAX_FILES	1024	/* of a bundle, shown to its shortcodes */
/* Entries of a bundle's folders read for them, at most. */
#define BUNDLE_MAX_ENTRIES	(4 * BUNDLE_MAX_FILES)

/* What bundle_list() gathers. */
struct bundle_list {
	const struct archive_scan *s;	/* the rules */
	char		**names;	/* "img/a.png"; owned */
	size_t		 n;
};

/*
 * A file of the bundle's folder, as the server would serve it
 * (archive_bundle_open(), content/files.c): a resource of the folder
 * (core/capfile.h: never its post), a regular file, refused by none of
 * files.c's rules (a second hard link, in a user capsule another's).
 */
static enum dirwalk_answer
bundle_entry(void *arg, struct dirwalk_entry *e)
{
	struct bundle_list	*l = arg;
	const struct stat	*st;
	enum capfile_kind	 k;

	if (e->event != DIRWALK_ENTRY)
		return DIRWALK_NEXT;
	k = capfile_entry(e->depth == 1 ? CAPFILE_BUNDLE_DIR :
	    CAPFILE_FILES_DIR, e->name, e->type == DIRWALK_DIR, NULL);
	if (k == CAPFILE_FILES_DIR && e->type == DIRWALK_DIR)
		return DIRWALK_ENTER;
	if (k != CAPFILE_RESOURCE || e->type != DIRWALK_FILE ||
	    (st = dirwalk_stat(e)) == NULL || !S_ISREG(st->st_mode) ||
	    files_refused(st, l->s->hardlinks, l->s->owned, l->s->owner) != 0)
		return DIRWALK_NEXT;
	if (l->n % 32 == 0)
		l->names = xreallocarray(l->names, l->n + 32,
		    sizeof(*l->names));
	l->names[l->n++] = xstrdup(e->path);
	return l->n < BUNDLE_MAX_FILES ? DIRWALK_NEXT : DIRWALK_STOP;
}

static int
cmp_str(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* FNV-1a of names[0..n), each with its NUL: the bundle's list. */
static uint64_t
list_hash(char *const *names, size_t n)
{
	uint64_t	 h = HASH_FNV_BASIS;
	size_t		 i;
	const char	*p;

	for (i = 0; i < n; i++)
		for (p = names[i];; p++) {
			h = (h ^ (unsigned char)*p) * HASH_FNV_PRIME;
			if (*p == '\0')
				break;
		}
	return h;
}

/*
 * The bundle folder open at fd, by s's rules: its file list, sorted,
 * and its hash.
 */
static uint64_t
bundle_files(const struct archive_scan *s, int fd, char ***names,
    size_t *n)
{
	struct bundle_list	 l = { s, NULL, 0 };
	struct dirwalk		 w = {
		.max_depth = CAPFILE_BUNDLE_DEPTH,
		.max_entries = BUNDLE_MAX_ENTRIES,
		.sorted = true,
		.fn = bundle_entry,
		.arg = &l,
	};

	(void)dirwalk_run(&w, fd, "", NULL);
	if (l.n > 1)
		qsort(l.names, l.n, sizeof(*l.names), cmp_str);
	*names = l.names;
	*n = l.n;
	return list_hash(l.names, l.n);
}

static void
names_free(char **names, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

size_t
archive_bundle_names(const char *dir, bool hardlinks, char ***names)
{
	struct archive_scan	 s;
	size_t			 n = 0;
	int			 fd;

	*names = NULL;
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return 0;
	memset(&s, 0, sizeof(s));
	s.hardlinks = hardlinks;
	(void)bundle_files(&s, fd, names, &n);
	close(fd);
	return n;
}

void
archive_bundle_names_free(char **names, size_t n)
{
	names_free(names, n);
}

/*
 * Does old's rewrite still hold for the bundle folder at dirfd: no
 * shortcode of it read the list, or the list is the same?  One
 * readdir of the folder per snapshot, for such indexes only.
 */
static int
same_bundle(const struct archive_scan *s, const struct archive_file *old,
    int dirfd)
{
	char	**names;
	size_t	  n;
	uint64_t  h;

	if (!old->bundled)
		return 1;
	h = bundle_files(s, dirfd, &names, &n);
	names_free(names, n);
	return h == old->bundle_hash;
}

/*
 * name[0..len) (a construct's argument, not decoded: a file name) after
 * the folder dir of the capsule, its dot segments resolved, into b:
 * 0, or -1 when it climbs out of the capsule or a segment is hidden.
 */
static int
probe_path(struct buf *b, const char *dir, size_t dirlen, const char *name,
    size_t len)
{
	const char	*seg, *end = name + len, *slash;
	size_t		 n, cut;

	buf_truncate(b, 0);
	buf_add(b, dir, dirlen);
	for (seg = name; seg < end; seg = slash + 1) {
		if ((slash = memchr(seg, '/', (size_t)(end - seg))) == NULL)
			slash = end;
		n = (size_t)(slash - seg);
		if (n == 0 || (n == 1 && seg[0] == '.'))
			continue;
		if (n == 2 && seg[0] == '.' && seg[1] == '.') {
			if (b->len == 0)
				return -1;
			for (cut = b->len; cut > 0 && b->data[cut - 1] != '/';
			    cut--)
				;
			buf_truncate(b, cut > 0 ? cut - 1 : 0);
			continue;
		}
		if (seg[0] == '.' || memchr(seg, '\0', n) != NULL)
			return -1;
		if (b->len > 0)
			buf_addc(b, '/');
		buf_add(b, seg, n);
	}
	buf_addc(b, '\0');
	return b->len > 1 ? 0 : -1;
}

/* Is the capsule's path rel (b's) a regular file? */
static int
probe_file(struct archive_probe *p, const struct buf *b)
{
	struct stat	 st;

	if (p->capfd == -1 && (p->capfd = open(p->dir, O_RDONLY |
	    O_DIRECTORY | O_CLOEXEC)) == -1)
		return 0;
	return fstatat(p->capfd, b->data, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISREG(st.st_mode);
}

static enum template_where
probe_where(void *arg, const char *name, size_t len)
{
	struct archive_probe	*p = arg;
	struct buf		 b = BUF_INIT;
	enum template_where	 w = TEMPLATE_NOWHERE;
	const char		*slash = strrchr(p->rel, '/');
	size_t			 dirlen = slash != NULL ?
				    (size_t)(slash - p->rel) : 0, n;
	char			*adir, asset[NAME_MAX + 1];

	p->asked = true;
	if (name[0] != '/') {
		/* Beside the file, then in its asset folder. */
		if (probe_path(&b, p->rel, dirlen, name, len) == 0 &&
		    probe_file(p, &b))
			w = TEMPLATE_HERE;
		for (n = 0; w == TEMPLATE_NOWHERE && capfile_asset_dir(n,
		    p->rel + dirlen + (slash != NULL), asset, sizeof(asset));
		    n++) {
			adir = xasprintf("%.*s%s%s", (int)dirlen, p->rel,
			    dirlen > 0 ? "/" : "", asset);
			if (probe_path(&b, adir, strlen(adir), name, len) ==
			    0 && probe_file(p, &b))
				w = TEMPLATE_HERE;
			free(adir);
		}
	}
	/* From the site's root: the capsule's top, then files/. */
	if (w == TEMPLATE_NOWHERE && ((probe_path(&b, "", 0, name, len) == 0 &&
	    probe_file(p, &b)) || (probe_path(&b, CAPFILE_FILES,
	    sizeof(CAPFILE_FILES) - 1, name, len) == 0 && probe_file(p, &b))))
		w = TEMPLATE_SITE;
	buf_free(&b);
	return w;
}

void
archive_probe_begin(struct archive_probe *p, const char *dir,
    const char *rel, struct template_probe *tp)
{
	p->dir = dir;
	p->rel = rel;
	p->capfd = -1;
	p->asked = false;
	tp->where = probe_where;
	tp->arg = p;
}

void
archive_probe_end(struct archive_probe *p)
{
	if (p->capfd != -1)
		close(p->capfd);
	p->capfd = -1;
}

/*
 * The body's template constructs read for what they mean, once, when
 * the file is read: src then holds the front matter and the rewritten
 * body, so headings, word counts, links, search and every rendering
 * see no template syntax, and rendering (on the request path) pays
 * nothing for it.  A page bundle's index (dirfd its folder) has its
 * folder's files listed for the shortcodes that name them.
 */
static void
read_templates(const struct archive_scan *s, struct archive_file *f,
    int dirfd)
{
	struct template_result	 r;
	struct template_files	 tf = { NULL, 0 };
	struct template_probe	 tp;
	struct archive_probe	 probe;
	char			*src, **names = NULL;
	size_t			 off = f->m.body_off, n = 0;
	int			 bundle;

	if (!template_present(f->src + off, f->len - off))
		return;
	bundle = posts_file(f->rel) && capfile_bundle_path(f->rel +
	    sizeof(CAPFILE_POSTS)) && capfile_markdown(f->rel);
	if (bundle) {
		f->bundled = true;
		f->bundle_hash = bundle_files(s, dirfd, &names, &n);
		tf.names = (const char *const *)names;
		tf.n = n;
	}
	archive_probe_begin(&probe, s->dir, f->rel, &tp);
	template_rewrite_bundle(f->src + off, f->len - off,
	    bundle ? &tf : NULL, &tp, &r);
	f->probed = probe.asked;
	archive_probe_end(&probe);
	names_free(names, n);
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

/*
 * A body in another markup made Markdown, once, when the file is read
 * (markdown/mdx.h, markdown/htmlbody.h): src then holds the front
 * matter and the Markdown, as read_templates() leaves it, so that
 * nothing after it knows.
 */
static void
read_markup(struct archive_file *f)
{
	struct buf		 b = BUF_INIT;
	size_t			 off = f->m.body_off;
	enum capfile_markup	 mk = capfile_markup(f->rel);

	if (mk != CAPFILE_MDX && mk != CAPFILE_HTML)
		return;
	buf_add(&b, f->src, off);
	if (mk == CAPFILE_MDX)
		mdx_rewrite(f->src + off, f->len - off, &b);
	else
		htmlbody_markdown(f->src + off, f->len - off, &b);
	free(f->src);
	f->len = b.len;
	f->src = buf_release(&b);
}

/* What read_templates() did, as "posts/x.md:LINE:COL: template: ...". */
static void
log_templates(struct archive_scan *s, const struct archive_file *f)
{
	const struct template_note	*n;
	char				 why[224], more[64];
	size_t				 i;

	for (i = 0; i < f->ntnotes; i++) {
		n = &f->tnotes[i];
		if (n->what == TEMPLATE_UNRESOLVED) {
			snprintf(why, sizeof(why), "template: %s names no "
			    "file of the page bundle", n->text);
			scan_warn(s, f->rel, f->m.body_line + n->line - 1,
			    n->col, why, 0);
		} else if (n->what == TEMPLATE_REMOVED) {
			snprintf(why, sizeof(why), "template: removed %s%s",
			    n->text, template_more(n, more, sizeof(more)));
			scan_warn(s, f->rel, f->m.body_line + n->line - 1,
			    n->col, why, 0);
		} else {
			snprintf(why, sizeof(why), "template: approximated %s",
			    n->text);
			scan_note(s, f->rel, f->m.body_line + n->line - 1,
			    n->col, why);
		}
	}
	if (f->ntmore > 0) {
		snprintf(why, sizeof(why), "template: %zu more constructs "
		    "removed or read approximately", f->ntmore);
		scan_warn(s, f->rel, 1, 1, why, 0);
	}
}

/* A record of src[0..len) (taken over), read as st said. */
static struct archive_file *
file_new(const struct archive_scan *s, int dirfd, const char *rel,
    const struct stat *st, char *src, size_t len)
{
	struct archive_file	*f;
	char			*body, *text;
	long long		 newest;
	long			 sep;
	size_t			 seplen;

	f = xcalloc(1, sizeof(*f));
	atomic_init(&f->refs, 1);
	f->rel = xstrdup(rel);
	f->src_hash = hash_block(src, len);
	f->dev = st->st_dev;
	f->ino = st->st_ino;
	f->size = st->st_size;
	f->mtim = st->st_mtim;
	f->ctim = st->st_ctim;
	newest = archive_ns(&st->st_mtim);
	if (archive_ns(&st->st_ctim) > newest)
		newest = archive_ns(&st->st_ctim);
	f->trusted = newest < s->t_scan - ARCHIVE_RACY_NS;
	if (frontmatter_parse(src, len, &f->m, &f->fe) == -1) {
		f->bad = true;
		memset(&f->m, 0, sizeof(f->m));
		free(src);
		return f;
	}
	f->src = src;
	f->len = len;
	f->gemtext = posts_file(rel) && capfile_gemtext(rel);
	read_markup(f);
	if (!f->gemtext)		/* Hugo's templates are Markdown's */
		read_templates(s, f, dirfd);
	len = f->len;
	body = f->src + f->m.body_off;
	/*
	 * A summary separator ends the summary, and is never shown: its
	 * bytes become blanks (a comment's would be dropped anyway, not so
	 * a separator of the writer's own), so offsets do not move.
	 */
	if (!f->gemtext && (sep = render_summary_sep(body, len -
	    f->m.body_off, f->m.excerpt_sep, &seplen)) >= 0) {
		memset(body + sep, ' ', seplen);
		if (f->m.summary == NULL && posts_file(rel))
			f->summary = render_summary_head(body, (size_t)sep,
			    FM_SUMMARY_MAX);
	}
	body_heading_links(f);
	if (capfile_markup(rel) == CAPFILE_HTML) {
		/* A page's words, not its tags'. */
		text = frontmatter_oneline(body, len - f->m.body_off, FM_TAGS);
		f->words = count_words(text, strlen(text));
		free(text);
	} else
		f->words = count_words(body, len - f->m.body_off);
	if (f->m.summary == NULL && f->summary == NULL && posts_file(rel))
		f->summary = f->gemtext ? render_gemtext_summary(body,
		    len - f->m.body_off, SUMMARY_MAX) : render_summary(body,
		    len - f->m.body_off, SUMMARY_MAX);
	if (posts_file(rel))
		post_file_keys(f);
	return f;
}

/*
 * Keep old, the previous snapshot's record of rel, because the file is
 * being written (held) or changed while it was read: one more
 * reference to it, or NULL (a new file, left out until it is whole).
 */
static struct archive_file *
keep_old(struct archive_scan *s, struct archive_file *old, const char *rel)
{
	s->nheld++;
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
 * not yet whole.  The record is borrowed: s's file list holds it, even
 * a broken one, so an unchanged broken file is not parsed again (its
 * warning is repeated: every snapshot logs its own).
 */
struct archive_file *
record_get(struct archive_scan *s, int dirfd, const char *name,
    const char *rel, int quiet_enoent)
{
	struct archive_file	*f = NULL, *old = NULL;
	struct stat		 st;
	char			*src, why[160];
	size_t			 len = 0, i;
	int			 held, rv;

	if (stat_file(s, dirfd, name, rel, quiet_enoent, &st) == -1 ||
	    not_owned(s, rel, &st))
		return NULL;
	if (s->full) {
		s->nquiet++;		/* warned once, below */
		return NULL;
	}
	if (s->prev != NULL)
		old = index_get(s->prev, rel);
	/* Half-written: what it was counts, not what it is for now. */
	if ((held = scan_held(s, rel, ARCHIVE_ASK_BEFORE))) {
		if (old == NULL)
			return keep_old(s, NULL, rel);
		st.st_size = old->size;
	}
	/* The size checks come first: a reused file counts all the same. */
	if ((unsigned long long)st.st_size > s->max_file) {
		snprintf(why, sizeof(why), "larger than max_post_size (%zu "
		    "KiB), skipped", s->max_file >> 10);
		scan_warn(s, rel, 1, 1, why, 1);
		return NULL;
	}
	if ((size_t)st.st_size > s->max_total - s->total) {
		snprintf(why, sizeof(why), "max_archive_size (%zu MiB) "
		    "reached: this file and every one after it skipped",
		    s->max_total >> 20);
		scan_warn(s, rel, 1, 1, why, 1);
		s->full = 1;
		return NULL;
	}
	s->total += (size_t)st.st_size;
	if (held)
		f = keep_old(s, old, rel);
	else if (old != NULL && old->trusted && !old->probed &&
	    same_stat(old, &st) && same_bundle(s, old, dirfd)) {
		atomic_fetch_add(&old->refs, 1);
		f = old;
		s->nreused++;
	} else if ((rv = read_file(s, dirfd, name, rel, &st, &src,
	    &len)) == -1)
		return NULL;
	else if (rv == 1 || len == 0 || scan_held(s, rel,
	    recent_left_ms(&st) > 0 ? ARCHIVE_ASK_RECENT : ARCHIVE_ASK_READ)) {
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
		if ((f = keep_old(s, old, rel)) == NULL)
			return NULL;
	} else {
		f = file_new(s, dirfd, rel, &st, src, len);
		s->nread++;
	}
	if (s->nfiles % 64 == 0)
		s->files = xreallocarray(s->files, s->nfiles + 64,
		    sizeof(*s->files));
	s->files[s->nfiles++] = f;
	if (f->bad) {
		scan_warn(s, rel, f->fe.line, f->fe.col, f->fe.msg, 1);
		return NULL;
	}
	for (i = 0; i < f->m.nwarns; i++)
		scan_warn(s, rel, f->m.warns[i].line, f->m.warns[i].col,
		    f->m.warns[i].msg, 0);
	if (f->m.nwarns_lost > 0) {
		snprintf(why, sizeof(why), "%u more front matter warning%s "
		    "not shown (at most %d a file)", f->m.nwarns_lost,
		    f->m.nwarns_lost == 1 ? "" : "s", FM_WARN_MAX);
		scan_warn(s, rel, 1, 1, why, 0);
	}
	log_templates(s, f);
	return f;
}
