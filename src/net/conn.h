/*
 * conn.h -- one client connection on a worker's loop: accepted, read,
 * answered and closed by conn.c, which owns everything about it.
 *
 * The server's listener callback calls conn_accept() for each new
 * client; the end of the shutdown grace period calls conn_close_all().
 * Both run on the worker's loop thread.
 */
#ifndef CAPSULED_CONN_H
#define CAPSULED_CONN_H

struct listener;
struct worker;

/* Accept a client waiting on l and start reading its request. */
void	 conn_accept(struct listener *l);
/* Close every connection still open on w (not its listeners). */
void	 conn_close_all(struct worker *w);

#endif
