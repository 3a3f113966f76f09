/*
 * cgi.c -- a CGI program answering one Gemini request (cgi.h).
 *
 *   cgi_start: the program started (net/program.c) --> RUNNING
 *   RUNNING: stdout read into the job's answer
 *     -(exited and stdout at its end)----------------> close handles
 *     -(too much output / cgi_stop())----------------> kill it all
 *   close handles -(both close callbacks)--> done(arg)
 *
 * A program that exits while a child of its own still holds stdout is
 * given the rest of its time; then the group is killed and the answer
 * is what arrived.  The output is kept whole until it is checked: the
 * header must be valid before a byte is sent (docs/operating.md,
 * "CGI"); that is net/backend.c's, as for every backend.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/config.h"
#include "core/fsafe.h"
#include "core/log.h"
#include "core/pathrule.h"
#include "core/util.h"
#include "net/backend_job.h"
#include "net/cgi.h"
#include "net/program.h"

#define CGI_CHUNK	16384

struct cgi {
	struct program	 prog;		/* its process: the signal handle
					   closed at the end */
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
closed(struct cgi *cg)
{
	if (--cg->nopen == 0)
		cg->done(cg, cg->arg);
}

static void
on_pipe_closed(uv_handle_t *h)
{
	closed(h->data);
}

static void
on_prog_closed(struct program *p)
{
	closed(p->data);
}

/* Once it has exited and its output is read (or given up): close. */
static void
maybe_finish(struct cgi *cg)
{
	if (cg->closing || !cg->exited || !cg->eof)
		return;
	cg->closing = 1;
	backend_job_end(cg->job, BACKEND_DONE);
	program_sweep(&cg->prog);	/* what it left */
	program_close(&cg->prog, on_prog_closed);
	uv_close((uv_handle_t *)&cg->out, on_pipe_closed);
}

/* Stop: why, the group killed (children too), stdout no more read. */
static void
stop(struct cgi *cg, enum backend_end why)
{
	backend_job_end(cg->job, why);
	program_kill(&cg->prog);
	if (!cg->eof) {
		uv_read_stop((uv_stream_t *)&cg->out);
		cg->eof = 1;
	}
	maybe_finish(cg);
}

static void
on_exit_cb(struct program *p, int64_t status, int sig)
{
	struct cgi	*cg = p->data;

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
spawn(uv_loop_t *loop, struct cgi *cg, const struct config *top,
    const char *dir)
{
	struct program_spawn	 ps;
	char			*args[2];
	int			 fd, rv;

	args[0] = cg->program;
	args[1] = NULL;
	memset(&ps, 0, sizeof(ps));
	ps.cfg = top;
	ps.file = cg->program;
	ps.argv = args;
	ps.envp = cg->job->vars;
	ps.cwd = dir;
	if ((rv = program_start(loop, &cg->prog, &ps, on_exit_cb,
	    &fd)) < 0) {
		cg->exited = 1;		/* it never ran: no exit_cb */
		return rv;
	}
	if ((rv = uv_pipe_open(&cg->out, fd)) < 0) {
		close(fd);
		program_kill(&cg->prog);	/* exit_cb follows */
	}
	return rv;
}

struct cgi *
cgi_start(uv_loop_t *loop, const struct config *top,
    const struct config *cfg, const char *path, size_t len,
    struct backend_job *job, cgi_done_fn done, void *arg)
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
	cg->prog.data = cg;
	cg->nopen = 2;
	rv = spawn(loop, cg, top, dir);
	free(dir);
	if (rv < 0) {
		log_warnx("%s: %s", job->who, uv_strerror(rv));
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
