/*
 * dirscan.c -- the folders of a capsule, listed: which names in
 * posts/, series/ and pages/ are files of the archive, in sorted name
 * order (so every run gives the same result), and which folders of
 * posts/ are page bundles.
 *
 * posts/ is read whole, every folder beneath it (sections, year and
 * date folders, bundles at any depth) to CAPFILE_POSTS_DEPTH, by the
 * one tree walk (core/dirwalk.h: beneath the parent's descriptor, no
 * link followed, hidden names left out); what each name is, is
 * core/capfile.h's rule.  Names with control characters are left out
 * with a warning, and so are folders too deep; a section's page and a
 * link are named at info level, so that --check says what it did not
 * take and why.  Knows the file system; the files themselves are read
 * by record.c.  What it finds goes to the struct archive_scan it is
 * given: names back to the caller, warnings to the scan's sink.  The
 * lists are malloc'd, the caller's (util_free_strings()).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "content/archive.h"
#include "content/archive_int.h"
#include "core/capfile.h"
#include "core/dirwalk.h"
#include "core/util.h"

/*
 * Entries of a folder of the archive read, at most (posts/ with every
 * folder beneath it counts as one): a capsule served from a home
 * folder by mistake ends there, said, instead of reading a disk.
 */
#define DIRSCAN_MAX_ENTRIES	1000000

static int
cmp_name(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* A listing under way. */
struct listing {
	struct archive_scan *s;
	const char	*sub;		/* "posts", "pages": messages */
	enum capfile_kind in;		/* the kind of sub */
	char		**v;		/* the names; owned */
	size_t		 n, cap;
};

static void
add(struct listing *l, char *name)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 64;
		l->v = xreallocarray(l->v, l->cap, sizeof(*l->v));
	}
	l->v[l->n++] = name;
}

/*
 * "sub/path: why", a warning about the folder path ("2019/", or "" for
 * sub itself) of the listing.
 */
static void
warn(struct listing *l, const char *path, const char *why, int skipped)
{
	char	*rel;

	rel = xasprintf("%s/%s", l->sub, path);
	scan_warn(l->s, rel, 0, 0, why, skipped);
	free(rel);
}

/* "sub/path: why", a note (not a warning) about path of the listing. */
static void
note(struct listing *l, const char *path, const char *why)
{
	char	*rel;

	rel = xasprintf("%s/%s", l->sub, path);
	scan_note(l->s, rel, 0, 0, why);
	free(rel);
}

/* warn() of the folder e names: "posts/2019/: why". */
static void
warn_dir(struct listing *l, const struct dirwalk_entry *e, const char *why)
{
	char	*dir;

	dir = xasprintf("%s/", e->path);
	warn(l, *e->path != '\0' ? dir : "", why, 0);
	free(dir);
}

/*
 * A folder entry e of posts/ (its folder's own path e->path) that is a
 * page bundle: its post's name added, the folder not gone into.  0
 * when it is no bundle.
 */
static int
bundle(struct listing *l, const struct dirwalk_entry *e)
{
	char	 idx[CAPFILE_INDEX_MAX], other[CAPFILE_INDEX_MAX];
	char	*rel, why[128];

	if (e->type != DIRWALK_DIR || capfile_bundle(e->dfd, e->name, idx,
	    sizeof(idx), other) == NULL)
		return 0;
	add(l, xasprintf("%s/%s", e->path, idx));
	if (*other != '\0') {
		rel = xasprintf("%s/%s/%s", l->sub, e->path, other);
		snprintf(why, sizeof(why), "%s is this bundle's post: %s is "
		    "neither read nor served", idx, other);
		scan_warn(l->s, rel, 1, 1, why, 0);
		free(rel);
	}
	return 1;
}

/*
 * One entry of the folder being listed, or of a folder of posts/: the
 * rule says what it is, and that decides.
 */
static enum dirwalk_answer
entry(void *arg, struct dirwalk_entry *e)
{
	struct listing		*l = arg;
	enum capfile_kind	 k;
	const char		*why;
	char			*dir, msg[160];
	int			 skip;

	switch (e->event) {
	case DIRWALK_ENTRY:
		break;
	case DIRWALK_IN:
		dir = xasprintf("%s/", e->path);
		skip = record_dir_not_owned(l->s, e->fd, dir);
		free(dir);
		return skip ? DIRWALK_SKIP : DIRWALK_NEXT;
	case DIRWALK_OUT:
		return DIRWALK_NEXT;
	case DIRWALK_DEEP:
		snprintf(msg, sizeof(msg), "more than %d folders deep, not "
		    "loaded", CAPFILE_POSTS_DEPTH);
		warn_dir(l, e, msg);
		return DIRWALK_NEXT;
	case DIRWALK_FAIL:
		snprintf(msg, sizeof(msg), "%s, not loaded",
		    strerror(e->err));
		warn_dir(l, e, msg);
		return DIRWALK_NEXT;
	case DIRWALK_FULL:
		snprintf(msg, sizeof(msg), "more than %d entries: the rest "
		    "not loaded", DIRSCAN_MAX_ENTRIES);
		warn_dir(l, e, msg);
		return DIRWALK_STOP;
	}
	k = capfile_entry_at(e->dfd, e->depth == 1 ? l->in :
	    CAPFILE_POSTS_DIR, e->name, e->type == DIRWALK_DIR, &why);
	switch (k) {
	case CAPFILE_POST:
	case CAPFILE_PAGE:
	case CAPFILE_SERIES_FILE:
		add(l, xstrdup(e->path));
		return DIRWALK_NEXT;
	case CAPFILE_BADNAME:
		/* The folder is named: the name itself would garble. */
		dir = xstrndup(e->path, (size_t)(e->name - e->path));
		warn(l, dir, "a file name with control characters, skipped",
		    1);
		free(dir);
		return DIRWALK_NEXT;
	case CAPFILE_SECTION:
		note(l, e->path, why);
		return DIRWALK_NEXT;
	case CAPFILE_POSTS_DIR:
	case CAPFILE_DRAFTS_DIR:
		return bundle(l, e) ? DIRWALK_NEXT : DIRWALK_ENTER;
	case CAPFILE_RESOURCE:
		/* A file beside posts is served (site/static.c). */
		if (e->type == DIRWALK_LINK)
			note(l, e->path, "a symbolic link, not followed");
		return DIRWALK_NEXT;
	case CAPFILE_AUTHORS:		/* read by authors.c when asked */
	case CAPFILE_IGNORED:
	case CAPFILE_INDEX:
	case CAPFILE_BUNDLE:
	case CAPFILE_TOP_DIR:
	case CAPFILE_BUNDLE_DIR:
	case CAPFILE_PAGES_DIR:
	case CAPFILE_SERIES_DIR:
	case CAPFILE_FILES_DIR:
		break;
	}
	return DIRWALK_NEXT;
}

/*
 * The *.md names in dfd/sub, sorted; with posts, *.gmi names and page
 * bundles ("<folder>/index.md", capfile_bundle()) too, in every folder
 * beneath ("2019/x.md", "2020/01/02/x/index.gmi").  Hidden files and
 * other names are left out.  Returns the directory's fd (to open the
 * files beneath), or -1 when it is absent (quietly) or unusable (a
 * warning).
 */
int
dirscan_list(struct archive_scan *s, int dfd, const char *sub, int posts,
    char ***namesp, size_t *np)
{
	struct listing	 l;
	struct dirwalk	 w;
	char		 why[160];
	int		 fd;

	*namesp = NULL;
	*np = 0;
	if ((fd = openat(dfd, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1) {
		if (errno == ENOENT)
			return -1;
		snprintf(why, sizeof(why), "%s, not loaded",
		    errno == ELOOP ? "symbolic link" : strerror(errno));
		scan_warn(s, sub, 1, 1, why, 0);
		return -1;
	}
	if (record_dir_not_owned(s, fd, sub)) {
		close(fd);
		return -1;
	}
	memset(&l, 0, sizeof(l));
	l.s = s;
	/* A bare folder of posts (sub "."): named posts/ all the same. */
	l.sub = posts ? CAPFILE_POSTS : sub;
	l.in = posts ? CAPFILE_POSTS_DIR : strcmp(sub, CAPFILE_PAGES) == 0 ?
	    CAPFILE_PAGES_DIR : CAPFILE_SERIES_DIR;
	memset(&w, 0, sizeof(w));
	w.max_depth = posts ? CAPFILE_POSTS_DEPTH : 0;
	w.max_entries = DIRSCAN_MAX_ENTRIES;
	w.sorted = true;		/* its warnings, every run alike */
	w.fn = entry;
	w.arg = &l;
	if (dirwalk_run(&w, fd, "", NULL) == -1) {
		snprintf(why, sizeof(why), "%s, not loaded", strerror(errno));
		scan_warn(s, sub, 1, 1, why, 0);
		util_free_strings(l.v, l.n);
		close(fd);
		return -1;
	}
	/* Whole paths in order: "a.md" before "a/x.md", as always. */
	if (l.n > 1)
		qsort(l.v, l.n, sizeof(*l.v), cmp_name);
	*namesp = l.v;
	*np = l.n;
	return fd;
}

/*
 * record_get() for a name of dirscan_list("posts"): a name in a folder
 * ("2019/x.md", a bundle's "x/index.md") is read beneath its folders,
 * each opened without following a link, so that a folder swapped for a
 * link after the listing leads nowhere.
 */
struct archive_file *
dirscan_post_file(struct archive_scan *s, int pfd, const char *name,
    const char *rel)
{
	struct archive_file	*f;
	const char		*p = name, *slash;
	char			 dir[NAME_MAX + 1], why[160];
	int			 fd = pfd, bfd;

	while ((slash = strchr(p, '/')) != NULL) {
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - p), p);
		bfd = openat(fd, dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC);
		if (fd != pfd)
			close(fd);
		if (bfd == -1) {
			snprintf(why, sizeof(why), "%s, skipped",
			    strerror(errno));
			scan_warn(s, rel, 1, 1, why, 1);
			return NULL;
		}
		if (record_dir_not_owned(s, bfd, dir)) {
			close(bfd);
			return NULL;
		}
		fd = bfd;
		p = slash + 1;
	}
	f = record_get(s, fd, p, rel, 0);
	if (fd != pfd)
		close(fd);
	return f;
}
