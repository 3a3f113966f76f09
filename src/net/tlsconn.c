/*
 * tlsconn.c -- TLS over memory buffers, and the server's TLS contexts.
 *
 * Ciphertext goes in with tlsconn_feed() and comes out with
 * tlsconn_drain(); plaintext flows in between.  Knows OpenSSL, not
 * libuv: conn.c moves the bytes.  A struct tls_server owns one SSL_CTX
 * per host name (SNI), each read-only once built and shared by every
 * worker thread; a struct tlsconn owns its SSL and the two ciphertext
 * buffers, and the SSL owns the one BIO (a "wire", below) that reads and
 * writes them.  Loading or generating the key pairs is cert.c's
 * business.
 *
 * Every connection starts on the first host's context; the ClientHello
 * callback moves it to the context of the name it asks for, before
 * OpenSSL looks at a session to resume.  Each context has a session id
 * context of its own (a hash of its name), so a ticket issued for one
 * name never resumes a session under another one's certificate.
 *
 * Errors on a connection are the client's doing (a port scanner, an
 * HTTP client, an old TLS stack), so they are logged at debug only.
 */
#define OPENSSL_API_COMPAT 30000	/* nothing deprecated in 3.0 */

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "core/buf.h"
#include "core/config.h"
#include "core/par.h"
#include "core/log.h"
#include "core/util.h"
#include "net/cert.h"
#include "net/ticket.h"
#include "net/tlsconn.h"
#include "net/tlserr.h"

#if OPENSSL_VERSION_NUMBER < 0x30000000L
#error "capsuled needs OpenSSL 3.0 or later"
#endif

/*
 * TLS 1.2: forward secrecy and AEAD only.  AES-128 first (cheapest with
 * AES-NI), ChaCha20 for clients that put it first (PRIORITIZE_CHACHA).
 */
#define CIPHERS_ECDSA	"ECDHE-ECDSA-AES128-GCM-SHA256:"		\
			"ECDHE-ECDSA-CHACHA20-POLY1305:"		\
			"ECDHE-ECDSA-AES256-GCM-SHA384"
#define CIPHERS_RSA	"ECDHE-RSA-AES128-GCM-SHA256:"			\
			"ECDHE-RSA-CHACHA20-POLY1305:"			\
			"ECDHE-RSA-AES256-GCM-SHA384"
#define SUITES_TLS13	"TLS_AES_128_GCM_SHA256:"			\
			"TLS_CHACHA20_POLY1305_SHA256:"			\
			"TLS_AES_256_GCM_SHA384"
#define GROUPS		"X25519:P-256:P-384"
#define SID_CTX		"capsuled"	/* hashed with the host name */
/* A client certificate list larger than this ends the handshake. */
#define MAX_CERT_LIST	(16 * 1024)
/* An SSL that failed once fails again without queueing a reason. */
#define NO_REASON	"connection failed earlier"

/* One name we answer to, with its certificate. */
struct tls_vhost {
	SSL_CTX		*ctx;		/* owned; read-only once built */
	char		*name;		/* owned; lower case, "" for none */
	time_t		 not_after;	/* of the leaf certificate */
	char		 fp[CERT_FP_LEN]; /* SHA-256, "AB:CD:..." */
};

struct tls_server {
	struct tls_vhost *hosts;	/* owned; [0]: the default */
	size_t		 nhosts;
	/*
	 * The CA of each certificate zone (config "cert_zones", by index),
	 * NULL for a zone without one; read-only once built.
	 */
	X509_STORE	**zone_cas;	/* owned, each owned */
	size_t		 nzones;
};

struct tlsconn {
	const struct tls_server *srv;	/* borrowed: outlives c */
	SSL		*ssl;		/* owned; owns the wire BIO */
	struct buf	 in;		/* ciphertext from the peer */
	size_t		 inoff;		/* bytes of in already read */
	struct buf	 out;		/* ciphertext for the peer */
	unsigned char	 shut;		/* tlsconn_shutdown() was called */
	char		 hash[CERT_HEX_LEN]; /* client cert; "" until known */
};

static _Noreturn void
oom(const char *what)
{
	/* Like util.c: nothing sensible to do without memory. */
	fprintf(stderr, "capsuled: %s: out of memory\n", what);
	abort();
}

/*
 * Client certificates are asked for but never judged here: self-signed
 * is the norm in Gemini, and the application decides what a certificate
 * is worth (60/61/62) from its hash.
 */
static int
verify_any(int preverify_ok, X509_STORE_CTX *store)
{
	return 1;
}

/*
 * Acknowledge every server name, so that a TLS 1.2 session remembers it
 * and tlsconn_sni() still answers after resumption.  Whether the name
 * is ours is the request handler's call (53), not the handshake's.
 */
static int
servername_any(SSL *ssl, int *alert, void *arg)
{
	return SSL_TLSEXT_ERR_OK;
}

/* Host i whose name is name[0..len) (any case, one trailing dot); 0. */
static size_t
host_find(const struct tls_server *srv, const unsigned char *name,
    size_t len)
{
	size_t	 i;

	if (len > 1 && name[len - 1] == '.')
		len--;
	for (i = 1; i < srv->nhosts; i++)
		if (strlen(srv->hosts[i].name) == len &&
		    strncasecmp(srv->hosts[i].name, (const char *)name, len) ==
		    0)
			return i;
	return 0;
}

/*
 * The ClientHello is here, nothing decided yet: switch to the context
 * of the host the client names, so that the certificate and the session
 * id context (which a ticket must match to resume) are that host's.  An
 * unknown name, or none, stays with the default host: the request
 * handler answers 53 to a URL that is not ours.
 *
 * server_name = list_len(2) *( name_type(1) name_len(2) name )
 */
static int
pick_host(SSL *ssl, int *alert, void *arg)
{
	const struct tls_server	*srv = arg;
	const unsigned char	*p;
	size_t			 len, n, i = 0;

	if (srv->nhosts < 2 || SSL_client_hello_get0_ext(ssl,
	    TLSEXT_TYPE_server_name, &p, &len) != 1 || len < 2 ||
	    (size_t)(p[0] << 8 | p[1]) != len - 2)
		goto done;
	for (p += 2, len -= 2; len >= 3; p += 3 + n, len -= 3 + n) {
		n = (size_t)(p[1] << 8 | p[2]);
		if (n > len - 3)
			break;
		if (p[0] == TLSEXT_NAMETYPE_host_name) {
			i = host_find(srv, p + 3, n);
			break;
		}
	}
done:
	/* A second ClientHello (after a HelloRetryRequest) comes here too. */
	if (SSL_get_SSL_CTX(ssl) != srv->hosts[i].ctx &&
	    SSL_set_SSL_CTX(ssl, srv->hosts[i].ctx) == NULL) {
		*alert = SSL_AD_INTERNAL_ERROR;
		return SSL_CLIENT_HELLO_ERROR;
	}
	return SSL_CLIENT_HELLO_SUCCESS;
}

/* SHA-256 of SID_CTX and the host name: 32 bytes, OpenSSL's maximum. */
static int
set_sid_ctx(SSL_CTX *ctx, const char *hostname)
{
	unsigned char	 md[32];
	unsigned int	 mdlen = 0;
	EVP_MD_CTX	*m;
	int		 ok;

	if ((m = EVP_MD_CTX_new()) == NULL)
		return -1;
	ok = EVP_DigestInit_ex(m, EVP_sha256(), NULL) &&
	    EVP_DigestUpdate(m, SID_CTX, sizeof(SID_CTX)) &&
	    EVP_DigestUpdate(m, hostname, strlen(hostname)) &&
	    EVP_DigestFinal_ex(m, md, &mdlen) && mdlen == sizeof(md) &&
	    SSL_CTX_set_session_id_context(ctx, md, mdlen);
	EVP_MD_CTX_free(m);
	return ok ? 0 : -1;
}

static int
setup_ctx(SSL_CTX *ctx, const struct cert *c, const char *hostname,
    struct tls_server *srv)
{
	const char	*ciphers;
	int		 i;

	/*
	 * NO_RENEGOTIATION: a client-driven CPU sink with no use here.
	 * CIPHER_SERVER_PREFERENCE: our order, not the client's.
	 */
	SSL_CTX_set_options(ctx, SSL_OP_NO_COMPRESSION |
	    SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE |
	    SSL_OP_PRIORITIZE_CHACHA);
	SSL_CTX_set_mode(ctx, SSL_MODE_RELEASE_BUFFERS);
	SSL_CTX_set_read_ahead(ctx, 0);
	/*
	 * Resumption through stateless tickets only: no server-side cache,
	 * so no lock shared by the worker threads and no memory per
	 * session.  One ticket per handshake is enough for one request per
	 * connection.  Ticket keys are ticket.c's: rotated, and shared by
	 * every context, so a reload does not forget the sessions.
	 */
	SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
	SSL_CTX_set_num_tickets(ctx, 1);
	if (ticket_attach(ctx) == -1)
		return -1;
	/* A request must not arrive as replayable 0-RTT data. */
	SSL_CTX_set_max_early_data(ctx, 0);
	SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, verify_any);
	SSL_CTX_set_max_cert_list(ctx, MAX_CERT_LIST);
	SSL_CTX_set_tlsext_servername_callback(ctx, servername_any);
	SSL_CTX_set_client_hello_cb(ctx, pick_host, srv);

	ciphers = EVP_PKEY_is_a(c->key, "RSA") ?
	    CIPHERS_ECDSA ":" CIPHERS_RSA : CIPHERS_ECDSA;
	if (!SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION) ||
	    !SSL_CTX_set_cipher_list(ctx, ciphers) ||
	    !SSL_CTX_set_ciphersuites(ctx, SUITES_TLS13) ||
	    !SSL_CTX_set1_groups_list(ctx, GROUPS) ||
	    /* Needed once peers are verified and sessions resumed. */
	    set_sid_ctx(ctx, hostname) == -1)
		return -1;
	if (SSL_CTX_use_certificate(ctx, c->x509) != 1)
		return -1;
	for (i = 0; i < sk_X509_num(c->chain); i++)
		if (SSL_CTX_add1_chain_cert(ctx, sk_X509_value(c->chain, i))
		    != 1)
			return -1;
	if (SSL_CTX_use_PrivateKey(ctx, c->key) != 1 ||
	    SSL_CTX_check_private_key(ctx) != 1)
		return -1;
	return 0;
}

static int
days_until(time_t t)
{
	time_t	 d = t - time(NULL);

	/* Floor, so that a certificate expired a second ago says -1. */
	return d >= 0 ? (int)(d / 86400) : -(int)((-d + 86399) / 86400);
}

/* One info line about the certificate, and a warning when it is due. */
static void
describe(const struct tls_vhost *srv, X509 *x, const char *certdir,
    const char *hostname)
{
	char		 cn[256], date[32], host[256], *p;
	struct tm	 tm;
	int		 days, named;

	if (X509_NAME_get_text_by_NID(X509_get_subject_name(x),
	    NID_commonName, cn, sizeof(cn)) < 0)
		snprintf(cn, sizeof(cn), "(none)");
	if (srv->not_after == (time_t)-1 ||
	    gmtime_r(&srv->not_after, &tm) == NULL ||
	    strftime(date, sizeof(date), "%Y-%m-%d", &tm) == 0)
		snprintf(date, sizeof(date), "(unreadable)");
	days = days_until(srv->not_after);
	log_info("%s/cert.pem: certificate CN=%s, SHA-256 fingerprint %s, "
	    "expires %s (%d days)", certdir, cn, srv->fp, date, days);
	if (days < 0)
		log_warnx("%s/cert.pem: CERTIFICATE EXPIRED on %s, %d days "
		    "ago; readers are warned on every visit.  Still serving "
		    "it.  Replace cert.pem and key.pem (removing both makes "
		    "a new pair, which TOFU readers must accept again)",
		    certdir, date, -days);
	else if (days < 30)
		log_warnx("%s/cert.pem: certificate expires in %d days (%s)",
		    certdir, days, date);
	if (X509_cmp_current_time(X509_get0_notBefore(x)) > 0)
		log_warnx("%s/cert.pem: certificate is not valid yet",
		    certdir);

	/* A host name changed in the config does not regenerate the cert. */
	if (hostname == NULL || *hostname == '\0')
		return;
	/* "[::1]" as written in a URL is the address ::1. */
	snprintf(host, sizeof(host), "%s", hostname + (hostname[0] == '['));
	if (hostname[0] == '[' && (p = strchr(host, ']')) != NULL)
		*p = '\0';
	named = X509_check_host(x, host, 0, 0, NULL) == 1 ||
	    X509_check_ip_asc(x, host, 0) == 1;
	ERR_clear_error();
	if (!named)
		log_warnx("%s/cert.pem: certificate does not name %s; "
		    "clients will warn", certdir, hostname);
}

/*
 * Load (or make) certdir's pair for hostname into h, one of srv's hosts
 * (zeroed, and left so on failure).  Any thread, one h each.
 */
static int
make_host(struct tls_server *srv, struct tls_vhost *h, const char *certdir,
    const char *hostname, char *err, size_t errlen)
{
	struct cert		 c;
	char			*q;

	if (cert_load(&c, certdir, hostname, err, errlen) == -1)
		return -1;
	h->name = xstrdup(hostname != NULL ? hostname : "");
	for (q = h->name; *q != '\0'; q++)
		if (*q >= 'A' && *q <= 'Z')
			*q = (char)(*q - 'A' + 'a');
	ERR_clear_error();
	if ((h->ctx = SSL_CTX_new(TLS_server_method())) == NULL ||
	    setup_ctx(h->ctx, &c, h->name, srv) == -1) {
		if (err != NULL && errlen > 0)
			snprintf(err, errlen, "%s/cert.pem: %s", certdir,
			    tlserr_reason(NO_REASON));
		ERR_clear_error();
		SSL_CTX_free(h->ctx);
		free(h->name);
		cert_free(&c);
		memset(h, 0, sizeof(*h));
		return -1;
	}
	h->not_after = cert_not_after(c.x509);
	cert_fingerprint(c.x509, h->fp);
	describe(h, c.x509, certdir, hostname);
	cert_free(&c);			/* the SSL_CTX holds its own refs */
	return 0;
}

/* Load (or make) certdir's pair for hostname as srv's next host. */
static int
add_host(struct tls_server *srv, const char *certdir, const char *hostname,
    char *err, size_t errlen)
{
	srv->hosts = xreallocarray(srv->hosts, srv->nhosts + 1,
	    sizeof(*srv->hosts));
	memset(&srv->hosts[srv->nhosts], 0, sizeof(*srv->hosts));
	if (make_host(srv, &srv->hosts[srv->nhosts], certdir, hostname, err,
	    errlen) == -1)
		return -1;
	srv->nhosts++;
	return 0;
}

/* tls_server_add_many(): what each thread reads. */
struct add_job {
	struct tls_server	*srv;
	const char *const	*dirs;
	const char *const	*names;
	char			**errs;		/* [i]: why i failed, or NULL */
};

static void
add_one(size_t i, void *arg)
{
	struct add_job	*j = arg;
	char		 err[1024];

	err[0] = '\0';
	if (make_host(j->srv, &j->srv->hosts[j->srv->nhosts + i], j->dirs[i],
	    j->names[i], err, sizeof(err)) == -1)
		j->errs[i] = xstrdup(err);
}

struct tls_server *
tls_server_new(const char *certdir, const char *hostname, char *err,
    size_t errlen)
{
	struct tls_server	*srv;

	srv = xcalloc(1, sizeof(*srv));
	if (add_host(srv, certdir, hostname, err, errlen) == -1) {
		free(srv->hosts);	/* grown for it, empty */
		free(srv);
		return NULL;
	}
	return srv;
}

int
tls_server_add(struct tls_server *srv, const char *certdir,
    const char *hostname, char *err, size_t errlen)
{
	return add_host(srv, certdir, hostname, err, errlen);
}

int
tls_server_add_many(struct tls_server *srv, size_t n,
    const char *const *certdirs, const char *const *hostnames,
    unsigned nthreads, char *err, size_t errlen)
{
	struct add_job	 j;
	size_t		 i;
	int		 rv = 0;

	if (n == 0)
		return 0;
	srv->hosts = xreallocarray(srv->hosts, srv->nhosts + n,
	    sizeof(*srv->hosts));
	memset(&srv->hosts[srv->nhosts], 0, n * sizeof(*srv->hosts));
	j.srv = srv;
	j.dirs = certdirs;
	j.names = hostnames;
	j.errs = xcalloc(n, sizeof(*j.errs));
	par_run(n, nthreads, add_one, &j);
	for (i = 0; i < n && rv == 0; i++)
		if (j.errs[i] != NULL) {
			if (err != NULL && errlen > 0)
				snprintf(err, errlen, "%s", j.errs[i]);
			rv = -1;
		}
	for (i = 0; i < n; i++) {
		if (rv == -1) {
			SSL_CTX_free(srv->hosts[srv->nhosts + i].ctx);
			free(srv->hosts[srv->nhosts + i].name);
		}
		free(j.errs[i]);
	}
	free(j.errs);
	if (rv == 0)
		srv->nhosts += n;
	return rv;
}

void
tls_server_free(struct tls_server *srv)
{
	size_t	 i;

	if (srv == NULL)
		return;
	for (i = 0; i < srv->nhosts; i++) {
		SSL_CTX_free(srv->hosts[i].ctx);
		free(srv->hosts[i].name);
	}
	free(srv->hosts);
	for (i = 0; i < srv->nzones; i++)
		X509_STORE_free(srv->zone_cas[i]);
	free(srv->zone_cas);
	free(srv);
}

int
tls_server_configure(struct tls_server *srv, const struct config *cfg,
    char *err, size_t errlen)
{
	X509_STORE	**v;
	size_t		 i;
	int		 min = cfg->tls_protocols == CONFIG_TLS_13 ?
			    TLS1_3_VERSION : TLS1_2_VERSION;

	for (i = 0; i < srv->nhosts; i++)
		if (!SSL_CTX_set_min_proto_version(srv->hosts[i].ctx, min)) {
			snprintf(err, errlen, "tls_protocols: %s",
			    tlserr_reason("refused by OpenSSL"));
			return -1;
		}
	v = xcalloc(cfg->nzones + 1, sizeof(*v));
	for (i = 0; i < cfg->nzones; i++) {
		if (cfg->zones[i].ca == NULL)
			continue;
		ERR_clear_error();
		if ((v[i] = X509_STORE_new()) == NULL ||
		    X509_STORE_load_file(v[i], cfg->zones[i].ca) != 1) {
			snprintf(err, errlen, "cert_zones: %s: no CA "
			    "certificate read (%s)", cfg->zones[i].ca,
			    tlserr_reason("not PEM"));
			for (i = 0; i < cfg->nzones; i++)
				X509_STORE_free(v[i]);
			free(v);
			return -1;
		}
	}
	for (i = 0; i < srv->nzones; i++)
		X509_STORE_free(srv->zone_cas[i]);
	free(srv->zone_cas);
	srv->zone_cas = v;
	srv->nzones = cfg->nzones;
	return 0;
}

int
tls_server_days_left(const struct tls_server *srv)
{
	return days_until(srv->hosts[0].not_after);
}

const char *
tls_server_fingerprint(const struct tls_server *srv)
{
	return srv->hosts[0].fp;
}

/*
 * The wire: a BIO that reads c->in and appends to c->out.  A memory BIO
 * pair did the same with a copy more per byte out, and kept the largest
 * flight it ever held (the server's, ~1.5 KB) allocated for as long as
 * the connection lived, idle or not; c->out instead moves whole to the
 * caller in tlsconn_drain().  An empty c->in is "more to come", never
 * end of file.
 */
static int
wire_write(BIO *b, const char *data, int len)
{
	struct tlsconn	*c = BIO_get_data(b);

	BIO_clear_retry_flags(b);
	if (len <= 0)
		return 0;
	buf_add(&c->out, data, (size_t)len);
	return len;
}

static int
wire_read(BIO *b, char *data, int len)
{
	struct tlsconn	*c = BIO_get_data(b);
	size_t		 n = c->in.len - c->inoff;

	BIO_clear_retry_flags(b);
	if (n == 0) {
		BIO_set_retry_read(b);
		return -1;
	}
	if (len <= 0)
		return 0;
	if (n > (size_t)len)
		n = (size_t)len;
	memcpy(data, c->in.data + c->inoff, n);
	c->inoff += n;
	if (c->inoff == c->in.len) {
		buf_truncate(&c->in, 0);
		c->inoff = 0;
	}
	return (int)n;
}

static long
wire_ctrl(BIO *b, int cmd, long num, void *ptr)
{
	struct tlsconn	*c = BIO_get_data(b);

	switch (cmd) {
	case BIO_CTRL_FLUSH:		/* after every flight: nothing to do */
		return 1;
	case BIO_CTRL_PENDING:
		return (long)(c->in.len - c->inoff);
	case BIO_CTRL_WPENDING:
		return (long)c->out.len;
	default:			/* kTLS and the rest: not here */
		return 0;
	}
}

static BIO_METHOD	*wire_method;
static pthread_once_t	 wire_once = PTHREAD_ONCE_INIT;

/* Made once, never freed: every SSL of every context shares it. */
static void
wire_init(void)
{
	int	 type;

	if ((type = BIO_get_new_index()) == -1 ||
	    (wire_method = BIO_meth_new(type | BIO_TYPE_SOURCE_SINK,
	    "capsuled wire")) == NULL ||
	    !BIO_meth_set_write(wire_method, wire_write) ||
	    !BIO_meth_set_read(wire_method, wire_read) ||
	    !BIO_meth_set_ctrl(wire_method, wire_ctrl))
		oom("wire_init");
}

/* A connection on ctx over its wire, either side; aborts on OOM. */
static struct tlsconn *
wired(SSL_CTX *ctx)
{
	struct tlsconn	*c;
	BIO		*wire;

	if (pthread_once(&wire_once, wire_init) != 0)
		oom("tlsconn_new");
	c = xcalloc(1, sizeof(*c));
	buf_init(&c->in);
	buf_init(&c->out);
	if ((c->ssl = SSL_new(ctx)) == NULL ||
	    (wire = BIO_new(wire_method)) == NULL)
		oom("tlsconn_new");
	BIO_set_data(wire, c);
	BIO_set_init(wire, 1);
	SSL_set_bio(c->ssl, wire, wire);	/* one reference, for both */
	return c;
}

/*
 * A new server-side connection, waiting for the ClientHello.  Never
 * NULL: like xmalloc(), aborts when OpenSSL is out of memory.
 */
struct tlsconn *
tlsconn_new(struct tls_server *srv)
{
	struct tlsconn	*c;

	c = wired(srv->hosts[0].ctx);
	c->srv = srv;
	SSL_set_accept_state(c->ssl);
	return c;
}

struct tlsconn *
tlsconn_client_new(SSL_CTX *ctx, const char *sni, const char *cert,
    const char *key, char *err, size_t errlen)
{
	struct tlsconn	*c;

	c = wired(ctx);
	SSL_set_connect_state(c->ssl);
	ERR_clear_error();
	if (SSL_set_tlsext_host_name(c->ssl, sni) != 1 ||
	    (cert != NULL && (SSL_use_certificate_chain_file(c->ssl,
	    cert) != 1 || SSL_use_PrivateKey_file(c->ssl, key,
	    SSL_FILETYPE_PEM) != 1 || SSL_check_private_key(c->ssl) != 1))) {
		snprintf(err, errlen, "%s", tlserr_reason("bad client "
		    "certificate or key"));
		ERR_clear_error();
		tlsconn_free(c);
		return NULL;
	}
	return c;
}

/*
 * SHA-256 hex (lower case) of the peer's certificate: the server's, on
 * our client side.  "" before the handshake or without one.
 */
void
tlsconn_peer_hash(struct tlsconn *c, char *out)
{
	X509	*peer;

	out[0] = '\0';
	if (SSL_is_init_finished(c->ssl) &&
	    (peer = SSL_get0_peer_certificate(c->ssl)) != NULL)
		cert_hex(peer, out);
}

void
tlsconn_free(struct tlsconn *c)
{
	if (c == NULL)
		return;
	SSL_free(c->ssl);		/* and the wire */
	buf_free(&c->in);
	buf_free(&c->out);
	free(c);
}

int
tlsconn_feed(struct tlsconn *c, const void *data, size_t len)
{
	if (c->inoff > 0) {
		/* What is left of an earlier feed moves to the front. */
		memmove(c->in.data, c->in.data + c->inoff,
		    c->in.len - c->inoff);
		buf_truncate(&c->in, c->in.len - c->inoff);
		c->inoff = 0;
	}
	buf_add(&c->in, data, len);
	return 0;
}

/* Map a failed SSL_read/SSL_do_handshake to TLSCONN_*; n is its result. */
static int
failure(struct tlsconn *c, int n, const char *what)
{
	int	 e = SSL_get_error(c->ssl, n);

	switch (e) {
	case SSL_ERROR_WANT_READ:
	case SSL_ERROR_WANT_WRITE:	/* the wire takes everything */
		return TLSCONN_WANT;
	case SSL_ERROR_ZERO_RETURN:
		return TLSCONN_EOF;
	default:
		log_debug("tls: %s: %s (error %d)", what,
		    tlserr_reason(NO_REASON), e);
		ERR_clear_error();
		return TLSCONN_ERROR;
	}
}

int
tlsconn_read(struct tlsconn *c, void *data, size_t len)
{
	int	 n;

	ERR_clear_error();
	if (len == 0) {
		/* Nothing to read into: just move the handshake along. */
		if (SSL_is_init_finished(c->ssl))
			return TLSCONN_WANT;
		if ((n = SSL_do_handshake(c->ssl)) == 1)
			return TLSCONN_WANT;
		return failure(c, n, "handshake");
	}
	n = SSL_read(c->ssl, data, len > INT_MAX ? INT_MAX : (int)len);
	if (n > 0)
		return n;
	return failure(c, n, "read");
}

int
tlsconn_established(const struct tlsconn *c)
{
	return SSL_is_init_finished(c->ssl);
}

/*
 * The whole buffer becomes records in c->out (the wire never refuses
 * bytes).  len must fit an int.  Fails before the handshake
 * has completed and after tlsconn_shutdown().
 */
int
tlsconn_write(struct tlsconn *c, const void *data, size_t len)
{
	size_t	 written = 0;

	if (c->shut || len > INT_MAX)
		return TLSCONN_ERROR;
	if (!SSL_is_init_finished(c->ssl)) {
		log_debug("tls: write before the handshake completed");
		return TLSCONN_ERROR;
	}
	if (len == 0)
		return 0;
	ERR_clear_error();
	if (SSL_write_ex(c->ssl, data, len, &written) != 1 ||
	    written != len) {
		log_debug("tls: write: %s", tlserr_reason(NO_REASON));
		ERR_clear_error();
		return TLSCONN_ERROR;
	}
	return (int)len;
}

/*
 * One unidirectional close_notify: we do not wait for the peer's.
 * Before the handshake has finished there is nothing to close politely
 * (OpenSSL would only complain "shutdown while in init").
 */
void
tlsconn_shutdown(struct tlsconn *c)
{
	if (c->shut)
		return;
	c->shut = 1;
	if (!SSL_is_init_finished(c->ssl))
		return;
	ERR_clear_error();
	if (SSL_shutdown(c->ssl) < 0) {
		log_debug("tls: shutdown: %s", tlserr_reason(NO_REASON));
		ERR_clear_error();
	}
}

size_t
tlsconn_drain(struct tlsconn *c, struct buf *out)
{
	size_t	 len = c->out.len;

	if (len == 0)
		return 0;
	if (out->len == 0) {
		/* The usual case: hand the records over, no copy. */
		buf_free(out);
		*out = c->out;
		buf_init(&c->out);
	} else {
		buf_add(out, c->out.data, len);
		buf_free(&c->out);
	}
	return len;
}

const char *
tlsconn_sni(const struct tlsconn *c)
{
	return SSL_get_servername(c->ssl, TLSEXT_NAMETYPE_host_name);
}

/*
 * Lower-case hex SHA-256 of the client certificate's DER, owned by c and
 * valid until tlsconn_free().  NULL when none was sent, or before the
 * handshake has completed (nothing is cached then).
 */
const char *
tlsconn_client_hash(struct tlsconn *c)
{
	X509	*peer;

	if (c->hash[0] != '\0')
		return c->hash;
	if (!SSL_is_init_finished(c->ssl) ||
	    (peer = SSL_get0_peer_certificate(c->ssl)) == NULL)
		return NULL;
	cert_hex(peer, c->hash);
	return c->hash[0] != '\0' ? c->hash : NULL;
}

int
tlsconn_client_dates(struct tlsconn *c)
{
	X509	*peer;

	if ((peer = SSL_get0_peer_certificate(c->ssl)) == NULL)
		return 0;
	if (X509_cmp_current_time(X509_get0_notBefore(peer)) >= 0)
		return -1;
	if (X509_cmp_current_time(X509_get0_notAfter(peer)) <= 0)
		return 1;
	return 0;
}

/*
 * OpenSSL builds and checks the chain (signatures, CA flags, dates,
 * purpose): the client's certificate, the ones it sent with it as
 * untrusted intermediates, the zone's CA file as the only anchor.
 */
int
tlsconn_client_by_ca(struct tlsconn *c, size_t zone)
{
	X509_STORE_CTX	*ctx;
	X509		*peer;
	int		 ok = 0;

	if (zone >= c->srv->nzones || c->srv->zone_cas[zone] == NULL ||
	    (peer = SSL_get0_peer_certificate(c->ssl)) == NULL)
		return 0;
	ERR_clear_error();
	if ((ctx = X509_STORE_CTX_new()) == NULL)
		return 0;
	if (X509_STORE_CTX_init(ctx, c->srv->zone_cas[zone], peer,
	    SSL_get_peer_cert_chain(c->ssl)) == 1 &&
	    X509_STORE_CTX_set_purpose(ctx, X509_PURPOSE_SSL_CLIENT) == 1)
		ok = X509_verify_cert(ctx) == 1;
	if (!ok)
		log_debug("client certificate: not by the zone's CA: %s",
		    X509_verify_cert_error_string(
		    X509_STORE_CTX_get_error(ctx)));
	X509_STORE_CTX_free(ctx);
	ERR_clear_error();
	return ok;
}

/* One entry of name (X509_NAME_oneline()'s "/C=../CN=.." otherwise). */
static void
name_text(X509_NAME *name, int nid, char *out, size_t len)
{
	out[0] = '\0';
	if (name == NULL)
		return;
	if (nid == NID_undef)
		X509_NAME_oneline(name, out, (int)len);
	else if (X509_NAME_get_text_by_NID(name, nid, out, (int)len) < 0)
		out[0] = '\0';
}

int
tlsconn_client_names(struct tlsconn *c, struct tlsconn_names *n)
{
	X509	*peer;

	memset(n, 0, sizeof(*n));
	if (!SSL_is_init_finished(c->ssl))
		return 0;
	snprintf(n->version, sizeof(n->version), "%s", SSL_get_version(c->ssl));
	snprintf(n->cipher, sizeof(n->cipher), "%s",
	    SSL_get_cipher_name(c->ssl));
	if ((peer = SSL_get0_peer_certificate(c->ssl)) == NULL)
		return 0;
	name_text(X509_get_subject_name(peer), NID_undef, n->subject,
	    sizeof(n->subject));
	name_text(X509_get_issuer_name(peer), NID_undef, n->issuer,
	    sizeof(n->issuer));
	name_text(X509_get_subject_name(peer), NID_commonName, n->cn,
	    sizeof(n->cn));
	return 1;
}

/*
 * OpenSSL keeps its record buffers only while records are half read or
 * half written (SSL_MODE_RELEASE_BUFFERS); ours go once they are empty.
 */
void
tlsconn_release_buffers(struct tlsconn *c)
{
	(void)SSL_free_buffers(c->ssl);
	if (c->in.len == 0)
		buf_free(&c->in);
	if (c->out.len == 0)
		buf_free(&c->out);
}
