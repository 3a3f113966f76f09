/*
 * static.c -- the capsule's files a request may read: the static trees
 * (files/ at "/files/", the "root" directory or a plain user capsule at
 * "/": files, directories' index files, gophermaps, listings) and page
 * bundles' files.
 *
 * Files are opened beneath the capsule as the archive allows
 * (tree_open(), archive_bundle_open(); see core/fsafe.c), kept in the
 * site's cache when small enough and the watcher follows the capsule
 * (file_cacheable()), else left open for conn.c to stream.  A
 * directory is its index file, else listing.c's answer: its gophermap,
 * its index.gph or its listing; a .gph file is listing.c's menu of it.
 * No socket I/O.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <strings.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "content/archive.h"
#include "core/config.h"
#include "core/config_types.h"
#include "core/fsafe.h"
#include "core/layout.h"
#include "core/log.h"
#include "core/mime.h"
#include "core/util.h"
#include "site/listing.h"
#include "site/page.h"
#include "site/response.h"
#include "site/site.h"
#include "site/static.h"
#include "site/tree.h"

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
		/* A host with only a tree has it at "/", mount or not. */
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
	return a->index_src == NULL && a->nposts + a->nunlisted == 0 &&
	    a->ndocs + a->nunlisted_docs == 0 && a->nseries == 0 &&
	    a->ndrafts == 0;
}

/*
 * A 20 for the file path of the tree t (NULL: a bundle's), typed as
 * config_file_type() says; text gets the charset its "mime_types" entry
 * names, else its path's, UTF-8 unless told, and gemtext its lang, the
 * site's unless told.
 */
static void
file_type(const struct route *rt, const struct tree *t, const char *path,
    struct response *r)
{
	const char	*mime, *lang, *charset, *typed;

	mime = config_file_type_charset(rt->cfg->types, path,
	    &r->gopher_type, &typed);
	tree_path_meta(rt, t, &lang, &charset);
	if (typed != NULL)
		charset = typed;
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
 * While the watcher follows its tree (tree_watched()).
 */
static int
file_cacheable(const struct route *rt, const struct tree *t,
    const struct stat *st)
{
	const struct config	*c = rt->cfg;

	return tree_watched(rt, t) && c->file_cache_max > 0 &&
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
 * Is rel a gemtext file that rt's format shows as a document of its own
 * (serve_gemtext())?  Gemini serves it as it is, Nex and Finger read
 * its lines as they are; Gopher and the web view convert it.
 */
static int
gmi_converted(const struct route *rt, const char *rel)
{
	char	 type;

	switch (rt->format) {
	case FORMAT_GEMTEXT:
	case FORMAT_NEX:
	case FORMAT_TEXT:
		return 0;
	case FORMAT_GOPHER:
	case FORMAT_HTML:
		break;
	}
	return strcasecmp(config_file_type(rt->cfg->types, rel, &type),
	    "text/gemini") == 0;
}

/*
 * A gemtext file is converted up to this size; a larger one is served
 * as it is.
 */
#define GMI_RENDER_MAX	((size_t)1 << 20)

static void	serve_gemtext(const struct route *, const struct tree *,
		    const char *, const char *, int, const struct stat *, int,
		    struct response *);

/*
 * Answer with the regular file fd (st) of the capsule as it is, rel its
 * name in it ("files/a.png", "posts/x/a.png"), checked as its place
 * says: from memory when small enough (file_cacheable()), read once
 * into the site's slot for rel, and on the pool when the caller can
 * wait (r->may_defer: a disk may be slow); else streamed by conn.c.
 */
static void
serve_file(const struct route *rt, const struct tree *t, const char *rel,
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
 * The file fd (st, rel) at url: a gemtext file that rt's format
 * converts as a document of its own (up to GMI_RENDER_MAX), any other
 * as it is.
 */
static void
serve_fd(const struct route *rt, const struct tree *t, const char *rel,
    const char *url, int fd, const struct stat *st, struct response *r)
{
	if (gmi_converted(rt, rel) && (uint64_t)st->st_size <= GMI_RENDER_MAX)
		serve_gemtext(rt, t, rel, url, fd, st, 0, r);
	else
		serve_file(rt, t, rel, fd, st, r);
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

	if (!file_cacheable(rt, t, NULL) || gmi_converted(rt, rel) ||
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

	*path = tree_join(rel, name);
	if ((fd = tree_open(rt, t, *path, st, &kind)) != -1 &&
	    kind != FSAFE_FILE) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/*
 * A directory of the tree (fd, rel; path ends in '/').  Gemini serves
 * its index file ("index", index.gmi) when it has one; Gopher its
 * gophermap, else a listing.  Without either, a tree without listings
 * makes it not found.  The listing or menu may have been kept.
 */
static void
serve_dir(const struct route *rt, const struct tree *t, int fd,
    const char *rel, const char *path, struct response *r)
{
	struct stat	 st;
	char		*idx;
	int		 ifd, menus = listing_gopher_menu(rt->format);

	if (listing_kept(rt, t, rel, r)) {
		close(fd);
		return;
	}
	/*
	 * A menu may be written by hand: the gophermap, then geomyidae's
	 * index.gph (which every format reads, after its index file).
	 */
	if (listing_map(rt, t, fd, rel, path, r) ||
	    (menus && listing_gph(rt, t, fd, rel, path, r)))
		return;
	/* A configuration made in code may have no index: the default. */
	ifd = dir_file(rt, t, rel, rt->cfg->index != NULL ? rt->cfg->index :
	    "index.gmi", &idx, &st);
	/* The index file is a gemtext page: for gemtext readers only. */
	if (ifd != -1 && !menus) {
		close(fd);
		serve_fd(rt, t, idx, path, ifd, &st, r);
		free(idx);
		return;
	}
	free(idx);
	if (ifd != -1)
		close(ifd);
	else if (!menus && listing_gph(rt, t, fd, rel, path, r))
		return;
	else if (!t->listings) {
		close(fd);
		response_status(r, 51, "Not found");
		return;
	}
	listing_answer(rt, t, fd, rel, path, r);
}

/* What a request asks of a gemtext file (gmi_view()). */
enum gmi_view {
	GMI_FILE,		/* "x.gmi": the file, Gopher its text */
	GMI_MENU,		/* "x.gmi/": Gopher its menu, else 31 */
	GMI_RAW,		/* "x.gmi/raw": the file as written */
};

/* Is path ("/notes/x.gmi") a file of type text/gemini, by its name? */
static int
gemtext_path(const struct route *rt, const char *path)
{
	char	 type;

	return strcasecmp(config_file_type(rt->cfg->types, path, &type),
	    "text/gemini") == 0;
}

/*
 * What path asks of a gemtext file: itself, its menu ("x.gmi/"), or
 * the file as written ("x.gmi/raw", RESPONSE_GMI_RAW); *file is the
 * file's path, malloc'd.  GMI_FILE with *file NULL for any other path.
 */
static enum gmi_view
gmi_view(const struct route *rt, const char *path, char **file)
{
	size_t	 len = strlen(path), rlen = strlen("/" RESPONSE_GMI_RAW);
	char	*f;

	*file = NULL;
	if (len > 1 && path[len - 1] == '/') {
		f = xstrndup(path, len - 1);
		if (gemtext_path(rt, f)) {
			*file = f;
			return GMI_MENU;
		}
		free(f);
	} else if (len > rlen && strcmp(path + len - rlen, "/"
	    RESPONSE_GMI_RAW) == 0) {
		f = xstrndup(path, len - rlen);
		if (gemtext_path(rt, f)) {
			*file = f;
			return GMI_RAW;
		}
		free(f);
	} else if (gemtext_path(rt, path))
		*file = xstrdup(path);
	return GMI_FILE;
}

/* A gemtext file still to convert: made once, maybe kept. */
struct gmi_job {
	int		 fd;		/* owned */
	size_t		 len;		/* its size */
	char		*url;		/* owned: its path in the site */
	const char	*base;		/* the tree's: borrowed, as the route
					   borrows the configuration */
	struct slot	*slot;		/* kept there, or NULL */
	int		 menu;
};

static void
gmi_job_free(void *arg)
{
	struct gmi_job	*j = arg;

	close(j->fd);
	free(j->url);
	free(j);
}

/* Read j's file, render it, keep it: a response_make_fn, any thread. */
static void
gmi_make(const struct route *rt, void *arg, struct response *r)
{
	struct gmi_job	*j = arg;
	struct blob	*b;
	char		*data;
	size_t		 got = 0;
	ssize_t		 n;

	if (j->slot != NULL && (b = cache_get(j->slot)) != NULL) {
		response_use_blob(r, b);
		return;
	}
	data = xmalloc(j->len + 1);
	while (got < j->len) {
		n = pread(j->fd, data + got, j->len - got, (off_t)got);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	b = response_gemtext_file(rt, data, got, j->url, j->base, j->menu);
	free(data);
	if (j->slot != NULL)
		b = site_cache_put(rt->site, j->slot, b);
	response_use_blob(r, b);
}

/*
 * The gemtext file fd (st, rel) of the tree t (NULL: a bundle's, an
 * asset), at url, converted for rt's format: a document (menu 0: text
 * as a gemtext post's is over Gopher, a page on the web view), or its
 * Gopher menu; made on the pool when the caller can wait and kept while
 * the watcher follows the tree.  fd is taken.
 */
static void
serve_gemtext(const struct route *rt, const struct tree *t, const char *rel,
    const char *url, int fd, const struct stat *st, int menu,
    struct response *r)
{
	struct gmi_job	*j;
	const char	*lang, *charset;
	char		*key;

	r->gopher_type = menu ? '1' : '0';
	if (menu)
		response_status(r, 20, "text/gemini; charset=utf-8");
	else if (rt->format == FORMAT_HTML) {
		/* Written in UTF-8 whatever the file's was; its lang. */
		tree_path_meta(rt, t, &lang, &charset);
		response_status(r, 20, "text/html; charset=utf-8; lang=%s",
		    lang != NULL ? lang : rt->a->lang);
	} else
		response_status(r, 20, "text/plain; charset=utf-8");
	j = xcalloc(1, sizeof(*j));
	j->fd = fd;
	j->len = (size_t)st->st_size;
	j->url = xstrdup(url);
	j->base = t != NULL ? t->base : rt->cfg->base;
	j->menu = menu;
	if (t != NULL && tree_watched(rt, t)) {
		/*
		 * Named as no file is: a control byte, then what made it,
		 * for which format.
		 */
		key = xasprintf("\001%c%d\001%s\001%s", menu ? 'N' : 'T',
		    (int)rt->format, url, rel);
		j->slot = site_file_slot(rt->site, key, 1);
		free(key);
	}
	if (r->may_defer) {
		response_defer_make(rt, gmi_make, j, gmi_job_free, r);
		return;
	}
	gmi_make(rt, j, r);
	gmi_job_free(j);
}

/*
 * The gemtext file at file (a path of the tree t) as view asks (the
 * file itself is serve_fd()'s): its menu over Gopher (serve_gemtext()),
 * elsewhere the file (31, as a post's menu is); "raw" the file as
 * written, text/plain, so that every client shows its source.  51 for
 * what the tree does not serve; a file larger than GMI_RENDER_MAX is
 * served as it is.
 */
static void
gemtext_serve(const struct route *rt, const struct tree *t, const char *file,
    enum gmi_view view, struct response *r)
{
	struct stat	 st;
	enum fsafe_kind	 kind;
	char		*rel;
	int		 fd;

	rel = tree_rel(t, file);
	if ((fd = tree_open(rt, t, rel, &st, &kind)) == -1 ||
	    kind != FSAFE_FILE) {
		if (fd != -1)
			close(fd);
		free(rel);
		response_status(r, 51, "Not found");
		return;
	}
	if (view == GMI_MENU && !listing_gopher_menu(rt->format)) {
		close(fd);
		response_redirect(rt, file, r);
	} else if (view == GMI_RAW || (uint64_t)st.st_size > GMI_RENDER_MAX) {
		serve_file(rt, t, rel, fd, &st, r);
		if (view == GMI_RAW && r->status == 20)
			response_status(r, 20, "text/plain; charset=utf-8");
	} else
		serve_gemtext(rt, t, rel, file, fd, &st, view == GMI_MENU, r);
	free(rel);
}

/* path (beginning with t->url) in the tree t. */
static void
tree_serve(const struct route *rt, const struct tree *t, const char *path,
    struct response *r)
{
	struct stat	 st;
	enum fsafe_kind	 kind;
	enum gmi_view	 view;
	char		*rel, *file;
	int		 fd;

	/* A gemtext file's menu, or the file as written (serve_fd()). */
	view = gmi_view(rt, path, &file);
	if (file != NULL && view != GMI_FILE) {
		gemtext_serve(rt, t, file, view, r);
		free(file);
		return;
	}
	free(file);
	rel = tree_rel(t, path);
	if (*rel != '\0' && !archive_hidden_name(rel) &&
	    !tree_is_gophermap(rel) && !tree_is_gph(rel) &&
	    serve_kept(rt, t, rel, r)) {
		free(rel);
		return;
	}
	/* A .gph file is the menu it makes, over every surface. */
	if (*rel != '\0' && tree_is_gph(rel) && !archive_hidden_name(rel) &&
	    path[strlen(path) - 1] != '/') {
		listing_gph_file(rt, t, rel, path, r);
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
	serve_fd(rt, t, rel, path, fd, &st, r);
	free(rel);
}

/* Tree w of rt's site into t; 0 when the site has none. */
static int
tree_of(const struct route *rt, enum static_which w, struct tree *t)
{
	switch (w) {
	case STATIC_FILES:
		files_tree(rt, t);
		return 1;
	case STATIC_ROOT:
		break;
	}
	return root_tree(rt, t);
}

char *
static_ident(const struct route *rt, enum static_which w, const char *path)
{
	struct tree	 t;

	if (!tree_of(rt, w, &t))
		return NULL;
	return tree_rel(&t, path);
}

void
static_serve(const struct route *rt, enum static_which w, const char *path,
    struct response *r)
{
	struct tree	 t;

	if (!tree_of(rt, w, &t)) {
		response_status(r, 51, "Not found");
		return;
	}
	tree_serve(rt, &t, path, r);
}

void
static_bundle_file(const struct route *rt, const struct post *p,
    const char *name, struct response *r)
{
	struct stat	 st;
	char		*rel, *url;
	int		 fd;

	rel = archive_bundle_rel(rt->a, p, name);
	if (!archive_hidden_name(rel) && serve_kept(rt, NULL, rel, r)) {
		free(rel);
		return;
	}
	if ((fd = archive_bundle_open(rt->a, p, name, rt->cfg->files_hardlinks,
	    &st)) == -1) {
		tree_refused(rt, rel);
		free(rel);
		response_status(r, 51, "Not found");
		return;
	}
	url = layout_path(LAYOUT_BUNDLE_FILE, p->slug, name);
	serve_fd(rt, NULL, rel, url, fd, &st, r);
	free(url);
	free(rel);
}

void
static_asset(const struct route *rt, const char *rel, struct response *r)
{
	struct tree	 t;
	struct stat	 st;
	enum fsafe_kind	 kind;
	int		 fd;

	/* Not watched (app/watch.c follows none of these): never kept. */
	memset(&t, 0, sizeof(t));
	t.dir = "";
	t.url = "/";
	t.base = rt->cfg->base;
	if ((fd = archive_files_open(rt->a, rel, rt->cfg->follow_symlinks,
	    rt->cfg->files_hardlinks, &st, &kind)) == -1 ||
	    kind != FSAFE_FILE) {
		if (fd == -1)
			tree_refused(rt, rel);
		else
			close(fd);
		response_status(r, 51, "Not found");
		return;
	}
	serve_fd(rt, &t, rel, rt->reqpath, fd, &st, r);
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
static_conflicts(const struct config *c, struct archive *a)
{
	struct stat	 st;
	enum fsafe_kind	 kind;
	struct dirent	*de;
	DIR		*d;
	const char	*by;
	char		*line;
	size_t		 n = 0;
	int		 fd;

	/* A host with only a tree has no generated page to shadow it. */
	if (c->root == NULL || c->owned || static_plain(a) ||
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
		line = xasprintf("%s/%s/%s: not served at /%s, which is %s "
		    "(generated pages win; \"mount\" moves them)", a->dir,
		    c->root, de->d_name, de->d_name, by);
		archive_say(a, NULL, ARCHIVE_SAID_OTHER, 1, LOG_LEVEL_WARN,
		    line);
		free(line);
		n++;
	}
	closedir(d);
	return n;
}

