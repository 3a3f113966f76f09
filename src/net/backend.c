/*
 * backend.c -- the one interface to the four backends (backend.h).
 *
 *   backend_start: the path's backend chosen, the request described,
 *     the timer armed, the backend started
 *   -(the backend is done)--------------------> the timer closed -> done
 *   -(cgi_timeout, backend_abort())-> the backend stopped -> the same
 *
 * A struct backend owns its job (the request's meta-variables and the
 * answer), its timer and the backend's own state (the union), freed by
 * backend_free().  A backend's done may come from within its start or
 * stop call; nothing is freed before the timer's close callback, so it
 * finds everything still there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "core/config_apps.h"
#include "core/pathrule.h"
#include "core/log.h"
#include "core/util.h"
#include "net/app.h"
#include "net/backend.h"
#include "net/backend_job.h"
#include "net/cgi.h"
#include "net/gproxy.h"
#include "net/program.h"
#include "net/tlsconn.h"
#include "proto/gemini.h"

#ifndef CAPSULED_VERSION
#define CAPSULED_VERSION "0.0.0"
#endif

#define BACKEND_PATH	"/usr/local/bin:/usr/bin:/bin"

enum backend_kind {
	BACKEND_CGI,
	BACKEND_FASTCGI,
	BACKEND_SCGI,
	BACKEND_GEMINI,
};

/* How a backend's 4x answers are worded: the proxy's are its own. */
struct wording {
	const char	*error, *too_big, *too_long, *bad_header;
	int		 bad;		/* a broken answer's status */
};

static const struct wording cgi_words = {
	"CGI error", "CGI error: too much output",
	"CGI error: no answer in time", "CGI error: bad response header", 42,
};
static const struct wording proxy_words = {
	"Proxy error", "Proxy error: too much output",
	"Proxy error: no answer in time", "Proxy error: bad response header",
	43,
};

struct backend {
	enum backend_kind kind;
	union {
		struct cgi	*cgi;
		struct app	*app;
		struct gproxy	*gp;
	}		 u;		/* owned */
	struct backend_job job;
	uv_timer_t	 timer;		/* cgi_timeout */
	int		 finished;	/* the backend is done */
	backend_done_fn	 done;
	void		*arg;
};

static char *
var(const char *name, const char *value)
{
	return xasprintf("%s=%s", name, value != NULL ? value : "");
}

/*
 * The request's meta-variables into job->vars, as gmid and molly-brown
 * give them: SCRIPT_NAME is path[0..slen), PATH_INFO the rest; a
 * FastCGI or SCGI entry's params[0..nparams) follow.
 */
static void
describe(struct backend_job *job, const struct backend_client *cl,
    const char *path, size_t slen, char *const *params, size_t nparams)
{
	char	**v, *script;
	size_t	 n = 0, i;

	v = xcalloc(24 + nparams, sizeof(*v));
	script = xstrndup(path, slen);
	v[n++] = var("GATEWAY_INTERFACE", "CGI/1.1");
	v[n++] = var("SERVER_SOFTWARE", "capsuled/" CAPSULED_VERSION);
	v[n++] = var("SERVER_PROTOCOL", "GEMINI");
	v[n++] = var("SERVER_NAME", cl->server_name);
	v[n++] = xasprintf("SERVER_PORT=%d", cl->server_port);
	v[n++] = var("SCRIPT_NAME", script);
	v[n++] = var("PATH_INFO", path + slen);
	v[n++] = var("QUERY_STRING", cl->query);
	v[n++] = var("REMOTE_ADDR", cl->remote_addr);
	v[n++] = var("REMOTE_HOST", cl->remote_addr);
	job->url = strchr(v[n] = var("GEMINI_URL", cl->url), '=') + 1;
	n++;
	v[n++] = var("PATH", BACKEND_PATH);
	if (cl->tls != NULL) {
		v[n++] = var("TLS_VERSION", cl->tls->version);
		v[n++] = var("TLS_CIPHER", cl->tls->cipher);
	}
	if (cl->cert_hash != NULL && cl->tls != NULL) {
		v[n++] = var("AUTH_TYPE", "CERTIFICATE");
		v[n++] = var("REMOTE_USER", cl->tls->cn);
		v[n++] = xasprintf("TLS_CLIENT_HASH=SHA256:%s",
		    cl->cert_hash);
		v[n++] = var("TLS_CLIENT_SUBJECT", cl->tls->subject);
		v[n++] = var("TLS_CLIENT_ISSUER", cl->tls->issuer);
	}
	for (i = 0; i < nparams; i++)
		v[n++] = xstrdup(params[i]);
	v[n] = NULL;
	job->vars = v;
	free(script);
}

static const struct wording *
wording(enum backend_kind kind)
{
	switch (kind) {
	case BACKEND_CGI:
	case BACKEND_FASTCGI:
	case BACKEND_SCGI:
		break;
	case BACKEND_GEMINI:
		return &proxy_words;
	}
	return &cgi_words;
}

static void
on_timer_closed(uv_handle_t *h)
{
	struct backend	*be = h->data;

	be->done(be, be->arg);
}

/* The backend is done (maybe from within its start): close the timer. */
static void
finished(struct backend *be)
{
	be->finished = 1;
	uv_timer_stop(&be->timer);
	uv_close((uv_handle_t *)&be->timer, on_timer_closed);
}

static void
on_cgi_done(struct cgi *cg, void *arg)
{
	(void)cg;
	finished(arg);
}

static void
on_app_done(struct app *ap, void *arg)
{
	(void)ap;
	finished(arg);
}

static void
on_gproxy_done(struct gproxy *gp, void *arg)
{
	(void)gp;
	finished(arg);
}

static void
stop(struct backend *be, enum backend_end why)
{
	if (be->finished)
		return;
	switch (be->kind) {
	case BACKEND_CGI:
		cgi_stop(be->u.cgi, why);
		break;
	case BACKEND_FASTCGI:
	case BACKEND_SCGI:
		app_stop(be->u.app, why);
		break;
	case BACKEND_GEMINI:
		gproxy_stop(be->u.gp, why);
		break;
	}
}

static void
on_timeout(uv_timer_t *t)
{
	struct backend	*be = t->data;

	log_warnx("%s: no answer within cgi_timeout", be->job.who);
	stop(be, BACKEND_TOO_LONG);
}

struct backend *
backend_start(uv_loop_t *loop, const struct config *top,
    const struct config *cfg, const char *path,
    const struct backend_client *cl, backend_done_fn done, void *arg,
    int *status, const char **meta)
{
	const struct config_app	*a;
	struct backend		*be;
	enum backend_kind	 kind = BACKEND_CGI;
	struct pathrule_match	 m;
	size_t			 len = 0, slen;

	if ((a = config_app_find(cfg->apps, cfg->napps, cfg->hostname,
	    path)) != NULL) {
		switch (a->kind) {
		case CONFIG_APP_FASTCGI:
			kind = BACKEND_FASTCGI;
			break;
		case CONFIG_APP_SCGI:
			kind = BACKEND_SCGI;
			break;
		case CONFIG_APP_PROXY:
			kind = BACKEND_GEMINI;
			break;
		}
		/*
		 * SCRIPT_NAME is the part of the path the prefix holds,
		 * PATH_INFO the rest (core/pathrule.h: a run of '/' may
		 * stand for one).
		 */
		if (!pathrule_match(&a->rule, path, &m))
			m.rest = path + strlen(path);	/* held, all of it */
		slen = (size_t)(m.rest - path);
	} else if ((len = cgi_find(cfg, path, status, meta)) == 0)
		return NULL;
	else
		slen = len + 1;
	be = xcalloc(1, sizeof(*be));
	be->kind = kind;
	be->done = done;
	be->arg = arg;
	describe(&be->job, cl, path, slen, a != NULL ? a->params : NULL,
	    a != NULL ? a->nparams : 0);
	be->job.max = cfg->cgi_max_output;
	buf_init(&be->job.out);
	uv_timer_init(loop, &be->timer);
	be->timer.data = be;
	uv_timer_start(&be->timer, on_timeout, cfg->cgi_timeout_ms, 0);
	switch (kind) {
	case BACKEND_CGI:
		be->u.cgi = cgi_start(loop, top, cfg, path, len, &be->job,
		    on_cgi_done, be);
		break;
	case BACKEND_FASTCGI:
	case BACKEND_SCGI:
		be->u.app = app_start(loop, a, &be->job, on_app_done, be);
		break;
	case BACKEND_GEMINI:
		be->u.gp = gproxy_start(loop, a, &be->job, on_gproxy_done,
		    be);
		break;
	}
	return be;
}

int
backend_answer(const struct backend *be, const char **out, size_t *len,
    size_t *hlen, const char **meta)
{
	const struct wording	*w = wording(be->kind);
	const struct buf	*o = &be->job.out;
	ssize_t			 n;
	int			 status;

	*out = NULL;
	*len = *hlen = 0;
	switch (be->job.end) {
	case BACKEND_UNREACHABLE:
		*meta = "Backend unavailable";
		return 43;
	case BACKEND_TOO_BIG:
		*meta = w->too_big;
		return 42;
	case BACKEND_TOO_LONG:
		*meta = w->too_long;
		return 42;
	case BACKEND_BAD:
	case BACKEND_ABORTED:
	case BACKEND_RUNNING:
		*meta = w->error;
		return w->bad;
	case BACKEND_DONE:
		break;
	}
	/* status = 2DIGIT, then " " meta (<= 1024 bytes) or nothing, CRLF */
	if ((n = gemini_header_parse(o->data != NULL ? o->data : "", o->len,
	    &status)) == -1) {
		log_warnx("%s: %s", be->job.who, o->len == 0 ? "no answer" :
		    "not a Gemini response header");
		*meta = w->bad_header;
		return w->bad;
	}
	*out = o->data;
	*len = o->len;
	*hlen = (size_t)n;
	return status;
}

void
backend_abort(struct backend *be)
{
	stop(be, BACKEND_ABORTED);
}

void
backend_free(struct backend *be)
{
	char	**v;

	if (be == NULL)
		return;
	switch (be->kind) {
	case BACKEND_CGI:
		cgi_free(be->u.cgi);
		break;
	case BACKEND_FASTCGI:
	case BACKEND_SCGI:
		app_free(be->u.app);
		break;
	case BACKEND_GEMINI:
		gproxy_free(be->u.gp);
		break;
	}
	for (v = be->job.vars; *v != NULL; v++)
		free(*v);
	free(be->job.vars);
	free(be->job.who);
	buf_free(&be->job.out);
	free(be);
}

void
backend_close(void)
{
	app_pool_close();		/* FastCGI's kept connections */
	gproxy_close();
	program_thread_end();
}
