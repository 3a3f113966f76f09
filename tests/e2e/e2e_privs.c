/*
 * e2e_privs.c -- giving up root, over the real server (needs root; each
 * case is skipped, with the reason, otherwise):
 *
 *  - started as root without `user:`, capsuled refuses (exit 2), unless
 *    allow_root: true or --allow-root says so;
 *  - with `user: nobody` every user and group ID is nobody's, no
 *    capability is left, no_new_privs is set, and it still serves;
 *    the key pair generated at first start belongs to nobody (0600);
 *    content nobody cannot read is skipped with a log line;
 *  - with `chroot:` the process root is the jail, and it still serves.
 */
#include <pwd.h>

#include "e2e.h"

static SSL_CTX		*ctx;
static char		 top[] = "/tmp/capsuled-e2e-privs.XXXXXX";
static char		 capsule[512];
static int		 skipped;

static void
skip(const char *why)
{
	skipped++;
	fprintf(stderr, "SKIPPED: %s\n", why);
}

/* The value of key in /proc/pid/status, whitespace squeezed. */
static void
status_line(pid_t pid, const char *key, char *out, size_t len)
{
	char	 path[64], line[512], *v, *o;
	FILE	*f;
	size_t	 klen = strlen(key);

	out[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if ((f = fopen(path, "r")) == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, key, klen) != 0 || line[klen] != ':')
			continue;
		for (v = line + klen + 1, o = out; *v != '\0' &&
		    (size_t)(o - out) + 1 < len; v++) {
			if (*v == '\n')
				break;
			if (*v == '\t' || *v == ' ') {
				if (o > out && o[-1] != ' ')
					*o++ = ' ';
				continue;
			}
			*o++ = *v;
		}
		while (o > out && o[-1] == ' ')
			o--;
		*o = '\0';
		break;
	}
	fclose(f);
}

static int
get_status(int port, const char *path)
{
	struct reply	 r;
	int		 st;

	r = e2e_gemini_get(port, ctx, "%s", path);
	st = r.status == -2 ? -2 : r.close_notify ? r.status : -3;
	reply_free(&r);
	return st;
}

static void
make_capsule(void)
{
	char	 p[1024];

	snprintf(capsule, sizeof(capsule), "%s/capsule", top);
	mkdir(capsule, 0755);
	snprintf(p, sizeof(p), "%s/posts", capsule);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/files", capsule);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/index.md", capsule);
	test_write(p, "---\ntitle: Privs\n---\nHello.\n");
	snprintf(p, sizeof(p), "%s/posts/2024-01-01-open.md", capsule);
	test_write(p, "---\ntitle: Open\n---\nEveryone reads this.\n");
	snprintf(p, sizeof(p), "%s/posts/2024-01-02-closed.md", capsule);
	test_write(p, "---\ntitle: Closed\n---\nRoot only.\n");
	chmod(p, 0600);
	snprintf(p, sizeof(p), "%s/files/a.txt", capsule);
	test_write(p, "plain text\n");
	snprintf(p, sizeof(p), "%s/files/locked.txt", capsule);
	test_write(p, "locked\n");
	chmod(p, 0);
}

static void
test_refusal(void)
{
	struct e2e_server	 s;

	OK(e2e_start_flags(&s, capsule, "", E2E_NO_ALLOW_ROOT) == -1,
	    "as root without user: refused");
	OK(e2e_log_wait(s.log, "refusing to serve as root", 0),
	    "the refusal says why and what to do");
	OK(e2e_log_wait(s.log, " error: refusing to serve as root", 0),
	    "the refusal is logged as an error");
	OK(e2e_start_flags(&s, capsule, "allow_root: true\n",
	    E2E_NO_ALLOW_ROOT) == 0, "allow_root: true lets it serve");
	INT_EQ(get_status(s.gemini_port, "/"), 20, "serving as root");
	INT_EQ(e2e_stop(&s), 0, "exits 0");
	/* --allow-root is what e2e_start() passes. */
	OK(e2e_start(&s, capsule, "") == 0, "--allow-root lets it serve");
	INT_EQ(e2e_stop(&s), 0, "exits 0");
}

static void
test_user(const struct passwd *pw)
{
	struct e2e_server	 s;
	char			 want[64], got[256], key[400];
	struct stat		 st;

	if (e2e_start_flags(&s, capsule, "user: nobody\n",
	    E2E_NO_ALLOW_ROOT) == -1) {
		OK(0, "user: nobody: server did not start");
		return;
	}
	snprintf(want, sizeof(want), "%u %u %u %u", (unsigned)pw->pw_uid,
	    (unsigned)pw->pw_uid, (unsigned)pw->pw_uid, (unsigned)pw->pw_uid);
	status_line(s.pid, "Uid", got, sizeof(got));
	STR_EQ(got, want, "real, effective, saved, fs uid are nobody's");
	snprintf(want, sizeof(want), "%u %u %u %u", (unsigned)pw->pw_gid,
	    (unsigned)pw->pw_gid, (unsigned)pw->pw_gid, (unsigned)pw->pw_gid);
	status_line(s.pid, "Gid", got, sizeof(got));
	STR_EQ(got, want, "every gid is nobody's group");
	status_line(s.pid, "Groups", got, sizeof(got));
	snprintf(want, sizeof(want), "%u", (unsigned)pw->pw_gid);
	OK(got[0] == '\0' || strcmp(got, want) == 0,
	    "no supplementary group but nobody's (\"%s\")", got);
	status_line(s.pid, "CapEff", got, sizeof(got));
	STR_EQ(got, "0000000000000000", "no effective capability");
	status_line(s.pid, "CapPrm", got, sizeof(got));
	STR_EQ(got, "0000000000000000", "no permitted capability");
	status_line(s.pid, "NoNewPrivs", got, sizeof(got));
	STR_EQ(got, "1", "no_new_privs");
	OK(e2e_log_wait(s.log, "running as nobody", 0), "the drop is logged");

	INT_EQ(get_status(s.gemini_port, "/"), 20, "serves as nobody");
	INT_EQ(get_status(s.gemini_port, "/posts/open"), 20,
	    "a readable post");
	INT_EQ(get_status(s.gemini_port, "/posts/closed"), 51,
	    "a post nobody cannot read was not loaded");
	OK(e2e_log_wait(s.log,
	    "posts/2024-01-02-closed.md:1:1: Permission denied", 0),
	    "and the log says so");
	INT_EQ(get_status(s.gemini_port, "/files/a.txt"), 20, "a file");
	INT_EQ(get_status(s.gemini_port, "/files/locked.txt"), 51,
	    "a file nobody cannot read: not found");
	OK(e2e_log_wait(s.log, "/files/locked.txt: Permission denied", 0),
	    "and the log says so");
	snprintf(key, sizeof(key), "%s/certs/key.pem", s.dir);
	OK(stat(key, &st) == 0 && st.st_uid == pw->pw_uid &&
	    (st.st_mode & 0777) == 0600,
	    "the generated key belongs to nobody, mode 0600 (uid %u, %o)",
	    (unsigned)st.st_uid, (unsigned)(st.st_mode & 0777));
	INT_EQ(e2e_stop(&s), 0, "exits 0");
}

static void
test_chroot(void)
{
	struct e2e_server	 s;
	char			 extra[1200], proc[64], root[1100];
	char			 real[1024];
	ssize_t			 n;
	int			 rv;
#if defined(__SANITIZE_ADDRESS__)
	char			*saved_asan;
#endif

	if (realpath(top, real) == NULL) {
		OK(0, "realpath %s", top);
		return;
	}
	snprintf(extra, sizeof(extra), "user: nobody\nchroot: %s\n", real);
#if defined(__SANITIZE_ADDRESS__)
	/* LeakSanitizer needs /proc at exit, which the jail does not have. */
	saved_asan = getenv("ASAN_OPTIONS") ? strdup(getenv("ASAN_OPTIONS")) :
	    NULL;
	{
		const char *o = getenv("ASAN_OPTIONS");
		char opts[1024];

		snprintf(opts, sizeof(opts), "%s%sdetect_leaks=0", o ? o : "",
		    o && *o ? ":" : "");
		setenv("ASAN_OPTIONS", opts, 1);
	}
#endif
	rv = e2e_start_flags(&s, capsule, extra, E2E_NO_ALLOW_ROOT);
#if defined(__SANITIZE_ADDRESS__)
	if (saved_asan != NULL)
		setenv("ASAN_OPTIONS", saved_asan, 1);
	else
		unsetenv("ASAN_OPTIONS");
	free(saved_asan);
#endif
	if (rv == -1) {
		OK(0, "chroot: server did not start");
		return;
	}
	snprintf(proc, sizeof(proc), "/proc/%d/root", (int)s.pid);
	n = readlink(proc, root, sizeof(root) - 1);
	root[n > 0 ? n : 0] = '\0';
	STR_EQ(root, real, "the process root is the jail");
	INT_EQ(get_status(s.gemini_port, "/"), 20, "serves from the jail");
	INT_EQ(get_status(s.gemini_port, "/posts/open"), 20, "a post");
	INT_EQ(get_status(s.gemini_port, "/files/a.txt"), 20, "a file");
	OK(e2e_log_wait(s.log, "chroot: confined to", 0),
	    "the chroot is logged");
	/* A reload inside the jail must not take the server down. */
	kill(s.pid, SIGHUP);
	e2e_sleep_ms(500);
	INT_EQ(get_status(s.gemini_port, "/"), 20, "serves after SIGHUP");
	INT_EQ(e2e_stop(&s), 0, "exits 0");

	snprintf(extra, sizeof(extra), "user: nobody\nchroot: %s/empty\n",
	    real);
	snprintf(root, sizeof(root), "%s/empty", real);
	mkdir(root, 0755);
	OK(e2e_start_flags(&s, capsule, extra, E2E_NO_ALLOW_ROOT) == -1,
	    "a capsule outside the jail is refused at start");
}

static const struct harness_test tests[] = {
	NAMED("refusal"),
	NAMED("user"),
	NAMED("chroot"),
};

int
main(int argc, char **argv)
{
	struct passwd	*pw;

	HARNESS_INIT(argc, argv, tests);

	signal(SIGPIPE, SIG_IGN);
	if (geteuid() != 0) {
		skip("not root: privilege drop, chroot and the root refusal "
		    "need root");
		printf("0 passed, 0 failed, %d skipped\n", skipped);
		return 0;
	}
	if ((pw = getpwnam("nobody")) == NULL) {
		skip("no user nobody on this system");
		printf("0 passed, 0 failed, %d skipped\n", skipped);
		return 0;
	}
	if (mkdtemp(top) == NULL)
		return 1;
	chmod(top, 0755);		/* nobody must reach the capsule */
	make_capsule();
	ctx = e2e_client_ctx(0);

	RUN("refusal", test_refusal());
	RUN("user", test_user(pw));
	RUN("chroot", test_chroot());

	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
		(void)!system(cmd);
	}
	SSL_CTX_free(ctx);
	printf("%d passed, %d failed, %d skipped\n", harness_passed,
	    harness_failed, skipped);
	return harness_failed == 0 ? 0 : 1;
}
