/*
 * capfile.c -- what a file of a capsule is (see capfile.h).
 *
 * Four tables say it.  exts[]: the extensions of source files, in
 * which folders each is one, and the markup of its body.  folders[]:
 * per kind of folder, what a source, another file and a folder in it
 * are.  named[]: names with a meaning of their own in a kind of folder,
 * whole ("posts" at the top, "_drafts" in posts/) or as the stem of a
 * source ("index.md" in a bundle's folder).  markups[]: the extensions
 * of markups that are no source here (reStructuredText, an R Markdown
 * source), so that what becomes of them is said.  The rule reads them
 * in that order: a name of its own, a source, a markup of no source,
 * then a file or a folder as its folder says.  A fifth,
 * assets[]: the folders beside a post file that generators keep its
 * files in.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/capfile.h"
#include "core/util.h"

/* The folders a source extension is a source in (folders[].sources). */
#define IN_POSTS	0x1
#define IN_PAGES	0x2
#define IN_SERIES	0x4

#define IN_MARKDOWN	(IN_POSTS | IN_PAGES | IN_SERIES)
#define EXT(s)		s, sizeof(s) - 1

/*
 * In the order a bundle's index is looked for: with two, the first is
 * the post (capfile_bundle()).
 */
static const struct ext {
	const char	*ext;
	size_t		 len;		/* of ext */
	unsigned	 in;		/* IN_* */
	enum capfile_markup markup;
	/*
	 * A source only when it opens with front matter (capfile_fenced():
	 * Hugo's and blogdown's HTML content), else a file like any other;
	 * and a link that names one is a link to a web page, not to a
	 * source (capfile_link_ext()).
	 */
	bool		 fenced;
} exts[] = {
	{ EXT(".md"),		IN_MARKDOWN,	CAPFILE_MARKDOWN,	false },
	{ EXT(".markdown"),	IN_MARKDOWN,	CAPFILE_MARKDOWN,	false },
	{ EXT(".mdown"),	IN_MARKDOWN,	CAPFILE_MARKDOWN,	false },
	{ EXT(".mkdn"),		IN_MARKDOWN,	CAPFILE_MARKDOWN,	false },
	{ EXT(".mkd"),		IN_MARKDOWN,	CAPFILE_MARKDOWN,	false },
	{ EXT(".mdx"),		IN_MARKDOWN,	CAPFILE_MDX,		false },
	{ EXT(".html"),		IN_POSTS,	CAPFILE_HTML,		true },
	{ EXT(".htm"),		IN_POSTS,	CAPFILE_HTML,		true },
	{ EXT(".gmi"),		IN_POSTS,	CAPFILE_GEMTEXT,	false },
};

/*
 * Markups of files that are no source, so that --check names them: in
 * a folder of posts (or a bundle's) each is served as a file, or, for
 * a source that a generator renders into a post beside it (blogdown's
 * R Markdown: "index.Rmd" into "index.html", "x.Rmarkdown" into
 * "x.markdown"), never: the rendered file is the post.
 */
static const struct markup {
	const char	*ext;
	bool		 rendered;	/* a generator's source: never served */
	const char	*why_posts;	/* in a folder of posts or a bundle's */
	const char	*why_other;	/* in pages/ or series/ */
} markups[] = {
	{ ".Rmd", true, "an R Markdown source: the .html rendered from it "
	    "is the post, and it is never served",
	    "an R Markdown source: not read" },
	{ ".rmd", true, "an R Markdown source: the .html rendered from it "
	    "is the post, and it is never served",
	    "an R Markdown source: not read" },
	{ ".Rmarkdown", true, "an R Markdown source: the .markdown rendered "
	    "from it is the post, and it is never served",
	    "an R Markdown source: not read" },
	{ ".rst", false, "reStructuredText is not supported: no post, "
	    "served as a file", "reStructuredText is not supported: not read" },
	{ ".adoc", false, "AsciiDoc is not supported: no post, served as a "
	    "file", "AsciiDoc is not supported: not read" },
	{ ".asciidoc", false, "AsciiDoc is not supported: no post, served as "
	    "a file", "AsciiDoc is not supported: not read" },
	{ ".org", false, "Org is not supported: no post, served as a file",
	    "Org is not supported: not read" },
	{ ".textile", false, "Textile is not supported: no post, served as a "
	    "file", "Textile is not supported: not read" },
	{ ".ipynb", false, "a Jupyter notebook is not supported: no post, "
	    "served as a file",
	    "a Jupyter notebook is not supported: not read" },
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
	    CAPFILE_POSTS_DIR, "not Markdown, HTML or gemtext: no post", NULL },
	{ CAPFILE_DRAFTS_DIR, IN_POSTS, CAPFILE_POST, CAPFILE_RESOURCE,
	    CAPFILE_POSTS_DIR, "not Markdown, HTML or gemtext: no post", NULL },
	{ CAPFILE_BUNDLE_DIR, IN_POSTS, CAPFILE_RESOURCE, CAPFILE_RESOURCE,
	    CAPFILE_FILES_DIR, "a file of its page bundle", NULL },
	{ CAPFILE_PAGES_DIR, IN_PAGES, CAPFILE_PAGE, CAPFILE_IGNORED,
	    CAPFILE_IGNORED, "not Markdown: not read",
	    "a folder: only the files of this folder are read" },
	{ CAPFILE_SERIES_DIR, IN_SERIES, CAPFILE_SERIES_FILE, CAPFILE_IGNORED,
	    CAPFILE_IGNORED, "not Markdown: not read",
	    "a folder: only the files of this folder are read" },
	{ CAPFILE_FILES_DIR, 0, CAPFILE_RESOURCE, CAPFILE_RESOURCE,
	    CAPFILE_FILES_DIR, "a file served as it is", NULL },
};

/*
 * Names with a meaning of their own in a kind of folder: whole, or
 * (stem) as a source's name without its extension.  A whole name is
 * read even when hidden (mkdocs-material's ".authors.yml").
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
	/* Jekyll's and Hexo's unpublished posts, dated or not. */
	{ CAPFILE_POSTS_DIR,	"_drafts",	false,	CAPFILE_DRAFTS_DIR },
	/*
	 * Who the author keys of posts are: Docusaurus's file in its blog
	 * folder, mkdocs-material's (hidden) in its blog folder, above the
	 * posts.  In this order in one folder.  (Only a hidden one at the
	 * top: serve DIR takes a folder with a capsule's names at its top
	 * for a capsule, and a blog folder's authors.yml is its posts'.)
	 */
	{ CAPFILE_POSTS_DIR,	"authors.yml",	false,	CAPFILE_AUTHORS },
	{ CAPFILE_POSTS_DIR,	"authors.yaml",	false,	CAPFILE_AUTHORS },
	{ CAPFILE_POSTS_DIR,	".authors.yml",	false,	CAPFILE_AUTHORS },
	{ CAPFILE_TOP_DIR,	".authors.yml",	false,	CAPFILE_AUTHORS },
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

/* Does name[0..len) end with ext, with more than the extension? */
static bool
ends_with(const char *name, size_t len, const char *ext)
{
	size_t	 elen = strlen(ext);

	return len > elen && memcmp(name + len - elen, ext, elen) == 0;
}

/*
 * The entry of exts[] name[0..len) ends with (more than the extension),
 * or NULL.  Asked of every name and link, so its last dot is found once.
 */
static const struct ext *
ext_in(const char *name, size_t len)
{
	const char	*dot;
	size_t		 i, elen;

	if (len < 2 || (dot = memrchr(name + 1, '.', len - 1)) == NULL)
		return NULL;
	elen = len - (size_t)(dot - name);
	for (i = 0; i < nitems(exts); i++)
		if (exts[i].len == elen && memcmp(dot, exts[i].ext, elen) == 0)
			return &exts[i];
	return NULL;
}

static const struct ext *
ext_of(const char *name)
{
	return ext_in(name, strlen(name));
}

static const struct markup *
markup_of(const char *name)
{
	size_t	 i, len = strlen(name);

	for (i = 0; i < nitems(markups); i++)
		if (ends_with(name, len, markups[i].ext))
			return &markups[i];
	return NULL;
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

/*
 * named[]'s kind for name in a folder of kind in; IGNORED for none.  A
 * stem is a source's name ("index" of "index.md"), so no hidden name
 * is one: only whole names can be hidden (".authors.yml").
 */
static enum capfile_kind
named_kind(enum capfile_kind in, const char *name, const struct ext *x)
{
	size_t	 i, len;

	for (i = 0; i < nitems(named); i++) {
		if (named[i].in != in || named[i].name[0] != name[0])
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
	const struct markup	*mk;
	enum capfile_kind	 k;
	const char		*w = NULL;

	if (x != NULL && (f == NULL || !(x->in & f->sources)))
		x = NULL;		/* not a source here */
	if (f == NULL)
		k = CAPFILE_IGNORED;
	else if ((k = named_kind(in, name, x)) != CAPFILE_IGNORED)
		;
	else if (name[0] == '.')
		w = "a hidden name";
	else if (x != NULL)
		k = f->source;
	else if (!dir && f->sources != 0 && (mk = markup_of(name)) != NULL) {
		/* Where other files are served, a renderer's source is not. */
		k = f->file == CAPFILE_RESOURCE && !mk->rendered ?
		    CAPFILE_RESOURCE : CAPFILE_IGNORED;
		w = f->file == CAPFILE_RESOURCE ? mk->why_posts :
		    mk->why_other;
	} else if (dir) {
		k = f->dir;
		w = f->why_dir;
	} else {
		k = f->file;
		w = f->why_file;
	}
	if (f == NULL)
		w = "a hidden name";
	switch (k) {
	case CAPFILE_INDEX:
	case CAPFILE_POST:
	case CAPFILE_BUNDLE:
	case CAPFILE_PAGE:
	case CAPFILE_SERIES_FILE:
	case CAPFILE_POSTS_DIR:
	case CAPFILE_DRAFTS_DIR:
		/* What the archive reads is named in its log lines. */
		if (garbled(name)) {
			k = CAPFILE_BADNAME;
			w = "a file name with control characters";
		}
		break;
	case CAPFILE_SECTION:
		w = "a section's page, not a post";
		break;
	case CAPFILE_AUTHORS:
		w = "an authors file: the names of the posts' author keys";
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
capfile_fenced(int dfd, const char *name)
{
	bool	 yes;
	int	 fd;

	if ((fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
	    O_CLOEXEC)) == -1)
		return false;
	yes = capfile_fenced_fd(fd);
	close(fd);
	return yes;
}

bool
capfile_fenced_fd(int fd)
{
	char	 b[64];
	ssize_t	 n;
	size_t	 off = 0;

	n = pread(fd, b, sizeof(b), 0);
	if (n >= 3 && memcmp(b, "\xEF\xBB\xBF", 3) == 0)
		off = 3;		/* a UTF-8 BOM */
	if (n < (ssize_t)off + 3 || (memcmp(b + off, "---", 3) != 0 &&
	    memcmp(b + off, "+++", 3) != 0))
		return false;
	/* The fence is a line of its own: "---" then its end. */
	for (off += 3; off < (size_t)n; off++)
		if (b[off] != ' ' && b[off] != '\t' && b[off] != '\r')
			return b[off] == '\n';
	return (size_t)n < sizeof(b);
}

bool
capfile_needs_fence(const char *name)
{
	const struct ext	*x = ext_of(name);

	return x != NULL && x->fenced;
}

enum capfile_kind
capfile_entry_at(int dfd, enum capfile_kind in, const char *name, bool dir,
    const char **why)
{
	const struct folder	*f;
	enum capfile_kind	 k = capfile_entry(in, name, dir, why);

	if ((k != CAPFILE_POST && k != CAPFILE_BUNDLE) || dir ||
	    !capfile_needs_fence(name) || capfile_fenced(dfd, name))
		return k;
	/* An HTML file without front matter: what other files are. */
	f = folder_of(in);
	if (why != NULL)
		*why = f->why_file;
	return f->file;
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
    char *other)
{
	struct stat	 st;
	char		 path[NAME_MAX + CAPFILE_INDEX_MAX + 2];
	char		 one[CAPFILE_INDEX_MAX];
	size_t		 i;
	bool		 found = false;

	if (other != NULL)
		*other = '\0';
	for (i = 0; capfile_bundle_index(i, one, sizeof(one)); i++) {
		snprintf(path, sizeof(path), "%s/%s", name, one);
		if (fstatat(dfd, path, &st, AT_SYMLINK_NOFOLLOW) == -1 ||
		    (capfile_needs_fence(one) && !capfile_fenced(dfd, path)))
			continue;
		if (!found)
			snprintf(idx, size, "%s", one);
		else if (other != NULL && *other == '\0')
			snprintf(other, CAPFILE_INDEX_MAX, "%s", one);
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

size_t
capfile_link_ext(const char *name, size_t len)
{
	const struct ext	*x = ext_in(name, len);

	return x != NULL && !x->fenced ? strlen(x->ext) : 0;
}

enum capfile_markup
capfile_markup(const char *name)
{
	const struct ext	*x = ext_of(name);

	return x != NULL ? x->markup : CAPFILE_NO_MARKUP;
}

bool
capfile_markdown(const char *name)
{
	const struct ext	*x = ext_of(name);

	return x != NULL && x->markup != CAPFILE_GEMTEXT;
}

bool
capfile_gemtext(const char *name)
{
	const struct ext	*x = ext_of(name);

	return x != NULL && x->markup == CAPFILE_GEMTEXT;
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

const char *
capfile_authors(enum capfile_kind in, size_t n)
{
	size_t	 i;

	for (i = 0; i < nitems(named); i++)
		if (named[i].in == in && named[i].kind == CAPFILE_AUTHORS &&
		    n-- == 0)
			return named[i].name;
	return NULL;
}

bool
capfile_in_drafts(const char *path)
{
	const char	*p, *slash;
	char		 seg[NAME_MAX + 1];

	for (p = path; (slash = strchr(p, '/')) != NULL; p = slash + 1) {
		if ((size_t)(slash - p) >= sizeof(seg))
			continue;
		memcpy(seg, p, (size_t)(slash - p));
		seg[slash - p] = '\0';
		if (capfile_entry(CAPFILE_POSTS_DIR, seg, true, NULL) ==
		    CAPFILE_DRAFTS_DIR)
			return true;
	}
	return false;
}
