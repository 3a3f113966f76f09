/*
 * cgi.c -- a CGI program answering one Gemini request (cgi.h).
 *
 *   cgi_start: spawn the program --> RUNNING
 *   RUNNING: stdout read into the job's answer
 *     -(exited and stdout at its end)----------------> close handles
 *     -(too much output / cgi_stop())----------------> kill the group
 *   close handles -(both close callbacks)--> done(arg)
 *
 * A program that exits while a child of its own still holds stdout is
 * given the rest of its time; then the group is killed and the answer
 * is what arrived.  The output is kept whole until it is checked: the
 * header must be valid before a byte is sent (README.md, "CGI"); that
 * is net/backend.c's, as for every backend.
 *
 * Nothing a program started outlives its answer, not even a process
 * that left its group with setsid(): the server is a child subreaper
 * (prctl(2)), so a descendant whose parent exits becomes the server's
 * child instead of init's; when a program ends, every process below it
 * (found through /proc) and every such orphan -- a child of the server
 * in a session of its own that is no running program -- is killed, and
 * the orphans are reaped.  The table of running programs is shared by
 * the workers, under a lock held across uv_spawn(), so that a program
 * just forked is never taken for an orphan.  Without /proc (a chroot)
 * only the group is killed.
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
#include "core/fsafe.h"
#include "core/log.h"
#include "core/util.h"
#include "net/backend_job.h"
#include "net/cgi.h"

#define CGI_CHUNK	16384

struct cgi {
	uv_process_t	 proc;
	uv_pipe_t	 out;		/* its stdout */
	int		 nopen;		/* handles not yet closed */
	int		 exited;	/* or never started */
	int		 eof;		/* stdout at its end, or given up */
	int		 closing;
	struct backend_job *job;	/* borrowed: backend.c's */
	char		*program;	/* owned */
	cgi_done_fn	 done;
	void		*arg;
	char		 chunk[CGI_CHUNK];
};

/*
 * The program path names: the first segment under the CGI directory
 * that is a regular, executable file, opened as files/ opens files (no
 * way out, no dot-files, one hard link unless files_hardlinks).
 * Returns its capsule-relative length in path + 1 (the rest is
 * PATH_INFO), or 0 when there is none.
 */
static size_t
find_program(const struct config *cfg, const char *path)
{
	struct stat	 st;
	enum fsafe_kind	 kind;
	const char	*rel = path + 1, *seg;
	char		*prefix;
	size_t		 len;
	int		 fd;

	seg = rel + strlen(cfg->cgi);
	while (*seg == '/') {
		if (seg[1] == '.' || seg[1] == '/' || seg[1] == '\0')
			return 0;	/* hidden, empty, or the directory */
		len = strcspn(seg + 1, "/") + 1 + (size_t)(seg - rel);
		prefix = xstrndup(rel, len);
		fd = fsafe_open(cfg->capsule_dir, prefix,
		    (enum fsafe_links)cfg->follow_symlinks, &st, &kind);
		free(prefix);
		if (fd == -1)
			return 0;
		close(fd);
		/* A second name may stand for any file: files_hardlinks. */
		if (kind == FSAFE_FILE)
			return (st.st_mode & 0111) != 0 && (st.st_nlink == 1 ||
			    cfg->files_hardlinks) ? len : 0;
		seg = rel + len;
	}
	return 0;
}

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

size_t
cgi_find(const struct config *cfg, const char *path, int *status,
    const char **meta)
{
	size_t	 len;

	if ((len = find_program(cfg, path)) == 0) {
		*status = 51;
		*meta = "Not found";
		return 0;
	}
	/* The server has dropped root, or CGI does not run at all. */
	if (geteuid() == 0 || getuid() == 0) {
		log_errorx("cgi: %s not run: programs are never run as root"
		    " (set user:)", path);
		*status = 42;
		*meta = "CGI error";
		return 0;
	}
	return len;
}

static void
on_close(uv_handle_t *h)
{
	struct cgi	*cg = h->data;

	if (--cg->nopen == 0)
		cg->done(cg, cg->arg);
}

/* Once it has exited and its output is read (or given up): close. */
static void
maybe_finish(struct cgi *cg)
{
	if (cg->closing || !cg->exited || !cg->eof)
		return;
	cg->closing = 1;
	backend_job_end(cg->job, BACKEND_DONE);
	if (cg->proc.pid > 0) {		/* 0: it never ran */
		(void)kill(-cg->proc.pid, SIGKILL); /* what it left */
		end_descendants(0);
	}
	uv_close((uv_handle_t *)&cg->proc, on_close);
	uv_close((uv_handle_t *)&cg->out, on_close);
}

/* Stop: why, the group killed (children too), stdout no more read. */
static void
stop(struct cgi *cg, enum backend_end why)
{
	backend_job_end(cg->job, why);
	if (cg->proc.pid <= 0)
		;			/* it never ran */
	else if (!cg->exited) {
		end_descendants(cg->proc.pid);
		(void)uv_kill(-cg->proc.pid, SIGKILL);
	} else
		(void)kill(-cg->proc.pid, SIGKILL); /* a child left behind */
	if (!cg->eof) {
		uv_read_stop((uv_stream_t *)&cg->out);
		cg->eof = 1;
	}
	maybe_finish(cg);
}

static void
on_exit_cb(uv_process_t *p, int64_t status, int sig)
{
	struct cgi	*cg = p->data;

	running_del(p->pid);
	cg->exited = 1;
	if (cg->job->end == BACKEND_RUNNING && (status != 0 || sig != 0))
		log_debug("%s: exit status %lld, signal %d", cg->job->who,
		    (long long)status, sig);
	maybe_finish(cg);
}

static void
on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *ub)
{
	struct cgi	*cg = h->data;

	(void)suggested;
	*ub = uv_buf_init(cg->chunk, sizeof(cg->chunk));
}

static void
on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *ub)
{
	struct cgi	*cg = s->data;

	if (n == 0 || cg->eof)
		return;
	if (n < 0) {			/* UV_EOF, or the pipe broke */
		uv_read_stop(s);
		cg->eof = 1;
		maybe_finish(cg);
		return;
	}
	if (!backend_job_take(cg->job, ub->base, (size_t)n))
		stop(cg, BACKEND_TOO_BIG);
}

/* Start it, its stdout read through cg->out; 0 or a libuv error. */
static int
spawn(uv_loop_t *loop, struct cgi *cg, const char *dir)
{
	uv_process_options_t	 opts;
	uv_stdio_container_t	 stdio[3];
	char			*args[2];
	int			 rv;

	memset(&opts, 0, sizeof(opts));
	memset(stdio, 0, sizeof(stdio));
	stdio[0].flags = UV_IGNORE;
	stdio[1].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
	stdio[1].data.stream = (uv_stream_t *)&cg->out;
	stdio[2].flags = UV_INHERIT_FD;
	stdio[2].data.fd = STDERR_FILENO;
	args[0] = cg->program;
	args[1] = NULL;
	opts.file = cg->program;
	opts.args = args;
	opts.env = cg->job->vars;
	opts.cwd = dir;
	opts.exit_cb = on_exit_cb;
	opts.stdio = stdio;
	opts.stdio_count = 3;
	/* Its own session and group: killed with its children. */
	opts.flags = UV_PROCESS_DETACHED;
	pthread_mutex_lock(&running_lock);
	/* Orphans below a program become ours, not init's. */
	(void)prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	if ((rv = uv_spawn(loop, &cg->proc, &opts)) == 0) {
		running = xreallocarray(running, nrunning + 1,
		    sizeof(*running));
		running[nrunning++] = cg->proc.pid;
	} else
		cg->exited = 1;		/* it never ran: no exit_cb */
	pthread_mutex_unlock(&running_lock);
	return rv;
}

struct cgi *
cgi_start(uv_loop_t *loop, const struct config *cfg, const char *path,
    size_t len, struct backend_job *job, cgi_done_fn done, void *arg)
{
	struct cgi	*cg;
	char		*dir;
	int		 rv;

	cg = xcalloc(1, sizeof(*cg));
	cg->job = job;
	cg->done = done;
	cg->arg = arg;
	cg->program = xasprintf("%s/%.*s", cfg->capsule_dir, (int)len,
	    path + 1);
	job->who = xasprintf("cgi %s", cg->program);
	dir = xstrdup(cg->program);
	*strrchr(dir, '/') = '\0';
	uv_pipe_init(loop, &cg->out, 0);
	cg->out.data = cg;
	cg->proc.data = cg;
	cg->nopen = 2;
	rv = spawn(loop, cg, dir);
	free(dir);
	if (rv < 0) {
		log_warnx("%s: %s", job->who, uv_strerror(rv));
		/* libuv: a handle that failed to spawn is closed too. */
		cg->eof = 1;
		stop(cg, BACKEND_BAD);	/* done(arg) follows the close */
		return cg;
	}
	if ((rv = uv_read_start((uv_stream_t *)&cg->out, on_alloc,
	    on_read)) < 0) {
		log_warnx("%s: %s", job->who, uv_strerror(rv));
		stop(cg, BACKEND_BAD);
	}
	return cg;
}

void
cgi_stop(struct cgi *cg, enum backend_end why)
{
	if (!cg->closing)
		stop(cg, why);
}

void
cgi_free(struct cgi *cg)
{
	if (cg == NULL)
		return;
	free(cg->program);
	free(cg);
}
