/*
 * gproxy.c -- another Gemini server answering one request (gproxy.h).
 *
 *   gproxy_start -> resolve the backend's name -> TCP connect
 *     -> TLS handshake (net/tlsconn.c, client side, on our loop)
 *     -> the request line sent -> the answer read into output
 *     -(close_notify, or end of stream after the request)-> done
 *     -(unreachable, handshake failed, wrong fingerprint)-> 43
 *     -(too big, too late)-> 42; gproxy_abort(): the client left
 *   then every handle is closed, and done(arg) follows.
 *
 * A struct gproxy owns its TLS connection, its socket, its timer and
 * each write in flight (struct wr owns its bytes until its callback).
 * It lives until the last of its handles has closed: pending counts
 * the callbacks still to come (the name lookup, the socket, the
 * timer).  The client context is made once per thread and never
 * verifies by a CA: self-signed is the norm in Gemini.
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
#include "net/gproxy.h"
#include "net/tlsconn.h"
#include "proto/gemini.h"

#define GPROXY_CHUNK	16384

enum gproxy_end {
	GPROXY_RUNNING,
	GPROXY_DONE,			/* the whole answer read */
	GPROXY_UNREACHABLE,		/* no TLS session with the backend */
	GPROXY_BAD,			/* the stream broke after the request */
	GPROXY_TOO_BIG,			/* more than cgi_max_output */
	GPROXY_TOO_LONG,		/* past cgi_timeout */
	GPROXY_ABORTED,			/* the client left */
};

struct gproxy {
	const struct config_app *a;	/* borrowed: outlives done */
	char		*key;		/* owned: "host:port", for the log */
	char		*url;		/* owned: the request line */
	uv_getaddrinfo_t gai;
	uv_tcp_t	 tcp;
	uv_connect_t	 creq;
	uv_timer_t	 timer;
	struct tlsconn	*tc;		/* owned, once connected */
	int		 pending;	/* close or lookup callbacks to come */
	int		 resolving;
	int		 tcp_open;
	int		 sent;		/* the request line is written */
	int		 finished;
	enum gproxy_end	 end;
	size_t		 max;
	struct buf	 output;	/* the answer */
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
	if (--gp->pending == 0)
		gp->done(gp, gp->arg);
}

static void
on_closed(uv_handle_t *h)
{
	settle(h->data);
}

/* The request ends as why says; its handles close, done follows. */
static void
finish(struct gproxy *gp, enum gproxy_end why)
{
	if (gp->finished)
		return;
	gp->finished = 1;
	gp->end = why;
	if (gp->resolving)
		(void)uv_cancel((uv_req_t *)&gp->gai);
	if (gp->tcp_open) {
		gp->tcp_open = 0;
		uv_close((uv_handle_t *)&gp->tcp, on_closed);
	}
	uv_timer_stop(&gp->timer);
	uv_close((uv_handle_t *)&gp->timer, on_closed);
}

static void
on_write(uv_write_t *w, int status)
{
	struct wr	*wr = w->data;
	struct gproxy	*gp = wr->gp;

	buf_free(&wr->b);
	free(wr);
	if (status < 0 && !gp->finished) {
		log_warnx("proxy %s: write: %s", gp->key,
		    uv_strerror(status));
		finish(gp, gp->sent ? GPROXY_BAD : GPROXY_UNREACHABLE);
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
		log_warnx("proxy %s: write: %s", gp->key, uv_strerror(rv));
		finish(gp, gp->sent ? GPROXY_BAD : GPROXY_UNREACHABLE);
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
			log_warnx("proxy %s: certificate %s is not the "
			    "fingerprint configured", gp->key,
			    hash[0] != '\0' ? hash : "(none)");
			finish(gp, GPROXY_UNREACHABLE);
			return -1;
		}
	}
	log_debug("proxy %s: handshake done (sni %s), request sent", gp->key,
	    gp->a->sni);
	line = xasprintf("%s\r\n", gp->url);
	rv = tlsconn_write(gp->tc, line, strlen(line));
	free(line);
	gp->sent = 1;
	if (rv < 0) {
		log_warnx("proxy %s: TLS write failed", gp->key);
		finish(gp, GPROXY_BAD);
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
			if (gp->output.len + (size_t)n > gp->max) {
				log_warnx("proxy %s: more than %zu bytes of "
				    "answer", gp->key, gp->max);
				finish(gp, GPROXY_TOO_BIG);
				return;
			}
			buf_add(&gp->output, gp->chunk, (size_t)n);
			continue;
		}
		if (n == TLSCONN_EOF) {
			finish(gp, gp->sent ? GPROXY_DONE :
			    GPROXY_UNREACHABLE);
			return;
		}
		if (n == TLSCONN_ERROR) {
			log_warnx("proxy %s: TLS %s failed", gp->key,
			    gp->sent ? "session" : "handshake");
			finish(gp, gp->sent ? GPROXY_BAD :
			    GPROXY_UNREACHABLE);
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
			finish(gp, GPROXY_DONE);
			return;
		}
		log_warnx("proxy %s: read: %s", gp->key, n == UV_EOF ?
		    "closed before the answer" : uv_strerror((int)n));
		finish(gp, gp->sent ? GPROXY_BAD : GPROXY_UNREACHABLE);
		return;
	}
	log_debug("proxy %s: %zd bytes in", gp->key, n);
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
		log_warnx("proxy %s: connect: %s", gp->key,
		    uv_strerror(status));
		finish(gp, GPROXY_UNREACHABLE);
		return;
	}
	if (client_ctx() == NULL || (gp->tc = tlsconn_client_new(cctx,
	    gp->a->sni, gp->a->client_cert, gp->a->client_key, err,
	    sizeof(err))) == NULL) {
		log_warnx("proxy %s: %s", gp->key, cctx == NULL ?
		    "no TLS client context" : err);
		finish(gp, GPROXY_UNREACHABLE);
		return;
	}
	if ((rv = uv_read_start((uv_stream_t *)&gp->tcp, on_alloc,
	    on_read)) < 0) {
		log_warnx("proxy %s: read: %s", gp->key, uv_strerror(rv));
		finish(gp, GPROXY_UNREACHABLE);
		return;
	}
	log_debug("proxy %s: connected", gp->key);
	pump(gp);			/* the ClientHello */
}

static void
on_resolved(uv_getaddrinfo_t *req, int status, struct addrinfo *res)
{
	struct gproxy	*gp = req->data;
	int		 rv;

	gp->resolving = 0;
	if (!gp->finished && status < 0) {
		log_warnx("proxy %s: %s", gp->key, uv_strerror(status));
		finish(gp, GPROXY_UNREACHABLE);
	}
	if (!gp->finished) {
		uv_tcp_init(req->loop, &gp->tcp);
		gp->tcp.data = gp;
		gp->tcp_open = 1;
		gp->pending++;
		gp->creq.data = gp;
		if ((rv = uv_tcp_connect(&gp->creq, &gp->tcp, res->ai_addr,
		    on_connect)) < 0) {
			log_warnx("proxy %s: connect: %s", gp->key,
			    uv_strerror(rv));
			finish(gp, GPROXY_UNREACHABLE);
		}
	}
	uv_freeaddrinfo(res);
	settle(gp);
}

static void
on_timeout(uv_timer_t *t)
{
	struct gproxy	*gp = t->data;

	log_warnx("proxy %s: no answer within cgi_timeout", gp->key);
	finish(gp, GPROXY_TOO_LONG);
}

struct gproxy *
gproxy_start(uv_loop_t *loop, const struct config_app *a, const char *url,
    unsigned timeout_ms, size_t max, gproxy_done_fn done, void *arg)
{
	struct addrinfo	 hints;
	struct gproxy	*gp;
	char		 port[8];
	int		 rv;

	gp = xcalloc(1, sizeof(*gp));
	gp->a = a;
	gp->key = xasprintf(strchr(a->addr, ':') != NULL ? "[%s]:%d" :
	    "%s:%d", a->addr, a->port);
	gp->url = xstrdup(url != NULL ? url : "");
	gp->max = max;
	gp->done = done;
	gp->arg = arg;
	buf_init(&gp->output);
	uv_timer_init(loop, &gp->timer);
	gp->timer.data = gp;
	gp->pending = 1;
	uv_timer_start(&gp->timer, on_timeout, timeout_ms, 0);
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV;
	snprintf(port, sizeof(port), "%d", a->port);
	gp->gai.data = gp;
	if ((rv = uv_getaddrinfo(loop, &gp->gai, on_resolved, a->addr, port,
	    &hints)) < 0) {
		log_warnx("proxy %s: %s", gp->key, uv_strerror(rv));
		finish(gp, GPROXY_UNREACHABLE);
	} else {
		gp->resolving = 1;
		gp->pending++;
	}
	return gp;
}

int
gproxy_answer(const struct gproxy *gp, const char **out, size_t *len,
    size_t *hlen, const char **meta)
{
	ssize_t	 n;
	int	 status;

	*out = NULL;
	*len = *hlen = 0;
	switch (gp->end) {
	case GPROXY_UNREACHABLE:
		*meta = "Backend unavailable";
		return 43;
	case GPROXY_TOO_BIG:
		*meta = "Proxy error: too much output";
		return 42;
	case GPROXY_TOO_LONG:
		*meta = "Proxy error: no answer in time";
		return 42;
	case GPROXY_BAD:
	case GPROXY_ABORTED:
	case GPROXY_RUNNING:
		*meta = "Proxy error";
		return 43;
	case GPROXY_DONE:
		break;
	}
	/* status = 2DIGIT, then " " meta (<= 1024 bytes) or nothing, CRLF */
	if ((n = gemini_header_parse(gp->output.data != NULL ?
	    gp->output.data : "", gp->output.len, &status)) == -1) {
		log_warnx("proxy %s: %s", gp->key, gp->output.len == 0 ?
		    "no answer" : "not a Gemini response header");
		*meta = "Proxy error: bad response header";
		return 43;
	}
	*out = gp->output.data;
	*len = gp->output.len;
	*hlen = (size_t)n;
	return status;
}

void
gproxy_abort(struct gproxy *gp)
{
	finish(gp, GPROXY_ABORTED);
}

void
gproxy_free(struct gproxy *gp)
{
	if (gp == NULL)
		return;
	tlsconn_free(gp->tc);
	buf_free(&gp->output);
	free(gp->key);
	free(gp->url);
	free(gp);
}

void
gproxy_close(void)
{
	SSL_CTX_free(cctx);		/* each SSL holds its own reference */
	cctx = NULL;
}
