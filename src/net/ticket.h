/*
 * ticket.h -- TLS session ticket keys, rotated, shared by every context.
 *
 * Stateless resumption encrypts each session into a ticket that the
 * client keeps.  Whoever holds the ticket key can decrypt every session
 * it sealed, so the key must not live for the whole uptime: this module
 * keeps two keys, the current one (seals new tickets) and the one before
 * (still opens tickets, which are then renewed), and replaces the
 * current one every rotation period.  A ticket therefore opens for at
 * most two periods.  The keys are process-wide, so every worker thread
 * and every SSL_CTX (including one rebuilt by a reload) share them;
 * handshakes take a read lock, a rotation the write lock.  Rotation is
 * lazy: the first handshake after the period is over does it.  Knows
 * OpenSSL; nothing of sockets or the event loop.
 */
#ifndef CAPSULED_TICKET_H
#define CAPSULED_TICKET_H

#include <openssl/ssl.h>

/* Default rotation period: 12 hours. */
#define TICKET_ROTATION_MS	(12u * 60 * 60 * 1000)

/* Period from now on (any thread); 0 keeps the current one. */
void	 ticket_set_rotation(unsigned ms);
/*
 * Seal and open ctx's tickets with our keys, and tell clients a ticket
 * lives two periods.  Returns 0, or -1 (OpenSSL refused the callback).
 */
int	 ticket_attach(SSL_CTX *ctx);
/* Replace the current key now; the old one becomes "the one before". */
void	 ticket_rotate(void);
/* Rotations since start (tests, logs). */
unsigned long ticket_rotations(void);

#endif
