/*
 * finger.h -- the Finger query (RFC 1288): one line, read liberally,
 * classified strictly.
 *
 *   Q1 = [ "/W" | user | "/W" 1*SP user ] CRLF
 *   Q2 = [ "/W" 1*SP ] [ user ] 1*( "@" host ) CRLF	; forwarding
 *
 * A bare LF ends a line too; runs of spaces are one; "/w" is "/W"; a TAB
 * and what follows (a client's query) is dropped.  Pure functions over
 * bytes: no sockets, no router.
 */
#ifndef CAPSULED_FINGER_H
#define CAPSULED_FINGER_H

#include <stddef.h>
#include <sys/types.h>

#define FINGER_LINE_MAX		512	/* bytes of a query before its end */
#define FINGER_REQUEST_MAX	(FINGER_LINE_MAX + 2)
#define FINGER_NAME_MAX		64	/* bytes of a user name */

#define FINGER_INCOMPLETE	(-1)
#define FINGER_TOO_LONG		(-2)

/* What a query asks. */
enum finger_kind {
	FINGER_LIST,		/* {C}: who is here (the site's plan) */
	FINGER_USER,		/* {U}{C}: one user */
	FINGER_FORWARD,		/* {Q2}: ask another host: refused */
	FINGER_BAD,		/* outside the grammar: no such user */
};

struct finger_query {
	enum finger_kind kind;
	int		 verbose;	/* "/W" */
	char		 user[FINGER_NAME_MAX + 1];	/* FINGER_USER */
};

/*
 * Where the query in buf[0..len) ends: its length without LF or CRLF,
 * FINGER_INCOMPLETE while more may come, FINGER_TOO_LONG over the cap.
 */
ssize_t	 finger_request_end(const char *buf, size_t len);

/*
 * Classify the query line[0..len) (no terminator) into q.  A user name
 * is 1 to FINGER_NAME_MAX of the letters, digits, '.', '_' and '-' a
 * login name is made of; anything else (a space inside, a '/', a byte of
 * 0x80 or more, a control) is FINGER_BAD, never looked up.  Any '@' is
 * FINGER_FORWARD, whatever else the line holds.
 */
void	 finger_request_parse(const char *line, size_t len,
	    struct finger_query *q);

#endif
