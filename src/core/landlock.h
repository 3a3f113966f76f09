/*
 * landlock.h -- Landlock rulesets (Linux): made, given paths, entered.
 *
 * A ruleset handles every file-system right the kernel's Landlock ABI
 * knows (so each is denied unless a rule grants it), and with
 * LANDLOCK_SCOPED also TCP bind (ABI 4) and signals and abstract
 * sockets outside the domain (ABI 6).  A thread that enters it is
 * confined, and so is everything it starts; domains only ever narrow.
 *
 * The server enters one domain at start (app/sandbox.c).
 *
 * Knows the Landlock calls and the file system, nothing of the server.
 * A struct landlock owns its ruleset descriptor.  Under valgrind (which
 * does not know the calls) there is no Landlock: landlock_abi() says 0.
 */
#ifndef CAPSULED_LANDLOCK_H
#define CAPSULED_LANDLOCK_H

#include <stdint.h>

#include <linux/landlock.h>

/* Newer than some <linux/landlock.h>: the ABI numbers are fixed. */
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER	(1ULL << 13)
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE	(1ULL << 14)
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV	(1ULL << 15)
#endif

/* The rights that mean something on a file that is not a directory. */
#define LANDLOCK_FILE_RIGHTS	(LANDLOCK_ACCESS_FS_READ_FILE | \
				 LANDLOCK_ACCESS_FS_WRITE_FILE | \
				 LANDLOCK_ACCESS_FS_EXECUTE | \
				 LANDLOCK_ACCESS_FS_TRUNCATE | \
				 LANDLOCK_ACCESS_FS_IOCTL_DEV)

/* landlock_new(): bind, signals and abstract sockets too. */
#define LANDLOCK_SCOPED		0x1

struct landlock {
	int		 fd;		/* the ruleset; -1: none */
	int		 abi;
	uint64_t	 handled;	/* the file-system rights handled */
	unsigned	 n;		/* rules the kernel took */
};

/* The kernel's Landlock ABI; 0 without Landlock, and under valgrind. */
int	 landlock_abi(void);
/* 1 when running under valgrind (its preload, or its client request). */
int	 landlock_valgrind(void);
/*
 * An empty ruleset (flags: LANDLOCK_SCOPED or 0).  Returns 0, or -1
 * with errno (ENOSYS: no Landlock), l->fd then -1.
 */
int	 landlock_new(struct landlock *l, int flags);
/*
 * Grant access beneath path (a file: only the LANDLOCK_FILE_RIGHTS of
 * it); a path that does not exist is skipped, a refusal logged.
 */
void	 landlock_allow(struct landlock *l, const char *path,
	    uint64_t access);
/*
 * Confine the calling thread (and what it starts) to l, with
 * no_new_privs.  Returns 0 or -1 with errno.
 */
int	 landlock_enter(struct landlock *l);
void	 landlock_free(struct landlock *l);

#endif
