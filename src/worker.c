/*
 * worker.c -- worker threads, each running its own uv_loop with its own
 * listeners (STYLE.md §10).
 *
 * The main thread binds everything first, then starts the threads.  It
 * talks to a worker only through the worker's uv_async_t (the one loop
 * call that is safe from another thread) and two atomics: `pending`
 * (a new snapshot) and `stopping`.  A worker owns one reference to the
 * snapshot it serves from and swaps it on its own thread.
 */
#include <stdlib.h>
#include <string.h>

#include "archive.h"
#include "config.h"
#include "listen.h"
#include "log.h"
#include "util.h"
#include "worker.h"

static void
on_listener_closed(uv_handle_t *h)
{
	(void)h;
}

static void
on_connection(uv_stream_t *server, int status)
{
	struct listener	*l = container_of((uv_tcp_t *)server, struct listener,
	    tcp);

	if (status < 0) {
		log_debug("accept: %s", uv_strerror(status));
		return;
	}
	conn_accept(l);
}

static void
close_listeners(struct worker *w)
{
	size_t	 i;

	for (i = 0; i < w->nlisteners; i++)
		if (!uv_is_closing((uv_handle_t *)&w->listeners[i].tcp))
			uv_close((uv_handle_t *)&w->listeners[i].tcp,
			    on_listener_closed);
}

static void
close_any(uv_handle_t *h, void *arg)
{
	(void)arg;
	if (!uv_is_closing(h))
		uv_close(h, NULL);
}

/* The grace period is over: close whatever is still open. */
static void
on_grace(uv_timer_t *t)
{
	struct worker	*w = t->data;

	if (w->nconns > 0)
		log_info("worker %d: closing %u connection(s) still open",
		    w->id, w->nconns);
	conn_close_all(w);
}

static void
finish(struct worker *w)
{
	if (!uv_is_closing((uv_handle_t *)&w->wake))
		uv_close((uv_handle_t *)&w->wake, NULL);
	if (!uv_is_closing((uv_handle_t *)&w->grace))
		uv_close((uv_handle_t *)&w->grace, NULL);
}

void
worker_conn_done(struct worker *w)
{
	w->nconns--;
	if (w->closing && w->nconns == 0)
		finish(w);
}

static void
on_wake(uv_async_t *h)
{
	struct worker	*w = h->data;
	struct archive	*a;

	if ((a = atomic_exchange(&w->pending, NULL)) != NULL) {
		archive_unref(w->snap);
		w->snap = a;
	}
	if (atomic_load(&w->stopping) && !w->closing) {
		w->closing = 1;
		close_listeners(w);
		if (w->nconns == 0)
			finish(w);
		else
			uv_timer_start(&w->grace, on_grace,
			    w->srv->cfg->request_timeout_ms, 0);
	}
}

static void
worker_main(void *arg)
{
	struct worker	*w = arg;
	int		 rv;

	uv_run(&w->loop, UV_RUN_DEFAULT);
	/* Every handle is closed by now; anything else is a leak. */
	uv_walk(&w->loop, close_any, NULL);
	uv_run(&w->loop, UV_RUN_DEFAULT);
	if ((rv = uv_loop_close(&w->loop)) != 0)
		log_warnx("worker %d: loop close: %s", w->id, uv_strerror(rv));
}

static int
bind_one(struct worker *w, const char *addr, int port, enum proto proto)
{
	struct sockaddr_storage	 ss;
	struct listener		*l;
	int			 rv, inited;

	if (w->nlisteners == WORKER_MAX_LISTEN) {
		log_warnx("too many listeners; %s port %d skipped", addr, port);
		return 0;
	}
	if ((rv = listen_addr(addr, port, &ss)) < 0) {
		log_warnx("bind %s: not an IP address", addr);
		return -1;
	}
	l = &w->listeners[w->nlisteners];
	l->w = w;
	l->proto = proto;
	if ((rv = listen_open(&w->loop, &l->tcp, &ss, &inited)) < 0 ||
	    (rv = uv_listen((uv_stream_t *)&l->tcp, 511, on_connection)) < 0) {
		if (inited)
			uv_close((uv_handle_t *)&l->tcp, NULL);
		if (rv == UV_EADDRNOTAVAIL || rv == UV_EAFNOSUPPORT) {
			/* e.g. ::1 on a host without IPv6: not fatal. */
			if (w->id == 0)
				log_warnx("bind %s port %d: %s (skipped)", addr,
				    port, uv_strerror(rv));
			return 0;
		}
		log_warnx("bind %s port %d: %s", addr, port, uv_strerror(rv));
		return -1;
	}
	w->nlisteners++;
	return 0;
}

int
server_bind(struct server *srv, const struct config *cfg,
    struct tls_server *tls, struct archive *snap)
{
	struct worker	*w;
	size_t		 i;
	int		 n, ncpu;
	unsigned	 total = 0;

	memset(srv, 0, sizeof(*srv));
	srv->cfg = cfg;
	srv->tls = tls;
	ncpu = (int)uv_available_parallelism();
	n = cfg->workers > 0 ? cfg->workers : (ncpu > 0 ? ncpu : 1);
	srv->nworkers = n;
	srv->workers = xcalloc((size_t)n, sizeof(*srv->workers));
	for (int k = 0; k < n; k++) {
		w = &srv->workers[k];
		w->id = k;
		w->srv = srv;
		w->maxconns = cfg->max_connections / (unsigned)n;
		if (w->maxconns == 0)
			w->maxconns = 1;
		if (uv_loop_init(&w->loop) != 0)
			fatalx("uv_loop_init failed");
		uv_async_init(&w->loop, &w->wake, on_wake);
		w->wake.data = w;
		uv_timer_init(&w->loop, &w->grace);
		w->grace.data = w;
		archive_ref(snap);
		w->snap = snap;
		for (i = 0; i < cfg->nbind; i++) {
			if (tls != NULL && cfg->gemini_port > 0 &&
			    bind_one(w, cfg->bind[i], cfg->gemini_port,
			    PROTO_GEMINI) == -1)
				return -1;
			if (cfg->gopher_port > 0 &&
			    bind_one(w, cfg->bind[i], cfg->gopher_port,
			    PROTO_GOPHER) == -1)
				return -1;
		}
		total += (unsigned)w->nlisteners;
	}
	if (total == 0) {
		log_warnx("no address could be bound");
		return -1;
	}
	return 0;
}

int
server_start(struct server *srv)
{
	int	 rv;

	for (int k = 0; k < srv->nworkers; k++) {
		struct worker *w = &srv->workers[k];

		if ((rv = uv_thread_create(&w->thread, worker_main, w)) != 0) {
			log_warnx("worker %d: %s", k, uv_strerror(rv));
			return -1;
		}
	}
	return 0;
}

void
server_publish(struct server *srv, struct archive *a)
{
	struct archive	*old;

	for (int k = 0; k < srv->nworkers; k++) {
		struct worker *w = &srv->workers[k];

		archive_ref(a);
		/* A snapshot the worker never picked up is simply dropped. */
		if ((old = atomic_exchange(&w->pending, a)) != NULL)
			archive_unref(old);
		uv_async_send(&w->wake);
	}
}

void
server_stop(struct server *srv)
{
	for (int k = 0; k < srv->nworkers; k++) {
		atomic_store(&srv->workers[k].stopping, 1);
		uv_async_send(&srv->workers[k].wake);
	}
	for (int k = 0; k < srv->nworkers; k++)
		uv_thread_join(&srv->workers[k].thread);
}

void
server_free(struct server *srv)
{
	struct archive	*a;

	for (int k = 0; k < srv->nworkers; k++) {
		struct worker *w = &srv->workers[k];

		if ((a = atomic_exchange(&w->pending, NULL)) != NULL)
			archive_unref(a);
		archive_unref(w->snap);
	}
	free(srv->workers);
	srv->workers = NULL;
}
