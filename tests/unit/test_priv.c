/*
 * test_priv.c -- priv.c without changing who we are: priv_jail_path(),
 * and priv_prepare()'s decisions (refuse root without `user`, unknown
 * users, root as the user, a capsule outside the jail, chroot or a user
 * switch without root).  The drop itself is e2e_privs.c's, as root.
 */
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/config.h"
#include "harness.h"
#include "app/priv.h"
#include "core/util.h"

static char	 top[] = "/tmp/capsuled-test-priv.XXXXXX";

static void
jail(const char *root, const char *path, const char *want)
{
	char	*got = priv_jail_path(root, path);

	STR_EQ(got, want, path);
	free(got);
}

static void
test_jail_path(void)
{
	jail("/srv/jail", "/srv/jail/capsule", "/capsule");
	jail("/srv/jail", "/srv/jail", "/");
	jail("/srv/jail/", "/srv/jail/a/b", "/a/b");
	jail("/srv/jail", "/srv/jailbreak/capsule", NULL);
	jail("/srv/jail", "/srv", NULL);
	jail("/srv/jail", "/etc/passwd", NULL);
	jail("/", "/srv/capsule", "/srv/capsule");
}

/* prepare with cfg; returns 0/-1 and err. */
static int
prepare(struct config *c, int flag, struct priv *p, char *err, size_t len)
{
	err[0] = '\0';
	return priv_prepare(p, c, flag, err, len);
}

static void
test_prepare(void)
{
	struct config	 c;
	struct priv	 p;
	char		 err[512], *capsule, *other;
	int		 root = geteuid() == 0;

	capsule = xasprintf("%s/jail/capsule", top);
	other = xasprintf("%s/other", top);
	config_defaults(&c, top);
	free(c.capsule_dir);
	c.capsule_dir = xstrdup(capsule);

	if (root) {
		INT_EQ(prepare(&c, 0, &p, err, sizeof(err)), -1,
		    "root without user: refused");
		OK(strstr(err, "refusing to serve as root") != NULL &&
		    strstr(err, "user:") != NULL &&
		    strstr(err, "--allow-root") != NULL, "says why: %s", err);
		INT_EQ(prepare(&c, 1, &p, err, sizeof(err)), 0,
		    "--allow-root");
		INT_EQ(p.drop, 0, "nothing to drop");
		c.allow_root = 1;
		INT_EQ(prepare(&c, 0, &p, err, sizeof(err)), 0,
		    "allow_root: true");
		c.allow_root = 0;
	} else {
		INT_EQ(prepare(&c, 0, &p, err, sizeof(err)), 0,
		    "not root: nothing to refuse");
		INT_EQ(p.root, 0, "not root");
	}

	c.user = xstrdup("no-such-user-capsuled");
	INT_EQ(prepare(&c, 0, &p, err, sizeof(err)), -1, "unknown user");
	OK(strstr(err, "no user named 'no-such-user-capsuled'") != NULL,
	    "%s", err);
	free(c.user);
	c.user = xstrdup("root");
	INT_EQ(prepare(&c, 1, &p, err, sizeof(err)), -1, "user: root");
	OK(strstr(err, "is root") != NULL, "%s", err);
	free(c.user);
	if (getpwnam("nobody") != NULL) {
		c.user = xstrdup("nobody");
		if (root) {
			INT_EQ(prepare(&c, 0, &p, err, sizeof(err)), 0,
			    "root with user: nobody");
			INT_EQ(p.drop, 1, "will drop");
			OK(p.uid == getpwnam("nobody")->pw_uid, "nobody's uid");
		} else {
			INT_EQ(prepare(&c, 0, &p, err, sizeof(err)), -1,
			    "not root: cannot switch");
			OK(strstr(err, "needs root") != NULL, "%s", err);
		}
		free(c.user);
	}
	c.user = NULL;

	/* The capsule must be inside the jail. */
	c.allow_root = 1;
	c.chroot_dir = xasprintf("%s/jail", top);
	if (root) {
		INT_EQ(prepare(&c, 0, &p, err, sizeof(err)), 0,
		    "capsule inside the jail");
		free(c.capsule_dir);
		c.capsule_dir = xstrdup(other);
		INT_EQ(prepare(&c, 0, &p, err, sizeof(err)), -1,
		    "capsule outside the jail");
		OK(strstr(err, "is not inside") != NULL, "%s", err);
		free(c.chroot_dir);
		c.chroot_dir = xasprintf("%s/nope", top);
		INT_EQ(prepare(&c, 0, &p, err, sizeof(err)), -1,
		    "no such jail");
	} else {
		INT_EQ(prepare(&c, 0, &p, err, sizeof(err)), -1,
		    "chroot needs root");
		OK(strstr(err, "needs root") != NULL, "%s", err);
	}
	/* Not root: every later step does nothing. */
	if (!root) {
		memset(&p, 0, sizeof(p));
		INT_EQ(priv_restore(&p), 0, "restore: nothing");
		INT_EQ(priv_drop(&p), 0, "drop: nothing");
	}
	config_free(&c);
	free(capsule);
	free(other);
}

static const struct harness_test tests[] = {
	TEST(test_jail_path),
	TEST(test_prepare),
};

int
main(int argc, char **argv)
{
	char	*p;

	HARNESS_INIT(argc, argv, tests);

	if (mkdtemp(top) == NULL)
		return 1;
	p = xasprintf("%s/jail", top);
	mkdir(p, 0755);
	free(p);
	p = xasprintf("%s/jail/capsule", top);
	mkdir(p, 0755);
	free(p);
	p = xasprintf("%s/other", top);
	mkdir(p, 0755);
	free(p);

	harness_run();

	p = xasprintf("rm -rf '%s'", top);
	(void)!system(p);
	free(p);
	return harness_done();
}
