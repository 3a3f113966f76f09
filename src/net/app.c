/*
 * app.c -- a FastCGI or SCGI server answering one Gemini request
 * (app.h).
 *
 *   app_start -(a connection idle, or room for one)-> SENT
 *             -(max_connections open)--------------> WAITING -> SENT
 *   SENT: the answer read into the job
 *     -(FastCGI END_REQUEST / SCGI end of stream)--> the connection
 *                                   idle again (FastCGI) or closed
 *     -(too big, bad record, app_stop())------------> it is closed
 *   then done(arg) follows at once: a request owns no handle.
 *
 * A connection (struct bconn) belongs to its pool, one per backend and
 * thread, and is lent to one request at a time; it owns the bytes it
 * writes, so a request that ends while a write is in flight leaves
 * nothing dangling.  A kept connection the server closed meanwhile is
 * found out by the first request that uses it, which is then retried
 * once on a new connection.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/config_apps.h"
#include "core/log.h"
#include "core/util.h"
#include "net/app.h"
#include "net/backend_job.h"
#include "proto/fastcgi.h"
#include "proto/scgi.h"

#define APP_CHUNK	16384
#define APP_ID		1		/* one request per connection */

struct bconn;

/* The connections to one backend on this thread, and who waits. */
struct pool {
	struct pool	*next;
	enum config_app_kind kind;
	char		*key;		/* owned: "unix:PATH" or "ADDR:PORT" */
	char		*path;		/* owned, or NULL for TCP */
	struct sockaddr_storage ss;	/* TCP */
	unsigned	 max;		/* the newest max_connections */
	unsigned	 nconns;	/* open or opening */
	struct bconn	*idle;		/* kept FastCGI connections */
	struct app	*wait_head;	/* requests waiting for one */
	struct app	**wait_tail;
	int		 dead;		/* app_pool_close(): free when empty */
};

struct bconn {
	union {
		uv_handle_t	 h;
		uv_stream_t	 s;
		uv_pipe_t	 pipe;
		uv_tcp_t	 tcp;
	}		 u;
	uv_connect_t	 creq;
	uv_write_t	 wreq;
	struct pool	*pool;		/* borrowed: outlives its conns */
	struct app	*cur;		/* lent to this request, or NULL */
	struct bconn	*next_idle;
	struct buf	 in;		/* FastCGI bytes not yet a record */
	struct buf	 out;		/* owned: what is being written */
	int		 connected;
	int		 closing;
	int		 reused;	/* served a request before */
	int		 got;		/* a byte of this request's answer */
	char		 chunk[APP_CHUNK];
};

struct app {
	uv_loop_t	*loop;		/* borrowed */
	struct pool	*pool;		/* borrowed */
	struct bconn	*bc;		/* the connection lent, or NULL */
	struct app	*next_wait;
	int		 waiting;
	int		 retried;
	int		 finished;
	struct backend_job *job;	/* borrowed: backend.c's */
	struct buf	 req;		/* the request, until it is sent */
	app_done_fn	 done;
	void		*arg;
};

static _Thread_local struct pool *pools;
static _Thread_local int pools_closed;

static void	assign(struct app *);
static void	bconn_close(struct bconn *);

static void
unwait(struct app *ap)
{
	struct app	**pp;

	if (!ap->waiting)
		return;
	for (pp = &ap->pool->wait_head; *pp != ap; pp = &(*pp)->next_wait)
		;
	*pp = ap->next_wait;
	if (ap->pool->wait_tail == &ap->next_wait)
		ap->pool->wait_tail = pp;
	ap->waiting = 0;
}

/*
 * The request ends as why says; its connection is the caller's affair.
 * done follows here: backend.c frees nothing until its own timer has
 * closed, so ap outlives this call.
 */
static void
finish(struct app *ap, enum backend_end why)
{
	if (ap->finished)
		return;
	ap->finished = 1;
	backend_job_end(ap->job, why);
	unwait(ap);
	if (ap->bc != NULL) {
		ap->bc->cur = NULL;
		ap->bc = NULL;
	}
	ap->done(ap, ap->arg);
}

/* Every waiter that can have a connection now gets one. */
static void
pump(struct pool *p)
{
	struct app	*ap;

	while ((ap = p->wait_head) != NULL && (p->idle != NULL ||
	    p->nconns < p->max)) {
		unwait(ap);
		assign(ap);
	}
}

static void
on_bconn_closed(uv_handle_t *h)
{
	struct bconn	*bc = h->data;
	struct pool	*p = bc->pool, **pp;

	buf_free(&bc->in);
	buf_free(&bc->out);
	free(bc);
	p->nconns--;
	if (p->dead && p->nconns == 0) {
		for (pp = &pools; *pp != p; pp = &(*pp)->next)
			;
		*pp = p->next;
		free(p->key);
		free(p->path);
		free(p);
		return;
	}
	pump(p);
}

static void
bconn_close(struct bconn *bc)
{
	struct bconn	**pp;

	if (bc->closing)
		return;
	bc->closing = 1;
	if (bc->cur != NULL) {
		bc->cur->bc = NULL;
		bc->cur = NULL;
	}
	for (pp = &bc->pool->idle; *pp != NULL; pp = &(*pp)->next_idle)
		if (*pp == bc) {
			*pp = bc->next_idle;
			break;
		}
	uv_close(&bc->u.h, on_bconn_closed);
}

/* The request is done with bc: keep it for the next one, or close. */
static void
release(struct bconn *bc)
{
	struct pool	*p = bc->pool;

	if (bc->cur != NULL)
		bc->cur->bc = NULL;
	bc->cur = NULL;
	if (p->kind != CONFIG_APP_FASTCGI || pools_closed || p->dead ||
	    bc->in.len > 0) {
		bconn_close(bc);
		return;
	}
	bc->reused = 1;
	bc->next_idle = p->idle;
	p->idle = bc;
	pump(p);
}

/*
 * bc failed (rv, a libuv error) while lent to a request: a kept
 * connection that the server had closed is retried once on a new one.
 */
static void
bconn_failed(struct bconn *bc, int rv, const char *what)
{
	struct app	*ap = bc->cur;
	int		 stale = bc->reused && !bc->got;

	bconn_close(bc);
	if (ap == NULL)
		return;
	if (stale && !ap->retried) {
		ap->retried = 1;
		ap->pool->max++;	/* one new connection, at once */
		assign(ap);
		ap->pool->max--;
		return;
	}
	log_warnx("%s: %s: %s", ap->job->who, what,
	    rv < 0 ? uv_strerror(rv) : "closed before the answer ended");
	finish(ap, bc->connected ? BACKEND_BAD : BACKEND_UNREACHABLE);
}

static void
on_write(uv_write_t *w, int status)
{
	struct bconn	*bc = w->data;

	buf_free(&bc->out);
	if (status < 0 && !bc->closing)
		bconn_failed(bc, status, "write");
}

static void
send_request(struct bconn *bc)
{
	struct app	*ap = bc->cur;
	uv_buf_t	 ub;
	int		 rv;

	buf_free(&bc->out);
	bc->out = ap->req;		/* the connection owns the bytes now */
	buf_init(&ap->req);
	ub = uv_buf_init(bc->out.data, (unsigned)bc->out.len);
	bc->wreq.data = bc;
	if ((rv = uv_write(&bc->wreq, &bc->u.s, &ub, 1, on_write)) < 0)
		bconn_failed(bc, rv, "write");
}

/* The FastCGI records in bc->in, for the request lent bc. */
static void
records(struct bconn *bc)
{
	struct fastcgi_record	 rec;
	struct app		*ap = bc->cur;
	const char		*err = NULL;
	size_t			 off = 0;
	ssize_t			 r;

	while ((r = fastcgi_parse((const uint8_t *)bc->in.data + off,
	    bc->in.len - off, &rec, &err)) > 0) {
		off += (size_t)r;
		if (rec.id != APP_ID)
			continue;	/* management records: not asked */
		switch (rec.type) {
		case FASTCGI_STDOUT:
			if (!backend_job_take(ap->job, rec.content,
			    rec.len)) {
				bconn_close(bc);
				finish(ap, BACKEND_TOO_BIG);
				return;
			}
			break;
		case FASTCGI_STDERR:
			log_debug("%s: stderr: %.*s", ap->job->who,
			    (int)(rec.len > 200 ? 200 : rec.len),
			    (const char *)rec.content);
			break;
		case FASTCGI_END_REQUEST:
			memmove(bc->in.data, bc->in.data + off,
			    bc->in.len - off);
			buf_truncate(&bc->in, bc->in.len - off);
			if (rec.protocol_status != FASTCGI_REQUEST_COMPLETE) {
				log_warnx("%s: request refused "
				    "(protocol status %d)", ap->job->who,
				    rec.protocol_status);
				bconn_close(bc);
				finish(ap, BACKEND_BAD);
				return;
			}
			release(bc);
			finish(ap, BACKEND_DONE);
			return;
		default:
			break;
		}
	}
	if (r < 0) {
		log_warnx("%s: %s", ap->job->who, err);
		bconn_close(bc);
		finish(ap, BACKEND_BAD);
		return;
	}
	memmove(bc->in.data, bc->in.data + off, bc->in.len - off);
	buf_truncate(&bc->in, bc->in.len - off);
}

static void
on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *ub)
{
	struct bconn	*bc = h->data;

	(void)suggested;
	*ub = uv_buf_init(bc->chunk, sizeof(bc->chunk));
}

static void
on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *ub)
{
	struct bconn	*bc = s->data;
	struct app	*ap = bc->cur;

	if (n == 0 || bc->closing)
		return;
	if (n < 0) {
		if (ap != NULL && bc->pool->kind == CONFIG_APP_SCGI &&
		    n == UV_EOF) {
			bconn_close(bc);
			finish(ap, BACKEND_DONE);
			return;
		}
		if (ap != NULL)
			bconn_failed(bc, n == UV_EOF ? 0 : (int)n, "read");
		else
			bconn_close(bc);	/* an idle one, closed */
		return;
	}
	if (ap == NULL) {		/* nothing was asked */
		bconn_close(bc);
		return;
	}
	bc->got = 1;
	if (bc->pool->kind == CONFIG_APP_SCGI) {
		if (!backend_job_take(ap->job, ub->base, (size_t)n)) {
			bconn_close(bc);
			finish(ap, BACKEND_TOO_BIG);
		}
		return;
	}
	buf_add(&bc->in, ub->base, (size_t)n);
	records(bc);
}

static void
on_connect(uv_connect_t *req, int status)
{
	struct bconn	*bc = req->data;
	int		 rv;

	if (bc->closing)
		return;
	if (status < 0) {
		bconn_failed(bc, status, "connect");
		return;
	}
	bc->connected = 1;
	if ((rv = uv_read_start(&bc->u.s, on_alloc, on_read)) < 0) {
		bconn_failed(bc, rv, "read");
		return;
	}
	if (bc->cur != NULL)
		send_request(bc);
	else
		release(bc);
}

/* A new connection to p, opening; NULL when it cannot even start. */
static struct bconn *
bconn_open(struct pool *p, uv_loop_t *loop)
{
	struct bconn	*bc;
	int		 rv = 0;

	bc = xcalloc(1, sizeof(*bc));
	bc->pool = p;
	buf_init(&bc->in);
	buf_init(&bc->out);
	bc->creq.data = bc;
	p->nconns++;
	log_debug("backend %s: new connection (%u open)", p->key, p->nconns);
	if (p->path != NULL) {
		uv_pipe_init(loop, &bc->u.pipe, 0);
		bc->u.h.data = bc;
		uv_pipe_connect(&bc->creq, &bc->u.pipe, p->path, on_connect);
		return bc;
	}
	uv_tcp_init(loop, &bc->u.tcp);
	bc->u.h.data = bc;
	if ((rv = uv_tcp_connect(&bc->creq, &bc->u.tcp,
	    (struct sockaddr *)&p->ss, on_connect)) < 0) {
		log_warnx("backend %s: connect: %s", p->key, uv_strerror(rv));
		bc->closing = 1;
		uv_close(&bc->u.h, on_bconn_closed);
		return NULL;
	}
	return bc;
}

/* ap gets a connection now, or waits for one. */
static void
assign(struct app *ap)
{
	struct pool	*p = ap->pool;
	struct bconn	*bc;

	if ((bc = p->idle) != NULL) {
		p->idle = bc->next_idle;
		bc->next_idle = NULL;
		bc->cur = ap;
		bc->got = 0;
		ap->bc = bc;
		send_request(bc);
		return;
	}
	if (p->nconns >= p->max) {
		ap->next_wait = NULL;
		*p->wait_tail = ap;
		p->wait_tail = &ap->next_wait;
		ap->waiting = 1;
		return;
	}
	if ((bc = bconn_open(p, ap->loop)) == NULL) {
		finish(ap, BACKEND_UNREACHABLE);
		return;
	}
	bc->cur = ap;
	ap->bc = bc;
}

/* This thread's pool for a's backend, made on first use. */
static struct pool *
pool_for(const struct config_app *a)
{
	struct pool	*p;
	char		*key;

	key = a->path != NULL ? xasprintf("unix:%s", a->path) :
	    xasprintf(strchr(a->addr, ':') != NULL ? "[%s]:%d" : "%s:%d",
	    a->addr, a->port);
	for (p = pools; p != NULL; p = p->next)
		if (!p->dead && p->kind == a->kind && strcmp(p->key, key) == 0)
			break;
	if (p == NULL) {
		p = xcalloc(1, sizeof(*p));
		p->kind = a->kind;
		p->key = key;
		key = NULL;
		p->path = xstrdup_null(a->path);
		if (a->path == NULL && uv_ip4_addr(a->addr, a->port,
		    (struct sockaddr_in *)&p->ss) != 0)
			(void)uv_ip6_addr(a->addr, a->port,
			    (struct sockaddr_in6 *)&p->ss);
		p->wait_tail = &p->wait_head;
		p->next = pools;
		pools = p;
	}
	free(key);
	p->max = a->max_conns;		/* as the newest configuration says */
	return p;
}

struct app *
app_start(uv_loop_t *loop, const struct config_app *a,
    struct backend_job *job, app_done_fn done, void *arg)
{
	struct app	*ap;

	ap = xcalloc(1, sizeof(*ap));
	ap->loop = loop;
	ap->pool = pool_for(a);
	ap->job = job;
	ap->done = done;
	ap->arg = arg;
	job->who = xasprintf("backend %s", ap->pool->key);
	buf_init(&ap->req);
	if (a->kind == CONFIG_APP_FASTCGI) {
		fastcgi_begin(&ap->req, APP_ID, 1);
		fastcgi_params(&ap->req, APP_ID, job->vars);
		fastcgi_record(&ap->req, FASTCGI_STDIN, APP_ID, NULL, 0);
	} else
		scgi_request(&ap->req, job->vars, 0);
	assign(ap);
	return ap;
}

/* A connection in mid-answer cannot be reused: it is closed. */
void
app_stop(struct app *ap, enum backend_end why)
{
	if (ap->finished)
		return;
	if (ap->bc != NULL)
		bconn_close(ap->bc);
	finish(ap, why);
}

void
app_free(struct app *ap)
{
	if (ap == NULL)
		return;
	buf_free(&ap->req);
	free(ap);
}

void
app_pool_close(void)
{
	struct pool	*p, *next;

	pools_closed = 1;
	for (p = pools; p != NULL; p = next) {
		next = p->next;
		p->dead = 1;
		while (p->idle != NULL)
			bconn_close(p->idle);
		if (p->nconns == 0) {
			/* Nothing will call back: free it here. */
			struct pool	**pp;

			for (pp = &pools; *pp != p; pp = &(*pp)->next)
				;
			*pp = p->next;
			free(p->key);
			free(p->path);
			free(p);
		}
	}
}
