/*
 * static.c -- the capsule's files a request may read: files/ (files,
 * directories' index.gmi, listings) and page bundles' files.
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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "content/archive.h"
#include "core/buf.h"
#include "core/config.h"
#include "core/fsafe.h"
#include "core/log.h"
#include "core/mime.h"
#include "core/userdir.h"
#include "core/utf8.h"
#include "core/util.h"
#include "site/page.h"
#include "site/response.h"
#include "site/site.h"
#include "site/static.h"

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
	int	 isdir;
};

/* Listings sort as alphasort() would: by strcoll() of the names. */
static int
listed_cmp(const void *a, const void *b)
{
	return strcoll(((const struct listed *)a)->name,
	    ((const struct listed *)b)->name);
}

/* A directory under files/: a listing made from the page model. */
static void
serve_listing(const struct route *rt, int dfd, const char *urlpath,
    struct response *r)
{
	struct page	 p;
	struct stat	 st;
	struct listed	*ents = NULL;
	struct blob	*b;
	DIR		*d;
	struct dirent	*e;
	size_t		 n = 0, cap = 0, i, len;
	char		*url, *name;
	int		 type;

	if ((d = fdopendir(dfd)) == NULL) {
		close(dfd);
		response_status(r, 51, "Not found");
		return;
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;	/* hidden files, "." and ".." */
		if (!listable(e->d_name))
			continue;
		type = e->d_type;
		if (type == DT_UNKNOWN)	/* a file system without d_type */
			type = fstatat(dirfd(d), e->d_name, &st,
			    AT_SYMLINK_NOFOLLOW) == -1 ? DT_UNKNOWN :
			    IFTODT(st.st_mode);
		if (type == DT_REG && !rt->cfg->files_hardlinks &&
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) ==
		    0 && st.st_nlink > 1)
			continue;	/* never served: see static_file() */
		if (type == DT_FIFO || type == DT_SOCK ||
		    type == DT_CHR || type == DT_BLK)
			continue;	/* never served: not listed either */
		if (rt->cfg->owned && (fstatat(dirfd(d), e->d_name, &st, 0) ==
		    -1 || !userdir_owned(&st, rt->cfg->owner_uid)))
			continue;	/* never served: archive_files_open() */
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			ents = xreallocarray(ents, cap, sizeof(*ents));
		}
		/*
		 * The name and type only: readdir() hands out records
		 * shorter than struct dirent, so copying a whole one
		 * reads past the end of the last record in its buffer.
		 */
		ents[n].name = xstrdup(e->d_name);
		ents[n++].isdir = type == DT_DIR;
	}
	closedir(d);
	if (n > 1)		/* an empty listing has no array: NULL */
		qsort(ents, n, sizeof(*ents), listed_cmp);

	page_init(&p);
	name = shown(urlpath);
	page_heading(&p, 1, "Index of %s", name);
	free(name);
	page_blank(&p);
	if (strcmp(urlpath, "/files/") != 0) {
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

		url = xasprintf("%s%s%s", urlpath, ents[i].name,
		    isdir ? "/" : "");
		name = shown(ents[i].name);
		page_link(&p, isdir ? LINK_MENU : LINK_FILE, url, NULL,
		    "%s%s", name, isdir ? "/" : "");
		free(name);
		free(url);
		free(ents[i].name);
	}
	free(ents);
	b = response_menu(rt, &p);
	page_free(&p);
	/* Listings are not cached: the directory is live, not a snapshot. */
	buf_add(&r->owned, b->data, b->len);
	free(b);
	response_use_owned(r);
	r->gopher_type = '1';
	response_status(r, 20, "text/gemini; charset=utf-8");
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
		log_debug("%s: %s", path, strerror(errno));
}

/*
 * Open "/files/..." path as files/ allows (archive_files_open(), which
 * the link check asks too; in a user capsule, the owner's files only):
 * the descriptor, or -1 for "not found".
 */
static int
files_open(const struct route *rt, const char *path, struct stat *st,
    enum fsafe_kind *kind)
{
	int	 fd;

	/* path is "/files/..."; the capsule-relative name drops the '/'. */
	if ((fd = archive_files_open(rt->a, path + 1, rt->cfg->follow_symlinks,
	    rt->cfg->files_hardlinks, st, kind)) == -1)
		open_refused(rt, path);
	return fd;
}

/* A 20 for the file path, typed by its extension. */
static void
file_type(const struct route *rt, const char *path, struct response *r)
{
	const char	*mime;

	mime = mime_type(path);
	r->gopher_type = mime_gopher_type(path);
	if (strcmp(mime, "text/gemini") == 0)
		response_status(r, 20, "text/gemini; charset=utf-8; lang=%s",
		    rt->a->lang);
	else if (mime_is_text(mime))
		response_status(r, 20, "%s; charset=utf-8", mime);
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
file_cacheable(const struct route *rt, const struct stat *st)
{
	const struct config	*c = rt->cfg;

	return c->watch && c->file_cache_max > 0 &&
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
serve_fd(const struct route *rt, const char *rel, int fd,
    const struct stat *st, struct response *r)
{
	struct slot	*slot;
	struct blob	*b = NULL;
	uint64_t	 len = (uint64_t)st->st_size;

	file_type(rt, rel, r);
	if (file_cacheable(rt, st)) {
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
serve_kept(const struct route *rt, const char *rel, struct response *r)
{
	struct slot	*slot;
	struct blob	*b;

	if (!file_cacheable(rt, NULL) ||
	    (slot = site_file_slot(rt->site, rel, 0)) == NULL ||
	    (b = cache_get(slot)) == NULL)
		return 0;
	file_type(rt, rel, r);
	response_use_blob(r, b);
	return 1;
}

/*
 * The directory dir ("/files/.../") has a page of its own: its
 * index.gmi, a regular file as files/ serves them.  Returns its
 * descriptor (st filled), or -1.
 */
static int
dir_index(const struct route *rt, const char *dir, char **idxpath,
    struct stat *st)
{
	enum fsafe_kind	 kind;
	int		 fd;

	*idxpath = xasprintf("%sindex.gmi", dir);
	if ((fd = files_open(rt, *idxpath, st, &kind)) != -1 &&
	    kind != FSAFE_FILE) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/*
 * A directory under files/ (fd, path ending in '/').  Gemini serves its
 * index.gmi when it has one; Gopher, which has no gemtext page, lists
 * it.  Without an index, "listings: false" makes it not found.
 */
static void
serve_dir(const struct route *rt, int fd, const char *path,
    struct response *r)
{
	struct stat	 st;
	char		*idx;
	int		 ifd;

	ifd = dir_index(rt, path, &idx, &st);
	if (ifd != -1 && rt->proto == PROTO_GEMINI) {
		close(fd);
		serve_fd(rt, idx + 1, ifd, &st, r);
		free(idx);
		return;
	}
	free(idx);
	if (ifd != -1)
		close(ifd);
	else if (!rt->cfg->listings) {
		close(fd);
		response_status(r, 51, "Not found");
		return;
	}
	serve_listing(rt, fd, path, r);
}

void
static_file(const struct route *rt, const char *path, struct response *r)
{
	struct stat	 st;
	enum fsafe_kind	 kind;
	int		 fd;

	/* path is "/files/...": the capsule-relative name drops the '/'. */
	if (!archive_hidden_name(path) && serve_kept(rt, path + 1, r))
		return;
	if ((fd = files_open(rt, path, &st, &kind)) == -1) {
		response_status(r, 51, "Not found");
		return;
	}
	if (kind == FSAFE_DIR) {
		if (path[strlen(path) - 1] != '/') {
			char *to = xasprintf("%s/", path);

			close(fd);
			response_redirect(rt, to, r);
			free(to);
			return;
		}
		serve_dir(rt, fd, path, r);
		return;
	}
	serve_fd(rt, path + 1, fd, &st, r);
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
	if (!archive_hidden_name(rel) && serve_kept(rt, rel, r)) {
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
	serve_fd(rt, rel, fd, &st, r);
	free(rel);
}

