/*
 * landlock.c -- Landlock rulesets: made, given paths, entered
 * (landlock.h).
 *
 * The calls go through syscall(2): glibc 2.36 has no wrappers.  The
 * ruleset attribute is passed at the size of the ABI the kernel has, so
 * an older kernel is not asked for what it does not know.  Knows the
 * file system and nothing of the server.
 */
#include <errno.h>
#include <fcntl.h>
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

#define LL_NET_BIND_TCP			(1ULL << 0)
#define LL_SCOPE_ABSTRACT_UNIX		(1ULL << 0)
#define LL_SCOPE_SIGNAL			(1ULL << 1)

/* struct landlock_ruleset_attr as of ABI 6; passed at the ABI's size. */
struct ll_ruleset {
	uint64_t	 fs;
	uint64_t	 net;
	uint64_t	 scoped;
};

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
	if (fstat(fd, &st) == 0)
		allow_fd(l, fd, path, access, S_ISDIR(st.st_mode));
	close(fd);
}

int
landlock_enter(struct landlock *l)
{
	if (l->fd == -1) {
		errno = EBADF;
		return -1;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1)
		return -1;
	return syscall(SYS_landlock_restrict_self, l->fd, 0) == 0 ? 0 : -1;
}

void
landlock_free(struct landlock *l)
{
	if (l->fd != -1)
		close(l->fd);
	l->fd = -1;
}
