/*
 * test_userdir.c -- the rules a user's capsule is published by
 * (core/userdir.h), on directories made here: owned by the user and
 * writable by nobody else, a real directory and no symbolic link; user
 * names that can stand in a path.  Ownership by another UID needs root
 * to set up (chown): those checks are skipped otherwise.  Finding real
 * users (getpwent) is e2e_userdirs's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/userdir.h"
#include "files.h"
#include "harness.h"
#include "core/util.h"

static char	 top[] = "/tmp/capsuled-test-userdir.XXXXXX";

static int
check(const char *rel, uid_t uid, char *why, size_t len)
{
	char	 path[256];

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	why[0] = '\0';
	return userdir_check(path, uid, why, len);
}

static const struct harness_test tests[] = {
	NAMED("userdir"),
};

int
main(int argc, char **argv)
{
	struct stat	 st;
	char		 path[256], why[128];
	uid_t		 me = geteuid(), other = me == 4242 ? 4243 : 4242;

	HARNESS_INIT(argc, argv, tests);

	if (mkdtemp(top) == NULL) {
		perror(top);
		return 2;
	}
	snprintf(path, sizeof(path), "%s/good", top);
	mkdir(path, 0755);
	chmod(path, 0755);
	INT_EQ(check("good", me, why, sizeof(why)), 0, "0755, mine: published");
	INT_EQ(check("good", other, why, sizeof(why)), -1,
	    "0755, mine, asked for another UID: refused");
	HAS(why, "not the user's", "why: the owner");

	snprintf(path, sizeof(path), "%s/gw", top);
	mkdir(path, 0755);
	chmod(path, 0775);
	INT_EQ(check("gw", me, why, sizeof(why)), -1, "0775: refused");
	STR_EQ(why, "writable by group or others", "why: group-writable");
	snprintf(path, sizeof(path), "%s/ow", top);
	mkdir(path, 0755);
	chmod(path, 0757);
	INT_EQ(check("ow", me, why, sizeof(why)), -1, "0757: refused");
	STR_EQ(why, "writable by group or others", "why: other-writable");

	snprintf(path, sizeof(path), "%s/private", top);
	mkdir(path, 0700);
	INT_EQ(check("private", me, why, sizeof(why)), 0,
	    "0700: the rule holds (whether the server can read it is "
	    "userdir_find()'s)");

	snprintf(path, sizeof(path), "%s/link", top);
	if (symlink("good", path) == 0) {
		INT_EQ(check("link", me, why, sizeof(why)), -1,
		    "a symbolic link to a good directory: refused");
		STR_EQ(why, "a symbolic link", "why: a link");
	}
	test_put(top, "file", "x");
	INT_EQ(check("file", me, why, sizeof(why)), -1, "a file: refused");
	STR_EQ(why, "not a directory", "why: not a directory");
	errno = 0;
	INT_EQ(check("absent", me, why, sizeof(why)), -1, "absent: refused");
	INT_EQ(errno, ENOENT, "absent: ENOENT (not logged by userdir_find)");

	/* userdir_owned(): the rule every file of a capsule is read by. */
	memset(&st, 0, sizeof(st));
	st.st_uid = 1001;
	st.st_mode = S_IFREG | 0644;
	OK(userdir_owned(&st, 1001), "0644 of the user: served");
	OK(!userdir_owned(&st, 1002), "0644 of another user: not");
	st.st_mode = S_IFREG | 0664;
	OK(!userdir_owned(&st, 1001), "0664: not");
	st.st_mode = S_IFREG | 0646;
	OK(!userdir_owned(&st, 1001), "0646: not");
	st.st_mode = S_IFDIR | 0755;
	OK(userdir_owned(&st, 1001), "a 0755 folder of the user: read");
	st.st_mode = S_IFDIR | 01777;
	OK(!userdir_owned(&st, 1001), "a sticky 1777 folder: not");

	if (me == 0) {
		snprintf(path, sizeof(path), "%s/theirs", top);
		mkdir(path, 0755);
		chmod(path, 0755);
		OK(chown(path, other, other) == 0, "chown to UID %u",
		    (unsigned)other);
		INT_EQ(check("theirs", other, why, sizeof(why)), 0,
		    "another UID's 0755 directory, asked for that UID: ok");
		INT_EQ(check("theirs", me, why, sizeof(why)), -1,
		    "the same, asked for root: refused");
	} else
		fprintf(stderr, "SKIPPED: chown to another UID needs root\n");

	OK(userdir_name_ok("alice"), "alice");
	OK(userdir_name_ok("a.b-c_9"), "a.b-c_9");
	OK(!userdir_name_ok(""), "empty");
	OK(!userdir_name_ok(".."), "..");
	OK(!userdir_name_ok(".alice"), ".alice");
	OK(!userdir_name_ok("a/b"), "a/b");
	OK(!userdir_name_ok("a b"), "a space");
	OK(!userdir_name_ok("a%2f"), "a percent sign");

	test_rm_tree(top);
	return harness_done();
}
