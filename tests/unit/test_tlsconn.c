/*
 * test_tlsconn.c -- the memory-BIO TLS engine against a real OpenSSL
 * client.
 *
 * Most cases pump bytes by hand between a struct tlsconn and a client
 * SSL on its own memory BIOs: no sockets, fully deterministic.  The
 * last cases run the installed `openssl s_client` against the engine
 * over a loopback socket, to show it interoperates with the OpenSSL
 * 3.0.x on this machine rather than only with itself.
 */
#define OPENSSL_API_COMPAT 30000

#include <sys/socket.h>
#include <sys/wait.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

#include "harness.h"
#include "core/buf.h"
#include "core/log.h"
#include "core/util.h"
#include "net/tlsconn.h"

#define REQUEST		"gemini://localhost/\r\n"
#define RESPONSE	"20 text/gemini\r\n# Hello\n\nA small capsule.\n"

static char		 top[] = "/tmp/capsuled-test-tls-XXXXXX";
static struct tls_server *srv;
static EVP_PKEY		*client_key;
static X509		*client_cert;

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

/* A self-signed certificate valid from now+from to now+to seconds. */
static X509 *
make_cert(EVP_PKEY *key, const char *cn, long from, long to)
{
	X509	*x = X509_new();

	X509_set_version(x, X509_VERSION_3);
	ASN1_INTEGER_set(X509_get_serialNumber(x), 42);
	X509_gmtime_adj(X509_getm_notBefore(x), from);
	X509_gmtime_adj(X509_getm_notAfter(x), to);
	X509_NAME_add_entry_by_txt(X509_get_subject_name(x), "CN",
	    MBSTRING_ASC, (const unsigned char *)cn, -1, -1, 0);
	X509_set_issuer_name(x, X509_get_subject_name(x));
	X509_set_pubkey(x, key);
	X509_sign(x, key, EVP_sha256());
	return x;
}

/* SHA-256 of the DER, lower-case hex, computed without the server. */
static void
der_sha256_hex(X509 *x, char out[65])
{
	unsigned char	*der = NULL, md[32];
	unsigned int	 mdlen = 0;
	int		 len, i;

	out[0] = '\0';
	if ((len = i2d_X509(x, &der)) <= 0)
		return;
	EVP_Digest(der, (size_t)len, md, &mdlen, EVP_sha256(), NULL);
	OPENSSL_free(der);
	for (i = 0; i < 32; i++)
		sprintf(out + i * 2, "%02x", md[i]);
}

/* ---- an in-memory client ------------------------------------------ */

struct peer {
	SSL		*ssl;		/* the client */
	BIO		*in, *out;	/* the client's; owned by ssl */
	struct tlsconn	*t;		/* the server side */
	int		 trickle;	/* feed the server one byte at a time */
	int		 last;		/* last tlsconn_read() result */
	struct buf	 wire;		/* server → client, last drain */
};

static SSL_CTX *
client_ctx(int minv, int maxv)
{
	SSL_CTX	*ctx = SSL_CTX_new(TLS_client_method());

	SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL);
	if (minv != 0 && minv < TLS1_2_VERSION) {
		/* OpenSSL 3 refuses TLS < 1.2 above security level 0. */
		SSL_CTX_set_security_level(ctx, 0);
		SSL_CTX_set_cipher_list(ctx, "DEFAULT:@SECLEVEL=0");
	}
	if (minv != 0)
		SSL_CTX_set_min_proto_version(ctx, minv);
	if (maxv != 0)
		SSL_CTX_set_max_proto_version(ctx, maxv);
	return ctx;
}

static void
peer_open(struct peer *p, SSL_CTX *ctx, const char *sni)
{
	memset(p, 0, sizeof(*p));
	p->ssl = SSL_new(ctx);
	p->in = BIO_new(BIO_s_mem());
	p->out = BIO_new(BIO_s_mem());
	BIO_set_mem_eof_return(p->in, -1);
	SSL_set_bio(p->ssl, p->in, p->out);
	SSL_set_connect_state(p->ssl);
	if (sni != NULL)
		SSL_set_tlsext_host_name(p->ssl, sni);
	p->t = tlsconn_new(srv);
	buf_init(&p->wire);
}

static void
peer_close(struct peer *p)
{
	SSL_free(p->ssl);
	tlsconn_free(p->t);
	buf_free(&p->wire);
}

/* Server output → client input; returns the bytes moved. */
static size_t
s2c(struct peer *p)
{
	size_t	 n;

	buf_truncate(&p->wire, 0);
	n = tlsconn_drain(p->t, &p->wire);
	if (n > 0)
		BIO_write(p->in, p->wire.data, (int)p->wire.len);
	return n;
}

/* Client output → server, then let the server read; result in p->last. */
static int
c2s(struct peer *p, void *plain, size_t plainlen)
{
	char	 tmp[16384], scratch[64];
	int	 n, i, r = TLSCONN_WANT;

	if (plain == NULL) {
		plain = scratch;
		plainlen = sizeof(scratch);
	}
	while ((n = BIO_read(p->out, tmp, sizeof(tmp))) > 0) {
		if (!p->trickle) {
			if (tlsconn_feed(p->t, tmp, (size_t)n) != 0)
				return p->last = TLSCONN_ERROR;
			continue;
		}
		for (i = 0; i < n; i++) {
			if (tlsconn_feed(p->t, tmp + i, 1) != 0)
				return p->last = TLSCONN_ERROR;
			r = tlsconn_read(p->t, plain, plainlen);
			if (r != TLSCONN_WANT && i + 1 < n)
				return p->last = r;	/* early verdict */
		}
	}
	if (!p->trickle)
		r = tlsconn_read(p->t, plain, plainlen);
	return p->last = r;
}

enum { HS_OK = 0, HS_SERVER = -1, HS_CLIENT = -2, HS_STUCK = -3 };

static int
handshake(struct peer *p)
{
	int	 i, rc, r;

	for (i = 0; i < 16; i++) {
		if (!SSL_is_init_finished(p->ssl)) {
			ERR_clear_error();
			rc = SSL_do_handshake(p->ssl);
			if (rc <= 0 && SSL_get_error(p->ssl, rc) !=
			    SSL_ERROR_WANT_READ) {
				ERR_clear_error();
				/* Let the server see the client's alert. */
				c2s(p, NULL, 0);
				s2c(p);
				return HS_CLIENT;
			}
		}
		r = c2s(p, NULL, 0);
		s2c(p);
		if (r == TLSCONN_ERROR)
			return HS_SERVER;
		if (r != TLSCONN_WANT)
			return HS_STUCK;	/* no data expected yet */
		if (SSL_is_init_finished(p->ssl) && tlsconn_established(p->t))
			return HS_OK;
	}
	return HS_STUCK;
}

/* Everything the client can read now; returns the last SSL_read error. */
static int
client_read_all(struct peer *p, struct buf *got)
{
	char	 tmp[16384];
	int	 n;

	for (;;) {
		ERR_clear_error();
		n = SSL_read(p->ssl, tmp, sizeof(tmp));
		if (n <= 0)
			break;
		buf_add(got, tmp, (size_t)n);
	}
	n = SSL_get_error(p->ssl, n);
	ERR_clear_error();
	return n;
}

/*
 * One Gemini transaction over an established peer: the request reaches
 * the server intact, the response reaches the client intact and ends
 * with close_notify.
 */
static void
transaction(struct peer *p, const char *what)
{
	char		 plain[2048];
	struct buf	 got = BUF_INIT;
	int		 r, e;

	INT_EQ(SSL_write(p->ssl, REQUEST, (int)strlen(REQUEST)),
	    strlen(REQUEST), what);
	r = c2s(p, plain, sizeof(plain));
	INT_EQ(r, strlen(REQUEST), what);
	OK(r > 0 && memcmp(plain, REQUEST, strlen(REQUEST)) == 0,
	    "%s: server read the request", what);
	INT_EQ(tlsconn_write(p->t, RESPONSE, strlen(RESPONSE)),
	    strlen(RESPONSE), what);
	tlsconn_shutdown(p->t);
	OK(s2c(p) > 0, "%s: response drained", what);
	e = client_read_all(p, &got);
	STR_EQ(got.data, RESPONSE, what);
	INT_EQ(e, SSL_ERROR_ZERO_RETURN, what);
	OK(SSL_get_shutdown(p->ssl) & SSL_RECEIVED_SHUTDOWN,
	    "%s: client got close_notify", what);
	buf_free(&got);
}

/* Drained bytes must never look like a Gemini header ("NN "). */
static int
looks_like_header(const struct buf *b)
{
	return b->len >= 2 && isdigit((unsigned char)b->data[0]) &&
	    isdigit((unsigned char)b->data[1]);
}

/* ---- cases --------------------------------------------------------- */

static void
test_version(void)
{
	unsigned long	 rt = OpenSSL_version_num();

	fprintf(stderr, "note: built with %s, running %s\n",
	    OPENSSL_VERSION_TEXT, OpenSSL_version(OPENSSL_VERSION));
	OK(OPENSSL_VERSION_MAJOR >= 3, "headers are OpenSSL 3");
	OK((rt >> 28) >= 3, "library is OpenSSL 3 (%lx)", rt);
	/* A library older than the headers would miss symbols we use. */
	OK((rt & 0xfff00000UL) >= (OPENSSL_VERSION_NUMBER & 0xfff00000UL),
	    "library %lx not older than headers %lx", rt,
	    (unsigned long)OPENSSL_VERSION_NUMBER);
}

static void
test_tls13(void)
{
	SSL_CTX		*ctx = client_ctx(0, 0);
	struct peer	 p;
	X509		*sc;
	char		 plain[64];
	unsigned char	 md[32];
	unsigned int	 mdlen = 0;
	char		 fp[96];
	int		 i;

	peer_open(&p, ctx, "localhost");
	OK(!tlsconn_established(p.t), "not established before hello");
	INT_EQ(tlsconn_read(p.t, plain, sizeof(plain)), TLSCONN_WANT,
	    "nothing fed yet");
	INT_EQ(tlsconn_drain(p.t, &p.wire), 0, "nothing to send yet");
	INT_EQ(handshake(&p), HS_OK, "TLS 1.3 handshake");
	INT_EQ(SSL_version(p.ssl), TLS1_3_VERSION, "TLS 1.3 by default");
	OK(tlsconn_established(p.t), "established");
	STR_EQ(SSL_get_cipher_name(p.ssl), "TLS_AES_128_GCM_SHA256",
	    "server's suite preference");
	INT_EQ(SSL_get_negotiated_group(p.ssl), NID_X25519, "X25519");
	STR_EQ(tlsconn_sni(p.t), "localhost", "SNI");
	OK(tlsconn_client_hash(p.t) == NULL, "no client cert, no hash");

	/* The client sees the certificate the server reports. */
	sc = SSL_get0_peer_certificate(p.ssl);
	OK(sc != NULL, "server sent a certificate");
	if (sc != NULL) {
		X509_digest(sc, EVP_sha256(), md, &mdlen);
		for (i = 0; i < 32; i++)
			sprintf(fp + i * 3, "%02X%s", md[i], i < 31 ? ":" : "");
		STR_EQ(tls_server_fingerprint(srv), fp, "fingerprint on wire");
	}
	/*
	 * tlsconn_drain() appends to what out already holds (and hands its
	 * own buffer over when out is empty); an idle release loses nothing.
	 */
	{
		struct buf	 out = BUF_INIT;
		size_t		 n;

		buf_addstr(&out, "kept");
		INT_EQ(tlsconn_write(p.t, "abc", 3), 3, "write");
		tlsconn_release_buffers(p.t);
		n = tlsconn_drain(p.t, &out);
		OK(n > 3, "a record drained after a release (%zu)", n);
		INT_EQ((int)out.len, (int)(4 + n), "appended");
		OK(memcmp(out.data, "kept", 4) == 0, "what was there stays");
		INT_EQ((int)tlsconn_drain(p.t, &out), 0, "drained once");
		/* The client reads it: the record stream is still whole. */
		BIO_write(p.in, out.data + 4, (int)n);
		INT_EQ(SSL_read(p.ssl, plain, sizeof(plain)), 3, "client read");
		OK(memcmp(plain, "abc", 3) == 0, "the bytes written");
		buf_free(&out);
	}
	transaction(&p, "TLS 1.3");

	/* Once shut down: no second close_notify, no more writes. */
	tlsconn_shutdown(p.t);
	INT_EQ(s2c(&p), 0, "second shutdown queues nothing");
	INT_EQ(tlsconn_write(p.t, "x", 1), TLSCONN_ERROR,
	    "write after shutdown");
	peer_close(&p);
	SSL_CTX_free(ctx);
}

static void
test_client_eof(void)
{
	SSL_CTX		*ctx = client_ctx(0, 0);
	struct peer	 p;
	char		 plain[64];

	peer_open(&p, ctx, NULL);
	INT_EQ(handshake(&p), HS_OK, "handshake");
	OK(tlsconn_sni(p.t) == NULL, "no SNI sent, none reported");
	SSL_shutdown(p.ssl);
	INT_EQ(c2s(&p, plain, sizeof(plain)), TLSCONN_EOF,
	    "client close_notify is EOF");
	INT_EQ(tlsconn_read(p.t, plain, sizeof(plain)), TLSCONN_EOF,
	    "EOF again");
	peer_close(&p);
	SSL_CTX_free(ctx);
}

static void
test_trickle(void)
{
	SSL_CTX		*ctx = client_ctx(0, 0);
	struct peer	 p;

	/* conn.c may hand over any split of the stream, even 1 byte. */
	peer_open(&p, ctx, "localhost");
	p.trickle = 1;
	INT_EQ(handshake(&p), HS_OK, "handshake, one byte at a time");
	p.trickle = 0;
	transaction(&p, "after trickled handshake");
	peer_close(&p);
	SSL_CTX_free(ctx);
}

static void
test_split_request(void)
{
	SSL_CTX		*ctx = client_ctx(0, 0);
	struct peer	 p;
	char		 plain[64];
	int		 r;

	peer_open(&p, ctx, "localhost");
	INT_EQ(handshake(&p), HS_OK, "handshake");
	SSL_write(p.ssl, "gemini://loc", 12);
	SSL_write(p.ssl, "alhost/\r\n", 9);
	r = c2s(&p, plain, sizeof(plain));
	INT_EQ(r, 12, "first record");
	r = tlsconn_read(p.t, plain, sizeof(plain));
	INT_EQ(r, 9, "second record");
	OK(r == 9 && memcmp(plain, "alhost/\r\n", 9) == 0, "bytes intact");
	INT_EQ(tlsconn_read(p.t, plain, sizeof(plain)), TLSCONN_WANT,
	    "then nothing");
	/* A small read buffer gets the rest on the next call. */
	SSL_write(p.ssl, REQUEST, (int)strlen(REQUEST));
	INT_EQ(c2s(&p, plain, 5), 5, "partial read");
	INT_EQ(tlsconn_read(p.t, plain, sizeof(plain)),
	    strlen(REQUEST) - 5, "rest of the record");
	peer_close(&p);
	SSL_CTX_free(ctx);
}

static void
test_tls12(void)
{
	SSL_CTX		*ctx = client_ctx(TLS1_2_VERSION, TLS1_2_VERSION);
	struct peer	 p;

	peer_open(&p, ctx, "localhost");
	INT_EQ(handshake(&p), HS_OK, "TLS 1.2 handshake");
	INT_EQ(SSL_version(p.ssl), TLS1_2_VERSION, "TLS 1.2");
	STR_EQ(SSL_get_cipher_name(p.ssl), "ECDHE-ECDSA-AES128-GCM-SHA256",
	    "TLS 1.2 suite");
	STR_EQ(tlsconn_sni(p.t), "localhost", "SNI under TLS 1.2");
	transaction(&p, "TLS 1.2");
	peer_close(&p);
	SSL_CTX_free(ctx);

	/* ChaCha20 when the client prefers it. */
	ctx = client_ctx(TLS1_2_VERSION, TLS1_2_VERSION);
	SSL_CTX_set_cipher_list(ctx, "ECDHE-ECDSA-CHACHA20-POLY1305:"
	    "ECDHE-ECDSA-AES128-GCM-SHA256");
	peer_open(&p, ctx, "localhost");
	INT_EQ(handshake(&p), HS_OK, "TLS 1.2 chacha handshake");
	STR_EQ(SSL_get_cipher_name(p.ssl), "ECDHE-ECDSA-CHACHA20-POLY1305",
	    "client's ChaCha20 preference honoured");
	peer_close(&p);
	SSL_CTX_free(ctx);

	/* No forward secrecy or no AEAD: refused. */
	ctx = client_ctx(TLS1_2_VERSION, TLS1_2_VERSION);
	SSL_CTX_set_cipher_list(ctx, "ECDHE-ECDSA-AES128-SHA:AES128-GCM-SHA256"
	    ":@SECLEVEL=0");
	peer_open(&p, ctx, "localhost");
	INT_EQ(handshake(&p), HS_SERVER, "CBC / RSA-kx only client refused");
	OK(!looks_like_header(&p.wire), "no header-like bytes");
	peer_close(&p);
	SSL_CTX_free(ctx);
}

static void
test_old_versions(void)
{
	static const int	 vers[] = { TLS1_VERSION, TLS1_1_VERSION };
	SSL_CTX			*ctx;
	struct peer		 p;
	char			 plain[64];
	size_t			 i;

	for (i = 0; i < nitems(vers); i++) {
		ctx = client_ctx(TLS1_VERSION, vers[i]);
		peer_open(&p, ctx, "localhost");
		INT_EQ(handshake(&p), HS_SERVER, "old TLS refused");
		INT_EQ(p.last, TLSCONN_ERROR, "server said TLSCONN_ERROR");
		OK(!tlsconn_established(p.t), "not established");
		OK(!looks_like_header(&p.wire), "no header-like bytes");
		OK(p.wire.len == 0 || (unsigned char)p.wire.data[0] == 0x15,
		    "only an alert record goes out");
		INT_EQ(tlsconn_read(p.t, plain, sizeof(plain)), TLSCONN_ERROR,
		    "still an error");
		tlsconn_shutdown(p.t);	/* harmless after a failure */
		peer_close(&p);
		SSL_CTX_free(ctx);
	}
}

/* Raw bytes straight into a fresh server connection. */
static int
raw(const char *bytes, size_t len, struct buf *out)
{
	struct tlsconn	*t = tlsconn_new(srv);
	char		 plain[64];
	int		 r;

	buf_truncate(out, 0);
	if (tlsconn_feed(t, bytes, len) != 0) {
		tlsconn_free(t);
		return 99;
	}
	r = tlsconn_read(t, plain, sizeof(plain));
	tlsconn_drain(t, out);
	tlsconn_shutdown(t);
	tlsconn_drain(t, out);
	tlsconn_free(t);
	return r;
}

static void
test_garbage(void)
{
	static const struct {
		const char	*name;
		const char	*bytes;
		size_t		 len;
	} cases[] = {
		{ "http", "GET / HTTP/1.0\r\n\r\n", 18 },
		{ "plain gemini", REQUEST, sizeof(REQUEST) - 1 },
		{ "gopher", "/\r\n\r\n\r\n", 7 },
		{ "zeros", "\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16 },
		{ "bad handshake", "\x16\x03\x01\x00\x05\x01\x00\x00\x01\xff",
		    10 },
		{ "alert first", "\x15\x03\x03\x00\x02\x02\x28", 7 },
		{ "app data first", "\x17\x03\x03\x00\x05hello", 10 },
		{ "huge record", "\x16\x03\x01\xff\xff", 5 },
	};
	struct buf	 out = BUF_INIT;
	size_t		 i;
	int		 r;

	for (i = 0; i < nitems(cases); i++) {
		r = raw(cases[i].bytes, cases[i].len, &out);
		OK(r == TLSCONN_ERROR, "%s: got %d, want TLSCONN_ERROR",
		    cases[i].name, r);
		OK(!looks_like_header(&out), "%s: no header-like bytes",
		    cases[i].name);
		OK(out.len == 0 || (unsigned char)out.data[0] == 0x15,
		    "%s: nothing but an alert", cases[i].name);
	}
	/* Too short to judge: wait for more. */
	INT_EQ(raw("\r\n", 2, &out), TLSCONN_WANT, "2 bytes: want more");
	INT_EQ(out.len, 0, "2 bytes: nothing sent");
	INT_EQ(raw("", 0, &out), TLSCONN_WANT, "nothing: want more");
	buf_free(&out);
}

static void
test_client_cert(int version, const char *what)
{
	SSL_CTX		*ctx = client_ctx(version, version);
	struct peer	 p;
	char		 want[65];
	const char	*h, *h2;
	size_t		 i;
	int		 hex = 1;

	SSL_CTX_use_certificate(ctx, client_cert);
	SSL_CTX_use_PrivateKey(ctx, client_key);
	peer_open(&p, ctx, "localhost");
	OK(tlsconn_client_hash(p.t) == NULL, "%s: no hash before hello",
	    what);
	INT_EQ(handshake(&p), HS_OK, what);
	h = tlsconn_client_hash(p.t);
	der_sha256_hex(client_cert, want);
	OK(h != NULL && strlen(h) == 64, "%s: 64 hex chars", what);
	for (i = 0; h != NULL && h[i] != '\0'; i++)
		if (!isxdigit((unsigned char)h[i]) ||
		    isupper((unsigned char)h[i]))
			hex = 0;
	OK(hex, "%s: lower-case hex", what);
	STR_EQ(h, want, what);
	h2 = tlsconn_client_hash(p.t);
	OK(h == h2, "%s: computed once, same pointer", what);
	transaction(&p, what);
	peer_close(&p);
	SSL_CTX_free(ctx);
}

static void
test_client_cert_expired(void)
{
	SSL_CTX		*ctx = client_ctx(0, 0);
	struct peer	 p;
	EVP_PKEY	*key = EVP_EC_gen("P-256");
	X509		*x = make_cert(key, "old", -86400L * 30, -86400L);
	char		 want[65];

	/* Not our call to judge (that is a 62 for the app): accept it. */
	SSL_CTX_use_certificate(ctx, x);
	SSL_CTX_use_PrivateKey(ctx, key);
	peer_open(&p, ctx, "localhost");
	INT_EQ(handshake(&p), HS_OK, "expired client cert accepted");
	der_sha256_hex(x, want);
	STR_EQ(tlsconn_client_hash(p.t), want, "expired cert hash");
	peer_close(&p);
	SSL_CTX_free(ctx);
	X509_free(x);
	EVP_PKEY_free(key);
}

static void
test_resumption(int version, int with_cert, const char *what)
{
	SSL_CTX		*ctx = client_ctx(version, version);
	SSL_SESSION	*sess;
	struct peer	 p;
	char		 want[65];

	if (with_cert) {
		SSL_CTX_use_certificate(ctx, client_cert);
		SSL_CTX_use_PrivateKey(ctx, client_key);
	}
	peer_open(&p, ctx, "localhost");
	INT_EQ(handshake(&p), HS_OK, what);
	transaction(&p, what);		/* the client reads the ticket too */
	sess = SSL_get1_session(p.ssl);
	OK(sess != NULL && SSL_SESSION_is_resumable(sess),
	    "%s: got a resumable session", what);
	/* A request must not ride in 0-RTT data. */
	INT_EQ(SSL_SESSION_get_max_early_data(sess), 0, "no early data");
	/*
	 * OpenSSL marks the session of an SSL freed without sending
	 * close_notify as not resumable: answer the server's.
	 */
	SSL_shutdown(p.ssl);
	INT_EQ(c2s(&p, NULL, 0), TLSCONN_EOF, "client's close_notify");
	peer_close(&p);

	peer_open(&p, ctx, "localhost");
	SSL_set_session(p.ssl, sess);
	INT_EQ(handshake(&p), HS_OK, what);
	OK(SSL_session_reused(p.ssl), "%s: session resumed", what);
	STR_EQ(tlsconn_sni(p.t), "localhost", "SNI after resumption");
	if (with_cert) {
		der_sha256_hex(client_cert, want);
		STR_EQ(tlsconn_client_hash(p.t), want,
		    "client hash after resumption");
	} else {
		OK(tlsconn_client_hash(p.t) == NULL, "%s: no hash", what);
	}
	transaction(&p, what);
	peer_close(&p);
	SSL_SESSION_free(sess);
	SSL_CTX_free(ctx);
}

static void
test_early_shutdown(void)
{
	SSL_CTX		*ctx = client_ctx(0, 0);
	struct peer	 p;
	struct tlsconn	*t;
	struct buf	 b = BUF_INIT;

	/* Before any byte: nothing to say, nothing goes wrong. */
	t = tlsconn_new(srv);
	tlsconn_shutdown(t);
	INT_EQ(tlsconn_drain(t, &b), 0, "shutdown before hello: silent");
	INT_EQ(tlsconn_write(t, "x", 1), TLSCONN_ERROR, "write refused");
	tlsconn_free(t);

	/* Mid-handshake (ServerHello sent, Finished not yet back). */
	peer_open(&p, ctx, "localhost");
	SSL_do_handshake(p.ssl);
	INT_EQ(c2s(&p, NULL, 0), TLSCONN_WANT, "ClientHello read");
	OK(s2c(&p) > 0, "ServerHello flight out");
	INT_EQ(tlsconn_write(p.t, "x", 1), TLSCONN_ERROR,
	    "no write before established");
	tlsconn_shutdown(p.t);
	INT_EQ(s2c(&p), 0, "shutdown in init queues nothing");
	peer_close(&p);

	/* Freed half-way: the leak checker is the assertion. */
	peer_open(&p, ctx, "localhost");
	SSL_do_handshake(p.ssl);
	c2s(&p, NULL, 0);
	peer_close(&p);
	SSL_CTX_free(ctx);
	buf_free(&b);
}

static void
test_large_body(void)
{
	SSL_CTX		*ctx = client_ctx(0, 0);
	struct peer	 p;
	struct buf	 got = BUF_INIT;
	char		*body, plain[64];
	size_t		 len = 1 << 20, i, drained;

	body = xmalloc(len);
	for (i = 0; i < len; i++)
		body[i] = (char)('a' + i % 26);
	peer_open(&p, ctx, "localhost");
	INT_EQ(handshake(&p), HS_OK, "handshake");
	SSL_write(p.ssl, REQUEST, (int)strlen(REQUEST));
	c2s(&p, plain, sizeof(plain));
	tlsconn_release_buffers(p.t);	/* idle between request and reply */
	INT_EQ(tlsconn_write(p.t, body, len), len, "1 MiB in one call");
	tlsconn_shutdown(p.t);
	drained = s2c(&p);
	OK(drained > len && drained < len + len / 50,
	    "drained %zu bytes of records", drained);
	INT_EQ(client_read_all(&p, &got), SSL_ERROR_ZERO_RETURN,
	    "close_notify after the body");
	INT_EQ(got.len, len, "body length");
	OK(got.len == len && memcmp(got.data, body, len) == 0, "body bytes");
	OK(got.data != NULL && got.data[got.len] == '\0', "buf terminated");
	tlsconn_release_buffers(p.t);
	peer_close(&p);
	SSL_CTX_free(ctx);
	buf_free(&got);
	free(body);
}

static void
test_rsa_server(void)
{
	char			 err[512], *dir, *kp, *cp;
	struct tls_server	*saved = srv, *rsa;
	EVP_PKEY		*key;
	X509			*x;
	FILE			*f;
	SSL_CTX			*ctx;
	struct peer		 p;

	/* An operator's own RSA pair: the ECDHE-RSA suites come along. */
	dir = xasprintf("%s/rsa", top);
	kp = xasprintf("%s/key.pem", dir);
	cp = xasprintf("%s/cert.pem", dir);
	mkdir(dir, 0700);
	key = EVP_RSA_gen(2048);
	x = make_cert(key, "localhost", -60, 86400L * 365);
	if ((f = fopen(kp, "w")) != NULL) {
		PEM_write_PrivateKey(f, key, NULL, NULL, 0, NULL, NULL);
		fclose(f);
	}
	chmod(kp, 0600);
	if ((f = fopen(cp, "w")) != NULL) {
		PEM_write_X509(f, x);
		fclose(f);
	}
	rsa = tls_server_new(dir, "localhost", err, sizeof(err));
	OK(rsa != NULL, "RSA server: %s", err);
	if (rsa != NULL) {
		srv = rsa;
		ctx = client_ctx(TLS1_2_VERSION, TLS1_2_VERSION);
		peer_open(&p, ctx, "localhost");
		INT_EQ(handshake(&p), HS_OK, "RSA TLS 1.2 handshake");
		STR_EQ(SSL_get_cipher_name(p.ssl),
		    "ECDHE-RSA-AES128-GCM-SHA256", "RSA suite");
		transaction(&p, "RSA TLS 1.2");
		peer_close(&p);
		SSL_CTX_free(ctx);

		ctx = client_ctx(0, 0);
		peer_open(&p, ctx, "localhost");
		INT_EQ(handshake(&p), HS_OK, "RSA TLS 1.3 handshake");
		peer_close(&p);
		SSL_CTX_free(ctx);
		srv = saved;
	}
	tls_server_free(rsa);
	X509_free(x);
	EVP_PKEY_free(key);
	free(dir);
	free(kp);
	free(cp);
}

/* ---- the installed openssl s_client over loopback ------------------- */

static int
wait_fd(int fd, short events, int ms)
{
	struct pollfd	 pfd = { .fd = fd, .events = events };

	return poll(&pfd, 1, ms) == 1;
}

static int
send_all(int fd, const char *p, size_t len)
{
	ssize_t	 n;

	while (len > 0) {
		if ((n = send(fd, p, len, MSG_NOSIGNAL)) <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

struct sc_result {
	int		 ok;		/* the server saw a full request */
	char		 sni[64];
	char		 hash[65];
	struct buf	 out;		/* s_client's standard output */
	int		 status;	/* its exit status */
};

/*
 * Serve one Gemini transaction with tlsconn to
 * `openssl s_client -quiet ARGS` on 127.0.0.1.  Everything is bounded
 * by 5 s timeouts.
 */
static void
s_client(const char *const *args, struct sc_result *res)
{
	struct sockaddr_in	 sa;
	socklen_t		 salen = sizeof(sa);
	struct tlsconn		*t = NULL;
	struct buf		 wire = BUF_INIT, req = BUF_INIT;
	char			 port[16], chunk[4096], plain[2048];
	const char		*argv[32];
	int			 lfd, cfd = -1, in[2], out[2], r, n, i;
	pid_t			 pid;

	memset(res, 0, sizeof(*res));
	buf_init(&res->out);
	res->status = -1;
	lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (lfd == -1 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(lfd, 1) || getsockname(lfd, (struct sockaddr *)&sa,
	    &salen) || pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC)) {
		perror("s_client setup");
		if (lfd != -1)
			close(lfd);
		return;
	}
	snprintf(port, sizeof(port), "127.0.0.1:%d", ntohs(sa.sin_port));
	n = 0;
	argv[n++] = "openssl";
	argv[n++] = "s_client";
	argv[n++] = "-quiet";
	argv[n++] = "-connect";
	argv[n++] = port;
	for (i = 0; args[i] != NULL && n < 30; i++)
		argv[n++] = args[i];
	argv[n] = NULL;

	if ((pid = fork()) == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(in[0], 0);
		dup2(out[1], 1);
		dup2(null, 2);
		execvp("openssl", (char *const *)argv);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	/* s_client -quiet ignores EOF on stdin and waits for our close. */
	(void)!write(in[1], REQUEST, strlen(REQUEST));
	close(in[1]);

	if (pid == -1 || !wait_fd(lfd, POLLIN, 5000) ||
	    (cfd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC)) == -1)
		goto done;
	t = tlsconn_new(srv);
	while (wait_fd(cfd, POLLIN, 5000)) {
		if ((n = (int)recv(cfd, chunk, sizeof(chunk), 0)) <= 0)
			break;
		tlsconn_feed(t, chunk, (size_t)n);
		while ((r = tlsconn_read(t, plain, sizeof(plain))) > 0)
			buf_add(&req, plain, (size_t)r);
		if (r != TLSCONN_WANT && r != 0)
			break;
		if (req.len >= 2 && memcmp(req.data + req.len - 2, "\r\n", 2)
		    == 0) {
			res->ok = strcmp(req.data, REQUEST) == 0;
			if (tlsconn_sni(t) != NULL)
				snprintf(res->sni, sizeof(res->sni), "%s",
				    tlsconn_sni(t));
			if (tlsconn_client_hash(t) != NULL)
				snprintf(res->hash, sizeof(res->hash), "%s",
				    tlsconn_client_hash(t));
			tlsconn_write(t, RESPONSE, strlen(RESPONSE));
			tlsconn_shutdown(t);
		}
		buf_truncate(&wire, 0);
		tlsconn_drain(t, &wire);
		if (send_all(cfd, wire.data, wire.len) == -1)
			break;
		if (res->ok)
			break;
	}
done:
	tlsconn_free(t);
	if (cfd != -1)
		close(cfd);
	close(lfd);
	while (wait_fd(out[0], POLLIN, 5000) &&
	    (n = (int)read(out[0], chunk, sizeof(chunk))) > 0)
		buf_add(&res->out, chunk, (size_t)n);
	close(out[0]);
	if (pid > 0) {
		for (i = 0; i < 500 && waitpid(pid, &res->status, WNOHANG) == 0;
		    i++)
			usleep(10000);
		if (i == 500) {
			kill(pid, SIGKILL);
			waitpid(pid, &res->status, 0);
		}
	}
	buf_free(&wire);
	buf_free(&req);
}

static void
test_s_client(void)
{
	static const char *const tls13[] = { "-servername", "localhost",
		NULL };
	static const char *const tls12[] = { "-tls1_2", NULL };
	static const char *const tls11[] = { "-tls1_1", "-cipher",
		"DEFAULT:@SECLEVEL=0", NULL };
	const char		*withcert[8];
	struct sc_result	 res;
	char			*kp, *cp, want[65];
	FILE			*f;

	if (system("openssl version >/dev/null 2>&1") != 0) {
		fprintf(stderr, "note: no openssl command; s_client checks "
		    "skipped\n");
		return;
	}
	s_client(tls13, &res);
	OK(res.ok, "s_client TLS 1.3: request received");
	STR_EQ(res.sni, "localhost", "s_client SNI");
	HAS(res.out.data, RESPONSE, "s_client TLS 1.3: response");
	OK(WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0,
	    "s_client TLS 1.3 exit status %d", res.status);
	buf_free(&res.out);

	s_client(tls12, &res);
	OK(res.ok, "s_client TLS 1.2: request received");
	HAS(res.out.data, RESPONSE, "s_client TLS 1.2: response");
	buf_free(&res.out);

	s_client(tls11, &res);
	OK(!res.ok, "s_client TLS 1.1: refused");
	OK(res.out.data == NULL || strstr(res.out.data, "20 ") == NULL,
	    "s_client TLS 1.1: no response");
	buf_free(&res.out);

	kp = xasprintf("%s/client-key.pem", top);
	cp = xasprintf("%s/client-cert.pem", top);
	if ((f = fopen(kp, "w")) != NULL) {
		PEM_write_PrivateKey(f, client_key, NULL, NULL, 0, NULL, NULL);
		fclose(f);
	}
	if ((f = fopen(cp, "w")) != NULL) {
		PEM_write_X509(f, client_cert);
		fclose(f);
	}
	withcert[0] = "-cert";
	withcert[1] = cp;
	withcert[2] = "-key";
	withcert[3] = kp;
	withcert[4] = NULL;
	s_client(withcert, &res);
	OK(res.ok, "s_client with a client cert: request received");
	der_sha256_hex(client_cert, want);
	STR_EQ(res.hash, want, "s_client client cert hash");
	HAS(res.out.data, RESPONSE, "s_client with cert: response");
	buf_free(&res.out);
	free(kp);
	free(cp);
}

static const struct harness_test tests[] = {
	NAMED("version"),
	NAMED("tls13"),
	NAMED("client_eof"),
	NAMED("trickle"),
	NAMED("split_request"),
	NAMED("tls12"),
	NAMED("old_versions"),
	NAMED("garbage"),
	NAMED("client_cert_tls13"),
	NAMED("client_cert_tls12"),
	NAMED("client_cert_expired"),
	NAMED("resumption_tls13"),
	NAMED("resumption_cert_tls13"),
	NAMED("resumption_tls12"),
	NAMED("resumption_cert_tls12"),
	NAMED("early_shutdown"),
	NAMED("large_body"),
	NAMED("rsa_server"),
	NAMED("s_client"),
};

int
main(int argc, char **argv)
{
	char	 err[512], *dir;

	HARNESS_INIT(argc, argv, tests);

	signal(SIGPIPE, SIG_IGN);
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	dir = xasprintf("%s/certs", top);
	log_open(NULL, getenv("TEST_DEBUG") ? LOG_LEVEL_DEBUG :
	    LOG_LEVEL_WARN);
	if ((srv = tls_server_new(dir, "localhost", err, sizeof(err))) ==
	    NULL) {
		fprintf(stderr, "tls_server_new: %s\n", err);
		return 1;
	}
	client_key = EVP_EC_gen("P-256");
	client_cert = make_cert(client_key, "reader", -60, 86400L * 365);

	RUN("version", test_version());
	RUN("tls13", test_tls13());
	RUN("client_eof", test_client_eof());
	RUN("trickle", test_trickle());
	RUN("split_request", test_split_request());
	RUN("tls12", test_tls12());
	RUN("old_versions", test_old_versions());
	RUN("garbage", test_garbage());
	RUN("client_cert_tls13", test_client_cert(0, "client cert, TLS 1.3"));
	RUN("client_cert_tls12", test_client_cert(TLS1_2_VERSION,
	    "client cert, TLS 1.2"));
	RUN("client_cert_expired", test_client_cert_expired());
	RUN("resumption_tls13", test_resumption(0, 0, "resumption, TLS 1.3"));
	RUN("resumption_cert_tls13", test_resumption(0, 1,
	    "resumption with cert, TLS 1.3"));
	RUN("resumption_tls12", test_resumption(TLS1_2_VERSION, 0,
	    "resumption, TLS 1.2"));
	RUN("resumption_cert_tls12", test_resumption(TLS1_2_VERSION, 1,
	    "resumption with cert, TLS 1.2"));
	RUN("early_shutdown", test_early_shutdown());
	RUN("large_body", test_large_body());
	RUN("rsa_server", test_rsa_server());
	RUN("s_client", test_s_client());

	tls_server_free(srv);
	X509_free(client_cert);
	EVP_PKEY_free(client_key);
	free(dir);
	nftw(top, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return harness_done();
}
