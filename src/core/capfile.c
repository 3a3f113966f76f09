/*
 * capfile.c -- what a file of a capsule is (see capfile.h).
 *
 * Three tables say it.  exts[]: the extensions of source files, and
 * in which folders each is one.  folders[]: per kind of folder, what a
 * source, another file and a folder in it are.  named[]: names with a
 * meaning of their own in a kind of folder, whole ("posts" at the top)
 * or as the stem of a source ("index.md" in a bundle's folder).  The
 * rule reads them in that order: a name of its own, a source, then a
 * file or a folder as its folder says.  assets[]: the folders beside a
 * post file that generators keep its files in.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "core/capfile.h"
#include "core/util.h"

/* The folders a source extension is a source in (folders[].sources). */
#define IN_POSTS	0x1
#define IN_PAGES	0x2
#define IN_SERIES	0x4

static const struct ext {
	const char	*ext;
	unsigned	 in;		/* IN_* */
	bool		 gemtext;	/* else Markdown */
} exts[] = {
	{ ".md",	IN_POSTS | IN_PAGES | IN_SERIES,	false },
	{ ".gmi",	IN_POSTS,				true },
};

static const struct folder {
	enum capfile_kind kind;
	unsigned	 sources;	/* IN_* of its sources, or 0 */
	enum capfile_kind source;	/* what a source file is in it */
	enum capfile_kind file;		/* what another file is */
	enum capfile_kind dir;		/* what a folder is */
	const char	*why_file;	/* why another file is not read */
	const char	*why_dir;	/* why a folder is not gone into */
} folders[] = {
	{ CAPFILE_TOP_DIR, 0, CAPFILE_IGNORED, CAPFILE_IGNORED,
	    CAPFILE_IGNORED, "not a file of a capsule",
	    "not a folder of a capsule" },
	{ CAPFILE_POSTS_DIR, IN_POSTS, CAPFILE_POST, CAPFILE_RESOURCE,
	    CAPFILE_POSTS_DIR, "not .md or .gmi: no post", NULL },
	{ CAPFILE_BUNDLE_DIR, IN_POSTS, CAPFILE_RESOURCE, CAPFILE_RESOURCE,
	    CAPFILE_FILES_DIR, "a file of its page bundle", NULL },
	{ CAPFILE_PAGES_DIR, IN_PAGES, CAPFILE_PAGE, CAPFILE_IGNORED,
	    CAPFILE_IGNORED, "not .md: not read",
	    "a folder: only the files of this folder are read" },
	{ CAPFILE_SERIES_DIR, IN_SERIES, CAPFILE_SERIES_FILE, CAPFILE_IGNORED,
	    CAPFILE_IGNORED, "not .md: not read",
	    "a folder: only the files of this folder are read" },
	{ CAPFILE_FILES_DIR, 0, CAPFILE_RESOURCE, CAPFILE_RESOURCE,
	    CAPFILE_FILES_DIR, "a file served as it is", NULL },
};

/*
 * Names with a meaning of their own in a kind of folder: whole, or
 * (stem) as a source's name without its extension.
 */
static const struct named {
	enum capfile_kind in;
	const char	*name;
	bool		 stem;
	enum capfile_kind kind;
} named[] = {
	{ CAPFILE_TOP_DIR,	CAPFILE_HOME,	false,	CAPFILE_INDEX },
	{ CAPFILE_TOP_DIR,	CAPFILE_POSTS,	false,	CAPFILE_POSTS_DIR },
	{ CAPFILE_TOP_DIR,	CAPFILE_PAGES,	false,	CAPFILE_PAGES_DIR },
	{ CAPFILE_TOP_DIR,	CAPFILE_SERIES,	false,	CAPFILE_SERIES_DIR },
	{ CAPFILE_TOP_DIR,	CAPFILE_FILES,	false,	CAPFILE_FILES_DIR },
	{ CAPFILE_POSTS_DIR,	"_index",	true,	CAPFILE_SECTION },
	{ CAPFILE_BUNDLE_DIR,	"index",	true,	CAPFILE_BUNDLE },
};

/*
 * The folder beside a post file that holds its files, as generators
 * name it after the file's name without its extension: Hexo's
 * post_asset_folder and jekyll-postfiles ("x.md" beside "x/"), Typora
 * ("x.assets/").  Its files are the post's, as a bundle's are
 * (content/files.c), looked for there before beside the post.
 */
static const char *const assets[] = { "", ".assets" };

/* A name with bytes that would garble a log line. */
static bool
garbled(const char *name)
{
	for (; *name != '\0'; name++)
		if ((unsigned char)*name < 0x20 || *name == 0x7F)
			return true;
	return false;
}

/*
 * The entry of exts[] name[0..len) ends with (more than the extension),
 * or NULL.
 */
static const struct ext *
ext_in(const char *name, size_t len)
{
	size_t	 elen, i;

	for (i = 0; i < nitems(exts); i++) {
		elen = strlen(exts[i].ext);
		if (len > elen && memcmp(name + len - elen, exts[i].ext,
		    elen) == 0)
			return &exts[i];
	}
	return NULL;
}

static const struct ext *
ext_of(const char *name)
{
	return ext_in(name, strlen(name));
}

static const struct folder *
folder_of(enum capfile_kind in)
{
	size_t	 i;

	for (i = 0; i < nitems(folders); i++)
		if (folders[i].kind == in)
			return &folders[i];
	return NULL;
}

/* named[]'s kind for name in a folder of kind in; IGNORED for none. */
static enum capfile_kind
named_kind(enum capfile_kind in, const char *name, const struct ext *x)
{
	size_t	 i, len;

	for (i = 0; i < nitems(named); i++) {
		if (named[i].in != in)
			continue;
		if (!named[i].stem && strcmp(name, named[i].name) == 0)
			return named[i].kind;
		len = strlen(named[i].name);
		if (named[i].stem && x != NULL &&
		    strncmp(name, named[i].name, len) == 0 &&
		    strcmp(name + len, x->ext) == 0)
			return named[i].kind;
	}
	return CAPFILE_IGNORED;
}

enum capfile_kind
capfile_entry(enum capfile_kind in, const char *name, bool dir,
    const char **why)
{
	const struct folder	*f = folder_of(in);
	const struct ext	*x = ext_of(name);
	enum capfile_kind	 k;
	const char		*w = NULL;

	if (x != NULL && (f == NULL || !(x->in & f->sources)))
		x = NULL;		/* not a source here */
	if (name[0] == '.' || f == NULL) {
		k = CAPFILE_IGNORED;
		w = "a hidden name";
	} else if ((k = named_kind(in, name, x)) != CAPFILE_IGNORED)
		;
	else if (x != NULL)
		k = f->source;
	else if (dir) {
		k = f->dir;
		w = f->why_dir;
	} else {
		k = f->file;
		w = f->why_file;
	}
	switch (k) {
	case CAPFILE_INDEX:
	case CAPFILE_POST:
	case CAPFILE_BUNDLE:
	case CAPFILE_PAGE:
	case CAPFILE_SERIES_FILE:
	case CAPFILE_POSTS_DIR:
		/* What the archive reads is named in its log lines. */
		if (garbled(name)) {
			k = CAPFILE_BADNAME;
			w = "a file name with control characters";
		}
		break;
	case CAPFILE_SECTION:
		w = "a section's page, not a post";
		break;
	case CAPFILE_RESOURCE:
		if (w == NULL)
			w = f->why_file;
		break;
	case CAPFILE_IGNORED:
	case CAPFILE_BADNAME:
	case CAPFILE_TOP_DIR:
	case CAPFILE_BUNDLE_DIR:
	case CAPFILE_PAGES_DIR:
	case CAPFILE_SERIES_DIR:
	case CAPFILE_FILES_DIR:
		break;
	}
	if (why != NULL)
		*why = w;
	return k;
}

bool
capfile_bundle_index(size_t n, char *idx, size_t size)
{
	size_t	 i, k;

	for (i = 0; i < nitems(named); i++) {
		if (named[i].kind != CAPFILE_BUNDLE)
			continue;
		for (k = 0; k < nitems(exts); k++) {
			if (!(exts[k].in & IN_POSTS) || n-- > 0)
				continue;
			snprintf(idx, size, "%s%s", named[i].name, exts[k].ext);
			return true;
		}
	}
	return false;
}

const char *
capfile_bundle(int dfd, const char *name, char *idx, size_t size,
    bool *both)
{
	struct stat	 st;
	char		 path[NAME_MAX + CAPFILE_INDEX_MAX + 2];
	char		 one[CAPFILE_INDEX_MAX];
	size_t		 i;
	bool		 found = false;

	*both = false;
	for (i = 0; capfile_bundle_index(i, one, sizeof(one)); i++) {
		snprintf(path, sizeof(path), "%s/%s", name, one);
		if (fstatat(dfd, path, &st, AT_SYMLINK_NOFOLLOW) == -1)
			continue;
		if (found)
			*both = true;
		else
			snprintf(idx, size, "%s", one);
		found = true;
	}
	return found ? idx : NULL;
}

size_t
capfile_ext(const char *name, size_t len)
{
	const struct ext	*x = ext_in(name, len);

	return x != NULL ? strlen(x->ext) : 0;
}

bool
capfile_markdown(const char *name)
{
	const struct ext	*x = ext_of(name);

	return x != NULL && !x->gemtext;
}

bool
capfile_gemtext(const char *name)
{
	const struct ext	*x = ext_of(name);

	return x != NULL && x->gemtext;
}

bool
capfile_bundle_path(const char *path)
{
	const char	*slash = strrchr(path, '/');

	return slash != NULL && capfile_entry(CAPFILE_BUNDLE_DIR, slash + 1,
	    false, NULL) == CAPFILE_BUNDLE;
}

bool
capfile_asset_dir(size_t n, const char *name, char *dir, size_t size)
{
	size_t	 elen;

	/* Every extension capfile_ext() knows is a source's. */
	if (n >= nitems(assets) || (elen = capfile_ext(name, strlen(name))) ==
	    0)
		return false;
	return snprintf(dir, size, "%.*s%s", (int)(strlen(name) - elen), name,
	    assets[n]) < (int)size;
}
