/*
 * test_fsafe.c -- fsafe_open() beneath a temp directory, with openat2
 * and with the component-by-component walk that kernels without it get
 * (fsafe_no_openat2; valgrind 3.19 also lacks openat2): files, dirs
 * with and without a trailing slash, "..", absolute names, symlinks
 * under each follow mode, links from one directory of the root into
 * another (never followed), FIFOs, sockets, devices, unreadable files.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include <linux/openat2.h>

#include "core/fsafe.h"
#include "files.h"
#include "harness.h"
#include "core/util.h"

static char	 top[] = "/tmp/capsuled-test-fsafe.XXXXXX";
static char	 root[128];

/* Open rel; returns the kind (0 file, 1 dir) or -errno. */
static int
try(const char *rel, enum fsafe_links links)
{
	struct stat	 st;
	enum fsafe_kind	 kind;
	int		 fd;

	if ((fd = fsafe_open(root, rel, links, &st, &kind)) == -1)
		return -errno;
	close(fd);
	return kind == FSAFE_DIR;
}

static void
cases(const char *how)
{
	static const char *const escapes[] = {
		"../secret.txt", "a/../../secret.txt", "./a.txt", "a/./b.txt",
		"/etc/passwd", "", "..", "a/..", "out-abs", "out-rel",
		"out-dir/x.txt", "a/b.txt/..",
	};
	size_t	 i;
	char	 what[128];

	INT_EQ(try("a.txt", FSAFE_LINKS_INSIDE), 0, how);
	INT_EQ(try("a", FSAFE_LINKS_INSIDE), 1, how);
	INT_EQ(try("a/", FSAFE_LINKS_INSIDE), 1, "dir with a slash");
	INT_EQ(try("a//b.txt", FSAFE_LINKS_INSIDE), 0, "a//b.txt");
	INT_EQ(try("a/b.txt", FSAFE_LINKS_INSIDE), 0, how);
	INT_EQ(try("a/b.txt/", FSAFE_LINKS_INSIDE), -ENOENT, "file/");
	INT_EQ(try("nope", FSAFE_LINKS_INSIDE), -ENOENT, how);
	for (i = 0; i < nitems(escapes); i++) {
		snprintf(what, sizeof(what), "%s: %s", how, escapes[i]);
		INT_EQ(try(escapes[i], FSAFE_LINKS_INSIDE), -ENOENT, what);
		INT_EQ(try(escapes[i], FSAFE_LINKS_NONE), -ENOENT, what);
	}
	INT_EQ(try("fifo", FSAFE_LINKS_INSIDE), -ENOENT, "FIFO refused");
	INT_EQ(try("fifo", FSAFE_LINKS_ANY), -ENOENT, "FIFO refused (any)");
	INT_EQ(try("sock", FSAFE_LINKS_INSIDE), -ENOENT, "socket refused");
	if (access("/dev/null", F_OK) == 0 && try("null", FSAFE_LINKS_ANY) !=
	    -ENOENT)
		OK(0, "%s: device opened", how);

	/* Links that stay inside: openat2 follows them, the walk never. */
	INT_EQ(try("in-link", FSAFE_LINKS_NONE), -ENOENT, "never: in-link");
	INT_EQ(try("in-dir/b.txt", FSAFE_LINKS_NONE), -ENOENT,
	    "never: in-dir");
	/* Any: links out are followed, ".." still is not. */
	INT_EQ(try("out-abs", FSAFE_LINKS_ANY), 0, "any: out-abs");
	INT_EQ(try("out-dir/x.txt", FSAFE_LINKS_ANY), 0, "any: out-dir");
	INT_EQ(try("in-link", FSAFE_LINKS_ANY), 0, "any: in-link");
	INT_EQ(try("../secret.txt", FSAFE_LINKS_ANY), -ENOENT, "any: ..");
	INT_EQ(try("/etc/passwd", FSAFE_LINKS_ANY), -ENOENT, "any: /");
	if (geteuid() != 0)
		INT_EQ(try("locked.txt", FSAFE_LINKS_INSIDE), -EACCES,
		    "unreadable: EACCES");
}

/*
 * A link under pub/ may lead elsewhere in pub/ (or, when any link is
 * allowed, out of the root), never into the rest of the root nor
 * through a dot-directory (files/ -> ../posts/).
 */
static void
fences(const char *how, enum fsafe_links links)
{
	static const char *const refused[] = {
		"pub/l-priv", "pub/l-privdir/z.txt", "pub/l-dot", "pub/l-abs",
		"all/priv.txt", "all/pub/x.txt",
	};
	char	 what[128];
	size_t	 i;

	for (i = 0; i < nitems(refused); i++) {
		snprintf(what, sizeof(what), "%s: %s", how, refused[i]);
		INT_EQ(try(refused[i], links), -ENOENT, what);
	}
	snprintf(what, sizeof(what), "%s: pub/l-in", how);
	INT_EQ(try("pub/l-in", links), 0, what);
	snprintf(what, sizeof(what), "%s: pub2/x.txt (pub2 -> pub)", how);
	INT_EQ(try("pub2/x.txt", links), 0, what);
	snprintf(what, sizeof(what), "%s: pub/l-out", how);
	INT_EQ(try("pub/l-out", links), links == FSAFE_LINKS_ANY ? 0 : -ENOENT,
	    what);
	INT_EQ(try("pub/x.txt", links), 0, "no link: pub/x.txt");
}

static const struct harness_test tests[] = {
	NAMED("fsafe"),
};

int
main(int argc, char **argv)
{
	struct sockaddr_un	 sun;
	char			*p;
	int			 fd;

	HARNESS_INIT(argc, argv, tests);

	if (mkdtemp(top) == NULL)
		return 1;
	snprintf(root, sizeof(root), "%s/root", top);
	mkdir(root, 0755);
	test_put(top, "secret.txt", "secret\n");
	p = xasprintf("%s/outside", top);
	mkdir(p, 0755);
	free(p);
	test_put(top, "outside/x.txt", "x\n");
	p = xasprintf("%s/a", root);
	mkdir(p, 0755);
	free(p);
	test_put(top, "root/a.txt", "a\n");
	test_put(top, "root/a/b.txt", "b\n");
	test_put(top, "root/locked.txt", "locked\n");
	p = xasprintf("%s/locked.txt", root);
	chmod(p, 0);
	free(p);
	p = xasprintf("%s/in-link", root);
	(void)!symlink("a.txt", p);
	free(p);
	p = xasprintf("%s/in-dir", root);
	(void)!symlink("a", p);
	free(p);
	p = xasprintf("%s/out-abs", root);
	{
		char *t = xasprintf("%s/secret.txt", top);

		(void)!symlink(t, p);
		free(t);
	}
	free(p);
	p = xasprintf("%s/out-rel", root);
	(void)!symlink("../secret.txt", p);
	free(p);
	p = xasprintf("%s/out-dir", root);
	{
		char *t = xasprintf("%s/outside", top);

		(void)!symlink(t, p);
		free(t);
	}
	free(p);
	p = xasprintf("%s/fifo", root);
	mkfifo(p, 0644);
	free(p);
	p = xasprintf("%s/sock", root);
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(p) < sizeof(sun.sun_path))
		memcpy(sun.sun_path, p, strlen(p) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	(void)!bind(fd, (struct sockaddr *)&sun, sizeof(sun));
	close(fd);
	free(p);
	p = xasprintf("%s/null", root);
	(void)!mknod(p, S_IFCHR | 0666, makedev(1, 3));
	free(p);

	test_mkdir(top, "root/privdir");
	test_mkdir(top, "root/pub");
	test_mkdir(top, "root/pub/.d");
	test_put(top, "root/priv.txt", "private\n");
	test_put(top, "root/privdir/z.txt", "private\n");
	test_put(top, "root/pub/x.txt", "public\n");
	test_put(top, "root/pub/.d/y.txt", "hidden\n");
	{
		static const char *const links[][2] = {
			{ "../priv.txt", "pub/l-priv" },
			{ "../privdir", "pub/l-privdir" },
			{ ".d/y.txt", "pub/l-dot" },
			{ "x.txt", "pub/l-in" },
			{ "pub", "pub2" },
			{ ".", "all" },
		};
		size_t i;

		for (i = 0; i < nitems(links); i++) {
			p = xasprintf("%s/%s", root, links[i][1]);
			(void)!symlink(links[i][0], p);
			free(p);
		}
		p = xasprintf("%s/pub/l-abs", root);
		{
			char *t = xasprintf("%s/priv.txt", root);

			(void)!symlink(t, p);
			free(t);
		}
		free(p);
		p = xasprintf("%s/pub/l-out", root);
		(void)!symlink("../../secret.txt", p);
		free(p);
	}

	cases("openat2");
	fences("any", FSAFE_LINKS_ANY);
	if (have_openat2()) {
		fences("openat2, inside", FSAFE_LINKS_INSIDE);
		INT_EQ(try("in-link", FSAFE_LINKS_INSIDE), 0,
		    "openat2: in-link");
		INT_EQ(try("in-dir/b.txt", FSAFE_LINKS_INSIDE), 0,
		    "openat2: in-dir");
	} else
		fprintf(stderr, "note: no openat2 here (an old kernel, or "
		    "valgrind): both passes take the walk\n");
	fsafe_no_openat2 = 1;
	cases("walk");
	fences("walk, any", FSAFE_LINKS_ANY);
	/* The walk is stricter: no link at all unless any is allowed. */
	INT_EQ(try("in-link", FSAFE_LINKS_INSIDE), -ENOENT, "walk: in-link");
	fsafe_no_openat2 = 0;

	p = xasprintf("rm -rf '%s'", top);
	(void)!system(p);
	free(p);
	return harness_done();
}
