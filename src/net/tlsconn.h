/*
 * tlsconn.h -- TLS over memory buffers, and the server's TLS contexts.
 *
 * Ciphertext goes in with tlsconn_feed() and comes out with
 * tlsconn_drain(); plaintext flows in between through tlsconn_read()
 * and tlsconn_write().  Knows OpenSSL, not libuv: conn.c moves the
 * bytes.  A struct tlsconn owns its SSL and its ciphertext buffers.
 *
 * tls_server_new() builds the SSL_CTX (TLS 1.2 minimum unless
 * tls_server_configure() says 1.3, 1.3 preferred,
 * client certificates requested but optional and not verified) from
 * cert.pem and key.pem in the certificate directory, generating a
 * self-signed pair there on first start; tls_server_add() one more for
 * each further host name, picked by the client's SNI.  The contexts are
 * read-only once built and shared by all worker threads.
 */
#ifndef CAPSULED_TLSCONN_H
#define CAPSULED_TLSCONN_H

#include <stddef.h>

#include "core/buf.h"

struct config;
struct tls_server;
struct tlsconn;

/*
 * Load or create <certdir>/cert.pem and key.pem for hostname.  Returns
 * NULL with err filled ("certs/key.pem: why") on failure.
 */
struct tls_server *tls_server_new(const char *certdir, const char *hostname,
		    char *err, size_t errlen);
/*
 * Another host name on the same port: its own certificate from certdir
 * (made there when absent), served to clients whose SNI names it (any
 * case).  Clients that send another name, or none, get the first
 * host's.  Before the server is shared with the workers only.  Returns
 * 0, or -1 with err filled; srv is unchanged then.
 */
int		 tls_server_add(struct tls_server *, const char *certdir,
		    const char *hostname, char *err, size_t errlen);
/*
 * tls_server_add() for n hosts (certdirs[i] and hostnames[i]), made on
 * up to nthreads threads: a thousand key pairs are seconds of OpenSSL's
 * decoders for one thread.  All or nothing: -1 with err filled (the
 * first host that failed) leaves srv unchanged.
 */
int		 tls_server_add_many(struct tls_server *, size_t n,
		    const char *const *certdirs, const char *const *hostnames,
		    unsigned nthreads, char *err, size_t errlen);
/*
 * What cfg says of TLS beyond the certificates, before the server is
 * shared: the protocol versions (tls_protocols) of every host's
 * context, and the CA file of each certificate zone, read into a store
 * of its own.  Returns 0, or -1 with err filled; the zones are
 * unchanged then.
 */
int		 tls_server_configure(struct tls_server *, const struct config *cfg,
		    char *err, size_t errlen);
void		 tls_server_free(struct tls_server *);
/* Days until the first host's certificate expires (negative: expired). */
int		 tls_server_days_left(const struct tls_server *);
/* SHA-256 fingerprint of the first host's certificate, hex with colons. */
const char	*tls_server_fingerprint(const struct tls_server *);

struct tlsconn	*tlsconn_new(struct tls_server *);
/*
 * A client-side connection on ctx (the caller's, which must outlive it;
 * it decides what is verified), asking for the name sni and presenting
 * the certificate in the PEM file cert with its key when cert is not
 * NULL.  Its first tlsconn_read() sends the ClientHello.  NULL with err
 * filled when the certificate or key cannot be used.
 */
struct ssl_ctx_st;
struct tlsconn	*tlsconn_client_new(struct ssl_ctx_st *ctx, const char *sni,
		    const char *cert, const char *key, char *err,
		    size_t errlen);
/* The peer's certificate's SHA-256 in hex, into out[65]; "" for none. */
void		 tlsconn_peer_hash(struct tlsconn *, char *out);
void		 tlsconn_free(struct tlsconn *);

/* Ciphertext from the peer.  Returns 0, or -1 (BIO failure). */
int		 tlsconn_feed(struct tlsconn *, const void *, size_t);

enum {
	TLSCONN_WANT = 0,	/* need more ciphertext from the peer */
	TLSCONN_ERROR = -1,	/* handshake failure, alert, protocol error */
	TLSCONN_EOF = -2,	/* peer sent close_notify */
};
/*
 * Drive the handshake and read plaintext.  Returns bytes read (> 0),
 * or one of TLSCONN_*.  Always follow with tlsconn_drain().
 */
int		 tlsconn_read(struct tlsconn *, void *, size_t);
/* 1 once the handshake has completed. */
int		 tlsconn_established(const struct tlsconn *);
/* Encrypt plaintext; returns bytes taken (all of them) or TLSCONN_ERROR. */
int		 tlsconn_write(struct tlsconn *, const void *, size_t);
/* Queue close_notify (once; further calls do nothing). */
void		 tlsconn_shutdown(struct tlsconn *);
/*
 * Move pending ciphertext into out (appended; when out is empty, its
 * storage is replaced by the records' own, without a copy); returns
 * the bytes moved.
 */
size_t		 tlsconn_drain(struct tlsconn *, struct buf *out);
/* Host name the client sent in SNI, or NULL. */
const char	*tlsconn_sni(const struct tlsconn *);
/* SHA-256 hex of the client certificate, or NULL when none was sent. */
const char	*tlsconn_client_hash(struct tlsconn *);

/* The client certificate's dates: 0 valid now (or none), -1 not yet, 1 past. */
int		 tlsconn_client_dates(struct tlsconn *);
/*
 * 1 when the client certificate chains to the CA of certificate zone
 * zone (tls_server_configure()), verified by OpenSSL; 0 otherwise.
 */
int		 tlsconn_client_by_ca(struct tlsconn *, size_t zone);

/* What a CGI program is told of the connection and its certificate. */
struct tlsconn_names {
	char		 version[16];	/* "TLSv1.3" */
	char		 cipher[64];	/* "TLS_AES_256_GCM_SHA384" */
	char		 subject[256];	/* "/CN=alice", "" without one */
	char		 issuer[256];
	char		 cn[128];	/* the subject's commonName, or "" */
};
/*
 * Fill n once the handshake is done; returns 1 when the client sent a
 * certificate (subject, issuer and cn filled), 0 otherwise.
 */
int		 tlsconn_client_names(struct tlsconn *, struct tlsconn_names *);
/*
 * While a connection waits for the client: free the buffers that hold
 * nothing (OpenSSL's record buffers, our empty ciphertext buffers).
 */
void		 tlsconn_release_buffers(struct tlsconn *);

#endif
