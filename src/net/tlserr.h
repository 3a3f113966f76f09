/*
 * tlserr.h -- why the last OpenSSL call failed, in words.
 *
 * For cert.c and tlsconn.c alike: OpenSSL's error queue is per thread,
 * so the reason read here is the calling thread's.  Knows OpenSSL's
 * error queue, nothing else.
 */
#ifndef CAPSULED_TLSERR_H
#define CAPSULED_TLSERR_H

/*
 * The most specific reason on this thread's OpenSSL error queue (its
 * last entry), without taking it off; ifnone when the queue is empty,
 * and "unknown OpenSSL error" when the entry has no text.  Static
 * storage: the strings are OpenSSL's or the caller's.
 */
const char	*tlserr_reason(const char *ifnone);

#endif
