/*
 * cgi.c -- a CGI program answering one Gemini request (cgi.h).
 *
 *   cgi_start: find the program, spawn it --> RUNNING
 *   RUNNING: stdout read into out; exit noted; the timer armed
 *     -(exited and stdout at its end)----------------> close handles
 *     -(too much output / too long / cgi_abort())-----> kill the group
 *   close handles -(the three close callbacks)--> done(arg)
 *
 * A program that exits while a child of its own still holds stdout is
 * given the rest of its time; then the group is killed and the answer
 * is what arrived.  The output is kept whole until it is checked: the
 * header must be valid before a byte is sent (README.md, "CGI").
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

#include "core/buf.h"
#include "core/config.h"
#include "core/config_apps.h"
#include "core/fsafe.h"
#include "core/log.h"
#include "core/pathrule.h"
#include "core/util.h"
#include "net/app.h"
#include "net/cgi.h"
#include "net/tlsconn.h"
#include "proto/gemini.h"

#ifndef CAPSULED_VERSION
#define CAPSULED_VERSION "0.0.0"
#endif

#define CGI_CHUNK	16384
#define CGI_PATH	"/usr/local/bin:/usr/bin:/bin"

enum cgi_end {
	CGI_RUNNING,
	CGI_DONE,		/* exited, output read to its end */
	CGI_TOO_BIG,		/* more than cgi_max_output */
	CGI_TOO_LONG,		/* past cgi_timeout */
	CGI_ABORTED,		/* the client left */
};

struct cgi {
	uv_process_t	 proc;
	uv_pipe_t	 out;		/* its stdout */
	uv_timer_t	 timer;
	int		 nopen;		/* handles not yet closed */
	int		 exited;
	int		 eof;		/* stdout at its end, or given up */
	int		 closing;
	enum cgi_end	 end;
	size_t		 max;		/* cgi_max_output */
	struct buf	 output;
	char		*program;	/* owned: for the log */
	struct app	*app;		/* owned: a FastCGI or SCGI server
					   answers instead, or NULL */
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

static char *
env(const char *name, const char *value)
{
	return xasprintf("%s=%s", name, value != NULL ? value : "");
}

/*
 * The environment (NULL-terminated, owned) for program at script_name,
 * with an application's params[0..nparams) after it.
 */
static char **
make_env(const struct cgi_request *req, const char *script_name,
    const char *path_info, char *const *params, size_t nparams)
{
	char	**e;
	size_t	 n = 0, i;

	e = xcalloc(24 + nparams, sizeof(*e));
	e[n++] = env("GATEWAY_INTERFACE", "CGI/1.1");
	e[n++] = env("SERVER_SOFTWARE", "capsuled/" CAPSULED_VERSION);
	e[n++] = env("SERVER_PROTOCOL", "GEMINI");
	e[n++] = env("SERVER_NAME", req->server_name);
	e[n++] = xasprintf("SERVER_PORT=%d", req->server_port);
	e[n++] = env("SCRIPT_NAME", script_name);
	e[n++] = env("PATH_INFO", path_info);
	e[n++] = env("QUERY_STRING", req->query);
	e[n++] = env("REMOTE_ADDR", req->remote_addr);
	e[n++] = env("REMOTE_HOST", req->remote_addr);
	e[n++] = env("GEMINI_URL", req->url);
	e[n++] = env("PATH", CGI_PATH);
	if (req->tls != NULL) {
		e[n++] = env("TLS_VERSION", req->tls->version);
		e[n++] = env("TLS_CIPHER", req->tls->cipher);
	}
	if (req->cert_hash != NULL && req->tls != NULL) {
		e[n++] = env("AUTH_TYPE", "CERTIFICATE");
		e[n++] = env("REMOTE_USER", req->tls->cn);
		e[n++] = xasprintf("TLS_CLIENT_HASH=SHA256:%s",
		    req->cert_hash);
		e[n++] = env("TLS_CLIENT_SUBJECT", req->tls->subject);
		e[n++] = env("TLS_CLIENT_ISSUER", req->tls->issuer);
	}
	for (i = 0; i < nparams; i++)
		e[n++] = xstrdup(params[i]);
	e[n] = NULL;
	return e;
}

static void
free_env(char **e)
{
	size_t	 i;

	for (i = 0; e[i] != NULL; i++)
		free(e[i]);
	free(e);
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
	if (cg->end == CGI_RUNNING)
		cg->end = CGI_DONE;
	if (cg->proc.pid > 0) {		/* 0: it never ran */
		(void)kill(-cg->proc.pid, SIGKILL); /* what it left */
		end_descendants(0);
	}
	uv_close((uv_handle_t *)&cg->proc, on_close);
	uv_close((uv_handle_t *)&cg->out, on_close);
	uv_close((uv_handle_t *)&cg->timer, on_close);
}

/* Stop: why, the group killed (children too), stdout no more read. */
static void
stop(struct cgi *cg, enum cgi_end why)
{
	if (cg->end == CGI_RUNNING)
		cg->end = why;
	if (!cg->exited) {
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
	if (cg->end == CGI_RUNNING && (status != 0 || sig != 0))
		log_debug("cgi %s: exit status %lld, signal %d", cg->program,
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
	if (cg->output.len + (size_t)n > cg->max) {
		log_warnx("cgi %s: more than %zu bytes of output; killed",
		    cg->program, cg->max);
		stop(cg, CGI_TOO_BIG);
		return;
	}
	buf_add(&cg->output, ub->base, (size_t)n);
}

static void
on_timeout(uv_timer_t *t)
{
	struct cgi	*cg = t->data;

	log_warnx("cgi %s: no answer within cgi_timeout; killed",
	    cg->program);
	stop(cg, CGI_TOO_LONG);
}

/* No one waits for a program that never ran: free it once closed. */
static void
spawn_failed(struct cgi *cg, void *arg)
{
	(void)arg;
	cgi_free(cg);
}

static void
app_done(struct app *ap, void *arg)
{
	struct cgi	*cg = arg;

	(void)ap;
	cg->done(cg, cg->arg);
}

/*
 * Path is under application a's prefix: SCRIPT_NAME is the part of the
 * path the prefix holds, PATH_INFO the rest (core/pathrule.h: a run of
 * '/' may stand for one), the environment otherwise a program's.
 */
static struct cgi *
app_begin(uv_loop_t *loop, const struct config *cfg,
    const struct config_app *a, const char *path,
    const struct cgi_request *req, cgi_done_fn done, void *arg)
{
	struct pathrule_match	 m;
	struct cgi		*cg;
	char			**e, *script;

	if (!pathrule_match(&a->rule, path, &m))
		m.rest = path + strlen(path);	/* config_app_find()'s: held */
	cg = xcalloc(1, sizeof(*cg));
	cg->done = done;
	cg->arg = arg;
	buf_init(&cg->output);
	script = xstrndup(path, (size_t)(m.rest - path));
	e = make_env(req, script, m.rest, a->params, a->nparams);
	cg->app = app_start(loop, a, e, cfg->cgi_timeout_ms,
	    cfg->cgi_max_output, app_done, cg);
	free_env(e);
	free(script);
	return cg;
}

struct cgi *
cgi_start(uv_loop_t *loop, const struct config *cfg, const char *path,
    const struct cgi_request *req, cgi_done_fn done, void *arg, int *status,
    const char **meta)
{
	uv_process_options_t	 opts;
	uv_stdio_container_t	 stdio[3];
	const struct config_app	*a;
	struct cgi		*cg;
	char			*args[2], **e, *script, *dir;
	size_t			 len;
	int			 rv;

	if ((a = config_app_find(cfg->apps, cfg->napps, cfg->hostname,
	    path)) != NULL)
		return app_begin(loop, cfg, a, path, req, done, arg);
	if ((len = find_program(cfg, path)) == 0) {
		*status = 51;
		*meta = "Not found";
		return NULL;
	}
	/* The server has dropped root, or CGI does not run at all. */
	if (geteuid() == 0 || getuid() == 0) {
		log_errorx("cgi: %s not run: programs are never run as root"
		    " (set user:)", path);
		*status = 42;
		*meta = "CGI error";
		return NULL;
	}
	cg = xcalloc(1, sizeof(*cg));
	cg->max = cfg->cgi_max_output;
	cg->done = done;
	cg->arg = arg;
	buf_init(&cg->output);
	cg->program = xasprintf("%s/%.*s", cfg->capsule_dir, (int)len,
	    path + 1);
	script = xstrndup(path, len + 1);
	dir = xstrdup(cg->program);
	*strrchr(dir, '/') = '\0';
	e = make_env(req, script, path + 1 + len, NULL, 0);

	uv_pipe_init(loop, &cg->out, 0);
	uv_timer_init(loop, &cg->timer);
	cg->out.data = cg;
	cg->timer.data = cg;
	cg->proc.data = cg;
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
	opts.env = e;
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
	}
	pthread_mutex_unlock(&running_lock);
	free_env(e);
	free(script);
	free(dir);
	cg->nopen = 3;
	if (rv < 0) {
		log_warnx("cgi %s: %s", cg->program, uv_strerror(rv));
		/* libuv: a handle that failed to spawn is closed too. */
		cg->done = spawn_failed;
		cg->exited = cg->eof = 1;
		cg->end = CGI_ABORTED;
		maybe_finish(cg);
		*status = 42;
		*meta = "CGI error";
		return NULL;
	}
	uv_timer_start(&cg->timer, on_timeout, cfg->cgi_timeout_ms, 0);
	if ((rv = uv_read_start((uv_stream_t *)&cg->out, on_alloc,
	    on_read)) < 0) {
		log_warnx("cgi %s: %s", cg->program, uv_strerror(rv));
		stop(cg, CGI_ABORTED);
	}
	return cg;
}

int
cgi_answer(const struct cgi *cg, const char **out, size_t *len,
    size_t *hlen, const char **meta)
{
	char	*who;
	int	 status;

	if (cg->app != NULL)
		return app_answer(cg->app, out, len, hlen, meta);
	*out = NULL;
	*len = *hlen = 0;
	switch (cg->end) {
	case CGI_TOO_BIG:
		*meta = "CGI error: too much output";
		return 42;
	case CGI_TOO_LONG:
		*meta = "CGI error: no answer in time";
		return 42;
	case CGI_ABORTED:
	case CGI_RUNNING:
		*meta = "CGI error";
		return 42;
	case CGI_DONE:
		break;
	}
	who = xasprintf("cgi %s", cg->program);
	status = app_header(&cg->output, who, out, len, hlen, meta);
	free(who);
	return status;
}

void
cgi_abort(struct cgi *cg)
{
	if (cg->app != NULL)
		app_abort(cg->app);
	else if (!cg->closing)
		stop(cg, CGI_ABORTED);
}

void
cgi_free(struct cgi *cg)
{
	if (cg == NULL)
		return;
	app_free(cg->app);
	buf_free(&cg->output);
	free(cg->program);
	free(cg);
}
