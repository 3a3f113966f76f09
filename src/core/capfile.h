/*
 * capfile.h -- what a file of a capsule is: the folder names, and the
 * one rule that says of a name in a folder whether it is a post, a page
 * bundle's post, a page, a section's page, a series file, a file served
 * as it is, or nothing the server reads.
 *
 * docs/writing.md, "The capsule", in code.  The archive's listing
 * (content/dirscan.c), the files a bundle's shortcodes see
 * (content/record.c), the watcher (app/watch.c), the conversion report
 * (app/report.c) and `serve`'s look at a folder (app/preview.c) all ask
 * here, so that none of them can disagree with another.  The rule is
 * by name, in the kind of folder the name is in; that a folder of
 * posts/ is a page bundle is told by what it holds (capfile_bundle(),
 * the one look at the disk here).  Source extensions, index names and
 * the folders of a capsule are tables in capfile.c: a new kind of post
 * file, or a new folder of posts/ with a meaning, is one line there.
 *
 * Knows the file system and names; of what is in the files, only
 * whether an HTML file opens with front matter (capfile_fenced(): only
 * then is it a post).  Every string it returns is static.
 */
#ifndef CAPSULED_CAPFILE_H
#define CAPSULED_CAPFILE_H

#include <stdbool.h>
#include <stddef.h>

/* The folders of a capsule, and its home page's text. */
#define CAPFILE_POSTS	"posts"
#define CAPFILE_PAGES	"pages"
#define CAPFILE_SERIES	"series"
#define CAPFILE_FILES	"files"
#define CAPFILE_HOME	"index.md"

/*
 * Folders below posts/ the archive reads posts from: a date tree
 * ("2020/01/02/x.md") is three deep.  Deeper ones are said and left.
 */
#define CAPFILE_POSTS_DEPTH	8
/* Folders below a bundle's whose files its shortcodes are shown. */
#define CAPFILE_BUNDLE_DEPTH	4

enum capfile_kind {
	CAPFILE_IGNORED,	/* nothing read nor served: why says why */
	CAPFILE_BADNAME,	/* a name the archive would read, but with
				   control characters: left, and said */
	/* Files. */
	CAPFILE_INDEX,		/* index.md of the capsule: the home page */
	CAPFILE_POST,		/* a Markdown, HTML or gemtext file of
				   posts/ */
	CAPFILE_BUNDLE,		/* a page bundle's post: its folder's
				   index.md (index.mdx, index.html...) */
	CAPFILE_SECTION,	/* a section's page of posts/ (_index.md,
				   as Hugo and Zola keep one): not read */
	CAPFILE_PAGE,		/* a Markdown file of pages/ */
	CAPFILE_SERIES_FILE,	/* a Markdown file of series/ */
	CAPFILE_RESOURCE,	/* served as it is: a file of files/, of a
				   bundle's folder, or beside posts */
	CAPFILE_AUTHORS,	/* an authors file (authors.yml): read for
				   the names of author keys, not served */
	/* Folders. */
	CAPFILE_TOP_DIR,	/* the capsule itself */
	CAPFILE_POSTS_DIR,	/* posts/, or a folder of it that is no
				   bundle's: a section, a year */
	CAPFILE_DRAFTS_DIR,	/* a folder of posts/ whose posts are
				   drafts, dated or not: _drafts/ */
	CAPFILE_BUNDLE_DIR,	/* a page bundle's folder */
	CAPFILE_PAGES_DIR,
	CAPFILE_SERIES_DIR,
	CAPFILE_FILES_DIR,	/* files/, a directory of it, or a folder
				   in a bundle's: files served as they are */
};

/* What a source's body is written in, by its extension. */
enum capfile_markup {
	CAPFILE_NO_MARKUP,	/* no source */
	CAPFILE_MARKDOWN,	/* .md, .markdown, .mdown, .mkdn, .mkd */
	CAPFILE_MDX,		/* .mdx: Markdown with JSX (markdown/mdx.h) */
	CAPFILE_HTML,		/* .html, .htm, with front matter, in
				   posts/ only (markdown/htmlpost.h) */
	CAPFILE_GEMTEXT,	/* .gmi, in posts/ only */
};

/*
 * What the entry name of a folder of kind in (a *_DIR kind) is; dir
 * says whether it is a folder (a directory itself, not a link to one).
 * A source's extension wins over dir ("x.md" is a post even when it is
 * a folder, which its reader then refuses).  A folder of posts/ is
 * CAPFILE_POSTS_DIR: capfile_bundle() tells a bundle's.  When why is
 * not NULL it is set, for what the archive does not read (IGNORED,
 * BADNAME, SECTION, RESOURCE, and folders it does not go into), to a
 * few words that say why ("not Markdown: not read"; a markup that is
 * no source here is named: "reStructuredText is not supported..."),
 * else to NULL.  By name alone an HTML file is a source; one that is
 * there is asked with capfile_entry_at().
 */
enum capfile_kind capfile_entry(enum capfile_kind in, const char *name,
		    bool dir, const char **why);
/*
 * capfile_entry() of name, there in the folder open at dfd: an HTML
 * file without front matter (capfile_fenced()) is no post but what
 * another file is in its folder (served beside the posts).
 */
enum capfile_kind capfile_entry_at(int dfd, enum capfile_kind in,
		    const char *name, bool dir, const char **why);
/*
 * Does the file name beneath dfd open (after a UTF-8 BOM) with a front
 * matter fence, a "---" or "+++" line?  Read without following a link;
 * false when it cannot be read.
 */
bool		 capfile_fenced(int dfd, const char *name);
/* The same of the regular file open at fd. */
bool		 capfile_fenced_fd(int fd);
/* Is name a source only with front matter (an HTML file)? */
bool		 capfile_needs_fence(const char *name);
/*
 * The folder name, an entry of a CAPFILE_POSTS_DIR folder open at dfd,
 * as a page bundle: the name of its post (the first of
 * capfile_bundle_index()'s names it holds: "index.md", ...,
 * "index.html" with front matter, "index.gmi") written to idx (size
 * bytes, CAPFILE_INDEX_MAX is enough), or NULL when it holds none (a
 * folder of posts, then).  other, when not NULL (CAPFILE_INDEX_MAX
 * bytes), gets the next such name it holds, or "": that one is neither
 * read nor served (content/files.c).
 */
#define CAPFILE_INDEX_MAX	32
const char	*capfile_bundle(int dfd, const char *name, char *idx,
		    size_t size, char *other);
/*
 * The n'th name a page bundle's post may have ("index.md", then the
 * other Markdown names, "index.mdx", "index.html", "index.htm",
 * "index.gmi"), written to idx (size bytes); false past the last.
 */
bool		 capfile_bundle_index(size_t n, char *idx, size_t size);
/* A source's markup by its extension; CAPFILE_NO_MARKUP for none. */
enum capfile_markup capfile_markup(const char *name);
/*
 * The body a source file's name says it has, by its extension: one read
 * as Markdown ("x.md", "x.mdx", "x.html": capfile_markup() says which),
 * a gemtext one ("x.gmi", posts only).
 */
bool		 capfile_markdown(const char *name);
bool		 capfile_gemtext(const char *name);
/*
 * The length of the source extension name[0..len) ends with (".md":
 * 3), or 0: what a source's name is without it.
 */
size_t		 capfile_ext(const char *name, size_t len);
/*
 * The same for a link: of the sources a link may name as a file (".md",
 * ".mdx", ".gmi"), not ".html", which a link names as a web page.
 */
size_t		 capfile_link_ext(const char *name, size_t len);
/*
 * The n'th name of the folder beside the post file name ("x.md", no
 * folder before it) that a generator keeps the post's files in: "x"
 * (Hexo's post_asset_folder, jekyll-postfiles), then "x.assets"
 * (Typora), written to dir (size bytes); false past the last, when
 * name is no source, or when it does not fit.
 */
bool		 capfile_asset_dir(size_t n, const char *name, char *dir,
		    size_t size);
/* Is path ("x/index.md", beneath posts/) a bundle's post, by name? */
bool		 capfile_bundle_path(const char *path);
/* Is path, beneath posts/, in a drafts folder ("_drafts/x.md")? */
bool		 capfile_in_drafts(const char *path);
/*
 * The n'th name an authors file may have in a folder of kind in
 * (CAPFILE_POSTS_DIR: "authors.yml", ...; CAPFILE_TOP_DIR: the capsule's
 * own, ".authors.yml"), NULL past the last.
 */
const char	*capfile_authors(enum capfile_kind in, size_t n);

#endif
