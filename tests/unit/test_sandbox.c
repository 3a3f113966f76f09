/*
 * test_sandbox.c -- the policy of app/sandbox.c applied to a forked
 * child, which then tries what the server must not do: open a file
 * outside the capsule, write inside it without Titan, make a socket
 * when no backend needs one, fork, execve, ptrace its parent.  What it
 * must still do (read the capsule, make a thread, write the log's
 * directory, run a CGI program when cgi is set) is tried too.  Each
 * child reports errno values through a pipe; the parent checks them.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app/sandbox.h"
#include "core/config.h"
#include "core/util.h"
#include "files.h"
#include "harness.h"

static char	 top[] = "/tmp/capsuled-test-sandbox.XXXXXX";

/* What a child saw: 0 when the call worked, else its errno. */
struct probe {
	int	 enforced;	/* SANDBOX_* bits */
	int	 read_in;	/* open a capsule file */
	int	 list_in;	/* open the capsule directory */
	int	 read_out;	/* open a file outside */
	int	 write_in;	/* create a file in the capsule */
	int	 write_log;	/* create the log file */
	int	 sock;		/* socket(AF_INET, SOCK_STREAM) */
	int	 fork;		/* fork() */
	int	 exec;		/* a child's execve("/bin/true"): exit 0 */
	int	 ptrace;	/* PTRACE_SEIZE of the parent */
	int	 thread;	/* pthread_create() */
};

static void *
nothing(void *arg)
{
	return arg;
}

static int
err_of(int rv)
{
	return rv == -1 ? errno : 0;
}

static int
try_open(const char *path, int flags)
{
	int	 fd = open(path, flags | O_CLOEXEC, 0600);

	if (fd == -1)
		return errno;
	close(fd);
	return 0;
}

/* In the child, sandboxed: fill p. */
static void
probe(const struct config *c, struct probe *p)
{
	char		 what[512], path[600];
	pthread_t	 t;
	pid_t		 pid;
	int		 st;

	p->enforced = sandbox_enter(c, NULL, what, sizeof(what));
	snprintf(path, sizeof(path), "%s/capsule/index.md", top);
	p->read_in = try_open(path, O_RDONLY);
	snprintf(path, sizeof(path), "%s/capsule", top);
	p->list_in = try_open(path, O_RDONLY | O_DIRECTORY);
	snprintf(path, sizeof(path), "%s/outside/secret.txt", top);
	p->read_out = try_open(path, O_RDONLY);
	snprintf(path, sizeof(path), "%s/capsule/new.md", top);
	p->write_in = try_open(path, O_WRONLY | O_CREAT | O_EXCL);
	snprintf(path, sizeof(path), "%s/log/capsuled.log", top);
	p->write_log = try_open(path, O_WRONLY | O_CREAT | O_APPEND);
	st = socket(AF_INET, SOCK_STREAM, 0);
	p->sock = err_of(st);
	if (st != -1)
		close(st);
	/* SEIZE, not ATTACH: the parent is not stopped when it works. */
	p->ptrace = err_of((int)ptrace(PTRACE_SEIZE, getppid(), NULL,
	    NULL));
	p->thread = pthread_create(&t, NULL, nothing, NULL);
	if (p->thread == 0)
		pthread_join(t, NULL);
	pid = fork();
	if (pid == 0) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(errno == EPERM ? 3 : 4);
	}
	p->fork = pid == -1 ? errno : 0;
	p->exec = -1;
	if (pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st))
		p->exec = WEXITSTATUS(st);
}

/* Run probe() under c in a child; 0 or -1 (the child died). */
static int
in_child(const struct config *c, struct probe *p)
{
	int	 fds[2], st;
	pid_t	 pid;
	ssize_t	 n;

	memset(p, 0xff, sizeof(*p));
	if (pipe(fds) == -1)
		return -1;
	if ((pid = fork()) == -1)
		return -1;
	if (pid == 0) {
		struct probe	 q;

		close(fds[0]);
		memset(&q, 0xff, sizeof(q));
		probe(c, &q);
		_exit(write(fds[1], &q, sizeof(q)) == sizeof(q) ? 0 : 1);
	}
	close(fds[1]);
	n = read(fds[0], p, sizeof(*p));
	close(fds[0]);
	waitpid(pid, &st, 0);
	return n == sizeof(*p) && WIFEXITED(st) && WEXITSTATUS(st) == 0 ?
	    0 : -1;
}

static void
make_config(struct config *c)
{
	char	 conf[600];

	snprintf(conf, sizeof(conf), "%s/conf", top);
	config_defaults(c, conf);
	free(c->capsule_dir);
	c->capsule_dir = xasprintf("%s/capsule", top);
	free(c->cert_dir);
	c->cert_dir = xasprintf("%s/certs", top);
	c->log_file = xasprintf("%s/log/capsuled.log", top);
	c->sandbox = 1;
}

static void
test_default(void)
{
	struct config	 c;
	struct probe	 p;

	make_config(&c);
	if (in_child(&c, &p) == -1) {
		OK(0, "the sandboxed child reported");
		config_free(&c);
		return;
	}
	OK(p.enforced & SANDBOX_SECCOMP, "seccomp enforced (%d)",
	    p.enforced);
	if (!(p.enforced & SANDBOX_LANDLOCK))
		harness_skip("no Landlock in this kernel: file checks");
	else {
		INT_EQ(p.read_in, 0, "a capsule file opens");
		INT_EQ(p.list_in, 0, "the capsule directory opens");
		INT_EQ(p.read_out, EACCES, "a file outside: EACCES");
		INT_EQ(p.write_in, EACCES, "no write in the capsule "
		    "without Titan");
		INT_EQ(p.write_log, 0, "the log file can be made");
		INT_EQ(p.ptrace, EPERM, "ptrace of the parent: EPERM");
	}
	INT_EQ(p.sock, EPERM, "no socket when none is configured");
	INT_EQ(p.thread, 0, "threads are made");
#if defined(__SANITIZE_ADDRESS__)
	/* LeakSanitizer's tracer is a clone without CLONE_THREAD. */
	INT_EQ(p.fork, 0, "ASan: clone is allowed (sandbox.h)");
	INT_EQ(p.exec, 3, "ASan: but execve is refused (EPERM)");
#else
	INT_EQ(p.fork, EPERM, "no fork without cgi");
#endif
	config_free(&c);
}

static void
test_cgi(void)
{
	struct config	 c;
	struct probe	 p;

	make_config(&c);
	c.cgi = xstrdup("cgi-bin");
	c.titan_writers = xcalloc(1, sizeof(*c.titan_writers));
	c.titan_writers[0] = xstrdup("00");
	c.ntitan_writers = 1;
	if (in_child(&c, &p) == -1) {
		OK(0, "the sandboxed child reported");
		config_free(&c);
		return;
	}
	INT_EQ(p.fork, 0, "cgi: fork works");
	INT_EQ(p.exec, 0, "cgi: execve of a program works");
	INT_EQ(p.sock, EPERM, "cgi: still no socket");
	if (p.enforced & SANDBOX_LANDLOCK) {
		/* (/tmp, where top is, is a CGI program's scratch space.) */
		INT_EQ(p.write_in, 0, "Titan: the capsule is writable");
	}
	config_free(&c);
}

static void
test_off(void)
{
	struct config	 c;
	struct probe	 p;

	make_config(&c);
	c.sandbox = 0;
	OK(in_child(&c, &p) == 0, "the child reported");
	INT_EQ(p.enforced, 0, "sandbox: off enforces nothing");
	INT_EQ(p.read_out, 0, "off: a file outside opens");
	INT_EQ(p.sock, 0, "off: a socket is made");
	INT_EQ(p.exec, 0, "off: execve works");
	config_free(&c);
}

/* The key: on by default, "off" (a YAML boolean) turns it off. */
static void
test_key(void)
{
	struct config	 c;
	char		 path[600], err[512];

	snprintf(path, sizeof(path), "%s/key.yaml", top);
	test_write(path, "capsule: capsule\n");
	INT_EQ(config_load(&c, path, err, sizeof(err)), 0, "no key");
	INT_EQ(c.sandbox, 1, "on by default");
	config_free(&c);
	test_write(path, "capsule: capsule\nsandbox: off\n");
	INT_EQ(config_load(&c, path, err, sizeof(err)), 0, "sandbox: off");
	INT_EQ(c.sandbox, 0, "off");
	config_free(&c);
	test_write(path, "sandbox: maybe\n");
	OK(config_load(&c, path, err, sizeof(err)) == -1 &&
	    strstr(err, "sandbox") != NULL, "a bad value: %s", err);
}

static void
test_names(void)
{
	STR_EQ(sandbox_syscall_name(__NR_socket), "socket", "a name");
	STR_EQ(sandbox_syscall_name(__NR_ptrace), "ptrace", "ptrace");
	OK(sandbox_syscall_name(-1) == NULL, "no name");
}

static const struct harness_test tests[] = {
	NAMED("default"),
	NAMED("cgi"),
	NAMED("off"),
	TEST(test_names),
	NAMED("key"),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	test_put(top, "capsule/index.md", "# In\n");
	test_put(top, "outside/secret.txt", "secret\n");
	test_mkdir(top, "log");
	test_mkdir(top, "certs");
	harness_run();
	RUN("key", test_key());
	if (harness_valgrind()) {
		/* The sandbox is off under valgrind (sandbox.h). */
		harness_skip("under valgrind the sandbox is off");
	} else {
		RUN("default", test_default());
		RUN("cgi", test_cgi());
		RUN("off", test_off());
	}
	test_rm_tree(top);
	return harness_done();
}
