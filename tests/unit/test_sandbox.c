/*
 * test_sandbox.c -- the policy of app/sandbox.c applied to a forked
 * child, which then tries what the server must not do: open a file
 * outside the capsule, write inside it without Titan, make a socket
 * when no backend needs one, fork, execve, ptrace its parent.  What it
 * must still do (read the capsule, make a thread, write the log's
 * directory, run a CGI program when cgi is set) is tried too.  Each
 * child reports errno values through a pipe; the parent checks them.
 *
 * The seccomp filter itself is also run here, in user space, by a
 * small interpreter of the instructions sandbox.c writes: every jump
 * lands inside the program, every path ends in a return, and what it
 * returns for a call is the policy sandbox.h states.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app/bpfasm.h"
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
	int	 read_beside;	/* open a file beside the capsule */
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
	snprintf(path, sizeof(path), "%s/srv/capsule/index.md", top);
	p->read_in = try_open(path, O_RDONLY);
	snprintf(path, sizeof(path), "%s/srv/capsule", top);
	p->list_in = try_open(path, O_RDONLY | O_DIRECTORY);
	snprintf(path, sizeof(path), "%s/outside/secret.txt", top);
	p->read_out = try_open(path, O_RDONLY);
	snprintf(path, sizeof(path), "%s/srv/later/index.md", top);
	p->read_beside = try_open(path, O_RDONLY);
	snprintf(path, sizeof(path), "%s/srv/capsule/new.md", top);
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
	c->capsule_dir = xasprintf("%s/srv/capsule", top);
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
		INT_EQ(p.read_beside, 0, "a capsule beside it (one a SIGHUP "
		    "may add) opens");
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

#if defined(__SANITIZE_ADDRESS__)
#define ASAN	1	/* sandbox.h: clone, prctl, ioctl... allowed */
#else
#define ASAN	0
#endif

/*
 * p run on d as the kernel runs a filter: what it returns, or -1 when
 * a jump leaves the program, an instruction is not one sandbox.c
 * writes, or the end comes without a return.
 */
static long long
run_filter(const struct bpfasm *p, const struct seccomp_data *d)
{
	const struct sock_filter	*f;
	uint32_t			 a = 0;
	size_t				 pc = 0;
	int				 taken;

	while (pc < p->n) {
		f = &p->insn[pc];
		switch (f->code) {
		case BPF_LD | BPF_W | BPF_ABS:
			if (f->k % 4 != 0 || f->k + 4 > sizeof(*d))
				return -1;
			memcpy(&a, (const char *)d + f->k, 4);
			pc++;
			continue;
		case BPF_ALU | BPF_AND | BPF_K:
			a &= f->k;
			pc++;
			continue;
		case BPF_RET | BPF_K:
			return f->k;
		case BPF_JMP | BPF_JEQ | BPF_K:
			taken = a == f->k;
			break;
		case BPF_JMP | BPF_JGE | BPF_K:
			taken = a >= f->k;
			break;
		case BPF_JMP | BPF_JSET | BPF_K:
			taken = (a & f->k) != 0;
			break;
		default:
			return -1;
		}
		pc += 1 + (taken ? f->jt : f->jf);
	}
	return -1;
}

/* What the filter of c returns for system call nr with args. */
static long long
verdict(const struct bpfasm *p, long nr, uint64_t a0, uint64_t a1,
    uint64_t a2)
{
	struct seccomp_data	 d;

	memset(&d, 0, sizeof(d));
	d.nr = (int)nr;
#if defined(__x86_64__)
	d.arch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
	d.arch = AUDIT_ARCH_AARCH64;
#endif
	d.args[0] = a0;
	d.args[1] = a1;
	d.args[2] = a2;
	return run_filter(p, &d);
}

/* c's filter, linked, into p; 0 or -1 (reported). */
static int
filter_of(const struct config *c, struct bpfasm *p)
{
	const char	*err = NULL;
	size_t		 i;

	bpfasm_init(p);
	if (sandbox_filter(c, p, &err) == -1) {
		OK(0, "the filter links: %s", err);
		return -1;
	}
	OK(p->n > 0 && p->n <= BPF_MAXINSNS, "%zu instructions", p->n);
	for (i = 0; i < p->n; i++)
		if (BPF_CLASS(p->insn[i].code) == BPF_JMP &&
		    (i + 1 + p->insn[i].jt >= p->n ||
		    i + 1 + p->insn[i].jf >= p->n))
			break;
	INT_EQ(i, p->n, "every jump lands inside the program");
	INT_EQ(BPF_CLASS(p->insn[p->n - 1].code), BPF_RET,
	    "the last instruction returns");
	return 0;
}

#define ALLOW		SECCOMP_RET_ALLOW
#define ENOSYS_RET	(SECCOMP_RET_ERRNO | ENOSYS)

static void
test_filter(void)
{
	struct config		 c;
	struct seccomp_data	 d;
	struct bpfasm		 p;
	long long		 v, deny = SECCOMP_RET_TRAP;
	long			 nr;
	int			 odd = 0;

	make_config(&c);
	if (filter_of(&c, &p) == -1)
		goto out;
	/* Each call: allowed, refused or ENOSYS; nothing else. */
	for (nr = 0; nr < 512; nr++) {
		v = verdict(&p, nr, 0, 0, 0);
		if (v != ALLOW && v != deny && v != ENOSYS_RET)
			odd++;
	}
	INT_EQ(odd, 0, "every call number gets allow, trap or ENOSYS");
	memset(&d, 0, sizeof(d));
	d.nr = __NR_read;
	d.arch = AUDIT_ARCH_I386;
	INT_EQ(run_filter(&p, &d), SECCOMP_RET_KILL_PROCESS,
	    "another architecture: killed");
	INT_EQ(verdict(&p, __NR_read, 0, 0, 0), ALLOW, "read");
	INT_EQ(verdict(&p, __NR_futex, 0, 0, 0), ALLOW, "futex");
	INT_EQ(verdict(&p, __NR_openat, 0, 0, 0), ALLOW, "openat");
	INT_EQ(verdict(&p, __NR_exit_group, 0, 0, 0), ALLOW, "exit_group");
	INT_EQ(verdict(&p, __NR_clone3, 0, 0, 0), ENOSYS_RET,
	    "clone3: ENOSYS (glibc falls back to clone)");
	INT_EQ(verdict(&p, __NR_io_uring_setup, 0, 0, 0), ENOSYS_RET,
	    "io_uring: ENOSYS");
	INT_EQ(verdict(&p, __NR_mount, 0, 0, 0), deny, "mount: trapped");
	INT_EQ(verdict(&p, __NR_execve, 0, 0, 0), deny,
	    "execve without cgi: trapped");
	INT_EQ(verdict(&p, __NR_socket, AF_INET, 0, 0), deny,
	    "socket without client sockets: trapped");
	INT_EQ(verdict(&p, __NR_clone, CLONE_THREAD | CLONE_VM, 0, 0), ALLOW,
	    "clone of a thread");
	INT_EQ(verdict(&p, __NR_clone, SIGCHLD, 0, 0), ASAN ? ALLOW : deny,
	    "clone of a process: trapped (allowed under ASan)");
	INT_EQ(verdict(&p, __NR_prctl, PR_SET_NAME, 0, 0), ALLOW,
	    "prctl(PR_SET_NAME)");
	INT_EQ(verdict(&p, __NR_prctl, PR_SET_DUMPABLE, 0, 0),
	    ASAN ? ALLOW : deny, "prctl(PR_SET_DUMPABLE): trapped");
	INT_EQ(verdict(&p, __NR_ioctl, 3, FIONBIO, 0), ALLOW,
	    "ioctl(FIONBIO)");
	INT_EQ(verdict(&p, __NR_ioctl, 3, TIOCSTI, 0), ASAN ? ALLOW : deny,
	    "ioctl(TIOCSTI): trapped");
	INT_EQ(verdict(&p, __NR_prlimit64, 0, RLIMIT_NOFILE, 0), ALLOW,
	    "prlimit64 that only reads (getrlimit)");
	INT_EQ(verdict(&p, __NR_prlimit64, 0, RLIMIT_NOFILE, 0x1000),
	    ASAN ? ALLOW : deny, "prlimit64 that sets: trapped");
	INT_EQ(verdict(&p, __NR_prlimit64, 0, RLIMIT_NOFILE,
	    (uint64_t)1 << 32), ASAN ? ALLOW : deny,
	    "prlimit64 that sets, the pointer's high half: trapped");
#ifdef __X32_SYSCALL_BIT
	INT_EQ(verdict(&p, __X32_SYSCALL_BIT | __NR_read, 0, 0, 0), deny,
	    "an x32 call: trapped");
#endif
	bpfasm_free(&p);

	/* Client sockets (syslog): the families a client needs. */
	c.log_syslog = 1;
	if (filter_of(&c, &p) == -1)
		goto out;
	INT_EQ(verdict(&p, __NR_socket, AF_UNIX, SOCK_DGRAM, 0), ALLOW,
	    "syslog: socket(AF_UNIX)");
	INT_EQ(verdict(&p, __NR_socket, AF_INET6, SOCK_STREAM, 0), ALLOW,
	    "syslog: socket(AF_INET6)");
	INT_EQ(verdict(&p, __NR_socket, AF_PACKET, SOCK_RAW, 0), deny,
	    "socket(AF_PACKET): trapped");
	INT_EQ(verdict(&p, __NR_connect, 3, 0, 0), ALLOW, "connect");
	bpfasm_free(&p);

	/* cgi: refusals are EPERM from the kernel; programs may start. */
	c.log_syslog = 0;
	c.cgi = xstrdup("cgi-bin");
	deny = SECCOMP_RET_ERRNO | EPERM;
	if (filter_of(&c, &p) == -1)
		goto out;
	INT_EQ(verdict(&p, __NR_mount, 0, 0, 0), deny, "cgi: mount: EPERM");
	INT_EQ(verdict(&p, __NR_execve, 0, 0, 0), ALLOW, "cgi: execve");
	INT_EQ(verdict(&p, __NR_clone, SIGCHLD, 0, 0), ALLOW,
	    "cgi: clone of a process");
	INT_EQ(verdict(&p, __NR_socket, AF_UNIX, SOCK_STREAM, 0), ALLOW,
	    "cgi: socket(AF_UNIX)");
	INT_EQ(verdict(&p, __NR_socket, AF_INET, SOCK_STREAM, 0), deny,
	    "cgi: socket(AF_INET): EPERM");
	INT_EQ(verdict(&p, __NR_prctl, PR_SET_DUMPABLE, 0, 0), ALLOW,
	    "cgi: prctl");
	INT_EQ(verdict(&p, __NR_clone3, 0, 0, 0), ALLOW,
	    "cgi: clone3, whose ENOSYS the kernel would record");
	INT_EQ(verdict(&p, __NR_io_uring_setup, 0, 0, 0), ENOSYS_RET,
	    "cgi: io_uring still ENOSYS");
out:
	bpfasm_free(&p);
	config_free(&c);
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
	NAMED("filter"),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	test_put(top, "srv/capsule/index.md", "# In\n");
	test_put(top, "srv/later/index.md", "# Later\n");
	test_put(top, "outside/secret.txt", "secret\n");
	test_mkdir(top, "log");
	test_mkdir(top, "certs");
	harness_run();
	RUN("key", test_key());
	RUN("filter", test_filter());
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
