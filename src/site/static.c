/*
 * static.c -- the capsule's files a request may read: the static trees
 * (files/ at "/files/", the "root" directory or a plain user capsule at
 * "/": files, directories' index files, gophermaps, listings) and page
 * bundles' files.
 *
 * Files are opened beneath the capsule as the archive allows
 * (archive_files_open(), archive_bundle_open(); see core/fsafe.c), kept
 * in the site's cache when small enough and the watcher follows the
 * capsule (file_cacheable()), else left open for conn.c to stream.
 * Listings are made per request from the page model: the directory is
 * live, not a snapshot.  No socket I/O.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <strings.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "content/archive.h"
#include "core/buf.h"
#include "core/config.h"
#include "core/config_types.h"
#include "core/fsafe.h"
#include "core/layout.h"
#include "core/log.h"
#include "core/mime.h"
#include "core/url.h"
#include "core/userdir.h"
#include "core/utf8.h"
#include "core/util.h"
#include "proto/gopher.h"
#include "site/gophermap.h"
#include "site/page.h"
#include "site/response.h"
#include "site/site.h"
#include "site/static.h"

/* A gophermap is read up to this size; a larger one is not read. */
#define GOPHERMAP_MAX	((size_t)1 << 20)
/* A .gmi file's first heading is looked for in its first bytes. */
#define TITLE_SCAN	4096
#define TITLE_MAX	200

/*
 * A static tree: a directory of the capsule served at a URL path, by
 * the rules of files/ (archive_files_open()).
 */
struct tree {
	const char	*dir;		/* capsule-relative: "files", the
					   root, or "" (a plain capsule) */
	const char	*url;		/* where: "/files/" or "/" */
	const char	*base;		/* what the site's paths start with
					   ("/~name"), or NULL */
	int		 listings;	/* directories without an index */
	int		 watched;	/* the watcher follows it: files may
					   be kept in memory */
};

/* The name of a gophermap: a directory's menu, never a file. */
static int
is_gophermap(const char *rel)
{
	const char	*slash = strrchr(rel, '/');

	return strcmp(slash != NULL ? slash + 1 : rel, "gophermap") == 0;
}

static void
files_tree(const struct route *rt, struct tree *t)
{
	t->dir = "files";
	t->url = LAYOUT_PATH_FILES;
	t->base = rt->cfg->base;
	t->listings = rt->cfg->listings;
	t->watched = 1;
}

/*
 * The tree at "/": a plain user capsule is one whole; else the root
 * directory, watched when it is files/ (app/watch.c follows posts/,
 * series/, pages/ and files/ only).  0 when there is none.
 */
static int
root_tree(const struct route *rt, struct tree *t)
{
	const struct config	*c = rt->cfg;

	if (c->owned && static_plain(rt->a)) {
		t->dir = "";
		t->watched = 0;
	} else if (c->root != NULL && !c->owned) {
		t->dir = c->root;
		t->watched = strcmp(c->root, "files") == 0;
	} else
		return 0;
	t->url = "/";
	/* A mount is the generated pages' base, not the tree's. */
	t->base = c->owned ? c->base : NULL;
	t->listings = c->root_listings;
	return 1;
}

int
static_plain(const struct archive *a)
{
	return a->index_src == NULL && a->nposts == 0 && a->ndocs == 0 &&
	    a->nseries == 0 && a->ndrafts == 0;
}

/*
 * The capsule-relative name of path (which starts with t->url), for
 * archive_files_open(); malloc'd.  "" is the tree of a plain capsule.
 */
static char *
rel_of(const struct tree *t, const char *path)
{
	const char	*tail = path + strlen(t->url);

	if (*t->dir == '\0')
		return xstrdup(tail);
	if (*tail == '\0')
		return xstrdup(t->dir);
	return xasprintf("%s/%s", t->dir, tail);
}

/* name in the directory rel ("", "files", "site/x/"), malloc'd. */
static char *
join(const char *rel, const char *name)
{
	if (*rel == '\0')
		return xstrdup(name);
	return xasprintf("%s%s%s", rel, rel[strlen(rel) - 1] == '/' ? "" : "/",
	    name);
}

/*
 * A name a request can ask for: valid UTF-8 without C0 controls or DEL,
 * as url.c and gopher.c want a path.  Other names are not listed: a
 * link to them could only ever get 59, and a text/gemini; charset=utf-8
 * listing must not carry their bytes.
 */
static int
listable(const char *name)
{
	const unsigned char	*p;

	for (p = (const unsigned char *)name; *p != '\0'; p++)
		if (*p < 0x20 || *p == 0x7f)
			return 0;
	return utf8_valid(name, strlen(name));
}

/*
 * name (listable()) as a listing shows it: C1 controls and U+2028/2029,
 * line breaks to some readers, as \xHH a byte at a time (as the log
 * writes them).  The caller frees the result.
 */
static char *
shown(const char *name)
{
	struct buf	 b = BUF_INIT;
	size_t		 len = strlen(name), i = 0, n, k;
	uint32_t	 cp;

	while (i < len) {
		n = utf8_decode(name + i, len - i, &cp);
		if ((cp >= 0x80 && cp < 0xa0) || cp == 0x2028 || cp == 0x2029)
			for (k = 0; k < n; k++)
				buf_printf(&b, "\\x%02x",
				    (unsigned char)name[i + k]);
		else
			buf_add(&b, name + i, n);
		i += n;
	}
	buf_addc(&b, '\0');
	return buf_release(&b);
}

/* One entry of a listing: what serve_listing() keeps of a dirent. */
struct listed {
	char	*name;
	char	*title;		/* a .gmi file's first heading, or NULL */
	time_t	 mtime;
	int	 isdir;
};

/* Listings sort as alphasort() would: by strcoll() of the names. */
static int
listed_cmp(const void *a, const void *b)
{
	return strcoll(((const struct listed *)a)->name,
	    ((const struct listed *)b)->name);
}

/* "listing_sort: date": newest first, then by name. */
static int
listed_date_cmp(const void *a, const void *b)
{
	const struct listed	*x = a, *y = b;

	if (x->mtime != y->mtime)
		return x->mtime < y->mtime ? 1 : -1;
	return listed_cmp(a, b);
}

/*
 * The first heading ("# Title") in the first TITLE_SCAN bytes of the
 * gemtext file fd, malloc'd, or NULL: none, or not fit for a listing.
 */
static char *
first_heading(int fd)
{
	char		 data[TITLE_SCAN + 1];
	ssize_t		 n;
	char		*s, *e, *t;

	while ((n = pread(fd, data, TITLE_SCAN, 0)) == -1 && errno == EINTR)
		;
	if (n <= 0)
		return NULL;
	data[n] = '\0';
	for (s = data; s != NULL && *s != '\0'; s = e != NULL ? e + 1 : NULL) {
		e = strchr(s, '\n');
		if (s[0] == '`' && strncmp(s, "```", 3) == 0)
			return NULL;	/* the first heading is too far on */
		if (s[0] != '#')
			continue;
		if (e == NULL)
			return NULL;	/* cut by the scan: no title */
		s += strspn(s, "#");
		s += strspn(s, " \t");
		if (e > s && e[-1] == '\r')
			e--;
		if (e == s || (size_t)(e - s) > TITLE_MAX)
			return NULL;
		t = xstrndup(s, (size_t)(e - s));
		if (!listable(t)) {
			free(t);
			return NULL;
		}
		return t;
	}
	return NULL;
}

static int	 tree_open(const struct route *, const struct tree *,
		    const char *, struct stat *, enum fsafe_kind *);

/*
 * May the entry name of the directory dfd (rel, capsule-relative) be
 * listed, that is: served?  What a request for it would get decides:
 * a symbolic link is opened as a request would open it (a link that
 * leads out, into posts/ or anywhere refused is not listed).  Fills e.
 */
static int
entry(const struct route *rt, const struct tree *t, int dfd,
    const char *rel, const char *name, int type, struct listed *e)
{
	struct stat	 st;
	enum fsafe_kind	 kind;
	char		*path;
	int		 fd = -1;

	if (type == DT_UNKNOWN || type == DT_LNK) {
		/* A file system without d_type, or a link: as served. */
		path = join(rel, name);
		fd = tree_open(rt, t, path, &st, &kind);
		free(path);
		if (fd == -1)
			return 0;
		type = kind == FSAFE_DIR ? DT_DIR : DT_REG;
	} else if (type == DT_REG || type == DT_DIR) {
		if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == -1)
			return 0;
		if (type == DT_REG && !rt->cfg->files_hardlinks &&
		    st.st_nlink > 1)
			return 0;	/* never served: see static_file() */
		if (rt->cfg->owned && !userdir_owned(&st, rt->cfg->owner_uid))
			return 0;	/* never served: archive_files_open() */
	} else
		return 0;		/* FIFOs, sockets, devices: never */
	e->isdir = type == DT_DIR;
	e->mtime = st.st_mtime;
	e->title = NULL;
	if (!e->isdir && rt->cfg->listing_titles && archive_gmi_name(name)) {
		if (fd == -1)
			fd = openat(dfd, name, O_RDONLY | O_NONBLOCK |
			    O_NOFOLLOW | O_CLOEXEC);
		if (fd != -1 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
			e->title = first_heading(fd);
	}
	if (fd != -1)
		close(fd);
	return 1;
}

/* Is name among hide[0..nhide)? (a gophermap's "-name" lines) */
static int
hidden(const char *name, char *const *hide, size_t nhide)
{
	size_t	 i;

	for (i = 0; i < nhide; i++)
		if (strcmp(name, hide[i]) == 0)
			return 1;
	return 0;
}

/*
 * The page of a listing, or its menu lines, written for the tree's base
 * (not the generated pages' mount) into out: gemtext, or a Gopher menu
 * with its closing "." when whole.
 */
static void
emit(const struct route *rt, const struct tree *t, const struct page *p,
    int whole, struct buf *out)
{
	struct page_target	 pt;

	memset(&pt, 0, sizeof(pt));
	pt.host = rt->cfg->hostname;
	pt.base = t->base;
	pt.width = rt->cfg->gopher_width;
	pt.ascii = rt->cfg->gopher_charset == CONFIG_CHARSET_ASCII;
	pt.types = rt->cfg->types;
	if (rt->proto == PROTO_GEMINI) {
		pt.port = rt->cfg->port[SURFACE_GEMINI];
		page_emit_gemtext(p, &pt, out);
		return;
	}
	pt.port = config_public_port(rt->cfg, SURFACE_GOPHER);
	page_emit_gophermap(p, &pt, out);
	if (!whole && out->len >= 3)
		out->len -= 3;		/* ".\r\n": the map goes on */
}

/*
 * A directory of the tree (dfd, rel; urlpath ends in '/'): a listing
 * made from the page model, into out.  whole: a page of its own (a
 * heading, ".."), else the lines a gophermap's "*" appends, without
 * the names it hides.
 */
static void
listing(const struct route *rt, const struct tree *t, int dfd,
    const char *rel, const char *urlpath, int whole, char *const *hide,
    size_t nhide, struct buf *out)
{
	struct page	 p;
	struct listed	*ents = NULL, e;
	DIR		*d;
	struct dirent	*de;
	size_t		 n = 0, cap = 0, i, len;
	char		*url, *name;
	char		 date[11];
	struct tm	 tm;

	if ((d = fdopendir(dfd)) == NULL) {
		close(dfd);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;	/* hidden files, "." and ".." */
		if (!listable(de->d_name) || strcmp(de->d_name,
		    "gophermap") == 0 || hidden(de->d_name, hide, nhide))
			continue;
		if (!entry(rt, t, dirfd(d), rel, de->d_name, de->d_type, &e))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			ents = xreallocarray(ents, cap, sizeof(*ents));
		}
		/*
		 * The name and what entry() found only: readdir() hands
		 * out records shorter than struct dirent, so copying a
		 * whole one reads past the end of the last record in its
		 * buffer.
		 */
		e.name = xstrdup(de->d_name);
		ents[n++] = e;
	}
	closedir(d);
	if (n > 1)		/* an empty listing has no array: NULL */
		qsort(ents, n, sizeof(*ents),
		    rt->cfg->listing_sort == CONFIG_SORT_DATE ?
		    listed_date_cmp : listed_cmp);

	page_init(&p);
	if (whole) {
		name = shown(urlpath);
		page_heading(&p, 1, "Index of %s", name);
		free(name);
		page_blank(&p);
	}
	if (whole && strcmp(urlpath, t->url) != 0) {
		/* Absolute: a Gopher selector cannot be relative. */
		len = strlen(urlpath) - 1;
		while (len > 0 && urlpath[len - 1] != '/')
			len--;
		url = xstrndup(urlpath, len);
		page_link(&p, LINK_MENU, url, NULL, "..");
		free(url);
	}
	for (i = 0; i < n; i++) {
		int isdir = ents[i].isdir;

		date[0] = '\0';
		if (rt->cfg->listing_sort == CONFIG_SORT_DATE &&
		    gmtime_r(&ents[i].mtime, &tm) != NULL)
			strftime(date, sizeof(date), "%Y-%m-%d", &tm);
		url = xasprintf("%s%s%s", urlpath, ents[i].name,
		    isdir ? "/" : "");
		name = shown(ents[i].title != NULL ? ents[i].title :
		    ents[i].name);
		page_link(&p, isdir ? LINK_MENU : LINK_FILE, url,
		    date[0] != '\0' ? date : NULL, "%s%s", name,
		    isdir ? "/" : "");
		free(name);
		free(url);
		free(ents[i].name);
		free(ents[i].title);
	}
	free(ents);
	emit(rt, t, &p, whole, out);
	page_free(&p);
}

/*
 * The lang and charset "path_meta" gives the request's path, as the
 * client asks for it (t's base, or the site's for a bundle's file,
 * before the path within it).
 */
static void
path_params(const struct route *rt, const struct tree *t, const char **lang,
    const char **charset)
{
	const char	*base = t != NULL ? t->base : rt->cfg->base;
	char		*path;

	*lang = *charset = NULL;
	if (rt->cfg->types == NULL || rt->cfg->types->nmeta == 0)
		return;
	path = xasprintf("%s%s", base != NULL ? base : "", rt->reqpath);
	config_path_meta(rt->cfg->types, path, lang, charset);
	free(path);
}

/* A listing as the answer: live, never cached. */
static void
serve_listing(const struct route *rt, const struct tree *t, int dfd,
    const char *rel, const char *urlpath, struct response *r)
{
	const char	*lang, *charset;

	listing(rt, t, dfd, rel, urlpath, 1, NULL, 0, &r->owned);
	response_use_owned(r);
	r->gopher_type = '1';
	/* Its names and titles are the tree's: in the tree's charset. */
	path_params(rt, t, &lang, &charset);
	response_status(r, 20, "text/gemini; charset=%s%s%s",
	    charset != NULL ? charset : "utf-8", lang != NULL ? "; lang=" : "",
	    lang != NULL ? lang : "");
}

_Static_assert((int)FSAFE_LINKS_INSIDE == (int)CONFIG_LINKS_INSIDE &&
    (int)FSAFE_LINKS_ANY == (int)CONFIG_LINKS_ANY &&
    (int)FSAFE_LINKS_NONE == (int)CONFIG_LINKS_NONE,
    "follow_symlinks: config.h and fsafe.h agree");

/*
 * Why archive_files_open() or archive_bundle_open() said no, in the log
 * when the operator may want to know: a user capsule's file that is not
 * the user's alone (core/userdir.h).
 */
static void
open_refused(const struct route *rt, const char *path)
{
	if (errno == EMLINK)
		log_debug("%s: more than one hard link, not served "
		    "(files_hardlinks)", path);
	else if (errno == EPERM)
		log_warnx("%s/%s: not owned by UID %u alone, or writable by "
		    "others: not served", rt->a->dir, path + (path[0] == '/'),
		    rt->cfg->owner_uid);
	else if (errno != ENOENT)
		log_debug("%s%s: %s", path[0] == '/' ? "" : "/", path,
		    strerror(errno));
}

/*
 * Open rel (capsule-relative, in the tree t) as files/ allows
 * (archive_files_open(), which the link check asks too; in a user
 * capsule, the owner's files only): the descriptor, or -1 for "not
 * found".  A gophermap is a menu, never a file.  "" is a plain
 * capsule's own directory.
 */
static int
tree_open(const struct route *rt, const struct tree *t, const char *rel,
    struct stat *st, enum fsafe_kind *kind)
{
	int	 fd;

	(void)t;
	if (*rel == '\0') {
		if ((fd = open(rt->a->dir, O_RDONLY | O_DIRECTORY |
		    O_CLOEXEC)) == -1)
			return -1;
		if (fstat(fd, st) == -1 || (rt->cfg->owned &&
		    !userdir_owned(st, rt->cfg->owner_uid))) {
			close(fd);
			return -1;
		}
		*kind = FSAFE_DIR;
		return fd;
	}
	if ((fd = archive_files_open(rt->a, rel, rt->cfg->follow_symlinks,
	    rt->cfg->files_hardlinks, st, kind)) == -1)
		open_refused(rt, rel);
	else if (*kind == FSAFE_FILE && is_gophermap(rel)) {
		close(fd);
		errno = ENOENT;
		fd = -1;
	}
	return fd;
}

/*
 * A 20 for the file path of the tree t (NULL: a bundle's), typed as
 * config_file_type() says; text gets the charset of its path, UTF-8
 * unless told, and gemtext its lang, the site's unless told.
 */
static void
file_type(const struct route *rt, const struct tree *t, const char *path,
    struct response *r)
{
	const char	*mime, *lang, *charset;

	mime = config_file_type(rt->cfg->types, path, &r->gopher_type);
	path_params(rt, t, &lang, &charset);
	if (strcasecmp(mime, "text/gemini") == 0)
		response_status(r, 20, "text/gemini; charset=%s; lang=%s",
		    charset != NULL ? charset : "utf-8",
		    lang != NULL ? lang : rt->a->lang);
	else if (mime_is_text(mime))
		response_status(r, 20, "%s; charset=%s", mime,
		    charset != NULL ? charset : "utf-8");
	else
		response_status(r, 20, "%s", mime);
}

/*
 * May a file of st's size be kept in memory (file_cache_max), and
 * trusted without a look at the disk for as long as the site lives?
 * Only while the watcher follows the capsule: a change there then asks
 * for a new site, whose cache starts empty.  With "watch: false" every
 * request reads the disk as it is.  Nor with "follow_symlinks: any",
 * whose links may lead out of the capsule, where nothing is watched.
 */
static int
file_cacheable(const struct route *rt, const struct tree *t,
    const struct stat *st)
{
	const struct config	*c = rt->cfg;

	return (t == NULL || t->watched) && c->watch && c->file_cache_max > 0 &&
	    c->follow_symlinks != CONFIG_LINKS_ANY &&
	    (st == NULL || (uint64_t)st->st_size <= c->file_cache_max);
}

/*
 * Read the file fd (len bytes, as fstat(2) said) whole and keep it in
 * slot: its blob, with a reference for the caller, or NULL when it
 * changed while read (a writer at work: the next request looks again).
 * fd stays the caller's.  A response_fill_fn.
 */
static struct blob *
fill_file(const struct route *rt, struct slot *slot, int fd, uint64_t len)
{
	struct stat	 st0, st1;
	char		*data;
	size_t		 got = 0;
	ssize_t		 n;
	struct blob	*b;

	if (fstat(fd, &st0) == -1 || (uint64_t)st0.st_size != len)
		return NULL;
	data = xmalloc(len > 0 ? (size_t)len : 1);
	while (got < len) {
		n = pread(fd, data + got, (size_t)len - got, (off_t)got);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	/* The same size and time after as before: whole, not torn. */
	if (got != len || fstat(fd, &st1) == -1 ||
	    st1.st_size != st0.st_size ||
	    st1.st_mtim.tv_sec != st0.st_mtim.tv_sec ||
	    st1.st_mtim.tv_nsec != st0.st_mtim.tv_nsec) {
		free(data);
		return NULL;
	}
	b = site_cache_put(rt->site, slot, blob_new(data, (size_t)len));
	free(data);
	return b;
}

/*
 * Answer with the regular file fd (st) of the capsule, rel its name in
 * it ("files/a.png", "posts/x/a.png"), checked as its place says: from
 * memory when small enough (file_cacheable()), read once into the
 * site's slot for rel, and on the pool when the caller can wait
 * (r->may_defer: a disk may be slow); else streamed by conn.c.
 */
static void
serve_fd(const struct route *rt, const struct tree *t, const char *rel,
    int fd, const struct stat *st, struct response *r)
{
	struct slot	*slot;
	struct blob	*b = NULL;
	uint64_t	 len = (uint64_t)st->st_size;

	file_type(rt, t, rel, r);
	if (file_cacheable(rt, t, st)) {
		slot = site_file_slot(rt->site, rel, 1);
		if ((b = cache_get(slot)) == NULL && r->may_defer) {
			response_defer_file(rt, slot, fd, len, fill_file, r);
			return;
		}
		if (b == NULL)
			b = fill_file(rt, slot, fd, len);
	}
	if (b == NULL) {	/* not kept, or it changed while read */
		r->fd = fd;
		r->filelen = len;
		return;
	}
	close(fd);
	response_use_blob(r, b);
}

/*
 * The file rel from memory, if the site holds it: no look at the disk
 * (file_cacheable()).  Returns 1 when r is answered.
 */
static int
serve_kept(const struct route *rt, const struct tree *t, const char *rel,
    struct response *r)
{
	struct slot	*slot;
	struct blob	*b;

	if (!file_cacheable(rt, t, NULL) ||
	    (slot = site_file_slot(rt->site, rel, 0)) == NULL ||
	    (b = cache_get(slot)) == NULL)
		return 0;
	file_type(rt, t, rel, r);
	response_use_blob(r, b);
	return 1;
}

/*
 * The file name in the directory rel of the tree, if it is a regular
 * file the tree serves: its descriptor (st filled, *path its
 * capsule-relative name, malloc'd), or -1.
 */
static int
dir_file(const struct route *rt, const struct tree *t, const char *rel,
    const char *name, char **path, struct stat *st)
{
	enum fsafe_kind	 kind;
	int		 fd;

	*path = join(rel, name);
	if ((fd = tree_open(rt, t, *path, st, &kind)) != -1 &&
	    kind != FSAFE_FILE) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* What a gophermap's callbacks need: its tree and directory. */
struct map_ctx {
	const struct route	*rt;
	const struct tree	*t;
	const char		*rel;		/* the directory */
	const char		*urlpath;	/* its path, "/x/" */
	int			 dfd;		/* the directory, or -1 */
};

/* The bytes of the regular file fd, up to GOPHERMAP_MAX; NULL if more. */
static char *
read_small(int fd, const struct stat *st, size_t *len)
{
	char	*data;
	size_t	 got = 0;
	ssize_t	 n;

	if ((uint64_t)st->st_size > GOPHERMAP_MAX)
		return NULL;
	data = xmalloc((size_t)st->st_size + 1);
	while (got < (size_t)st->st_size) {
		n = pread(fd, data + got, (size_t)st->st_size - got,
		    (off_t)got);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	*len = got;
	return data;
}

/*
 * "=sel" of a gophermap: the gophermap sel names in the same tree (a
 * file the tree serves, or a directory's gophermap), never run.
 */
static char *
map_include(void *arg, const char *sel, size_t *len)
{
	const struct map_ctx	*mc = arg;
	const struct tree	*t = mc->t;
	struct stat		 st;
	enum fsafe_kind		 kind;
	size_t			 blen = t->base != NULL ? strlen(t->base) : 0;
	char			*rel, *data = NULL;
	int			 fd;

	/* The selector is the tree's path, with the site's base. */
	if (strncmp(sel, t->base != NULL ? t->base : "", blen) != 0 ||
	    strncmp(sel + blen, t->url, strlen(t->url)) != 0 ||
	    url_has_dot_segment(sel))
		return NULL;
	rel = rel_of(t, sel + blen);
	if (is_gophermap(rel))		/* a menu, never served: read here */
		fd = *rel == '\0' ? -1 : archive_files_open(mc->rt->a, rel,
		    mc->rt->cfg->follow_symlinks, mc->rt->cfg->files_hardlinks,
		    &st, &kind);
	else
		fd = tree_open(mc->rt, t, rel, &st, &kind);
	free(rel);
	if (fd == -1)
		return NULL;
	if (kind == FSAFE_FILE)
		data = read_small(fd, &st, len);
	close(fd);
	return data;
}

/* "*" of a gophermap: the directory's listing, as menu lines. */
static void
map_listing(void *arg, char *const *hide, size_t nhide, struct buf *out)
{
	struct map_ctx	*mc = arg;

	if (mc->dfd == -1)
		return;			/* one listing per map */
	listing(mc->rt, mc->t, mc->dfd, mc->rel, mc->urlpath, 0, hide, nhide,
	    out);
	mc->dfd = -1;			/* listing() closed it */
}

/*
 * Gopher: the directory's gophermap (fd, st) as its menu.  Returns 0
 * when it cannot be read, and the caller lists the directory instead:
 * a gophermap is never served as a file.  dfd is the caller's.
 */
static int
serve_gophermap(const struct route *rt, const struct tree *t, int dfd,
    const char *rel, const char *urlpath, int mfd, const struct stat *st,
    struct response *r)
{
	struct gophermap_env	 env;
	struct map_ctx		 mc = { rt, t, rel, urlpath, -1 };
	char			*text, *dir;
	size_t			 len;

	if ((text = read_small(mfd, st, &len)) == NULL) {
		log_warnx("%s/%s/gophermap: larger than %zu bytes, not read",
		    rt->a->dir, rel, GOPHERMAP_MAX);
		return 0;
	}
	if ((mc.dfd = dup(dfd)) == -1) {
		free(text);
		return 0;
	}
	dir = xasprintf("%s%s", t->base != NULL ? t->base : "", urlpath);
	env.host = rt->cfg->hostname;
	env.port = config_public_port(rt->cfg, SURFACE_GOPHER);
	env.dir = dir;
	env.include = map_include;
	env.listing = map_listing;
	env.arg = &mc;
	gophermap_render(&env, text, len, &r->owned);
	buf_addstr(&r->owned, ".\r\n");
	if (mc.dfd != -1)
		close(mc.dfd);
	free(dir);
	free(text);
	response_use_owned(r);
	r->gopher_type = '1';
	response_status(r, 20, "text/gemini; charset=utf-8");
	return 1;
}

/*
 * A directory of the tree (fd, rel; path ends in '/').  Gemini serves
 * its index file ("index", index.gmi) when it has one; Gopher its
 * gophermap, else a listing.  Without either, a tree without listings
 * makes it not found.
 */
static void
serve_dir(const struct route *rt, const struct tree *t, int fd,
    const char *rel, const char *path, struct response *r)
{
	struct stat	 st;
	enum fsafe_kind	 kind;
	char		*idx, *map;
	int		 ifd, mfd, done;

	if (rt->proto == PROTO_GOPHER) {
		/* The map is read as archive_files_open() allows. */
		map = join(rel, "gophermap");
		mfd = archive_files_open(rt->a, map, rt->cfg->follow_symlinks,
		    rt->cfg->files_hardlinks, &st, &kind);
		if (mfd != -1 && kind != FSAFE_FILE) {
			close(mfd);
			mfd = -1;
		}
		free(map);
		if (mfd != -1) {
			done = serve_gophermap(rt, t, fd, rel, path, mfd, &st,
			    r);

			close(mfd);
			if (done) {
				close(fd);
				return;
			}
		}
	}
	/* A configuration made in code may have no index: the default. */
	ifd = dir_file(rt, t, rel, rt->cfg->index != NULL ? rt->cfg->index :
	    "index.gmi", &idx, &st);
	if (ifd != -1 && rt->proto == PROTO_GEMINI) {
		close(fd);
		serve_fd(rt, t, idx, ifd, &st, r);
		free(idx);
		return;
	}
	free(idx);
	if (ifd != -1)
		close(ifd);
	else if (!t->listings) {
		close(fd);
		response_status(r, 51, "Not found");
		return;
	}
	serve_listing(rt, t, fd, rel, path, r);
}

/* path (beginning with t->url) in the tree t. */
static void
tree_serve(const struct route *rt, const struct tree *t, const char *path,
    struct response *r)
{
	struct stat	 st;
	enum fsafe_kind	 kind;
	char		*rel;
	int		 fd;

	rel = rel_of(t, path);
	if (*rel != '\0' && !archive_hidden_name(rel) &&
	    !is_gophermap(rel) && serve_kept(rt, t, rel, r)) {
		free(rel);
		return;
	}
	if ((fd = tree_open(rt, t, rel, &st, &kind)) == -1) {
		free(rel);
		response_status(r, 51, "Not found");
		return;
	}
	if (kind == FSAFE_DIR) {
		if (path[strlen(path) - 1] != '/') {
			char *to = xasprintf("%s/", path);

			close(fd);
			response_redirect(rt, to, r);
			free(to);
		} else
			serve_dir(rt, t, fd, rel, path, r);
		free(rel);
		return;
	}
	serve_fd(rt, t, rel, fd, &st, r);
	free(rel);
}

void
static_file(const struct route *rt, const char *path, struct response *r)
{
	struct tree	 t;

	files_tree(rt, &t);
	tree_serve(rt, &t, path, r);
}

int
static_tree(const struct route *rt, const char *path, struct response *r)
{
	struct tree	 t;

	if (!root_tree(rt, &t))
		return 0;
	tree_serve(rt, &t, path, r);
	return 1;
}

void
static_bundle_file(const struct route *rt, const struct post *p,
    const char *name, struct response *r)
{
	struct stat	 st;
	const char	*slash = strrchr(p->path, '/');
	char		*rel;
	int		 fd;

	rel = xasprintf("%.*s/%s", (int)(slash - p->path), p->path, name);
	if (!archive_hidden_name(rel) && serve_kept(rt, NULL, rel, r)) {
		free(rel);
		return;
	}
	if ((fd = archive_bundle_open(rt->a, p, name, rt->cfg->files_hardlinks,
	    &st)) == -1) {
		open_refused(rt, rel);
		free(rel);
		response_status(r, 51, "Not found");
		return;
	}
	serve_fd(rt, NULL, rel, fd, &st, r);
	free(rel);
}


/*
 * The generated page a top-level name of the tree is shadowed by, or
 * NULL: the home page, a name of the layout, a page of pages/; with a
 * mount, only the mount's own name.
 */
static const char *
shadowed_by(const struct config *c, const struct archive *a,
    const char *name)
{
	if (c->mount != NULL)
		return strcmp(name, c->mount + 1) == 0 ? "the mount" : NULL;
	if (c->index != NULL && strcmp(name, c->index) == 0)
		return "the home page";
	if (strcmp(name, "gophermap") == 0)
		return "the home menu";
	if (layout_reserved(name))
		return "a path of the layout";
	if (archive_doc(a, name) != NULL)
		return "a page of pages/";
	if (name[0] == '~' && c->userdirs != NULL)
		return "the user capsules";
	return NULL;
}

size_t
static_conflicts(const struct config *c, const struct archive *a)
{
	struct stat	 st;
	enum fsafe_kind	 kind;
	struct dirent	*de;
	DIR		*d;
	const char	*by;
	size_t		 n = 0;
	int		 fd;

	if (c->root == NULL || c->owned ||
	    (fd = archive_files_open(a, c->root, c->follow_symlinks, true,
	    &st, &kind)) == -1)
		return 0;
	if (kind != FSAFE_DIR || (d = fdopendir(fd)) == NULL) {
		close(fd);
		return 0;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' ||
		    (by = shadowed_by(c, a, de->d_name)) == NULL)
			continue;
		log_warnx("%s/%s/%s: not served at /%s, which is %s (generated "
		    "pages win; \"mount\" moves them)", a->dir, c->root,
		    de->d_name, de->d_name, by);
		n++;
	}
	closedir(d);
	return n;
}

