/*
 * conn.c -- one client connection: read a request, answer it, close.
 *
 *   accept -> REQUEST -(request line)-> RESPONSE -(all queued)-> SHUTDOWN
 *          -(writes done)-> CLOSING -> freed
 *   REQUEST -(titan:// line)-> UPLOAD -(body read, post written)-> RESPONSE
 *   REQUEST -(a backend's path)-> CGI -(the backend answered)-> RESPONSE
 *   REQUEST -(a page slow to render)-> RENDER -(rendered on the pool)->
 *          RESPONSE
 *   SHUTDOWN -(writes done, the front end kept it)-> REQUEST (the next)
 *   timeout, EOF, error, bad TLS ---------------------------> CLOSING
 *
 * The same state machine serves Gemini (through tlsconn.c) and Gopher
 * (plain TCP).  struct conn owns everything about its client, and
 * conn_close() is the only way out; the memory is freed in the last
 * close callback (docs/design.md, "A request"), after every write and
 * file read that was in flight has called back.  Does every byte of
 * socket and file I/O, and keeps the states; what to send is decided by
 * site/gemini_front.c and site/gopher_front.c (the router's answer, or
 * an upload or a program to start), for a Titan upload by
 * titan_upload.c, and by a backend (backend.c: a CGI program, a
 * FastCGI or SCGI server, another Gemini server).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "core/log.h"
#include "core/util.h"
#include "net/backend.h"
#include "net/conn.h"
#include "net/generation.h"
#include "net/limit.h"
#include "net/titan_upload.h"
#include "net/tlsconn.h"
#include "net/worker.h"
#include "proto/gemini.h"
#include "proto/gopher.h"
#include "proto/proxy.h"
#include "site/fronts.h"
#include "site/router.h"
#include "site/site.h"
#include "site/zone.h"

/* The request buffer: any surface's request line with its end. */
#define CONN_REQ_MAX	FRONT_REQUEST_MAX
#define CONN_FILE_CHUNK	(64 * 1024)
#define CONN_QUEUE_HIGH	(256 * 1024)	/* stop reading the file above */

enum conn_state {
	CONN_PROXY,		/* a load balancer's PROXY header first */
	CONN_REQUEST,		/* handshake and request line */
	CONN_UPLOAD,		/* Titan: the body after the request line */
	CONN_CGI,		/* a backend is answering */
	CONN_RENDER,		/* the answer rendered on libuv's pool */
	CONN_RESPONSE,		/* queuing the response */
	CONN_SHUTDOWN,		/* all queued; close when written */
	CONN_CLOSING,		/* uv_close() called */
};

/*
 * The request line and what answers it: most of a connection's memory,
 * so it is allocated when the first request byte arrives, not at accept.
 * A connection that says nothing (or is still in its TLS handshake)
 * costs a struct conn only.
 */
struct exchange {
	uv_fs_t		 fsreq;		/* one file read at a time */
	uv_work_t	 work;		/* a render (CONN_RENDER) */
	struct response	 resp;
	char		 req[CONN_REQ_MAX + 1];
};

struct conn {
	uv_tcp_t	 tcp;		/* embedded: closed in conn_close() */
	uv_timer_t	 timer;		/* embedded: closed in conn_close() */
	int		 nrefs;		/* open handles + fs reads, uploads
					   and renders in flight */
	int		 nwrites;	/* uv_write_t in flight */
	int		 reading_file;	/* fsreq in flight */
	int		 rendering;	/* work in flight */
	enum conn_state	 state;
	enum surface	 surface;	/* what the client came by */
	int		 port;		/* ours it reached: its listener's */
	const struct front *front;	/* its front end: fronts[surface] */
	struct worker	*w;		/* borrowed */
	struct tlsconn	*tls;		/* owned; NULL for Gopher, and for
					   Gemini until the first byte */
	struct gen	*gen;		/* one reference; see conf() */
	struct exchange	*ex;		/* owned; NULL until a request byte */
	uint64_t	 file_off;
	char		*filebuf;	/* owned; CONN_FILE_CHUNK bytes */
	uint64_t	 t_start;	/* uv_hrtime() at accept */
	uint64_t	 bytes;		/* payload bytes queued */
	int		 status;	/* for the access log; 0 = none */
	size_t		 reqlen;	/* bytes in ex->req; once a request
					   is whole, its line's (the log's) */
	size_t		 reqend;	/* the request's bytes in ex->req */
	size_t		 reqgot;	/* all bytes in ex->req by then */
	unsigned	 nreq;		/* requests read on this connection */
	int		 keep;		/* the front end keeps it: read the
					   next request once written */
	struct buf	 more;		/* a kept connection's bytes past the
					   request buffer, for the next */
	char		 peer[INET6_ADDRSTRLEN + 8];
	char		 addr[INET6_ADDRSTRLEN]; /* the client's, for CGI */
	struct limit_key lkey;		/* the client, for w->limits */
	int		 lcounted;	/* limits_open() counted us */
	int		 handshaken;	/* TLS handshake seen complete */
	unsigned	 ratewait;	/* Gemini: the handshake was over the
					   rate; answer 44 with this */
	struct titan_upload *up;	/* owned: a Titan upload, or NULL */
	struct backend	*backend;	/* owned: a backend, or NULL */
	char		*pp;		/* owned: a PROXY header begun, or
					   NULL (CONN_PROXY only) */
	size_t		 pplen;		/* bytes in pp */
	int		 ppsniff;	/* not a listed proxy: refuse one */
	union {
		struct sockaddr		sa;
		struct sockaddr_in	sin;
		struct sockaddr_in6	sin6;
	}		 ppdst;		/* where the client reached the proxy,
					   from its header; or AF_UNSPEC */
};

/* One write: the uv request and the bytes it owns, freed in on_write. */
struct wreq {
	uv_write_t	 req;
	struct conn	*c;
	struct buf	 b;		/* owned bytes, or empty when borrowed */
};

static void	conn_close(struct conn *);
static void	file_read_next(struct conn *);
static void	next_request(struct conn *);
static void	read_proxy(struct conn *, const char **, size_t *);

/*
 * The live configuration: the generation this connection was accepted
 * under, then the newest one as of its request (take_generation()).
 */
static const struct config *
conf(const struct conn *c)
{
	return &c->gen->set->cfg;
}

/* The per-address limits of the live configuration. */
static void
live_limits(const struct conn *c, struct limit_conf *lc)
{
	const struct config	*cfg = conf(c);

	lc->per_addr = cfg->max_conns_per_ip;
	lc->rate_milli = cfg->rate_limit_milli;
	lc->burst = cfg->rate_burst;
}

/*
 * The access line of the request answered, named by its first line
 * (the head of a request of several lines says the rest).
 */
static void
log_request(struct conn *c)
{
	const char	*nl;
	size_t		 len = c->reqlen;

	/* A status is only ever set once a request has arrived: c->ex. */
	if (c->status == 0 || !conf(c)->access_log)
		return;
	if ((nl = memchr(c->ex->req, '\n', len)) != NULL)
		len = (size_t)(nl - c->ex->req);
	if (len > 0 && c->ex->req[len - 1] == '\r')
		len--;
	log_access_as(conf(c)->log_format, c->peer, surfaces[c->surface].name,
	    c->ex->req, len, c->status, (unsigned long long)c->bytes,
	    (unsigned long long)((uv_hrtime() - c->t_start) / 1000));
	worker_logged(c->w);
}

static void
conn_free(struct conn *c)
{
	struct worker		*w = c->w;
	struct limit_conf	 lc;

	log_request(c);
	if (c->ex != NULL) {
		response_free(&c->ex->resp);
		free(c->ex);
	}
	if (c->tls != NULL)
		tlsconn_free(c->tls);
	if (c->lcounted) {
		live_limits(c, &lc);	/* before the generation goes */
		limits_close(w->limits, &c->lkey, &lc);
	}
	gen_unref(c->gen);
	buf_free(&c->more);
	free(c->filebuf);
	titan_upload_free(c->up);
	backend_free(c->backend);
	free(c->pp);
	free(c);
	worker_conn_done(w);
}

static void
conn_unref(struct conn *c)
{
	if (--c->nrefs == 0)
		conn_free(c);
}

static void
on_handle_closed(uv_handle_t *h)
{
	conn_unref(h->data);
}

/* Idempotent; the only way out. */
static void
conn_close(struct conn *c)
{
	if (c->state == CONN_CLOSING)
		return;
	c->state = CONN_CLOSING;
	if (c->reading_file)
		uv_cancel((uv_req_t *)&c->ex->fsreq);
	if (c->backend != NULL)
		backend_abort(c->backend);	/* cgi_done() follows */
	if (c->rendering)
		uv_cancel((uv_req_t *)&c->ex->work);
	uv_close((uv_handle_t *)&c->timer, on_handle_closed);
	uv_close((uv_handle_t *)&c->tcp, on_handle_closed);
}

static void
on_timeout(uv_timer_t *t)
{
	struct conn	*c = t->data;

	/* A slow or silent client is closed without a word (Gemini spec). */
	log_debug("%s: timeout in state %d", c->peer, (int)c->state);
	conn_close(c);
}

static void
on_write(uv_write_t *req, int status)
{
	struct wreq	*wr = container_of(req, struct wreq, req);
	struct conn	*c = wr->c;

	c->nwrites--;
	buf_free(&wr->b);
	free(wr);
	if (status < 0) {
		/* EPIPE, ECONNRESET: the client left; nothing to report. */
		conn_close(c);
		return;
	}
	if (c->state == CONN_CLOSING)
		return;
	/*
	 * Progress while answering: the idle timer starts over.  Handshake
	 * writes do not count: the request timeout bounds handshake and
	 * request line together, so a slow client cannot stretch it.
	 */
	if (c->state != CONN_REQUEST && c->state != CONN_CGI)
		uv_timer_start(&c->timer, on_timeout,
		    conf(c)->idle_timeout_ms, 0);
	if (c->state == CONN_SHUTDOWN && c->nwrites == 0 && c->keep)
		next_request(c);
	else if (c->state == CONN_SHUTDOWN && c->nwrites == 0)
		conn_close(c);
	else if (c->state == CONN_RESPONSE && c->ex->resp.fd != -1 &&
	    !c->reading_file)
		file_read_next(c);
}

/* A write request of c's, its buf empty. */
static struct wreq *
wreq_new(struct conn *c)
{
	struct wreq	*wr;

	wr = xmalloc(sizeof(*wr));
	wr->c = c;
	buf_init(&wr->b);
	return wr;
}

/* Write wr's n buffers; when uv_write() fails, close its connection. */
static void
wreq_queue(struct wreq *wr, const uv_buf_t *ub, unsigned n)
{
	struct conn	*c = wr->c;

	if (uv_write(&wr->req, (uv_stream_t *)&c->tcp, ub, n, on_write) < 0) {
		/* The callback will never run: free here. */
		buf_free(&wr->b);
		free(wr);
		conn_close(c);
		return;
	}
	c->nwrites++;
}

/*
 * Queue len bytes at p.  own, when not NULL, is the buf that holds them:
 * its contents move into the write request (freed in on_write) and own
 * is left empty.  Without it the bytes are borrowed and outlive the
 * write (a cached blob the response holds a reference to): nothing
 * is copied.
 */
static void
send_bytes(struct conn *c, const char *p, size_t len, struct buf *own)
{
	struct wreq	*wr;
	uv_buf_t	 ub;

	if (len == 0)
		return;
	wr = wreq_new(c);
	if (own != NULL) {
		wr->b = *own;
		buf_init(own);
	}
	ub = uv_buf_init((char *)p, (unsigned)len);
	wreq_queue(wr, &ub, 1);
}

/* Move what OpenSSL has for the peer (records, alerts) to the socket. */
static void
flush_tls(struct conn *c)
{
	struct buf	 b = BUF_INIT;

	if (tlsconn_drain(c->tls, &b) > 0)
		send_bytes(c, b.data, b.len, &b);
	buf_free(&b);
}

/*
 * The peer went away or broke TLS mid-read: send what OpenSSL has for it
 * (an alert), then close once that is written; nothing else goes out.
 */
static void
broken_tls(struct conn *c)
{
	flush_tls(c);
	c->state = CONN_SHUTDOWN;
	if (c->nwrites == 0)
		conn_close(c);
}

/* Payload: encrypted for Gemini, as is for Gopher. */
static void
send_payload(struct conn *c, const char *p, size_t len, int borrowed)
{
	struct buf	 b = BUF_INIT;

	if (len == 0)
		return;
	c->bytes += len;
	if (c->tls == NULL) {
		if (borrowed) {
			send_bytes(c, p, len, NULL);
			return;
		}
		buf_add(&b, p, len);
		send_bytes(c, b.data, b.len, &b);
		return;
	}
	if (tlsconn_write(c->tls, p, len) < 0) {
		conn_close(c);
		return;
	}
	flush_tls(c);
}

/*
 * The response is complete: close_notify (Gemini), then close; or, when
 * the front end keeps the connection, the next request once every byte
 * of this answer is written (they may be borrowed from its response).
 */
static void
finish_response(struct conn *c)
{
	if (c->state == CONN_CLOSING)
		return;
	c->state = CONN_SHUTDOWN;
	c->keep = c->ex->resp.keep;
	if (c->tls != NULL && !c->keep) {
		tlsconn_shutdown(c->tls);
		flush_tls(c);
	}
	if (c->nwrites == 0 && c->keep)
		next_request(c);
	else if (c->nwrites == 0)
		conn_close(c);
}

static void
on_file_read(uv_fs_t *req)
{
	struct conn	*c = req->data;
	ssize_t		 n = req->result;

	uv_fs_req_cleanup(req);
	c->reading_file = 0;
	if (c->state == CONN_CLOSING) {
		conn_unref(c);
		return;
	}
	c->nrefs--;
	if (n <= 0) {
		/*
		 * The file shrank or failed under us.  Close without
		 * close_notify: the client sees a truncated response, which
		 * is the truth.
		 */
		log_warnx("%s: file read: %s", c->peer,
		    n < 0 ? uv_strerror((int)n) : "file shrank while sent");
		conn_close(c);
		return;
	}
	c->file_off += (uint64_t)n;
	send_payload(c, c->filebuf, (size_t)n, 0);
	if (c->state == CONN_CLOSING)
		return;
	if (c->file_off >= c->ex->resp.filelen)
		finish_response(c);
	else if (uv_stream_get_write_queue_size((uv_stream_t *)&c->tcp) <
	    CONN_QUEUE_HIGH)
		file_read_next(c);
	/* else on_write continues once the queue drains */
}

static void
file_read_next(struct conn *c)
{
	uv_buf_t	 ub;
	uint64_t	 left = c->ex->resp.filelen - c->file_off;
	int		 rv;

	if (c->filebuf == NULL)
		c->filebuf = xmalloc(CONN_FILE_CHUNK);
	ub = uv_buf_init(c->filebuf, left < CONN_FILE_CHUNK ? (unsigned)left :
	    CONN_FILE_CHUNK);
	if ((rv = uv_fs_read(&c->w->loop, &c->ex->fsreq, c->ex->resp.fd, &ub, 1,
	    (int64_t)c->file_off, on_file_read)) < 0) {
		log_warnx("%s: file read: %s", c->peer, uv_strerror(rv));
		conn_close(c);
		return;
	}
	c->reading_file = 1;
	c->nrefs++;
}

/*
 * Plain TCP: a header and a body in one write (writev(2)), the header
 * copied into the write request, the body too unless borrowed (a blob
 * the response holds, which outlives the write).
 */
static void
send_header_body(struct conn *c, const char *header, size_t hlen,
    const char *body, size_t bodylen, int borrowed)
{
	struct wreq	*wr;
	uv_buf_t	 ub[2];

	wr = wreq_new(c);
	buf_add(&wr->b, header, hlen);
	if (!borrowed)
		buf_add(&wr->b, body, bodylen);
	ub[0] = uv_buf_init(wr->b.data, (unsigned)wr->b.len);
	ub[1] = uv_buf_init((char *)body, (unsigned)bodylen);
	c->bytes += bodylen;
	wreq_queue(wr, ub, borrowed ? 2 : 1);
}

/* Send the response in c->ex->resp: header, body, then file or close. */
static void
send_response(struct conn *c, const char *header, size_t hlen)
{
	struct response	*r = &c->ex->resp;
	struct buf	 b = BUF_INIT;

	c->state = CONN_RESPONSE;
	uv_read_stop((uv_stream_t *)&c->tcp);
	uv_timer_start(&c->timer, on_timeout, conf(c)->idle_timeout_ms, 0);
	if (c->tls != NULL) {
		/* Header and body in one TLS flush: one write(2). */
		if (tlsconn_write(c->tls, header, hlen) < 0 ||
		    (r->bodylen > 0 &&
		    tlsconn_write(c->tls, r->body, r->bodylen) < 0)) {
			conn_close(c);
			return;
		}
		c->bytes += r->bodylen;
		/* Nothing follows: close_notify rides in the same write. */
		if (!(r->status / 10 == 2 && r->fd != -1 && r->filelen > 0))
			tlsconn_shutdown(c->tls);
		flush_tls(c);
	} else if (hlen > 0 && r->bodylen > 0)
		send_header_body(c, header, hlen, r->body, r->bodylen,
		    r->body != r->owned.data);
	else {
		if (hlen > 0) {
			buf_add(&b, header, hlen);
			send_bytes(c, b.data, b.len, &b);
		}
		send_payload(c, r->body, r->bodylen,
		    r->body != r->owned.data);
	}
	if (c->state == CONN_CLOSING)
		return;
	if (r->status / 10 == 2 && r->fd != -1 && r->filelen > 0)
		file_read_next(c);
	else
		finish_response(c);
}

static void	answer_now(struct conn *);

/* An answer with no body: status and META, logged as status. */
static void
send_status(struct conn *c, int status, const char *meta)
{
	response_status(&c->ex->resp, status, "%s", meta);
	c->ex->resp.body = NULL;
	c->ex->resp.bodylen = 0;
	answer_now(c);
}

/* The request is here: answer it from the newest generation. */
static void
take_generation(struct conn *c)
{
	if (c->gen == c->w->gen)
		return;
	gen_unref(c->gen);
	c->gen = c->w->gen;
	gen_ref(c->gen);
}

/* The upload's answer is due: send it. */
static void
upload_answer(struct conn *c)
{
	const char	*meta;
	int		 status;

	status = titan_upload_answer(c->up, &meta);
	send_status(c, status, meta);
}

/* The pool has written the post (or failed to); c is still referenced. */
static void
upload_written(struct titan_upload *up, void *arg)
{
	struct conn	*c = arg;

	if (c->state == CONN_CLOSING) {
		conn_unref(c);
		return;
	}
	c->nrefs--;
	upload_answer(c);
}

/* The whole body is here: answer, or have it checked and written. */
static void
upload_done(struct conn *c)
{
	uv_read_stop((uv_stream_t *)&c->tcp);
	if (titan_upload_finish(c->up, &c->w->loop, upload_written, c))
		c->nrefs++;
	else
		upload_answer(c);
}

/* Plaintext the TLS layer holds, until the body is whole. */
static void
upload_read(struct conn *c)
{
	char		 chunk[16384];
	size_t		 want;
	int		 n, progress = 0;

	while ((want = titan_upload_want(c->up)) > 0) {
		n = tlsconn_read(c->tls, chunk, want < sizeof(chunk) ?
		    want : sizeof(chunk));
		if (n > 0) {
			titan_upload_take(c->up, chunk, (size_t)n);
			progress = 1;
			continue;
		}
		if (n == TLSCONN_WANT)
			break;
		/* The client went away or broke TLS: nothing is written. */
		broken_tls(c);
		return;
	}
	flush_tls(c);
	if (c->state != CONN_UPLOAD)
		return;
	if (titan_upload_want(c->up) == 0)
		upload_done(c);
	else if (progress && titan_upload_writing(c->up)) /* a writer */
		uv_timer_start(&c->timer, on_timeout,
		    conf(c)->idle_timeout_ms, 0);
}

/*
 * A titan:// line of linelen bytes is in c->ex->req, with got bytes read
 * in all (the rest is the start of the body): an upload (titan_upload.h)
 * whose body CONN_UPLOAD reads.
 */
static void
upload_begin(struct conn *c, size_t linelen, size_t got)
{
	const struct config	*cfg = conf(c);
	const char		*semi;

	/* The log leaves the parameters (and a token) out. */
	if ((semi = memchr(c->ex->req, ';', linelen)) != NULL)
		c->reqlen = (size_t)(semi - c->ex->req);
	c->up = titan_upload_new(c->gen, c->peer);
	if (!titan_upload_begin(c->up, c->ex->req, linelen,
	    tlsconn_sni(c->tls), c->port, tlsconn_client_hash(c->tls))) {
		upload_answer(c);
		return;
	}
	c->state = CONN_UPLOAD;
	/*
	 * A body that is only drained (not a writer) has request_timeout in
	 * all, not idle_timeout per read: else a byte every few seconds
	 * would hold the connection for ever (slow loris).
	 */
	uv_timer_start(&c->timer, on_timeout, titan_upload_writing(c->up) ?
	    cfg->idle_timeout_ms : cfg->request_timeout_ms, 0);
	if (got > linelen + 2)
		titan_upload_take(c->up, c->ex->req + linelen + 2,
		    got - linelen - 2);
	upload_read(c);
}

/* The backend has answered, or failed; c is still referenced. */
static void
cgi_done(struct backend *be, void *arg)
{
	struct conn	*c = arg;
	struct response	*r;
	const char	*out, *meta;
	size_t		 len, hlen;
	int		 status;

	c->w->ncgi--;
	if (c->state == CONN_CLOSING) {
		conn_unref(c);		/* conn_free() frees be */
		return;
	}
	c->nrefs--;
	status = backend_answer(be, &out, &len, &hlen, &meta);
	if (out == NULL) {
		send_status(c, status, meta);
		return;
	}
	/* Sent as the backend wrote it: only 2x has a body. */
	r = &c->ex->resp;
	r->status = status;
	c->status = status;
	r->body = status / 10 == 2 ? out + hlen : NULL;
	r->bodylen = status / 10 == 2 ? len - hlen : 0;
	send_response(c, out, hlen);
	r->body = NULL;			/* be's, freed with c */
	r->bodylen = 0;
}

/*
 * A path under "cgi:", or a backend's, on host h: it answers
 * (backend.h), at most cgi_max_programs at once on this worker.
 */
static void
cgi_begin(struct conn *c, const struct gemini_request *req, size_t linelen,
    int h)
{
	const struct config	*hc = &c->gen->set->hosts[h];
	struct tlsconn_names	 names;
	struct backend_client	 cr;
	const char		*meta;
	char			 url[GEMINI_URL_MAX + 1];
	int			 status;

	if (c->w->ncgi >= conf(c)->cgi_max_programs) {
		log_warnx("%s: cgi: %u programs running (cgi_max_programs)",
		    c->peer, c->w->ncgi);
		send_status(c, 41, "Server busy: try again shortly");
		return;
	}
	(void)tlsconn_client_names(c->tls, &names);
	snprintf(url, sizeof(url), "%.*s", (int)linelen, c->ex->req);
	memset(&cr, 0, sizeof(cr));
	cr.url = url;
	cr.query = req->url.query;
	cr.server_name = hc->hostname;
	cr.server_port = hc->port[SURFACE_GEMINI];
	cr.remote_addr = c->addr;
	cr.cert_hash = tlsconn_client_hash(c->tls);
	cr.tls = &names;
	c->backend = backend_start(&c->w->loop, conf(c), hc, req->url.path,
	    &cr, cgi_done, c, &status, &meta);
	if (c->backend == NULL) {
		send_status(c, status, meta);
		return;
	}
	c->w->ncgi++;
	c->nrefs++;
	c->state = CONN_CGI;
	/* Its own timer bounds it now; the client says nothing more. */
	uv_read_stop((uv_stream_t *)&c->tcp);
	uv_timer_stop(&c->timer);
}

/*
 * An IP literal in the URL must be where the client reached us: behind
 * a load balancer, the balancer's address its PROXY header names.
 */
static int
own_address(void *ctx, const struct gemini_request *req)
{
	struct conn		*c = ctx;
	struct sockaddr_storage	 ss;
	int			 len = sizeof(ss);

	if (c->ppdst.sa.sa_family != AF_UNSPEC)
		return gemini_request_local(req, &c->ppdst.sa);
	if (uv_tcp_getsockname(&c->tcp, (struct sockaddr *)&ss, &len) != 0)
		return 0;
	return gemini_request_local(req, (struct sockaddr *)&ss);
}

static const char *
cert_hash(void *ctx)
{
	struct conn	*c = ctx;

	return tlsconn_client_hash(c->tls);
}

static int
cert_dates(void *ctx)
{
	struct conn	*c = ctx;

	return tlsconn_client_dates(c->tls);
}

static int
cert_by_ca(void *ctx, size_t zone)
{
	struct conn	*c = ctx;

	return tlsconn_client_by_ca(c->tls, zone);
}

/* Send c->ex->resp, with its surface's header; it is complete. */
static void
answer_now(struct conn *c)
{
	struct response	*r = &c->ex->resp;
	char		 header[FRONT_HEADER_MAX + 1];
	size_t		 hlen;

	hlen = c->front->header(r, header, sizeof(header));
	c->status = r->status;
	send_response(c, header, hlen);
}

static void
render_work(uv_work_t *req)
{
	struct conn	*c = req->data;

	response_render(&c->ex->resp);
}

/* The pool is done rendering (or it was cancelled: c is closing). */
static void
rendered(uv_work_t *req, int status)
{
	struct conn	*c = req->data;

	c->rendering = 0;
	if (c->state == CONN_CLOSING) {
		conn_unref(c);
		return;
	}
	c->nrefs--;
	answer_now(c);
}

/*
 * The router has answered: send it, or first have the page rendered on
 * libuv's pool when it is slow to render (router.h, response_render()),
 * so that the other clients of this worker do not wait for it.
 */
static void
answer(struct conn *c)
{
	if (c->ex->resp.job != NULL) {
		c->state = CONN_RENDER;
		uv_read_stop((uv_stream_t *)&c->tcp);
		uv_timer_start(&c->timer, on_timeout,
		    conf(c)->idle_timeout_ms, 0);
		c->ex->work.data = c;
		if (uv_queue_work(&c->w->loop, &c->ex->work, render_work,
		    rendered) == 0) {
			c->rendering = 1;
			c->nrefs++;
			return;
		}
		/* Only a missing callback makes it fail: render here. */
		response_render(&c->ex->resp);
	}
	answer_now(c);
}

/*
 * What the request line asks is the surface's front end's to say
 * (site/front.h): an answer, an upload or a program.
 */
static void
answer_request(struct conn *c, size_t linelen)
{
	const struct settings	*set;
	struct front_gen	 g;
	struct front_client	 fc;
	struct front_app	 app;
	struct zone_client	 zc;
	size_t			 got = c->reqlen;

	take_generation(c);
	set = c->gen->set;
	c->reqend = linelen;
	c->reqgot = got;
	c->reqlen = linelen;
	g.cfg = conf(c);
	g.hosts = set->hosts;
	g.ghosts = set->ghosts;
	g.nhosts = set->nhosts;
	g.sites = c->gen->sites;
	g.users = &c->gen->users;
	memset(&fc, 0, sizeof(fc));
	fc.own_address = own_address;
	fc.cert_hash = cert_hash;
	fc.ctx = c;
	fc.port = c->port;
	fc.nth = ++c->nreq;
	if (surfaces[c->surface].caps & SURFACE_CERTS) {
		fc.sni = tlsconn_sni(c->tls);
		zc.hash = cert_hash;
		zc.dates = cert_dates;
		zc.by_ca = cert_by_ca;
		zc.ctx = c;
		fc.zone = &zc;
	}
	c->ex->resp.may_defer = 1;
	switch (c->front->answer(&g, &fc, c->ex->req, linelen, &app,
	    &c->ex->resp)) {
	case FRONT_UPLOAD:
		upload_begin(c, linelen, got);
		return;
	case FRONT_APP:
		cgi_begin(c, &app.req, linelen, app.host);
		return;
	case FRONT_ANSWER:
		break;
	}
	answer(c);
}

/*
 * Over the per-address request rate: the front end says so, and the
 * seconds to wait (Gemini's 44, Gopher's type-3 line).  Returns 1 when
 * it answered, 0 when the request may go on.
 */
static int
slow_down(struct conn *c, size_t linelen)
{
	struct limit_conf	 lc;
	unsigned		 wait;

	if (!c->lcounted)
		return 0;
	live_limits(c, &lc);
	/* Over TLS, the handshake paid (or was over the rate). */
	if ((wait = surfaces[c->surface].tls ? c->ratewait :
	    limits_request(c->w->limits, &c->lkey, &lc,
	    uv_hrtime() / 1000000)) == 0)
		return 0;
	log_debug("%s: request rate limit: %u s to wait", c->peer, wait);
	c->reqlen = linelen;
	c->front->slow_down(wait, &c->ex->resp);
	answer_now(c);
	return 1;
}

/* The request buffer got new bytes: is a whole request line here? */
static void
check_request(struct conn *c)
{
	ssize_t	 end;

	end = c->front->request_end(c->ex->req, c->reqlen);
	if (end == FRONT_INCOMPLETE)
		return;
	if (end == FRONT_TOO_LONG) {
		/* The log shows the line, without its end, up to its cap. */
		if (c->reqlen > c->front->request_max - 2)
			c->reqlen = c->front->request_max - 2;
		c->front->too_long(&c->ex->resp);
		answer_now(c);
		return;
	}
	if (!slow_down(c, (size_t)end))
		answer_request(c, (size_t)end);
}

/* Request bytes (plaintext): into c->ex, made on the first of them. */
static void
take_request(struct conn *c, const char *p, size_t len)
{
	if (c->ex == NULL) {
		c->ex = xmalloc(sizeof(*c->ex));
		c->ex->fsreq.data = c;
		response_init(&c->ex->resp);
	}
	memcpy(c->ex->req + c->reqlen, p, len);
	c->reqlen += len;
}

static void
on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *ub)
{
	struct conn	*c = h->data;

	/* One buffer per thread: on_read consumes it before returning. */
	(void)suggested;
	*ub = uv_buf_init(c->w->rbuf, sizeof(c->w->rbuf));
}

/*
 * The handshake took at most handshake_timeout: what is left of
 * request_timeout (counted from accept) is for the request line.
 */
static void
handshake_done(struct conn *c)
{
	uint64_t	 spent = (uv_hrtime() - c->t_start) / 1000000;
	unsigned	 total = conf(c)->request_timeout_ms;

	c->handshaken = 1;
	uv_timer_start(&c->timer, on_timeout, spent < total ? total - spent :
	    1, 0);
}

/*
 * The client's first TLS byte: the handshake counts toward its
 * address's request rate.  Returns 0 when it is refused (so far over
 * the rate that it is not worth a signature), 1 when it may go on
 * (c->ratewait set when its request is to be answered 44).
 */
static int
rate_handshake(struct conn *c)
{
	struct limit_conf	 lc;
	unsigned		 nrefused;

	if (!c->lcounted)
		return 1;
	live_limits(c, &lc);
	if (limits_handshake(c->w->limits, &c->lkey, &lc, uv_hrtime() /
	    1000000, &c->ratewait, &nrefused) != LIMIT_REFUSE)
		return 1;
	if (nrefused > 0)
		log_warnx("%s: TLS handshakes far over the request rate: %u "
		    "refused (logged at most every 10 s)", c->peer, nrefused);
	return 0;
}

static void
read_gemini(struct conn *c, const char *p, size_t len)
{
	char	 line[CONN_REQ_MAX];
	size_t	 room;
	int	 n;

	if (tlsconn_feed(c->tls, p, len) < 0) {
		conn_close(c);
		return;
	}
	if (c->state == CONN_UPLOAD) {
		upload_read(c);
		return;
	}
	for (;;) {
		room = CONN_REQ_MAX - c->reqlen;
		if (room == 0)
			break;
		n = tlsconn_read(c->tls, line, room);
		if (n > 0) {
			take_request(c, line, (size_t)n);
			continue;
		}
		if (n == TLSCONN_WANT)
			break;
		/*
		 * close_notify after request bytes: the client closed its
		 * half only (TLS allows it), and the request it sent is
		 * answered.  Without a whole line there is nothing to
		 * answer (spec §3: no header then).
		 */
		if (n == TLSCONN_EOF && c->state == CONN_REQUEST &&
		    c->reqlen > 0 && c->front->request_end(c->ex->req,
		    c->reqlen) != FRONT_INCOMPLETE)
			break;
		/* Handshake failure or the peer went away. */
		broken_tls(c);
		return;
	}
	if (c->state == CONN_REQUEST && !c->handshaken &&
	    tlsconn_established(c->tls))
		handshake_done(c);
	if (c->state == CONN_REQUEST && c->reqlen > 0)
		check_request(c);
	/*
	 * Handshake records or a ticket still queued: an answer took them
	 * along in its own write (one write(2) instead of two); if none
	 * came (or an upload began), they go now.
	 */
	if (c->state != CONN_CLOSING)
		flush_tls(c);
	/* Waiting for the client, maybe for long: keep no empty buffers. */
	if (c->state == CONN_REQUEST)
		tlsconn_release_buffers(c->tls);
}

static void
on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *ub)
{
	struct conn	*c = s->data;
	const char	*p = ub->base;
	size_t		 len, room;

	if (nread == 0)
		return;			/* EAGAIN: not EOF */
	if (nread < 0) {
		conn_close(c);		/* UV_EOF or an error */
		return;
	}
	len = (size_t)nread;
	/* A load balancer's header comes before TLS and the request. */
	if (c->state == CONN_PROXY || c->ppsniff)
		read_proxy(c, &p, &len);
	if (len == 0 || (c->state != CONN_REQUEST && c->state != CONN_UPLOAD))
		return;
	if (surfaces[c->surface].tls) {
		/* The SSL (~8 KB) waits for the client's first byte. */
		if (c->tls == NULL) {
			if (!rate_handshake(c)) {
				conn_close(c);
				return;
			}
			c->tls = tlsconn_new(c->gen->set->tls);
		}
		read_gemini(c, p, len);
		return;
	}
	room = CONN_REQ_MAX - c->reqlen;
	if (len > room) {
		/*
		 * The parser sees the cap; what is past it is kept for a
		 * next request, should the front end keep the connection
		 * (pipelined requests), and is at most one read.
		 */
		buf_add(&c->more, p + room, len - room);
		len = room;
	}
	take_request(c, p, len);
	check_request(c);
}

/*
 * The answer is written and the front end keeps the connection: log
 * it, start a new exchange with what followed the request (pipelined
 * requests), read again, and answer what is already whole.  The request
 * timeout bounds the wait for the next one.
 */
static void
next_request(struct conn *c)
{
	struct exchange	*ex = c->ex;
	size_t		 rest, n;

	log_request(c);
	c->status = 0;
	c->bytes = 0;
	c->keep = 0;
	c->file_off = 0;
	c->t_start = uv_hrtime();
	response_free(&ex->resp);
	response_init(&ex->resp);
	rest = c->reqgot > c->reqend ? c->reqgot - c->reqend : 0;
	memmove(ex->req, ex->req + c->reqend, rest);
	n = c->more.len < CONN_REQ_MAX - rest ? c->more.len :
	    CONN_REQ_MAX - rest;
	if (n > 0) {
		memcpy(ex->req + rest, c->more.data, n);
		memmove(c->more.data, c->more.data + n, c->more.len - n);
		buf_truncate(&c->more, c->more.len - n);
	}
	c->reqlen = rest + n;
	c->state = CONN_REQUEST;
	uv_timer_start(&c->timer, on_timeout, conf(c)->request_timeout_ms, 0);
	if (uv_read_start((uv_stream_t *)&c->tcp, on_alloc, on_read) < 0) {
		conn_close(c);
		return;
	}
	if (c->reqlen > 0)
		check_request(c);
}

/*
 * The peer as every log line names it: full, anonymised or "-" (also
 * when sa is AF_UNSPEC: getpeername() failed).
 */
static void
set_peer(struct conn *c, const struct sockaddr *sa)
{
	log_format_peer(c->peer, sizeof(c->peer), sa, conf(c)->log_peer);
	c->addr[0] = '\0';
	if (sa->sa_family == AF_INET || sa->sa_family == AF_INET6)
		(void)uv_ip_name(sa, c->addr, sizeof(c->addr));
}

/* Count c against its address's limit; -1 when it is one too many. */
static int
count_client(struct conn *c, const struct sockaddr *sa)
{
	struct limit_conf	 lc;

	if (limit_key(sa, &c->lkey) == -1)
		return 0;		/* no address: nothing to count */
	live_limits(c, &lc);
	if (limits_open(c->w->limits, &c->lkey, &lc) == -1)
		return -1;
	c->lcounted = 1;
	return 0;
}

/*
 * Does a PROXY header open this connection from sa?  1 yes, 0 no; when
 * proxies are listed and sa is not one of them, c->ppsniff makes
 * read_proxy() refuse a header instead.  -1: proxies are listed and sa
 * is unknown, a peer gone before we asked (a load balancer's health
 * check resets its connection at once): neither listed nor not, so
 * closed without a word.
 */
static int
proxy_expected(struct conn *c, const struct sockaddr *sa)
{
	const struct config	*cfg = conf(c);

	if (cfg->nproxy_protocol == 0)
		return 0;
	if (sa->sa_family == AF_UNSPEC)
		return -1;
	if (proxy_listed(cfg->proxy_protocol, cfg->nproxy_protocol, sa))
		return 1;
	c->ppsniff = 1;
	return 0;
}

/*
 * The PROXY header (proto/proxy.h), read before TLS and the request.
 * From a listed proxy (CONN_PROXY) it must come, whole and well-formed,
 * and its client is then the one the logs and the limits see; from any
 * other address (c->ppsniff: the first bytes only) it must not.  Takes
 * the header's bytes off *p and *len, leaving what follows; a refusal
 * closes c (logged: a listed proxy that sends no valid header is
 * misconfigured, a header from elsewhere is a spoofing attempt or a
 * proxy missing from the list) and leaves *len 0.
 */
static void
read_proxy(struct conn *c, const char **p, size_t *len)
{
	struct proxy_header	 h;
	const char		*err = NULL;
	size_t			 old = c->pplen, n;
	ssize_t			 r;
	int			 sslen = sizeof(h.src);

	if (c->ppsniff) {
		c->ppsniff = 0;
		if (!proxy_sniff(*p, *len))
			return;
		log_info("%s: PROXY header from an address proxy_protocol "
		    "does not list: closed", c->peer);
		goto refuse;
	}
	if (c->pp == NULL) {		/* most often whole in one read */
		if ((r = proxy_parse(*p, *len, &h, &err)) == PROXY_INCOMPLETE) {
			c->pp = xmalloc(PROXY_MAX);
			memcpy(c->pp, *p, *len);	/* < PROXY_MAX */
			c->pplen = *len;
			*len = 0;
			return;
		}
	} else {
		n = *len < PROXY_MAX - c->pplen ? *len : PROXY_MAX - c->pplen;
		memcpy(c->pp + c->pplen, *p, n);
		c->pplen += n;
		if ((r = proxy_parse(c->pp, c->pplen, &h, &err)) ==
		    PROXY_INCOMPLETE) {
			*len = 0;
			return;
		}
	}
	if (r == PROXY_BAD) {
		log_warnx("%s: no valid PROXY header (%s): closed", c->peer,
		    err);
		goto refuse;
	}
	*p += (size_t)r - old;
	*len -= (size_t)r - old;
	free(c->pp);
	c->pp = NULL;
	c->state = CONN_REQUEST;
	if (h.dst.ss_family == AF_INET)
		memcpy(&c->ppdst.sin, &h.dst, sizeof(c->ppdst.sin));
	else if (h.dst.ss_family == AF_INET6)
		memcpy(&c->ppdst.sin6, &h.dst, sizeof(c->ppdst.sin6));
	/* A health check (v2 LOCAL) and the like: the proxy itself. */
	if (h.local && uv_tcp_getpeername(&c->tcp,
	    (struct sockaddr *)&h.src, &sslen) != 0)
		h.src.ss_family = AF_UNSPEC;
	set_peer(c, (struct sockaddr *)&h.src);
	if (c->w->limits != NULL &&
	    count_client(c, (struct sockaddr *)&h.src) == -1) {
		log_debug("%s: per-address connection limit reached", c->peer);
		goto refuse;
	}
	return;
refuse:
	conn_close(c);
	*len = 0;
}

void
conn_accept(struct listener *l)
{
	struct worker		*w = l->w;
	struct conn		*c;
	struct sockaddr_storage	 ss;
	unsigned		 timeout;
	int			 rv, pp, sslen = sizeof(ss);

	c = xcalloc(1, sizeof(*c));
	c->w = w;
	c->gen = w->gen;
	gen_ref(c->gen);
	c->surface = l->surface;
	c->port = l->port;
	c->front = &fronts[c->surface];
	c->state = CONN_REQUEST;
	c->t_start = uv_hrtime();
	uv_tcp_init(&w->loop, &c->tcp);
	uv_timer_init(&w->loop, &c->timer);
	c->tcp.data = c;
	c->timer.data = c;
	c->nrefs = 2;
	w->nconns++;
	if ((rv = uv_accept((uv_stream_t *)&l->tcp,
	    (uv_stream_t *)&c->tcp)) < 0) {
		log_debug("accept: %s", uv_strerror(rv));
		conn_close(c);
		return;
	}
	if (w->nconns > w->maxconns || w->closing) {
		/* Over the limit: refuse at once rather than queue. */
		log_debug("connection limit (%u) reached", w->maxconns);
		conn_close(c);
		return;
	}
	/* One getpeername(2) for the log and the limits both. */
	if (uv_tcp_getpeername(&c->tcp, (struct sockaddr *)&ss, &sslen) != 0)
		ss.ss_family = AF_UNSPEC;
	set_peer(c, (struct sockaddr *)&ss);
	if ((pp = proxy_expected(c, (struct sockaddr *)&ss)) == -1) {
		log_debug("accept: the peer is gone already");
		conn_close(c);
		return;
	}
	if (pp == 1)
		c->state = CONN_PROXY;	/* counted once the header is read */
	else if (w->limits != NULL &&
	    count_client(c, (struct sockaddr *)&ss) == -1) {
		log_debug("%s: per-address connection limit reached", c->peer);
		conn_close(c);
		return;
	}
	/* TCP_NODELAY came from the listener (listen.c). */
	/* Over TLS the handshake may use only part of request_timeout. */
	timeout = conf(c)->request_timeout_ms;
	if (surfaces[c->surface].tls &&
	    conf(c)->handshake_timeout_ms < timeout)
		timeout = conf(c)->handshake_timeout_ms;
	uv_timer_start(&c->timer, on_timeout, timeout, 0);
	if ((rv = uv_read_start((uv_stream_t *)&c->tcp, on_alloc,
	    on_read)) < 0)
		conn_close(c);
}

static void
close_conn_handle(uv_handle_t *h, void *arg)
{
	struct worker	*w = arg;

	/* Connections are the TCP handles whose data is a conn. */
	if (h->type != UV_TCP || h->data == NULL || uv_is_closing(h))
		return;
	for (size_t i = 0; i < w->nlisteners; i++)
		if (h == (uv_handle_t *)&w->listeners[i].tcp)
			return;
	conn_close(h->data);
}

void
conn_close_all(struct worker *w)
{
	uv_walk(&w->loop, close_conn_handle, w);
}
