/*
 * landlock.h -- Landlock rulesets (Linux): made, given paths, entered.
 *
 * A ruleset handles every file-system right the kernel's Landlock ABI
 * knows (so each is denied unless a rule grants it), and with
 * LANDLOCK_SCOPED also TCP bind (ABI 4) and signals and abstract
 * sockets outside the domain (ABI 6).  A thread that enters it is
 * confined, and so is everything it starts; domains only ever narrow.
 *
 * The server enters one domain at start (app/sandbox.c), remembered
 * here as this process's (landlock_domain()); a program it starts gets
 * a stricter one cut from it (landlock_allow_but(), net/program.c), so
 * that the program reaches what the server reaches except the secrets.
 *
 * Knows the Landlock calls and the file system, nothing of the server.
 * A struct landlock owns its ruleset descriptor and copies of the rules
 * and directories it was given.  Under valgrind (which does not know
 * the calls) there is no Landlock: landlock_abi() says 0.
 */
#ifndef CAPSULED_LANDLOCK_H
#define CAPSULED_LANDLOCK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

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
/* Every file-system right, whatever the ABI handles of it. */
#define LANDLOCK_ALL_RIGHTS	((LANDLOCK_ACCESS_FS_IOCTL_DEV << 1) - 1)

/* landlock_new(): bind, signals and abstract sockets too. */
#define LANDLOCK_SCOPED		0x1

struct landlock_rule {
	char		*path;		/* owned */
	uint64_t	 access;
};

/* A directory split around a secret, as it was when split. */
struct landlock_split {
	char		*path;		/* owned */
	dev_t		 dev;
	ino_t		 ino;
	struct timespec	 mtime;		/* changes with each entry made,
					   removed or renamed in it */
};

struct landlock {
	int		 fd;		/* the ruleset; -1: none */
	int		 abi;
	uint64_t	 handled;	/* the file-system rights handled */
	unsigned	 n;		/* rules the kernel took */
	struct landlock_rule *rules;	/* owned: as given */
	size_t		 nrules;
	struct landlock_split *split;	/* owned: landlock_allow_but()'s */
	size_t		 nsplit;
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
 * Grant what from[0..n) grants, except beneath each of secret[0..nsecret)
 * (absolute; one that does not exist yet is kept out all the same):
 * a rule that holds a secret is split into a rule for each entry of
 * its directory but the one on the way to the secret, down to it, and
 * the directory itself keeps only READ_DIR (a listing, no new entry:
 * nothing can be planted next to a secret).  Symbolic links are not
 * followed: what one names is judged where it lies.  The directories
 * split are kept in l->split for landlock_stale().
 */
void	 landlock_allow_but(struct landlock *l,
	    const struct landlock_rule *from, size_t n,
	    const char *const *secret, size_t nsecret);
/*
 * 1 when an entry was made, removed or renamed in a directory that
 * landlock_allow_but() split: the rules no longer name all of it.
 */
int	 landlock_stale(const struct landlock *l);
/*
 * Confine the calling thread (and what it starts) to l, with
 * no_new_privs; on success its rules become this process's domain
 * (landlock_domain()).  Returns 0 or -1 with errno.
 */
int	 landlock_enter(struct landlock *l);
/*
 * The same for a ruleset descriptor alone, with no memory touched:
 * async-signal-safe, for a child between fork and exec.
 */
int	 landlock_enter_fd(int fd);
void	 landlock_free(struct landlock *l);
/*
 * The rules of the domain this process entered (*n of them), or NULL
 * when it entered none: set once at start, read-only after.
 */
const struct landlock_rule *landlock_domain(size_t *n);

#endif
