/*
 * test_ticket.c -- TLS settings a reviewer signs off: session tickets
 * sealed with rotated keys (ticket.c) and shared by every context, no
 * renegotiation, no compression, nothing below TLS 1.2; and a fleet's
 * key file (ticket_keys): its format, its permissions, the last key
 * sealing, a change picked up, a session resumed by "another instance"
 * that read the same file.
 *
 * Client and server talk through memory BIOs, pumped by hand: no
 * sockets, no timing apart from the lazy-rotation case.
 */
#define OPENSSL_API_COMPAT 30000

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include "core/buf.h"
#include "harness.h"
#include "core/log.h"
#include "core/util.h"
#include "net/ticket.h"
#include "net/tlsconn.h"

static char		 top[] = "/tmp/capsuled-test-ticket-XXXXXX";
static struct tls_server *srv, *srv2;

struct peer {
	SSL		*ssl;		/* the client; owns in and out */
	BIO		*in, *out;
	struct tlsconn	*t;		/* the server side */
	size_t		 s2c_bytes;	/* server -> client, last pump */
};

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static SSL_CTX *
client_ctx(int version)
{
	SSL_CTX	*ctx = SSL_CTX_new(TLS_client_method());

	SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL);
	if (version != 0) {
		if (version < TLS1_2_VERSION) {
			SSL_CTX_set_security_level(ctx, 0);
			SSL_CTX_set_cipher_list(ctx, "DEFAULT:@SECLEVEL=0");
		}
		SSL_CTX_set_min_proto_version(ctx, version);
		SSL_CTX_set_max_proto_version(ctx, version);
	}
	return ctx;
}

static void
peer_open(struct peer *p, SSL_CTX *ctx, struct tls_server *s,
    SSL_SESSION *sess)
{
	memset(p, 0, sizeof(*p));
	p->ssl = SSL_new(ctx);
	p->in = BIO_new(BIO_s_mem());
	p->out = BIO_new(BIO_s_mem());
	BIO_set_mem_eof_return(p->in, -1);
	SSL_set_bio(p->ssl, p->in, p->out);
	SSL_set_connect_state(p->ssl);
	SSL_set_tlsext_host_name(p->ssl, "localhost");
	if (sess != NULL)
		SSL_set_session(p->ssl, sess);
	p->t = tlsconn_new(s);
}

static void
peer_close(struct peer *p)
{
	SSL_free(p->ssl);
	tlsconn_free(p->t);
}

/* Move bytes both ways once; returns the server's read result. */
static int
pump(struct peer *p, char *plain, size_t plainlen)
{
	struct buf	 b = BUF_INIT;
	char		 tmp[16384], scratch[64];
	int		 n, r;

	if (plain == NULL) {
		plain = scratch;
		plainlen = sizeof(scratch);
	}
	while ((n = BIO_read(p->out, tmp, sizeof(tmp))) > 0)
		tlsconn_feed(p->t, tmp, (size_t)n);
	r = tlsconn_read(p->t, plain, plainlen);
	p->s2c_bytes = tlsconn_drain(p->t, &b);
	if (b.len > 0)
		BIO_write(p->in, b.data, (int)b.len);
	buf_free(&b);
	return r;
}

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
				pump(p, NULL, 0);
				return -1;
			}
		}
		r = pump(p, NULL, 0);
		if (r == TLSCONN_ERROR)
			return -1;
		if (SSL_is_init_finished(p->ssl) && tlsconn_established(p->t))
			return 0;
	}
	return -1;
}

/*
 * A full exchange, so that the client reads the NewSessionTicket (TLS
 * 1.3 sends it after the handshake) and a clean close; returns the
 * session (the caller frees it) or NULL.
 */
static SSL_SESSION *
exchange(struct peer *p)
{
	char	 plain[256], got[256];
	int	 n;

	SSL_write(p->ssl, "gemini://localhost/\r\n", 21);
	n = pump(p, plain, sizeof(plain));
	if (n != 21)
		return NULL;
	tlsconn_write(p->t, "20 text/gemini\r\nhi\n", 19);
	tlsconn_shutdown(p->t);
	pump(p, NULL, 0);
	while (SSL_read(p->ssl, got, sizeof(got)) > 0)
		;
	ERR_clear_error();
	SSL_shutdown(p->ssl);
	pump(p, NULL, 0);
	return SSL_get1_session(p->ssl);
}

/* Connect (resuming sess if given); *reused says whether it did. */
static SSL_SESSION *
visit(SSL_CTX *ctx, struct tls_server *s, SSL_SESSION *sess, int *reused)
{
	struct peer	 p;
	SSL_SESSION	*out = NULL;

	peer_open(&p, ctx, s, sess);
	*reused = -1;
	if (handshake(&p) == 0) {
		*reused = SSL_session_reused(p.ssl);
		out = exchange(&p);
	}
	peer_close(&p);
	return out;
}

static void
test_rotation(int version, const char *what)
{
	SSL_CTX		*ctx = client_ctx(version);
	SSL_SESSION	*s1, *s2, *s3;
	int		 reused;

	s1 = visit(ctx, srv, NULL, &reused);
	INT_EQ(reused, 0, what);
	OK(s1 != NULL && SSL_SESSION_has_ticket(s1), "%s: got a ticket",
	    what);
	OK(s1 != NULL && SSL_SESSION_get_ticket_lifetime_hint(s1) ==
	    2 * 3600 + 1, "%s: lifetime hint is two periods (%lu)", what,
	    s1 ? SSL_SESSION_get_ticket_lifetime_hint(s1) : 0);
	s2 = visit(ctx, srv, s1, &reused);
	INT_EQ(reused, 1, "resumed with the current key");
	SSL_SESSION_free(s2);

	/* Another context (a reload, another worker): same keys. */
	s2 = visit(ctx, srv2, s1, &reused);
	INT_EQ(reused, 1, "resumed on a second SSL_CTX");
	SSL_SESSION_free(s2);

	ticket_rotate();
	s2 = visit(ctx, srv, s1, &reused);
	INT_EQ(reused, 1, "resumed with the key before");
	OK(s2 != NULL && SSL_SESSION_has_ticket(s2), "%s: renewed", what);

	ticket_rotate();
	s3 = visit(ctx, srv, s1, &reused);
	INT_EQ(reused, 0, "two rotations later: full handshake");
	SSL_SESSION_free(s3);
	s3 = visit(ctx, srv, s2, &reused);
	INT_EQ(reused, 1, "the renewed ticket still opens");
	SSL_SESSION_free(s3);
	SSL_SESSION_free(s2);
	SSL_SESSION_free(s1);
	SSL_CTX_free(ctx);
}

/* The period is over: the next handshake rotates by itself. */
static void
test_lazy(void)
{
	SSL_CTX		*ctx = client_ctx(0);
	SSL_SESSION	*s1, *s2;
	unsigned long	 g;
	int		 reused;
	struct timespec	 ts = { 0, 150 * 1000000L };

	ticket_set_rotation(100);
	ticket_rotate();
	g = ticket_rotations();
	s1 = visit(ctx, srv, NULL, &reused);
	INT_EQ(ticket_rotations(), g, "no rotation within the period");
	nanosleep(&ts, NULL);
	s2 = visit(ctx, srv, s1, &reused);
	OK(ticket_rotations() > g, "rotated after the period");
	INT_EQ(reused, 1, "one period later: still resumes");
	SSL_SESSION_free(s2);
	nanosleep(&ts, NULL);
	nanosleep(&ts, NULL);
	s2 = visit(ctx, srv, s1, &reused);
	INT_EQ(reused, 0, "two periods later: refused");
	SSL_SESSION_free(s2);
	SSL_SESSION_free(s1);
	ticket_set_rotation(3600 * 1000);
	SSL_CTX_free(ctx);
}

static void *
handshakes(void *arg)
{
	SSL_CTX		*ctx = arg;
	SSL_SESSION	*s = NULL, *n;
	int		 i, reused, *bad = xcalloc(1, sizeof(int));

	for (i = 0; i < 25; i++) {
		n = visit(ctx, i % 2 ? srv2 : srv, s, &reused);
		if (n == NULL || reused == -1)
			(*bad)++;
		SSL_SESSION_free(s);
		s = n;
	}
	SSL_SESSION_free(s);
	return bad;
}

/* Handshakes on four threads while the keys rotate underneath. */
static void
test_threads(void)
{
	SSL_CTX		*ctx = client_ctx(0);
	pthread_t	 th[4];
	void		*bad;
	int		 i, total = 0;
	struct timespec	 ts = { 0, 2 * 1000000L };

	for (i = 0; i < 4; i++)
		pthread_create(&th[i], NULL, handshakes, ctx);
	for (i = 0; i < 30; i++) {
		ticket_rotate();
		nanosleep(&ts, NULL);
	}
	for (i = 0; i < 4; i++) {
		pthread_join(th[i], &bad);
		total += *(int *)bad;
		free(bad);
	}
	INT_EQ(total, 0, "every handshake completed during rotations");
	SSL_CTX_free(ctx);
}

/* A TLS 1.2 client asking to renegotiate gets nowhere. */
static void
test_no_renegotiation(void)
{
	SSL_CTX		*ctx = client_ctx(TLS1_2_VERSION);
	struct peer	 p;
	char		 buf[64];
	int		 r;

	peer_open(&p, ctx, srv, NULL);
	INT_EQ(handshake(&p), 0, "TLS 1.2 handshake");
	OK(SSL_get_current_compression(p.ssl) == NULL, "no compression");
	OK(SSL_get_secure_renegotiation_support(p.ssl),
	    "secure renegotiation extension (RFC 5746) acknowledged");
	OK(SSL_renegotiate(p.ssl) == 1, "client starts renegotiating");
	ERR_clear_error();
	(void)SSL_do_handshake(p.ssl);
	r = pump(&p, NULL, 0);
	OK(r == TLSCONN_WANT || r == TLSCONN_ERROR,
	    "server read result %d", r);
	/* A warning alert is ~31 bytes; a ServerHello flight is hundreds. */
	OK(p.s2c_bytes < 100, "no handshake flight from the server (%zu B)",
	    p.s2c_bytes);
	ERR_clear_error();
	(void)SSL_read(p.ssl, buf, sizeof(buf));
	ERR_clear_error();
	OK(SSL_renegotiate_pending(p.ssl) ||
	    SSL_get_shutdown(p.ssl) != 0 || SSL_want_read(p.ssl) == 0,
	    "renegotiation did not complete");
	peer_close(&p);
	SSL_CTX_free(ctx);
}

static void
test_versions(void)
{
	static const int	 old[] = { TLS1_VERSION, TLS1_1_VERSION };
	SSL_CTX			*ctx;
	struct peer		 p;
	size_t			 i;

	for (i = 0; i < nitems(old); i++) {
		ctx = client_ctx(old[i]);
		peer_open(&p, ctx, srv, NULL);
		OK(handshake(&p) == -1, "TLS 1.%d refused", (int)i);
		peer_close(&p);
		SSL_CTX_free(ctx);
	}
	ctx = client_ctx(TLS1_2_VERSION);
	peer_open(&p, ctx, srv, NULL);
	INT_EQ(handshake(&p), 0, "TLS 1.2 accepted");
	peer_close(&p);
	SSL_CTX_free(ctx);
}

/* A key line: 160 hex digits, all c. */
static void
keyline(struct buf *b, char c)
{
	size_t	 i;

	for (i = 0; i < 2 * TICKET_KEY_BYTES; i++)
		buf_addc(b, c);
}

static int
parse(struct buf *b, size_t *n, char *err, size_t errlen)
{
	unsigned char	 k[TICKET_FILE_KEYS][TICKET_KEY_BYTES];

	return ticket_parse_keys(b->data, b->len, k, n, err, errlen);
}

static void
test_file_format(void)
{
	struct buf	 b = BUF_INIT;
	unsigned char	 k[TICKET_FILE_KEYS][TICKET_KEY_BYTES];
	char		 err[256];
	size_t		 n = 0, i;

	buf_addstr(&b, "# a comment\n\n  ");
	keyline(&b, 'a');
	buf_addstr(&b, "  \r\n\t\n# another\n");
	keyline(&b, 'B');
	INT_EQ(ticket_parse_keys(b.data, b.len, k, &n, err, sizeof(err)), 0,
	    "comments, blanks, CRLF, upper and lower case");
	INT_EQ(n, 2, "two keys");
	OK(k[0][0] == 0xaa && k[0][79] == 0xaa && k[1][0] == 0xbb,
	    "hex decoded in order");

	buf_truncate(&b, 0);
	buf_addstr(&b, "# nothing\n\n");
	OK(parse(&b, &n, err, sizeof(err)) == -1 &&
	    strstr(err, "no keys") != NULL, "no keys: %s", err);
	buf_truncate(&b, 0);
	keyline(&b, '0');
	buf_truncate(&b, b.len - 1);
	OK(parse(&b, &n, err, sizeof(err)) == -1 &&
	    strstr(err, "line 1") != NULL, "159 digits: %s", err);
	buf_addstr(&b, "00");
	OK(parse(&b, &n, err, sizeof(err)) == -1, "161 digits");
	buf_truncate(&b, 0);
	keyline(&b, '0');
	b.data[100] = 'g';
	OK(parse(&b, &n, err, sizeof(err)) == -1 &&
	    strstr(err, "hex") != NULL, "a g: %s", err);
	b.data[100] = '\0';
	OK(parse(&b, &n, err, sizeof(err)) == -1, "a NUL byte");
	b.data[100] = ' ';
	OK(parse(&b, &n, err, sizeof(err)) == -1, "a space inside");
	buf_truncate(&b, 0);
	keyline(&b, '1');
	buf_addc(&b, '\n');
	keyline(&b, '2');
	/* Same name (first 16 bytes), different keys. */
	memset(b.data + 161, '1', 32);
	OK(parse(&b, &n, err, sizeof(err)) == -1 &&
	    strstr(err, "line 2") != NULL && strstr(err, "name") != NULL,
	    "two keys, one name: %s", err);
	buf_truncate(&b, 0);
	for (i = 0; i <= TICKET_FILE_KEYS; i++) {
		keyline(&b, '0');
		snprintf(b.data + b.len - 4, 5, "%04zx", i);
		buf_addc(&b, '\n');
	}
	OK(parse(&b, &n, err, sizeof(err)) == -1 &&
	    strstr(err, "more than") != NULL, "17 keys: %s", err);
	buf_free(&b);
}

/* The key names of the file at path, last (the sealing one) into last. */
static size_t
names(const char *path, unsigned char last[16])
{
	unsigned char	 k[TICKET_FILE_KEYS][TICKET_KEY_BYTES];
	struct buf	 b = BUF_INIT;
	char		 chunk[4096], err[256];
	size_t		 n = 0;
	FILE		*f;
	size_t		 r;

	if ((f = fopen(path, "r")) == NULL)
		return 0;
	while ((r = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_add(&b, chunk, r);
	fclose(f);
	if (ticket_parse_keys(b.data, b.len, k, &n, err, sizeof(err)) == 0)
		memcpy(last, k[n - 1], 16);
	buf_free(&b);
	return n;
}

/* The key name a session's ticket was sealed with. */
static int
sealed_by(SSL_SESSION *s, const unsigned char name[16])
{
	const unsigned char	*t;
	size_t			 len;

	if (s == NULL)
		return 0;
	SSL_SESSION_get0_ticket(s, &t, &len);
	return len > 16 && memcmp(t, name, 16) == 0;
}

static void
test_file(int version, const char *what)
{
	SSL_CTX		*ctx = client_ctx(version);
	SSL_SESSION	*s1, *s2, *s3;
	unsigned char	 last[16];
	unsigned long	 g;
	char		 err[512], *path, *dir;
	int		 reused;

	path = xasprintf("%s/ticket.keys", top);
	dir = xasprintf("%s/certs", top);
	unlink(path);
	INT_EQ(ticket_gen_file(path, err, sizeof(err)), 1, "a new file");
	INT_EQ(ticket_gen_file(path, err, sizeof(err)), 2, "a key added");
	INT_EQ(names(path, last), 2, "two keys in the file");
	INT_EQ(ticket_use_file(path, err, sizeof(err)), 0, what);
	s1 = visit(ctx, srv, NULL, &reused);
	OK(sealed_by(s1, last), "%s: the last key seals", what);
	s2 = visit(ctx, srv2, s1, &reused);
	INT_EQ(reused, 1, "resumed with the file's key");
	SSL_SESSION_free(s2);
	g = ticket_rotations();
	ticket_rotate();
	INT_EQ(ticket_rotations(), g, "no rotation of a file's keys");
	INT_EQ(ticket_refresh(), 0, "no change, nothing read");

	/* Another instance: its own keys, then the same file. */
	INT_EQ(ticket_use_file(NULL, err, sizeof(err)), 0, "own keys");
	s2 = visit(ctx, srv, s1, &reused);
	INT_EQ(reused, 0, "own keys: the fleet's ticket does not open");
	SSL_SESSION_free(s2);
	INT_EQ(ticket_use_file(path, err, sizeof(err)), 0, "the file again");
	s2 = visit(ctx, srv2, s1, &reused);
	INT_EQ(reused, 1, "a process that read the same file resumes it");
	SSL_SESSION_free(s2);

	/* The operator rotates: the change is picked up. */
	INT_EQ(ticket_gen_file(path, err, sizeof(err)), 3, "a third key");
	INT_EQ(ticket_refresh(), 1, "the change is read");
	INT_EQ(names(path, last), 3, "three keys");
	s2 = visit(ctx, srv, s1, &reused);
	INT_EQ(reused, 1, "an older key still opens");
	OK(sealed_by(s2, last), "%s: renewed under the new last key", what);
	INT_EQ(ticket_gen_file(path, err, sizeof(err)), 3, "rotated");
	INT_EQ(ticket_gen_file(path, err, sizeof(err)), 3, "rotated again");
	INT_EQ(ticket_refresh(), 1, "read again");
	s3 = visit(ctx, srv, s1, &reused);
	INT_EQ(reused, 0, "its key dropped from the file: full handshake");
	SSL_SESSION_free(s3);
	s3 = visit(ctx, srv, s2, &reused);
	INT_EQ(reused, 1, "the renewed ticket still opens");
	SSL_SESSION_free(s3);

	/* Permissions: refused, and the keys in use stay. */
	chmod(path, 0640);
	OK(ticket_use_file(path, err, sizeof(err)) == -1 &&
	    strstr(err, "chmod 600") != NULL, "mode 0640 refused: %s", err);
	INT_EQ(ticket_refresh(), -1, "a refresh refuses it too");
	INT_EQ(ticket_refresh(), 0, "once per change");
	s3 = visit(ctx, srv, s2, &reused);
	INT_EQ(reused, 1, "the keys in use stayed");
	SSL_SESSION_free(s3);
	OK(ticket_gen_file(path, err, sizeof(err)) == -1,
	    "no rotation of a file others can read");
	chmod(path, 0604);
	OK(ticket_use_file(path, err, sizeof(err)) == -1, "mode 0604");
	chmod(path, 0600);
	INT_EQ(ticket_refresh(), 1, "mode 0600 again: read");
	OK(ticket_use_file(dir, err, sizeof(err)) == -1 &&
	    strstr(err, "regular") != NULL, "a directory: %s", err);
	unlink(path);
	INT_EQ(ticket_refresh(), -1, "the file gone: logged");
	s3 = visit(ctx, srv, s2, &reused);
	INT_EQ(reused, 1, "and the keys in use stay");
	SSL_SESSION_free(s3);
	OK(ticket_use_file(path, err, sizeof(err)) == -1 &&
	    strstr(err, strerror(ENOENT)) != NULL, "missing: %s", err);

	INT_EQ(ticket_use_file(NULL, err, sizeof(err)), 0, "own keys again");
	s3 = visit(ctx, srv, s2, &reused);
	INT_EQ(reused, 0, "own keys do not open the file's tickets");
	SSL_SESSION_free(s3);
	s3 = visit(ctx, srv, NULL, &reused);
	OK(s3 != NULL && SSL_SESSION_has_ticket(s3), "own keys seal again");
	SSL_SESSION_free(s3);
	SSL_SESSION_free(s2);
	SSL_SESSION_free(s1);
	SSL_CTX_free(ctx);
	free(path);
	free(dir);
}

/* A FIFO at the path: ticket_use_file() or ticket_refresh() off a thread. */
struct fifo_call {
	const char	*path;		/* NULL: ticket_refresh() */
	int		 rv;
	char		 err[512];
	int		 done;		/* under fifo_mu */
};

static pthread_mutex_t fifo_mu = PTHREAD_MUTEX_INITIALIZER;

static void *
fifo_thread(void *arg)
{
	struct fifo_call	*c = arg;
	int			 rv;

	if (c->path != NULL)
		rv = ticket_use_file(c->path, c->err, sizeof(c->err));
	else
		rv = ticket_refresh();
	pthread_mutex_lock(&fifo_mu);
	c->rv = rv;
	c->done = 1;
	pthread_mutex_unlock(&fifo_mu);
	return NULL;
}

static int
fifo_done(void *arg)
{
	struct fifo_call	*c = arg;
	int			 d;

	pthread_mutex_lock(&fifo_mu);
	d = c->done;
	pthread_mutex_unlock(&fifo_mu);
	return d;
}

/*
 * Whether the call returned by itself within the bound; if not (an
 * open() waiting for a writer), a writer comes and goes so the thread
 * ends and the test fails instead of hanging.
 */
static int
fifo_returns(struct fifo_call *c, const char *fifo)
{
	pthread_t	 t;
	int		 quick, fd;

	c->done = 0;
	c->err[0] = '\0';
	if (pthread_create(&t, NULL, fifo_thread, c) != 0)
		return 0;
	quick = harness_poll((unsigned)(harness_time_bound(2) * 1000),
	    fifo_done, c);
	if (!quick && (fd = open(fifo, O_WRONLY | O_NONBLOCK)) != -1)
		close(fd);
	pthread_join(t, NULL);
	return quick;
}

static void
test_fifo(void)
{
	struct fifo_call	 c;
	char			 err[512], *path;

	path = xasprintf("%s/fifo.keys", top);
	unlink(path);
	if (mkfifo(path, 0600) == -1) {
		harness_skip("mkfifo: %s", strerror(errno));
		free(path);
		return;
	}
	c.path = path;
	OK(fifo_returns(&c, path), "a FIFO at ticket_keys: open() returns");
	OK(c.rv == -1 && strstr(c.err, "not a regular file") != NULL,
	    "a FIFO refused: %s", c.err);

	/* A good file, then a FIFO renamed over it: a refresh returns. */
	unlink(path);
	INT_EQ(ticket_gen_file(path, err, sizeof(err)), 1, "a key file");
	INT_EQ(ticket_use_file(path, err, sizeof(err)), 0, "read");
	unlink(path);
	OK(mkfifo(path, 0600) == 0, "a FIFO in its place");
	c.path = NULL;
	OK(fifo_returns(&c, path), "a refresh does not wait on the FIFO");
	INT_EQ(c.rv, -1, "the FIFO is refused, the keys stay");
	INT_EQ(ticket_use_file(NULL, err, sizeof(err)), 0, "own keys");
	unlink(path);
	free(path);
}

static const struct harness_test tests[] = {
	NAMED("rotation_tls13"),
	NAMED("rotation_tls12"),
	NAMED("lazy"),
	NAMED("threads"),
	NAMED("no_renegotiation"),
	NAMED("versions"),
	NAMED("file_format"),
	NAMED("file_tls13"),
	NAMED("file_tls12"),
	NAMED("fifo"),
};

int
main(int argc, char **argv)
{
	char	 err[512], *dir;

	HARNESS_INIT(argc, argv, tests);

	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	log_open(NULL, LOG_LEVEL_WARN);
	ticket_set_rotation(3600 * 1000);
	dir = xasprintf("%s/certs", top);
	srv = tls_server_new(dir, "localhost", err, sizeof(err));
	srv2 = srv ? tls_server_new(dir, "localhost", err, sizeof(err)) : NULL;
	if (srv2 == NULL) {
		fprintf(stderr, "tls_server_new: %s\n", err);
		return 1;
	}
	RUN("rotation_tls13", test_rotation(0, "TLS 1.3"));
	RUN("rotation_tls12", test_rotation(TLS1_2_VERSION, "TLS 1.2"));
	RUN("lazy", test_lazy());
	RUN("threads", test_threads());
	RUN("no_renegotiation", test_no_renegotiation());
	RUN("versions", test_versions());
	RUN("file_format", test_file_format());
	RUN("file_tls13", test_file(0, "TLS 1.3"));
	RUN("file_tls12", test_file(TLS1_2_VERSION, "TLS 1.2"));
	RUN("fifo", test_fifo());

	tls_server_free(srv);
	tls_server_free(srv2);
	free(dir);
	nftw(top, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	return harness_done();
}
