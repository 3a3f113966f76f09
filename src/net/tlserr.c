/*
 * tlserr.c -- OpenSSL's last error reason, for a message or a log line.
 *
 * Knows OpenSSL's error queue; nothing of certificates or connections.
 */
#include <stddef.h>

#include <openssl/err.h>

#include "net/tlserr.h"

const char *
tlserr_reason(const char *ifnone)
{
	unsigned long	 e = ERR_peek_last_error();
	const char	*r = e ? ERR_reason_error_string(e) : NULL;

	if (r != NULL)
		return r;
	return e ? "unknown OpenSSL error" : ifnone;
}
