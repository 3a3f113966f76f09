/*
 * conn.c -- one client connection: read a request, answer it, close.
 *
 *   accept -> REQUEST -(request line)-> RESPONSE -(all queued)-> SHUTDOWN
 *          -(writes done)-> CLOSING -> freed
 *   timeout, EOF, error, bad TLS ---------------------------> CLOSING
 *
 * The same state machine serves Gemini (through tlsconn.c) and Gopher
 * (plain TCP).  struct conn owns everything about its client, and
 * conn_close() is the only way out; the memory is freed in the last
 * close callback (STYLE.md §9), after every write and file read that was
 * in flight has called back.  Does every byte of socket and file I/O;
 * what to send is decided by gemini.c, gopher.c and router.c.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "archive.h"
#include "config.h"
#include "gemini.h"
#include "gopher.h"
#include "log.h"
#include "router.h"
#include "tlsconn.h"
#include "util.h"
#include "worker.h"

#define CONN_REQ_MAX	(1024 + 2)	/* Gemini URL + CRLF; Gopher cap */
#define CONN_FILE_CHUNK	(64 * 1024)
#define CONN_QUEUE_HIGH	(256 * 1024)	/* stop reading the file above */

enum conn_state {
	CONN_REQUEST,		/* handshake and request line */
	CONN_RESPONSE,		/* queuing the response */
	CONN_SHUTDOWN,		/* all queued; close when written */
	CONN_CLOSING,		/* uv_close() called */
};

struct conn {
	uv_tcp_t	 tcp;		/* embedded: closed in conn_close() */
	uv_timer_t	 timer;		/* embedded: closed in conn_close() */
	uv_fs_t		 fsreq;		/* one file read at a time */
	int		 nrefs;		/* open handles + fs reads in flight */
	int		 nwrites;	/* uv_write_t in flight */
	int		 reading_file;	/* fsreq in flight */
	enum conn_state	 state;
	enum proto	 proto;
	struct worker	*w;		/* borrowed */
	struct tlsconn	*tls;		/* owned; NULL for Gopher */
	struct archive	*snap;		/* one reference once a request came */
	struct response	 resp;		/* owned */
	uint64_t	 file_off;
	char		*filebuf;	/* owned; CONN_FILE_CHUNK bytes */
	uint64_t	 t_start;	/* uv_hrtime() at accept */
	uint64_t	 bytes;		/* payload bytes queued */
	int		 status;	/* for the access log; 0 = none */
	size_t		 reqlen;
	char		 peer[INET6_ADDRSTRLEN + 8];
	char		 req[CONN_REQ_MAX + 1];
};

/* One write: the uv request and the bytes it owns, freed in on_write. */
struct wreq {
	uv_write_t	 req;
	struct conn	*c;
	struct buf	 b;		/* owned bytes, or empty when borrowed */
};

static void	conn_close(struct conn *);
static void	file_read_next(struct conn *);

static void
conn_free(struct conn *c)
{
	struct worker	*w = c->w;

	if (c->status != 0 && c->w->srv->cfg->access_log)
		log_access(c->peer, c->proto == PROTO_GEMINI ? "gemini" :
		    "gopher", c->req, c->reqlen, c->status,
		    (unsigned long long)c->bytes,
		    (unsigned long long)((uv_hrtime() - c->t_start) / 1000));
	response_free(&c->resp);
	if (c->tls != NULL)
		tlsconn_free(c->tls);
	if (c->snap != NULL)
		archive_unref(c->snap);
	free(c->filebuf);
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
		uv_cancel((uv_req_t *)&c->fsreq);
	uv_close((uv_handle_t *)&c->timer, on_handle_closed);
	uv_close((uv_handle_t *)&c->tcp, on_handle_closed);
}

static void
on_timeout(uv_timer_t *t)
{
	struct conn	*c = t->data;

	/* A slow or silent client is closed without a word (spec §3). */
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
	if (c->state != CONN_REQUEST)
		uv_timer_start(&c->timer, on_timeout,
		    c->w->srv->cfg->idle_timeout_ms, 0);
	if (c->state == CONN_SHUTDOWN && c->nwrites == 0)
		conn_close(c);
	else if (c->state == CONN_RESPONSE && c->resp.fd != -1 &&
	    !c->reading_file)
		file_read_next(c);
}

/* Queue bytes: b's contents move into the write request. */
static void
send_buf(struct conn *c, struct buf *b)
{
	struct wreq	*wr;
	uv_buf_t	 ub;
	int		 rv;

	if (b->len == 0)
		return;
	wr = xmalloc(sizeof(*wr));
	wr->c = c;
	wr->b = *b;
	buf_init(b);
	ub = uv_buf_init(wr->b.data, (unsigned)wr->b.len);
	if ((rv = uv_write(&wr->req, (uv_stream_t *)&c->tcp, &ub, 1,
	    on_write)) < 0) {
		/* The callback will never run: free here. */
		buf_free(&wr->b);
		free(wr);
		conn_close(c);
		return;
	}
	c->nwrites++;
}

/* Queue bytes that outlive the write (the snapshot's cache): no copy. */
static void
send_borrowed(struct conn *c, const char *p, size_t len)
{
	struct wreq	*wr;
	uv_buf_t	 ub;
	int		 rv;

	if (len == 0)
		return;
	wr = xmalloc(sizeof(*wr));
	wr->c = c;
	buf_init(&wr->b);
	ub = uv_buf_init((char *)p, (unsigned)len);
	if ((rv = uv_write(&wr->req, (uv_stream_t *)&c->tcp, &ub, 1,
	    on_write)) < 0) {
		free(wr);
		conn_close(c);
		return;
	}
	c->nwrites++;
}

/* Move what OpenSSL has for the peer (records, alerts) to the socket. */
static void
flush_tls(struct conn *c)
{
	struct buf	 b = BUF_INIT;

	if (tlsconn_drain(c->tls, &b) > 0)
		send_buf(c, &b);
	buf_free(&b);
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
			send_borrowed(c, p, len);
			return;
		}
		buf_add(&b, p, len);
		send_buf(c, &b);
		return;
	}
	if (tlsconn_write(c->tls, p, len) < 0) {
		conn_close(c);
		return;
	}
	flush_tls(c);
}

/* The response is complete: close_notify (Gemini), then close. */
static void
finish_response(struct conn *c)
{
	if (c->state == CONN_CLOSING)
		return;
	c->state = CONN_SHUTDOWN;
	if (c->tls != NULL) {
		tlsconn_shutdown(c->tls);
		flush_tls(c);
	}
	if (c->nwrites == 0)
		conn_close(c);
}

static void
on_file_read(uv_fs_t *req)
{
	struct conn	*c = container_of(req, struct conn, fsreq);
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
	if (c->file_off >= c->resp.filelen)
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
	uint64_t	 left = c->resp.filelen - c->file_off;
	int		 rv;

	if (c->filebuf == NULL)
		c->filebuf = xmalloc(CONN_FILE_CHUNK);
	ub = uv_buf_init(c->filebuf, left < CONN_FILE_CHUNK ? (unsigned)left :
	    CONN_FILE_CHUNK);
	if ((rv = uv_fs_read(&c->w->loop, &c->fsreq, c->resp.fd, &ub, 1,
	    (int64_t)c->file_off, on_file_read)) < 0) {
		log_warnx("%s: file read: %s", c->peer, uv_strerror(rv));
		conn_close(c);
		return;
	}
	c->reading_file = 1;
	c->nrefs++;
}

/* Send the response in c->resp: header, body, then file or close. */
static void
send_response(struct conn *c, const char *header, size_t hlen)
{
	struct response	*r = &c->resp;
	struct buf	 b = BUF_INIT;

	c->state = CONN_RESPONSE;
	uv_read_stop((uv_stream_t *)&c->tcp);
	uv_timer_start(&c->timer, on_timeout, c->w->srv->cfg->idle_timeout_ms,
	    0);
	if (c->tls != NULL) {
		/* Header and body in one TLS flush: one write(2). */
		if (tlsconn_write(c->tls, header, hlen) < 0 ||
		    (r->bodylen > 0 &&
		    tlsconn_write(c->tls, r->body, r->bodylen) < 0)) {
			conn_close(c);
			return;
		}
		c->bytes += r->bodylen;
		flush_tls(c);
	} else {
		if (hlen > 0) {
			buf_add(&b, header, hlen);
			send_buf(c, &b);
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

static void
take_snapshot(struct conn *c)
{
	c->snap = c->w->snap;
	archive_ref(c->snap);
}

static void
answer_gemini(struct conn *c, size_t linelen)
{
	const struct config	*cfg = c->w->srv->cfg;
	struct gemini_host	 host = { cfg->hostname, cfg->gemini_port };
	struct gemini_request	 req;
	const char		*meta = NULL;
	char			 header[1100];
	size_t			 hlen;
	int			 status;

	c->reqlen = linelen;
	status = gemini_request_parse(c->req, linelen, &host, 1, &req, &meta);
	if (status != 0) {
		response_status(&c->resp, status, "%s", meta);
	} else {
		take_snapshot(c);
		router_route(cfg, c->snap, PROTO_GEMINI, req.url.path,
		    req.url.query, &c->resp);
	}
	c->status = c->resp.status;
	hlen = gemini_header(header, sizeof(header), c->resp.status,
	    c->resp.meta);
	if (c->resp.status / 10 != 2) {
		/* Only 2x has a body (spec §4). */
		c->resp.body = NULL;
		c->resp.bodylen = 0;
	}
	send_response(c, header, hlen);
}

/* Gopher errors are one-line type-3 menus (spec/gopher.md §4). */
static void
gopher_error(struct conn *c, const char *msg)
{
	struct response	*r = &c->resp;

	buf_truncate(&r->owned, 0);
	gopher_error_menu(&r->owned, msg);
	r->body = r->owned.data;
	r->bodylen = r->owned.len;
	if (r->fd != -1) {
		close(r->fd);
		r->fd = -1;
	}
}

static void
answer_gopher(struct conn *c, size_t linelen)
{
	const struct config	*cfg = c->w->srv->cfg;
	struct gopher_request	 req;
	const char		*err = NULL;
	char			 line[CONN_REQ_MAX + 1];
	int			 hops;

	/* The parser cuts the line in place; the log wants it whole. */
	c->reqlen = linelen;
	memcpy(line, c->req, linelen);
	line[linelen] = '\0';
	if (gopher_request_parse(line, linelen, &req, &err) == -1) {
		c->status = 59;
		gopher_error(c, err);
		send_response(c, "", 0);
		return;
	}
	if (req.is_http) {
		/* A web browser pointed at the Gopher port: tell the person. */
		c->status = 59;
		gopher_http_reply(&c->resp.owned, cfg->hostname,
		    cfg->gopher_public_port ? cfg->gopher_public_port :
		    cfg->gopher_port);
		c->resp.body = c->resp.owned.data;
		c->resp.bodylen = c->resp.owned.len;
		send_response(c, "", 0);
		return;
	}
	if (req.url != NULL) {
		/* An h-link followed by a client that does not know URL:. */
		c->status = 20;
		gopher_url_page(&c->resp.owned, req.url);
		c->resp.body = c->resp.owned.data;
		c->resp.bodylen = c->resp.owned.len;
		send_response(c, "", 0);
		return;
	}
	take_snapshot(c);
	router_route(cfg, c->snap, PROTO_GOPHER, req.path, req.search,
	    &c->resp);
	/* Gopher has no redirects: follow ours ("/posts" -> "/posts/"). */
	for (hops = 0; c->resp.status / 10 == 3 && hops < 2; hops++) {
		char target[1025];

		snprintf(target, sizeof(target), "%s", c->resp.meta);
		response_free(&c->resp);
		response_init(&c->resp);
		router_route(cfg, c->snap, PROTO_GOPHER, target, req.search,
		    &c->resp);
	}
	c->status = c->resp.status;
	if (c->resp.status / 10 != 2)
		gopher_error(c, c->resp.status == 51 ? "Not found" :
		    c->resp.meta);
	send_response(c, "", 0);
}

/* The request buffer got new bytes: is a whole request line here? */
static void
check_request(struct conn *c)
{
	ssize_t	 end;

	if (c->proto == PROTO_GEMINI) {
		end = gemini_request_end(c->req, c->reqlen);
		if (end == GEMINI_INCOMPLETE)
			return;
		if (end == GEMINI_TOO_LONG) {
			c->reqlen = c->reqlen > 1024 ? 1024 : c->reqlen;
			c->status = 59;
			response_status(&c->resp, 59, "Request too long");
			char header[64];
			size_t hlen = gemini_header(header, sizeof(header), 59,
			    "Request too long");
			send_response(c, header, hlen);
			return;
		}
		answer_gemini(c, (size_t)end);
	} else {
		end = gopher_request_end(c->req, c->reqlen);
		if (end == GOPHER_INCOMPLETE)
			return;
		if (end == GOPHER_TOO_LONG) {
			c->reqlen = c->reqlen > 1024 ? 1024 : c->reqlen;
			c->status = 59;
			gopher_error(c, "Selector too long");
			send_response(c, "", 0);
			return;
		}
		answer_gopher(c, (size_t)end);
	}
}

static void
on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *ub)
{
	struct conn	*c = h->data;

	/* One buffer per thread: on_read consumes it before returning. */
	(void)suggested;
	*ub = uv_buf_init(c->w->rbuf, sizeof(c->w->rbuf));
}

static void
read_gemini(struct conn *c, const char *p, size_t len)
{
	size_t	 room;
	int	 n;

	if (tlsconn_feed(c->tls, p, len) < 0) {
		conn_close(c);
		return;
	}
	for (;;) {
		room = CONN_REQ_MAX - c->reqlen;
		if (room == 0)
			break;
		n = tlsconn_read(c->tls, c->req + c->reqlen, room);
		if (n > 0) {
			c->reqlen += (size_t)n;
			continue;
		}
		if (n == TLSCONN_WANT)
			break;
		/* Handshake failure or the peer went away: send any alert. */
		flush_tls(c);
		c->state = CONN_SHUTDOWN;
		if (c->nwrites == 0)
			conn_close(c);
		return;
	}
	flush_tls(c);
	if (c->state == CONN_REQUEST && c->reqlen > 0)
		check_request(c);
}

static void
on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *ub)
{
	struct conn	*c = s->data;
	size_t		 room;

	if (nread == 0)
		return;			/* EAGAIN: not EOF */
	if (nread < 0) {
		conn_close(c);		/* UV_EOF or an error */
		return;
	}
	if (c->state != CONN_REQUEST)
		return;
	if (c->tls != NULL) {
		read_gemini(c, ub->base, (size_t)nread);
		return;
	}
	room = CONN_REQ_MAX - c->reqlen;
	if ((size_t)nread > room)
		nread = (ssize_t)room;	/* the parser sees the cap */
	memcpy(c->req + c->reqlen, ub->base, (size_t)nread);
	c->reqlen += (size_t)nread;
	check_request(c);
}

static void
set_peer(struct conn *c)
{
	struct sockaddr_storage	 ss;
	int			 len = sizeof(ss);
	char			 host[INET6_ADDRSTRLEN];

	strcpy(c->peer, "-");
	if (uv_tcp_getpeername(&c->tcp, (struct sockaddr *)&ss, &len) != 0)
		return;
	if (ss.ss_family == AF_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)&ss;

		inet_ntop(AF_INET, &sin->sin_addr, host, sizeof(host));
		snprintf(c->peer, sizeof(c->peer), "%s:%u", host,
		    ntohs(sin->sin_port));
	} else if (ss.ss_family == AF_INET6) {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;

		inet_ntop(AF_INET6, &sin6->sin6_addr, host, sizeof(host));
		snprintf(c->peer, sizeof(c->peer), "[%s]:%u", host,
		    ntohs(sin6->sin6_port));
	}
}

void
conn_accept(struct listener *l)
{
	struct worker	*w = l->w;
	struct conn	*c;
	int		 rv;

	c = xcalloc(1, sizeof(*c));
	c->w = w;
	c->proto = l->proto;
	c->state = CONN_REQUEST;
	c->t_start = uv_hrtime();
	response_init(&c->resp);
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
	set_peer(c);
	uv_tcp_nodelay(&c->tcp, 1);
	if (c->proto == PROTO_GEMINI)
		c->tls = tlsconn_new(w->srv->tls);
	uv_timer_start(&c->timer, on_timeout,
	    w->srv->cfg->request_timeout_ms, 0);
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
