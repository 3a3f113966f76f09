/*
 * landlock.c -- Landlock rulesets: made, given paths, entered
 * (landlock.h).
 *
 * The calls go through syscall(2): glibc 2.36 has no wrappers.  The
 * ruleset attribute is passed at the size of the ABI the kernel has, so
 * an older kernel is not asked for what it does not know.  Knows the
 * file system (realpath, directory listings) and nothing of the server;
 * the domain remembered by landlock_enter() is written once, before
 * the threads that read it exist.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifdef __has_include
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif

#include "core/landlock.h"
#include "core/log.h"
#include "core/util.h"

#define LL_NET_BIND_TCP			(1ULL << 0)
#define LL_SCOPE_ABSTRACT_UNIX		(1ULL << 0)
#define LL_SCOPE_SIGNAL			(1ULL << 1)

/* struct landlock_ruleset_attr as of ABI 6; passed at the ABI's size. */
struct ll_ruleset {
	uint64_t	 fs;
	uint64_t	 net;
	uint64_t	 scoped;
};

/* The domain entered at start (landlock_enter()), or none. */
static struct landlock_rule	*domain;
static size_t			 ndomain;
static int			 entered;

int
landlock_valgrind(void)
{
	const char	*p = getenv("LD_PRELOAD");

#ifdef RUNNING_ON_VALGRIND
	if (RUNNING_ON_VALGRIND)
		return 1;
#endif
	return p != NULL && strstr(p, "vgpreload") != NULL;
}

int
landlock_abi(void)
{
	long	 v;

	/* Each call would be an "unhandled syscall" there. */
	if (landlock_valgrind())
		return 0;
	v = syscall(SYS_landlock_create_ruleset, NULL, 0,
	    LANDLOCK_CREATE_RULESET_VERSION);
	return v < 0 ? 0 : (int)v;
}

int
landlock_new(struct landlock *l, int flags)
{
	struct ll_ruleset attr;
	size_t		 size;

	memset(l, 0, sizeof(*l));
	l->fd = -1;
	if ((l->abi = landlock_abi()) <= 0) {
		errno = ENOSYS;
		return -1;
	}
	memset(&attr, 0, sizeof(attr));
	attr.fs = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1;	/* ABI 1 */
	if (l->abi >= 2)
		attr.fs |= LANDLOCK_ACCESS_FS_REFER;
	if (l->abi >= 3)
		attr.fs |= LANDLOCK_ACCESS_FS_TRUNCATE;
	if (l->abi >= 5)
		attr.fs |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
	size = sizeof(attr.fs);
	if ((flags & LANDLOCK_SCOPED) && l->abi >= 4) {
		attr.net = LL_NET_BIND_TCP;
		size = offsetof(struct ll_ruleset, scoped);
	}
	if ((flags & LANDLOCK_SCOPED) && l->abi >= 6) {
		attr.scoped = LL_SCOPE_ABSTRACT_UNIX | LL_SCOPE_SIGNAL;
		size = sizeof(attr);
	}
	l->handled = attr.fs;
	l->fd = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
	return l->fd == -1 ? -1 : 0;
}

/* The rule for the file open as fd (one of its rights, or none). */
static void
allow_fd(struct landlock *l, int fd, const char *path, uint64_t access,
    int isdir)
{
	struct landlock_path_beneath_attr pb;

	if (!isdir)
		access &= LANDLOCK_FILE_RIGHTS;
	memset(&pb, 0, sizeof(pb));
	pb.allowed_access = access & l->handled;
	pb.parent_fd = fd;
	if (pb.allowed_access == 0)
		return;
	if (syscall(SYS_landlock_add_rule, l->fd, LANDLOCK_RULE_PATH_BENEATH,
	    &pb, 0) == 0)
		l->n++;
	else
		log_warn("landlock: rule for %s", path);
}

void
landlock_allow(struct landlock *l, const char *path, uint64_t access)
{
	struct stat	 st;
	int		 fd;

	if (path == NULL || l->fd == -1)
		return;
	if ((fd = open(path, O_PATH | O_CLOEXEC)) == -1)
		return;
	if (fstat(fd, &st) == 0) {
		allow_fd(l, fd, path, access, S_ISDIR(st.st_mode));
		l->rules = xreallocarray(l->rules, l->nrules + 1,
		    sizeof(*l->rules));
		l->rules[l->nrules].path = xstrdup(path);
		l->rules[l->nrules++].access = access;
	}
	close(fd);
}

/* 1 when path is dir or lies beneath it (both absolute, resolved). */
static int
within(const char *path, const char *dir)
{
	size_t	 len = strlen(dir);

	if (strcmp(dir, "/") == 0)
		return 1;
	return strncmp(path, dir, len) == 0 &&
	    (path[len] == '\0' || path[len] == '/');
}

/*
 * path resolved, into a new string: its real path, or for one that
 * does not exist (yet) the real path of the nearest parent that does
 * with the rest as written.  NULL when nothing of it resolves.
 */
static char *
resolve(const char *path)
{
	char	*copy, *slash, *real, *out;

	if ((real = realpath(path, NULL)) != NULL)
		return real;
	copy = xstrdup(path);
	while ((slash = strrchr(copy, '/')) != NULL && slash != copy) {
		*slash = '\0';
		if ((real = realpath(copy, NULL)) != NULL) {
			out = xasprintf("%s%s%s", real, strcmp(real, "/") == 0 ?
			    "" : "/", path + (slash - copy) + 1);
			free(real);
			free(copy);
			return out;
		}
	}
	free(copy);
	return NULL;
}

static void
remember_split(struct landlock *l, const char *path, const struct stat *st)
{
	struct landlock_split	*s;

	l->split = xreallocarray(l->split, l->nsplit + 1, sizeof(*l->split));
	s = &l->split[l->nsplit++];
	s->path = xstrdup(path);
	s->dev = st->st_dev;
	s->ino = st->st_ino;
	s->mtime = st->st_mtim;
}

/*
 * Grant access beneath path (resolved), but for the secrets: the whole
 * of it when none lies beneath, else each of its entries in turn.
 */
static void
cut(struct landlock *l, const char *path, uint64_t access,
    char *const *secret, size_t nsecret)
{
	struct dirent	*e;
	struct stat	 st;
	DIR		*d;
	char		*child;
	size_t		 i;
	int		 fd, split = 0;

	for (i = 0; i < nsecret; i++) {
		if (within(path, secret[i]))
			return;		/* a secret, or inside one */
		if (within(secret[i], path))
			split = 1;
	}
	if ((fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC)) == -1)
		return;
	if (fstat(fd, &st) == -1 || S_ISLNK(st.st_mode)) {
		close(fd);
		return;
	}
	if (!split || !S_ISDIR(st.st_mode)) {
		allow_fd(l, fd, path, access, S_ISDIR(st.st_mode));
		close(fd);
		return;
	}
	/* Listed, but nothing made beside a secret (a key planted). */
	allow_fd(l, fd, path, access & LANDLOCK_ACCESS_FS_READ_DIR, 1);
	remember_split(l, path, &st);
	close(fd);
	if ((d = opendir(path)) == NULL) {
		log_debug("landlock: %s: %s: its entries kept out", path,
		    strerror(errno));
		return;
	}
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		child = xasprintf("%s/%s", strcmp(path, "/") == 0 ? "" : path,
		    e->d_name);
		cut(l, child, access, secret, nsecret);
		free(child);
	}
	closedir(d);
}

void
landlock_allow_but(struct landlock *l, const struct landlock_rule *from,
    size_t n, const char *const *secret, size_t nsecret)
{
	char	**sec, *root;
	size_t	 i, ns = 0;

	if (l->fd == -1)
		return;
	sec = xcalloc(nsecret + 1, sizeof(*sec));
	for (i = 0; i < nsecret; i++)
		if (secret[i] != NULL && (sec[ns] = resolve(secret[i])) !=
		    NULL)
			ns++;
	for (i = 0; i < n; i++) {
		/* A rule follows its path's links: so does the cut. */
		if ((root = realpath(from[i].path, NULL)) == NULL)
			continue;
		cut(l, root, from[i].access, sec, ns);
		free(root);
	}
	util_free_strings(sec, ns);
}

int
landlock_stale(const struct landlock *l)
{
	struct stat	 st;
	size_t		 i;

	for (i = 0; i < l->nsplit; i++)
		if (lstat(l->split[i].path, &st) == -1 ||
		    st.st_dev != l->split[i].dev ||
		    st.st_ino != l->split[i].ino ||
		    st.st_mtim.tv_sec != l->split[i].mtime.tv_sec ||
		    st.st_mtim.tv_nsec != l->split[i].mtime.tv_nsec)
			return 1;
	return 0;
}

int
landlock_enter_fd(int fd)
{
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1)
		return -1;
	return syscall(SYS_landlock_restrict_self, fd, 0) == 0 ? 0 : -1;
}

int
landlock_enter(struct landlock *l)
{
	if (l->fd == -1) {
		errno = EBADF;
		return -1;
	}
	if (landlock_enter_fd(l->fd) == -1)
		return -1;
	if (!entered) {
		entered = 1;
		domain = l->rules;	/* the process's now: never freed */
		ndomain = l->nrules;
		l->rules = NULL;
		l->nrules = 0;
	}
	return 0;
}

void
landlock_free(struct landlock *l)
{
	size_t	 i;

	if (l->fd != -1)
		close(l->fd);
	l->fd = -1;
	for (i = 0; i < l->nrules; i++)
		free(l->rules[i].path);
	free(l->rules);
	for (i = 0; i < l->nsplit; i++)
		free(l->split[i].path);
	free(l->split);
	l->rules = NULL;
	l->split = NULL;
	l->nrules = l->nsplit = 0;
}

const struct landlock_rule *
landlock_domain(size_t *n)
{
	*n = ndomain;
	return entered ? domain : NULL;
}
