/*
 * worker.c -- what a worker does for the connections on its loop
 * (worker.h): counts them out, and writes their access lines soon.
 *
 * Knows nothing of threads, listeners or connections themselves: the
 * server (server.c) runs the loop, conn.c calls in.  Everything here
 * runs on the worker's own loop thread.
 */
#include "core/log.h"
#include "net/backend.h"
#include "net/worker.h"

void
worker_finish(struct worker *w)
{
	log_flush();
	backend_close();		/* the backends' kept connections */
	if (!uv_is_closing((uv_handle_t *)&w->wake))
		uv_close((uv_handle_t *)&w->wake, NULL);
	if (!uv_is_closing((uv_handle_t *)&w->grace))
		uv_close((uv_handle_t *)&w->grace, NULL);
	if (!uv_is_closing((uv_handle_t *)&w->logflush))
		uv_close((uv_handle_t *)&w->logflush, NULL);
}

void
worker_conn_done(struct worker *w)
{
	w->nconns--;
	if (w->closing && w->nconns == 0)
		worker_finish(w);
}

static void
on_logflush(uv_timer_t *t)
{
	log_flush();
}

/*
 * One write(2) per WORKER_LOG_FLUSH_MS (or per LOG_ACCESS_BUF bytes)
 * instead of one per request; the timer runs only while lines wait.
 */
void
worker_logged(struct worker *w)
{
	if (log_access_pending() > 0 &&
	    !uv_is_active((uv_handle_t *)&w->logflush) &&
	    !uv_is_closing((uv_handle_t *)&w->logflush))
		uv_timer_start(&w->logflush, on_logflush,
		    WORKER_LOG_FLUSH_MS, 0);
}
