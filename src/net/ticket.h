/*
 * ticket.h -- TLS session ticket keys, shared by every context: our
 * own, rotated, or a fleet's, from a key file.
 *
 * Stateless resumption encrypts each session into a ticket that the
 * client keeps.  Whoever holds the ticket key can decrypt every session
 * it sealed, so the key must not live for the whole uptime: by default
 * this module keeps two keys, the current one (seals new tickets) and
 * the one before (still opens tickets, which are then renewed), and
 * replaces the current one every rotation period.  A ticket therefore
 * opens for at most two periods.  Rotation is lazy: the first handshake
 * after the period is over does it.
 *
 * Several instances behind one load balancer resume each other's
 * sessions only with the same keys: config "ticket_keys" names a file
 * the operator shares between them (ticket_use_file()).  Its format:
 *
 *   file = *( comment / blank / key ) ; lines end in LF (or CRLF)
 *   key = 160HEXDIG                    ; 80 bytes: name 16, AES 32, HMAC 32
 *   comment = "#" *anything            ; blanks around a key are ignored
 *
 * at most TICKET_FILE_KEYS keys, names all different.  Every key opens
 * tickets; the last one seals new ones (a ticket sealed by an older one
 * is renewed), so rotating is adding a line at the end and dropping
 * the oldest.  The file must be regular and closed to group and others
 * (mode 0600), readable by the user capsuled runs as.  Its keys replace
 * our own and are never rotated by us; it is read again on SIGHUP and
 * when it changes (ticket_refresh(), every TICKET_CHECK_MS).
 * ticket_gen_file() makes or rotates one.
 *
 * The keys are process-wide, so every worker thread and every SSL_CTX
 * (including one rebuilt by a reload) share them; handshakes take a
 * read lock, a rotation or a load the write lock.  Knows OpenSSL and
 * files; nothing of sockets or the event loop.
 */
#ifndef CAPSULED_TICKET_H
#define CAPSULED_TICKET_H

#include <openssl/ssl.h>

/* Default rotation period: 12 hours. */
#define TICKET_ROTATION_MS	(12u * 60 * 60 * 1000)
#define TICKET_KEY_BYTES	80	/* a key in a key file */
#define TICKET_FILE_KEYS	16	/* keys a key file may hold */
#define TICKET_GEN_KEEP		3	/* keys ticket_gen_file() leaves */
#define TICKET_CHECK_MS		3000	/* how often to look for a change */

/* Period from now on (any thread); 0 keeps the current one. */
void	 ticket_set_rotation(unsigned ms);
/*
 * Seal and open ctx's tickets with our keys, and tell clients a ticket
 * lives two periods.  Returns 0, or -1 (OpenSSL refused the callback).
 */
int	 ticket_attach(SSL_CTX *ctx);
/*
 * Replace the current key now; the old one becomes "the one before".
 * Does nothing while a key file's keys are in use.
 */
void	 ticket_rotate(void);
/* Rotations and key file loads since start (tests, logs). */
unsigned long ticket_rotations(void);

/*
 * Seal and open with the keys of the file at path from now on, read
 * now (and again by ticket_refresh() when it changes); path NULL: our
 * own keys again.  Returns 0, or -1 with err set ("ticket_keys: PATH:
 * what") and the keys in use unchanged.  Any thread.
 */
int	 ticket_use_file(const char *path, char *err, size_t errlen);
/*
 * Read the key file again if it changed (its inode, size, mtime or
 * ctime) since it was last read or tried; a file that cannot be used is
 * logged once per change and the keys in use stay.  Returns 1 (read
 * again), 0 (no file, or no change) or -1.  Any thread.
 */
int	 ticket_refresh(void);
/*
 * Parse a key file's len bytes at data (the format above) into
 * out[0..*n).  Returns 0, or -1 with err "line N: what" (out wiped).
 */
int	 ticket_parse_keys(const char *data, size_t len,
	    unsigned char out[][TICKET_KEY_BYTES], size_t *n, char *err,
	    size_t errlen);
/*
 * Make the key file at path with one new random key, or, when it
 * exists (and is a valid key file), add one at its end and keep the
 * TICKET_GEN_KEEP newest.  The file is replaced whole (rename(2)), mode
 * 0600, keeping its owner when run as root.  Returns the number of
 * keys written, or -1 with err set.
 */
int	 ticket_gen_file(const char *path, char *err, size_t errlen);

#endif
