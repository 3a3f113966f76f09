/*
 * program.c -- a program started, confined, waited for, and every
 * process it leaves killed (program.h).
 *
 * Between fork and exec the child makes only async-signal-safe calls
 * (the server has threads): everything it needs -- the domain's
 * ruleset, the descriptors, the strings -- is ready before the fork.
 * All signals are blocked across fork(), so that no handler of the
 * server's (libuv's writes to its loops' pipes) runs in the child
 * before the child has set them back to their defaults.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/config.h"
#include "core/config_apps.h"
#include "core/landlock.h"
#include "core/log.h"
#include "core/util.h"
#include "net/program.h"

/* ---- the domain --------------------------------------------------- */

/*
 * What no program may read, borrowed from cfg: *n paths (some NULL).
 * The certificate directories whole: a key made later (SIGHUP) lands
 * in one of them.
 */
static const char **
secrets(const struct config *cfg, size_t *n)
{
	const char	**v;
	struct config	 view;
	size_t		 i, j, k = 0, cap;

	cap = 4 + config_nhosts(cfg) + 2 * cfg->napps;
	v = xcalloc(cap, sizeof(*v));
	v[k++] = cfg->path;
	v[k++] = cfg->ticket_keys;
	v[k++] = cfg->cert_dir;
	for (i = 0; i < config_nhosts(cfg); i++) {
		config_host_view(cfg, i, &view);
		v[k++] = view.cert_dir;
		/* A host's own entries, if it has its own. */
		for (j = 0; view.apps != cfg->apps && j < view.napps; j++) {
			v = xreallocarray(v, cap += 2, sizeof(*v));
			v[k++] = view.apps[j].client_cert;
			v[k++] = view.apps[j].client_key;
		}
	}
	for (j = 0; j < cfg->napps; j++) {
		v[k++] = cfg->apps[j].client_cert;
		v[k++] = cfg->apps[j].client_key;
	}
	*n = k;
	return v;
}

/*
 * l becomes the domain for a program under cfg: the server's own
 * domain, or everything, less the secrets.  0, or -1 with errno.
 */
static int
make_domain(struct landlock *l, const char *const *sec, size_t nsec)
{
	static const struct landlock_rule everything = {
		(char *)"/", LANDLOCK_ALL_RIGHTS,
	};
	const struct landlock_rule *from;
	size_t		 n;

	if (landlock_new(l, 0) == -1)
		return -1;
	if ((from = landlock_domain(&n)) == NULL) {
		from = &everything;
		n = 1;
	}
	landlock_allow_but(l, from, n, sec, nsec);
	return 0;
}

/* Each worker's domain, and the secrets it was made for (copies). */
static _Thread_local struct landlock	 dom = { .fd = -1 };
static _Thread_local char		**dom_sec;
static _Thread_local size_t		 dom_nsec;

static int
same_secrets(const char *const *sec, size_t n)
{
	size_t	 i;

	if (n != dom_nsec)
		return 0;
	for (i = 0; i < n; i++)
		if ((sec[i] == NULL) != (dom_sec[i] == NULL) ||
		    (sec[i] != NULL && strcmp(sec[i], dom_sec[i]) != 0))
			return 0;
	return 1;
}

void
program_thread_end(void)
{
	size_t	 i;

	landlock_free(&dom);
	for (i = 0; i < dom_nsec; i++)
		free(dom_sec[i]);
	free(dom_sec);
	dom_sec = NULL;
	dom_nsec = 0;
}

/*
 * The ruleset for a program under cfg: its descriptor; -1 when
 * programs run without one (no Landlock); -2 when one could not be
 * made (logged).
 */
static int
domain_for(const struct config *cfg)
{
	const char	**sec;
	size_t		 n, i;

	if (landlock_abi() <= 0)
		return -1;
	sec = secrets(cfg, &n);
	if (dom.fd != -1 && same_secrets(sec, n) && !landlock_stale(&dom)) {
		free(sec);
		return dom.fd;
	}
	program_thread_end();
	if (make_domain(&dom, sec, n) == -1) {
		log_warn("programs: a Landlock domain cannot be made; "
		    "none runs");
		landlock_free(&dom);
		free(sec);
		return -2;
	}
	dom_sec = xcalloc(n + 1, sizeof(*dom_sec));
	for (i = 0; i < n; i++)
		dom_sec[i] = xstrdup_null(sec[i]);
	dom_nsec = n;
	free(sec);
	log_debug("programs: a Landlock domain made (%u paths)", dom.n);
	return dom.fd;
}

void
program_describe(const struct config *cfg, char *what, size_t whatlen)
{
	struct landlock	 l;
	const char	**sec;
	size_t		 n;
	int		 abi;

	if (landlock_valgrind()) {
		snprintf(what, whatlen, "not confined under valgrind (it "
		    "cannot make Landlock calls)");
		return;
	}
	if ((abi = landlock_abi()) <= 0) {
		snprintf(what, whatlen, "not confined: no Landlock in this "
		    "kernel (a program reads what the server's user can, "
		    "keys included)");
		return;
	}
	sec = secrets(cfg, &n);
	if (make_domain(&l, sec, n) == -1)
		snprintf(what, whatlen, "Landlock ABI %d: no domain: %s; no "
		    "program runs", abi, strerror(errno));
	else
		snprintf(what, whatlen, "Landlock ABI %d, a domain of their "
		    "own (%u paths): no key, configuration or ticket key "
		    "file (%zu directories split around them)", abi, l.n,
		    l.nsplit);
	landlock_free(&l);
	free(sec);
}

/* ---- the processes ------------------------------------------------ */

/* The programs running, in every worker: never orphans. */
static pthread_mutex_t	 running_lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t		*running;	/* owned */
static size_t		 nrunning;

/* Under running_lock. */
static int
is_running(pid_t pid)
{
	size_t	 i;

	for (i = 0; i < nrunning; i++)
		if (running[i] == pid)
			return 1;
	return 0;
}

static void
running_del(pid_t pid)
{
	size_t	 i;

	pthread_mutex_lock(&running_lock);
	for (i = 0; i < nrunning; i++)
		if (running[i] == pid) {
			running[i] = running[--nrunning];
			break;
		}
	if (nrunning == 0) {
		free(running);
		running = NULL;
	}
	pthread_mutex_unlock(&running_lock);
}

struct proc {
	pid_t	 pid, ppid, sid;
	char	 state;
};

/* Every process of /proc into *out (owned); -1 without /proc. */
static ssize_t
proc_scan(struct proc **out)
{
	struct proc	*v = NULL;
	struct dirent	*e;
	DIR		*d;
	char		 path[300], line[512], *rp;
	size_t		 n = 0;
	ssize_t		 len;
	int		 fd;

	if ((d = opendir("/proc")) == NULL)
		return -1;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
			continue;
		len = read(fd, line, sizeof(line) - 1);
		close(fd);
		if (len <= 0)
			continue;
		line[len] = '\0';
		/* pid (comm) state ppid pgrp session: comm may hold ')'. */
		if ((rp = strrchr(line, ')')) == NULL)
			continue;
		v = xreallocarray(v, n + 1, sizeof(*v));
		v[n].pid = (pid_t)atoi(line);
		if (sscanf(rp + 1, " %c %d %*d %d", &v[n].state, &v[n].ppid,
		    &v[n].sid) != 3)
			continue;
		n++;
	}
	closedir(d);
	*out = v;
	return (ssize_t)n;
}

/*
 * 1 when every child of this process (its threads' /proc children
 * files) is a running program: no orphan to look for, and no need to
 * read all of /proc.  0 when there may be one, or the files are not
 * there.  Under running_lock.
 */
static int
no_orphans(void)
{
	struct dirent	*e;
	DIR		*d;
	FILE		*f;
	char		 path[300];
	long		 pid;
	int		 clean = 1;

	if ((d = opendir("/proc/self/task")) == NULL)
		return 0;
	while (clean && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/children",
		    e->d_name);
		if ((f = fopen(path, "re")) == NULL) {
			clean = 0;
			break;
		}
		while (clean && fscanf(f, "%ld", &pid) == 1)
			clean = is_running((pid_t)pid);
		fclose(f);
	}
	closedir(d);
	return clean;
}

/*
 * Kill every process below program (its pid; 0 for none) and every
 * orphan the subreaper took in; reap the orphans already dead.
 */
static void
end_descendants(pid_t program)
{
	struct proc	*v;
	pid_t		 me = getpid(), mysid = getsid(0);
	ssize_t		 n, i;
	int		 more, *below;

	pthread_mutex_lock(&running_lock);
	if ((program <= 0 && no_orphans()) || (n = proc_scan(&v)) < 0) {
		pthread_mutex_unlock(&running_lock);
		return;
	}
	below = xcalloc((size_t)n + 1, sizeof(*below));
	do {				/* the tree below program */
		more = 0;
		for (i = 0; i < n; i++) {
			ssize_t	 j;

			if (below[i] || program <= 0)
				continue;
			if (v[i].ppid == program)
				below[i] = more = 1;
			for (j = 0; j < n && !below[i]; j++)
				if (below[j] && v[j].pid == v[i].ppid)
					below[i] = more = 1;
		}
	} while (more);
	for (i = 0; i < n; i++) {
		if (v[i].pid == me)
			continue;
		if (v[i].ppid == me && v[i].sid != mysid &&
		    !is_running(v[i].pid)) {
			if (v[i].state == 'Z')
				(void)waitpid(v[i].pid, NULL, WNOHANG);
			else
				(void)kill(v[i].pid, SIGKILL);
		} else if (below[i])
			(void)kill(v[i].pid, SIGKILL);
	}
	pthread_mutex_unlock(&running_lock);
	free(below);
	free(v);
}

/*
 * Its group first, whose members all die at once: a shell running the
 * program never sees a child of its own killed before it (and never
 * writes "Killed" on the server's stderr); then those outside the group
 * (reparented to us when it died: orphans).
 */
void
program_kill(struct program *p)
{
	if (p->pid <= 0)
		return;
	(void)kill(-p->pid, SIGKILL);
	if (!p->exited)
		end_descendants(p->pid);
}

void
program_sweep(struct program *p)
{
	if (p->pid <= 0)
		return;
	(void)kill(-p->pid, SIGKILL);
	end_descendants(0);
}

static void
on_sigchld(uv_signal_t *h, int signum)
{
	struct program	*p = h->data;
	pid_t		 r;
	int		 st = 0;

	(void)signum;
	if (p->exited)
		return;
	do
		r = waitpid(p->pid, &st, WNOHANG);
	while (r == -1 && errno == EINTR);
	if (r == 0 || (r == -1 && errno != ECHILD))
		return;			/* another child's, or still running */
	p->exited = 1;
	uv_signal_stop(h);
	running_del(p->pid);
	p->exit_cb(p, r == p->pid && WIFEXITED(st) ? WEXITSTATUS(st) : 0,
	    r == p->pid && WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

/*
 * The child, between fork and exec: async-signal-safe calls only.  On
 * a failure, errno goes to errfd (close-on-exec: end of file tells the
 * parent the exec happened).
 */
static void __attribute__((noreturn))
child(const struct program_spawn *ps, int domain, int out, int errfd)
{
	struct sigaction sa;
	sigset_t	 none;
	int		 n, fd;

	(void)setsid();			/* killed as a group, with its own */
	/* A server started with 0 or 1 closed may have its pipe there. */
	if (out < 3 && (out = fcntl(out, F_DUPFD, 3)) == -1)
		goto fail;
	if ((fd = open("/dev/null", O_RDONLY)) == -1 || dup2(fd, 0) == -1 ||
	    dup2(out, 1) == -1 || chdir(ps->cwd) == -1)
		goto fail;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	/* 1..31: glibc's real-time signals are its own. */
	for (n = 1; n < 32; n++)
		if (n != SIGKILL && n != SIGSTOP)
			(void)sigaction(n, &sa, NULL);
	if (domain >= 0 && landlock_enter_fd(domain) == -1)
		goto fail;
	/* Nothing of the server's is left open but errfd, till exec. */
	if ((errfd > 3 && close_range(3, (unsigned)errfd - 1, 0) == -1) ||
	    close_range((unsigned)errfd + 1, ~0U, 0) == -1)
		goto fail;
	sigemptyset(&none);
	(void)sigprocmask(SIG_SETMASK, &none, NULL);
	execve(ps->file, ps->argv, ps->envp);
fail:
	n = errno;
	(void)!write(errfd, &n, sizeof(n));
	_exit(127);
}

/* Two pipes: close-on-exec, the ends the child keeps above 2. */
static int
pipes(int outp[2], int errp[2])
{
	int	 i, fd, *ends[2] = { &outp[1], &errp[1] };

	if (pipe2(outp, O_CLOEXEC) == -1)
		return -1;
	if (pipe2(errp, O_CLOEXEC) == -1) {
		close(outp[0]);
		close(outp[1]);
		return -1;
	}
	/* The child closes every descriptor above 2 but errfd. */
	for (i = 0; i < 2; i++)
		if (*ends[i] < 3 && (fd = fcntl(*ends[i], F_DUPFD_CLOEXEC,
		    3)) != -1) {
			close(*ends[i]);
			*ends[i] = fd;
		}
	return 0;
}

int
program_start(uv_loop_t *loop, struct program *p,
    const struct program_spawn *ps, program_exit_fn exit_cb, int *out)
{
	sigset_t	 all, old;
	ssize_t		 r;
	pid_t		 pid;
	int		 outp[2], errp[2], domain, err = 0, rv;

	*out = -1;
	p->pid = 0;
	p->exited = 0;
	p->exit_cb = exit_cb;
	uv_signal_init(loop, &p->sigchld);
	p->sigchld.data = p;
	if ((domain = domain_for(ps->cfg)) == -2)
		return UV_EPERM;
	if (pipes(outp, errp) == -1)
		return uv_translate_sys_error(errno);
	/* Before the fork: an end as quick as the exec is not missed. */
	if ((rv = uv_signal_start(&p->sigchld, on_sigchld, SIGCHLD)) < 0) {
		close(outp[0]);
		close(outp[1]);
		close(errp[0]);
		close(errp[1]);
		return rv;
	}
	sigfillset(&all);
	pthread_mutex_lock(&running_lock);
	/* Orphans below a program become ours, not init's. */
	(void)prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if ((pid = fork()) == 0)
		child(ps, domain, outp[1], errp[1]);
	if (pid == -1)
		err = errno;
	else {
		running = xreallocarray(running, nrunning + 1,
		    sizeof(*running));
		running[nrunning++] = pid;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_mutex_unlock(&running_lock);
	close(outp[1]);
	close(errp[1]);
	if (pid == -1) {
		close(outp[0]);
		close(errp[0]);
		uv_signal_stop(&p->sigchld);
		return uv_translate_sys_error(err);
	}
	p->pid = pid;
	do
		r = read(errp[0], &err, sizeof(err));
	while (r == -1 && errno == EINTR);
	close(errp[0]);
	if (r <= 0) {
		*out = outp[0];
		return 0;		/* end of file: it is running */
	}
	/* It never ran: reap it here, no exit_cb. */
	close(outp[0]);
	uv_signal_stop(&p->sigchld);
	(void)waitpid(pid, NULL, 0);
	running_del(pid);
	p->pid = 0;
	return uv_translate_sys_error(r == sizeof(err) ? err : EIO);
}

static void
on_closed(uv_handle_t *h)
{
	struct program	*p = h->data;

	p->closed_cb(p);
}

void
program_close(struct program *p, program_closed_fn closed)
{
	p->closed_cb = closed;
	uv_close((uv_handle_t *)&p->sigchld, on_closed);
}
