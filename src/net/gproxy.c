/*
 * gproxy.c -- another Gemini server answering one request (gproxy.h).
 *
 *   gproxy_start -> resolve the backend's name -> TCP connect
 *     -> TLS handshake (net/tlsconn.c, client side, on our loop)
 *     -> the request line sent -> the answer read into the job
 *     -(close_notify, or end of stream after the request)-> DONE
 *     -(unreachable, handshake failed, wrong fingerprint)-> UNREACHABLE
 *     -(too big)-> TOO_BIG; gproxy_stop(): too late, the client left
 *   then every handle is closed, and done(arg) follows.
 *
 * A struct gproxy owns its TLS connection, its socket and each write
 * in flight (struct wr owns its bytes until its callback).  It lives
 * until the last of its callbacks has come: pending counts those still
 * to come (the name lookup, the socket's close).  The client context
 * is made once per thread and never verifies by a CA: self-signed is
 * the norm in Gemini.
 */
#define OPENSSL_API_COMPAT 30000	/* nothing deprecated in 3.0 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/ssl.h>

#include "core/buf.h"
#include "core/config_apps.h"
#include "core/log.h"
#include "core/util.h"
#include "net/backend_job.h"
#include "net/gproxy.h"
#include "net/tlsconn.h"

#define GPROXY_CHUNK	16384

struct gproxy {
	const struct config_app *a;	/* borrowed: outlives done */
	struct backend_job *job;	/* borrowed: backend.c's */
	uv_getaddrinfo_t gai;
	uv_tcp_t	 tcp;
	uv_connect_t	 creq;
	struct tlsconn	*tc;		/* owned, once connected */
	int		 pending;	/* lookup and close callbacks to come */
	int		 resolving;
	int		 tcp_open;
	int		 sent;		/* the request line is written */
	int		 finished;
	gproxy_done_fn	 done;
	void		*arg;
	char		 chunk[GPROXY_CHUNK];
};

/* One write in flight: it owns its ciphertext. */
struct wr {
	uv_write_t	 w;
	struct buf	 b;
	struct gproxy	*gp;		/* borrowed: its socket outlives us */
};

static _Thread_local SSL_CTX *cctx;

/* This thread's client context, made on first use; NULL on failure. */
static SSL_CTX *
client_ctx(void)
{
	if (cctx != NULL)
		return cctx;
	if ((cctx = SSL_CTX_new(TLS_client_method())) == NULL)
		return NULL;
	(void)SSL_CTX_set_min_proto_version(cctx, TLS1_2_VERSION);
	/* Trust on first use, or the entry's fingerprint: no CA here. */
	SSL_CTX_set_verify(cctx, SSL_VERIFY_NONE, NULL);
	SSL_CTX_set_mode(cctx, SSL_MODE_RELEASE_BUFFERS);
	return cctx;
}

static void
settle(struct gproxy *gp)
{
	if (--gp->pending == 0 && gp->finished)
		gp->done(gp, gp->arg);
}

static void
on_closed(uv_handle_t *h)
{
	settle(h->data);
}

/*
 * The request ends as why says; its handles close, and done follows
 * (at once when nothing is pending: backend.c frees nothing until its
 * own timer has closed).
 */
static void
finish(struct gproxy *gp, enum backend_end why)
{
	if (gp->finished)
		return;
	gp->finished = 1;
	backend_job_end(gp->job, why);
	if (gp->resolving)
		(void)uv_cancel((uv_req_t *)&gp->gai);
	if (gp->tcp_open) {
		gp->tcp_open = 0;
		uv_close((uv_handle_t *)&gp->tcp, on_closed);
	}
	if (gp->pending == 0)
		gp->done(gp, gp->arg);
}

static void
on_write(uv_write_t *w, int status)
{
	struct wr	*wr = w->data;
	struct gproxy	*gp = wr->gp;

	buf_free(&wr->b);
	free(wr);
	if (status < 0 && !gp->finished) {
		log_warnx("%s: write: %s", gp->job->who,
		    uv_strerror(status));
		finish(gp, gp->sent ? BACKEND_BAD : BACKEND_UNREACHABLE);
	}
}

/* Send the ciphertext the TLS connection has for the backend. */
static void
flush(struct gproxy *gp)
{
	struct wr	*wr;
	uv_buf_t	 ub;
	int		 rv;

	if (gp->finished)
		return;
	wr = xcalloc(1, sizeof(*wr));
	buf_init(&wr->b);
	if (tlsconn_drain(gp->tc, &wr->b) == 0) {
		free(wr);
		return;
	}
	wr->gp = gp;
	wr->w.data = wr;
	ub = uv_buf_init(wr->b.data, (unsigned)wr->b.len);
	if ((rv = uv_write(&wr->w, (uv_stream_t *)&gp->tcp, &ub, 1,
	    on_write)) < 0) {
		buf_free(&wr->b);
		free(wr);
		log_warnx("%s: write: %s", gp->job->who, uv_strerror(rv));
		finish(gp, gp->sent ? BACKEND_BAD : BACKEND_UNREACHABLE);
	}
}

/* Handshake done: the backend is the one pinned, and gets the request. */
static int
send_request(struct gproxy *gp)
{
	char	 hash[65];
	char	*line;
	int	 rv;

	if (gp->a->fingerprint != NULL) {
		tlsconn_peer_hash(gp->tc, hash);
		if (strcmp(hash, gp->a->fingerprint) != 0) {
			log_warnx("%s: certificate %s is not the "
			    "fingerprint configured", gp->job->who,
			    hash[0] != '\0' ? hash : "(none)");
			finish(gp, BACKEND_UNREACHABLE);
			return -1;
		}
	}
	log_debug("%s: handshake done (sni %s), request sent", gp->job->who,
	    gp->a->sni);
	line = xasprintf("%s\r\n", gp->job->url);
	rv = tlsconn_write(gp->tc, line, strlen(line));
	free(line);
	gp->sent = 1;
	if (rv < 0) {
		log_warnx("%s: TLS write failed", gp->job->who);
		finish(gp, BACKEND_BAD);
		return -1;
	}
	return 0;
}

/* Move the handshake and the answer along after ciphertext came in. */
static void
pump(struct gproxy *gp)
{
	int	 n;

	for (;;) {
		if (!gp->sent && tlsconn_established(gp->tc) &&
		    send_request(gp) == -1)
			return;
		n = tlsconn_read(gp->tc, gp->chunk, sizeof(gp->chunk));
		if (n > 0) {
			if (!backend_job_take(gp->job, gp->chunk,
			    (size_t)n)) {
				finish(gp, BACKEND_TOO_BIG);
				return;
			}
			continue;
		}
		if (n == TLSCONN_EOF) {
			finish(gp, gp->sent ? BACKEND_DONE :
			    BACKEND_UNREACHABLE);
			return;
		}
		if (n == TLSCONN_ERROR) {
			log_warnx("%s: TLS %s failed", gp->job->who,
			    gp->sent ? "session" : "handshake");
			finish(gp, gp->sent ? BACKEND_BAD :
			    BACKEND_UNREACHABLE);
			return;
		}
		if (gp->sent || !tlsconn_established(gp->tc))
			break;
	}
	flush(gp);
}

static void
on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *ub)
{
	struct gproxy	*gp = h->data;

	(void)suggested;
	/* pump() reads plaintext into chunk only after the feed. */
	*ub = uv_buf_init(gp->chunk, sizeof(gp->chunk));
}

static void
on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *ub)
{
	struct gproxy	*gp = s->data;

	if (n == 0 || gp->finished)
		return;
	if (n < 0) {
		/* Many servers close without close_notify: the answer ends. */
		if (n == UV_EOF && gp->sent) {
			finish(gp, BACKEND_DONE);
			return;
		}
		log_warnx("%s: read: %s", gp->job->who, n == UV_EOF ?
		    "closed before the answer" : uv_strerror((int)n));
		finish(gp, gp->sent ? BACKEND_BAD : BACKEND_UNREACHABLE);
		return;
	}
	log_debug("%s: %zd bytes in", gp->job->who, n);
	(void)tlsconn_feed(gp->tc, ub->base, (size_t)n);
	pump(gp);
}

static void
on_connect(uv_connect_t *req, int status)
{
	struct gproxy	*gp = req->data;
	char		 err[256];
	int		 rv;

	if (gp->finished)
		return;
	if (status < 0) {
		log_warnx("%s: connect: %s", gp->job->who,
		    uv_strerror(status));
		finish(gp, BACKEND_UNREACHABLE);
		return;
	}
	if (client_ctx() == NULL || (gp->tc = tlsconn_client_new(cctx,
	    gp->a->sni, gp->a->client_cert, gp->a->client_key, err,
	    sizeof(err))) == NULL) {
		log_warnx("%s: %s", gp->job->who, cctx == NULL ?
		    "no TLS client context" : err);
		finish(gp, BACKEND_UNREACHABLE);
		return;
	}
	if ((rv = uv_read_start((uv_stream_t *)&gp->tcp, on_alloc,
	    on_read)) < 0) {
		log_warnx("%s: read: %s", gp->job->who, uv_strerror(rv));
		finish(gp, BACKEND_UNREACHABLE);
		return;
	}
	log_debug("%s: connected", gp->job->who);
	pump(gp);			/* the ClientHello */
}

static void
on_resolved(uv_getaddrinfo_t *req, int status, struct addrinfo *res)
{
	struct gproxy	*gp = req->data;
	int		 rv;

	gp->resolving = 0;
	if (!gp->finished && status < 0) {
		log_warnx("%s: %s", gp->job->who, uv_strerror(status));
		finish(gp, BACKEND_UNREACHABLE);
	}
	if (!gp->finished) {
		uv_tcp_init(req->loop, &gp->tcp);
		gp->tcp.data = gp;
		gp->tcp_open = 1;
		gp->pending++;
		gp->creq.data = gp;
		if ((rv = uv_tcp_connect(&gp->creq, &gp->tcp, res->ai_addr,
		    on_connect)) < 0) {
			log_warnx("%s: connect: %s", gp->job->who,
			    uv_strerror(rv));
			finish(gp, BACKEND_UNREACHABLE);
		}
	}
	uv_freeaddrinfo(res);
	settle(gp);
}

struct gproxy *
gproxy_start(uv_loop_t *loop, const struct config_app *a,
    struct backend_job *job, gproxy_done_fn done, void *arg)
{
	struct addrinfo	 hints;
	struct gproxy	*gp;
	char		 port[8];
	int		 rv;

	gp = xcalloc(1, sizeof(*gp));
	gp->a = a;
	gp->job = job;
	/* A caller may have named it already (net/announce.c). */
	if (job->who == NULL)
		job->who = xasprintf(strchr(a->addr, ':') != NULL ?
		    "backend gemini://[%s]:%d" : "backend gemini://%s:%d",
		    a->addr, a->port);
	gp->done = done;
	gp->arg = arg;
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV;
	snprintf(port, sizeof(port), "%d", a->port);
	gp->gai.data = gp;
	if ((rv = uv_getaddrinfo(loop, &gp->gai, on_resolved, a->addr, port,
	    &hints)) < 0) {
		log_warnx("%s: %s", job->who, uv_strerror(rv));
		finish(gp, BACKEND_UNREACHABLE);
	} else {
		gp->resolving = 1;
		gp->pending++;
	}
	return gp;
}

void
gproxy_stop(struct gproxy *gp, enum backend_end why)
{
	finish(gp, why);
}

void
gproxy_free(struct gproxy *gp)
{
	if (gp == NULL)
		return;
	tlsconn_free(gp->tc);
	free(gp);
}

void
gproxy_close(void)
{
	SSL_CTX_free(cctx);		/* each SSL holds its own reference */
	cctx = NULL;
}
