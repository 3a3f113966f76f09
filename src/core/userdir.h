/*
 * userdir.h -- which local users publish a capsule of their own
 * ("userdirs"; docs/operating.md, "User capsules"), and whether a file
 * of one may be served.
 *
 * A user publishes when the user's UID is in the configured range (the
 * regular users of login.defs, not system accounts), and ~user/<subdir>
 * is a real directory (not a symbolic link) owned by the user and not
 * writable by group or others: the rules of gophernicus, gmid and
 * molly-brown.  The same rule holds for every file and directory read
 * or served from the capsule (userdir_owned()).  Knows the password
 * database and stat(2); nothing of sites or requests.
 */
#ifndef CAPSULED_USERDIR_H
#define CAPSULED_USERDIR_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

struct userdir {
	char	*name;		/* owned: the login name, URL-safe */
	char	*dir;		/* owned: "<home>/<subdir>" */
	uid_t	 uid;
};

/*
 * 1 when st is owned by uid and writable by nobody else (neither group
 * nor others may write); 0 otherwise.
 */
int	 userdir_owned(const struct stat *st, uid_t uid);

/*
 * May dir be published as uid's capsule?  0, or -1 with why in err: not
 * there (errno ENOENT: the user simply has none), a symbolic link, not
 * a directory, someone else's, or writable by group or others.
 */
int	 userdir_check(const char *dir, uid_t uid, char *err, size_t errlen);

/*
 * The users whose ~/<subdir> may be published, UID in [uid_min,
 * uid_max], sorted by name, into *out (malloc'd; *out NULL when none);
 * returns how many.  A directory refused is logged with its path and
 * why; a user without one is not.
 */
size_t	 userdir_find(const char *subdir, unsigned uid_min, unsigned uid_max,
	    struct userdir **out);
void	 userdir_free(struct userdir *, size_t n);

/* A login name that can stand in a path segment as it is: [a-z0-9._-]. */
int	 userdir_name_ok(const char *name);

#endif
