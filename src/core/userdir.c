/*
 * userdir.c -- local users' capsules (userdir.h).
 *
 * The password database is read with getpwent(3) when settings are
 * made: at start-up on the main thread, on each SIGHUP on the loader
 * thread, one at a time (app/reload.c runs one build at a time), so the
 * non-reentrant interface is enough.  Nothing here runs while a request
 * is answered.
 */
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/log.h"
#include "core/userdir.h"
#include "core/util.h"

int
userdir_owned(const struct stat *st, uid_t uid)
{
	return st->st_uid == uid && (st->st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

int
userdir_check(const char *dir, uid_t uid, char *err, size_t errlen)
{
	struct stat	 st;

	if (lstat(dir, &st) == -1) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	errno = EPERM;
	if (S_ISLNK(st.st_mode))
		snprintf(err, errlen, "a symbolic link");
	else if (!S_ISDIR(st.st_mode))
		snprintf(err, errlen, "not a directory");
	else if (st.st_uid != uid)
		snprintf(err, errlen, "owned by UID %ju, not the user's",
		    (uintmax_t)st.st_uid);
	else if (!userdir_owned(&st, uid))
		snprintf(err, errlen, "writable by group or others");
	else
		return 0;
	return -1;
}

int
userdir_name_ok(const char *name)
{
	const char	*p;

	if (*name == '\0' || *name == '.')
		return 0;
	for (p = name; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' ||
		    *p == '.'))
			return 0;
	return 1;
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(((const struct userdir *)a)->name,
	    ((const struct userdir *)b)->name);
}

size_t
userdir_find(const char *subdir, unsigned uid_min, unsigned uid_max,
    struct userdir **out)
{
	struct passwd	*pw;
	struct userdir	*v = NULL;
	size_t		 n = 0, cap = 0, i;
	char		*dir, why[128];
	int		 fd;

	*out = NULL;
	setpwent();
	while ((pw = getpwent()) != NULL) {
		if (pw->pw_uid < uid_min || pw->pw_uid > uid_max ||
		    pw->pw_dir == NULL || pw->pw_dir[0] != '/')
			continue;
		dir = xasprintf("%s%s%s", pw->pw_dir, strcmp(pw->pw_dir, "/") ?
		    "/" : "", subdir);
		if (userdir_check(dir, pw->pw_uid, why, sizeof(why)) == -1) {
			if (errno != ENOENT)
				log_warnx("userdirs: %s of %s: %s, not "
				    "published", dir, pw->pw_name, why);
			free(dir);
			continue;
		}
		/* As the server reads it: 0700 keeps it private. */
		if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		    O_CLOEXEC)) == -1) {
			log_warnx("userdirs: %s of %s: %s, not published",
			    dir, pw->pw_name, strerror(errno));
			free(dir);
			continue;
		}
		close(fd);
		if (!userdir_name_ok(pw->pw_name)) {
			log_warnx("userdirs: %s: the user name cannot be a "
			    "path, not published", dir);
			free(dir);
			continue;
		}
		/* Two entries for one name (NIS, a copy): the first one. */
		for (i = 0; i < n && strcmp(v[i].name, pw->pw_name) != 0; i++)
			;
		if (i < n) {
			free(dir);
			continue;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			v = xreallocarray(v, cap, sizeof(*v));
		}
		v[n].name = xstrdup(pw->pw_name);
		v[n].dir = dir;
		v[n].uid = pw->pw_uid;
		n++;
	}
	endpwent();
	if (n > 1)
		qsort(v, n, sizeof(*v), by_name);
	*out = v;
	return n;
}

void
userdir_free(struct userdir *v, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].dir);
	}
	free(v);
}
