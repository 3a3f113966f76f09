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
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/config.h"
#include "core/config_apps.h"
#include "core/fsafe.h"
#include "core/log.h"
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
	if (!cg->exited)
		(void)uv_kill(-cg->proc.pid, SIGKILL);
	else
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
 * Path is under application a's prefix: SCRIPT_NAME is the prefix,
 * PATH_INFO the rest, the environment otherwise a program's.
 */
static struct cgi *
app_begin(uv_loop_t *loop, const struct config *cfg,
    const struct config_app *a, const char *path,
    const struct cgi_request *req, cgi_done_fn done, void *arg)
{
	struct cgi	*cg;
	char		**e, *script;
	size_t		 plen = strcmp(a->prefix, "/") == 0 ? 0 :
			    strlen(a->prefix);

	cg = xcalloc(1, sizeof(*cg));
	cg->done = done;
	cg->arg = arg;
	buf_init(&cg->output);
	script = xstrndup(path, plen);
	e = make_env(req, script, path + plen, a->params, a->nparams);
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
	rv = uv_spawn(loop, &cg->proc, &opts);
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
	ssize_t	 n;
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
	if ((n = gemini_header_parse(cg->output.data != NULL ?
	    cg->output.data : "", cg->output.len, &status)) == -1) {
		log_warnx("cgi %s: %s", cg->program, cg->output.len == 0 ?
		    "no output" : "not a Gemini response header");
		*meta = "CGI error: bad response header";
		return 42;
	}
	*out = cg->output.data;
	*len = cg->output.len;
	*hlen = (size_t)n;
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
