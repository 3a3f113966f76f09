/*
 * tree.c -- a static tree of a site (tree.h): names in it, and opening
 * them as a request does.
 *
 * A tree is a directory of the capsule (files/, the "root" directory,
 * a plain user capsule's top) at a URL path; what static.c serves and
 * listing.c lists is opened here, through the archive's rules for
 * files/ (archive_files_open(): beneath the capsule, links as
 * follow_symlinks says, hard links and a user's ownership checked).
 * Knows nothing of answers; owns nothing it is handed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "content/archive.h"
#include "core/config.h"
#include "core/config_types.h"
#include "core/fsafe.h"
#include "core/log.h"
#include "core/userdir.h"
#include "core/util.h"
#include "site/response.h"
#include "site/tree.h"

_Static_assert((int)FSAFE_LINKS_INSIDE == (int)CONFIG_LINKS_INSIDE &&
    (int)FSAFE_LINKS_ANY == (int)CONFIG_LINKS_ANY &&
    (int)FSAFE_LINKS_NONE == (int)CONFIG_LINKS_NONE,
    "follow_symlinks: config.h and fsafe.h agree");

int
tree_is_gophermap(const char *rel)
{
	const char	*slash = strrchr(rel, '/');

	return strcmp(slash != NULL ? slash + 1 : rel, "gophermap") == 0;
}

int
tree_is_gph(const char *rel)
{
	const char	*slash = strrchr(rel, '/'), *base;
	size_t		 len;

	base = slash != NULL ? slash + 1 : rel;
	len = strlen(base);
	return len > 4 && base[0] != '.' && strcasecmp(base + len - 4,
	    ".gph") == 0;
}

char *
tree_rel(const struct tree *t, const char *path)
{
	const char	*tail = path + strlen(t->url);

	if (*t->dir == '\0')
		return xstrdup(tail);
	if (*tail == '\0')
		return xstrdup(t->dir);
	return xasprintf("%s/%s", t->dir, tail);
}

char *
tree_join(const char *rel, const char *name)
{
	if (*rel == '\0')
		return xstrdup(name);
	return xasprintf("%s%s%s", rel, rel[strlen(rel) - 1] == '/' ? "" : "/",
	    name);
}

/* A user capsule's file that is not the user's alone: core/userdir.h. */
void
tree_refused(const struct route *rt, const char *path)
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

int
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
		tree_refused(rt, rel);
	else if (*kind == FSAFE_FILE && (tree_is_gophermap(rel) ||
	    tree_is_gph(rel))) {
		close(fd);
		errno = ENOENT;
		fd = -1;
	}
	return fd;
}

int
tree_watched(const struct route *rt, const struct tree *t)
{
	const struct config	*c = rt->cfg;

	return (t == NULL || t->watched) && c->watch &&
	    c->follow_symlinks != CONFIG_LINKS_ANY;
}

void
tree_path_meta(const struct route *rt, const struct tree *t,
    const char **lang, const char **charset)
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
