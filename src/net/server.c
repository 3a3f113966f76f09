/*
 * server.c -- worker threads, each running its own uv_loop with its own
 * listeners.
 *
 * The main thread binds everything first, then starts the threads.  It
 * talks to a worker only through the worker's uv_async_t (the one loop
 * call that is safe from another thread) and two atomics: `pending`
 * (a new generation) and `stopping`.  A worker owns one reference to the
 * generation it serves from and swaps it on its own thread; whatever
 * the old one held is freed when its last connection lets go.  New
 * clients go to conn_accept(); what a worker does for its connections
 * is in worker.c.
 */
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "core/log.h"
#include "core/util.h"
#include "net/conn.h"
#include "net/generation.h"
#include "net/listen.h"
#include "net/server.h"
#include "net/worker.h"

/*
 * Accept queue per listening socket. A burst bigger than the queue (a
 * flood, or many readers at once) makes the kernel drop SYNs, and each
 * dropped one costs that client a 1 s retransmission before we can even
 * refuse it; the kernel caps this at net.core.somaxconn (4096 on current
 * kernels). A queued connection costs only kernel memory.
 */
#define LISTEN_BACKLOG	4096

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
on_wake(uv_async_t *h)
{
	struct worker	*w = h->data;
	struct gen	*g;
	unsigned	 n;

	if ((g = atomic_exchange(&w->pending, NULL)) != NULL) {
		gen_unref(w->gen);
		w->gen = g;
		/* max_connections may change live; the split stays. */
		n = g->set->cfg.max_connections / (unsigned)w->srv->nworkers;
		w->maxconns = n > 0 ? n : 1;
	}
	if (atomic_load(&w->stopping) && !w->closing) {
		w->closing = 1;
		close_listeners(w);
		if (w->nconns == 0)
			worker_finish(w);
		else
			uv_timer_start(&w->grace, on_grace,
			    w->gen->set->cfg.request_timeout_ms, 0);
	}
}

static void
thread_main(void *arg)
{
	struct worker	*w = arg;
	int		 rv;

	log_access_buffer(1);
	uv_run(&w->loop, UV_RUN_DEFAULT);
	/* Every handle is closed by now; anything else is a leak. */
	uv_walk(&w->loop, close_any, NULL);
	uv_run(&w->loop, UV_RUN_DEFAULT);
	log_access_buffer(0);		/* writes what is left */
	if ((rv = uv_loop_close(&w->loop)) != 0)
		log_warnx("worker %d: loop close: %s", w->id, uv_strerror(rv));
}

/*
 * Does host h listen on a port of surface s that no host before it
 * does?  Every host shares the top level's port unless it sets its own
 * (site/front.h: the port says whose capsule).
 */
static int
first_on_port(const struct settings *set, size_t h, enum surface s)
{
	int	 port = set->hosts[h].port[s];
	size_t	 j;

	if (port == 0)
		return 0;
	for (j = 0; j < h; j++)
		if (set->hosts[j].port[s] == port)
			return 0;
	return 1;
}

static int
bind_one(struct worker *w, const char *addr, int port, enum surface surface)
{
	struct sockaddr_storage	 ss;
	struct listener		*l;
	int			 rv, inited;

	if (w->nlisteners == WORKER_MAX_LISTEN) {
		log_warnx("too many listeners; %s port %d skipped", addr, port);
		return 0;
	}
	if ((rv = listen_addr(addr, port, &ss)) < 0) {
		log_errorx("bind %s: not an IP address", addr);
		return -1;
	}
	l = &w->listeners[w->nlisteners];
	l->w = w;
	l->surface = surface;
	l->port = port;
	/* Only the first worker asks: the others join our own sockets. */
	if (w->id == 0 && (rv = listen_probe(&ss)) == UV_EADDRINUSE) {
		log_errorx("bind %s port %d: address already in use (is "
		    "another server listening there?)", addr, port);
		return -1;
	}
	if ((rv = listen_open(&w->loop, &l->tcp, &ss, &inited)) < 0 ||
	    (rv = uv_listen((uv_stream_t *)&l->tcp, LISTEN_BACKLOG,
	    on_connection)) < 0) {
		if (inited)
			uv_close((uv_handle_t *)&l->tcp, NULL);
		if (rv == UV_EADDRNOTAVAIL || rv == UV_EAFNOSUPPORT) {
			/* e.g. ::1 on a host without IPv6: not fatal. */
			if (w->id == 0)
				log_warnx("bind %s port %d: %s (skipped)", addr,
				    port, uv_strerror(rv));
			return 0;
		}
		log_errorx("bind %s port %d: %s", addr, port, uv_strerror(rv));
		return -1;
	}
	w->nlisteners++;
	return 0;
}

int
server_bind(struct server *srv, struct gen *g)
{
	const struct config *cfg = &g->set->cfg;
	struct tls_server *tls = g->set->tls;
	struct worker	*w;
	size_t		 i, k, h;
	int		 n, ncpu;
	unsigned	 total = 0;

	memset(srv, 0, sizeof(*srv));
	settings_ref(g->set);
	srv->boot = g->set;
	srv->cfg = cfg;
	srv->tls = tls;
	ncpu = (int)uv_available_parallelism();
	n = cfg->workers > 0 ? cfg->workers : (ncpu > 0 ? ncpu : 1);
	srv->nworkers = n;
	srv->workers = xcalloc((size_t)n, sizeof(*srv->workers));
	for (int j = 0; j < n; j++) {
		w = &srv->workers[j];
		w->id = j;
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
		uv_timer_init(&w->loop, &w->logflush);
		w->logflush.data = w;
		gen_ref(g);
		w->gen = g;
		/* Each surface's ports, on every address. */
		for (i = 0; i < cfg->nbind; i++)
			for (k = 0; k < SURFACE_N; k++)
				for (h = 0; h < g->set->nhosts; h++) {
					if ((surfaces[k].tls && tls == NULL) ||
					    !first_on_port(g->set, h, k))
						continue;
					if (bind_one(w, cfg->bind[i],
					    g->set->hosts[h].port[k],
					    (enum surface)k) == -1)
						return -1;
				}
		total += (unsigned)w->nlisteners;
	}
	if (total == 0) {
		log_errorx("no address could be bound");
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

		w->limits = srv->limits;	/* set after server_bind() */
		if ((rv = uv_thread_create(&w->thread, thread_main, w)) != 0) {
			log_warnx("worker %d: %s", k, uv_strerror(rv));
			return -1;
		}
	}
	return 0;
}

void
server_publish(struct server *srv, struct gen *g)
{
	struct gen	*old;

	for (int k = 0; k < srv->nworkers; k++) {
		struct worker *w = &srv->workers[k];

		gen_ref(g);
		/* One the worker never picked up is simply dropped. */
		if ((old = atomic_exchange(&w->pending, g)) != NULL)
			gen_unref(old);
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
	for (int k = 0; k < srv->nworkers; k++) {
		struct worker *w = &srv->workers[k];

		gen_unref(atomic_exchange(&w->pending, NULL));
		gen_unref(w->gen);
	}
	free(srv->workers);
	srv->workers = NULL;
	settings_unref(srv->boot);
	srv->boot = NULL;
}
