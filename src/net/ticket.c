/*
 * ticket.c -- session ticket keys for every SSL_CTX we build: our own,
 * rotated, or a fleet's, read from a file.
 *
 * OpenSSL 3's SSL_CTX_set_tlsext_ticket_key_evp_cb() lets us pick the
 * key for each ticket: on sealing we name the current key, on opening
 * we look the ticket's key name up among those we keep.  Returning 2
 * for an older key asks OpenSSL to issue a fresh ticket under the
 * current one.  (SSL_CTX_set_tlsext_ticket_keys() would swap the keys
 * inside a context that other threads are using in handshakes, which is
 * not safe; the callback under our own lock is.)
 *
 * A key is a 16-byte name, an AES-256-CBC key and an HMAC-SHA256 key.
 * Our own keys come from RAND_bytes(): keys[cur] seals, keys[cur ^ 1]
 * (when valid) still opens, both are wiped when replaced, and nothing
 * is written to disk: a restart forgets every ticket, which only costs
 * one full handshake per client.  A key file (ticket.h has its format)
 * replaces them: all its keys open, its last one seals, and they are
 * read again when the file changes; the operator rotates them.
 */
#define OPENSSL_API_COMPAT 30000

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include "core/clock.h"
#include "core/log.h"
#include "core/url.h"
#include "core/util.h"
#include "net/ticket.h"

#define FILE_MAX	(64 * 1024)	/* bytes of a key file we read */
#define HEXLEN		(2 * TICKET_KEY_BYTES)

struct tkey {
	unsigned char	 name[16];
	unsigned char	 aes[32];
	unsigned char	 hmac[32];
	int		 valid;
};

/* What identifies a version of the key file: a change re-reads it. */
struct fileid {
	dev_t		 dev;
	ino_t		 ino;
	off_t		 size;
	struct timespec	 mtime, ctime;
};

static pthread_rwlock_t	 lock = PTHREAD_RWLOCK_INITIALIZER;
static struct tkey	 keys[TICKET_FILE_KEYS]; /* under lock */
static size_t		 nkeys = 2;	/* under lock: slots in use */
static size_t		 cur;		/* under lock: the sealing key */
static int		 fromfile;	/* under lock: keys are the file's */
static uint64_t		 born_ms;	/* under lock: keys[cur] made */
static unsigned long	 rotations;	/* under lock: rotations, loads */
static unsigned		 period_ms = TICKET_ROTATION_MS; /* under lock */

/* The key file: one caller at a time (main loop, loader thread). */
static pthread_mutex_t	 filemu = PTHREAD_MUTEX_INITIALIZER;
static char		*kpath;		/* under filemu; owned or NULL */
static struct fileid	 kseen;		/* under filemu: last read tried */

/* With the write lock held, our own keys in use. */
static void
rotate_locked(void)
{
	struct tkey	*k;

	cur ^= 1;
	k = &keys[cur];
	OPENSSL_cleanse(k, sizeof(*k));
	if (RAND_bytes(k->name, sizeof(k->name)) != 1 ||
	    RAND_bytes(k->aes, sizeof(k->aes)) != 1 ||
	    RAND_bytes(k->hmac, sizeof(k->hmac)) != 1) {
		/* No randomness: no tickets (full handshakes) until then. */
		log_warnx("tls: no random bytes for a ticket key");
		OPENSSL_cleanse(k, sizeof(*k));
		k->valid = 0;
	} else
		k->valid = 1;
	born_ms = clock_now_ms();
	rotations++;
}

/*
 * Take the read lock, rotating our own keys first when the period is
 * over.  A file's keys are never rotated here: the operator does.
 */
static void
rdlock_fresh(void)
{
	pthread_rwlock_rdlock(&lock);
	if (fromfile || (keys[cur].valid &&
	    clock_now_ms() - born_ms < period_ms))
		return;
	pthread_rwlock_unlock(&lock);
	pthread_rwlock_wrlock(&lock);
	/* Another thread may have done it meanwhile. */
	if (!fromfile && (!keys[cur].valid || clock_now_ms() - born_ms >=
	    period_ms))
		rotate_locked();
	pthread_rwlock_unlock(&lock);
	pthread_rwlock_rdlock(&lock);
}

static int
set_mac(EVP_MAC_CTX *hctx, const struct tkey *k)
{
	OSSL_PARAM	 params[3];

	params[0] = OSSL_PARAM_construct_octet_string(OSSL_MAC_PARAM_KEY,
	    (void *)k->hmac, sizeof(k->hmac));
	params[1] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST,
	    (char *)"SHA256", 0);
	params[2] = OSSL_PARAM_construct_end();
	return EVP_MAC_CTX_set_params(hctx, params) == 1 ? 0 : -1;
}

/*
 * OpenSSL's contract: sealing (enc 1) returns 1 having filled name and
 * iv, 0 to issue no ticket, -1 on error; opening (enc 0) returns 0 for
 * "unknown key, full handshake", 1 for "ok", 2 for "ok, renew it".
 */
static int
ticket_cb(SSL *ssl, unsigned char name[16], unsigned char *iv,
    EVP_CIPHER_CTX *cctx, EVP_MAC_CTX *hctx, int enc)
{
	const struct tkey	*k = NULL;
	size_t			 i;
	int			 rv = 0;

	rdlock_fresh();
	if (enc) {
		k = &keys[cur];
		if (!k->valid)
			goto done;
		memcpy(name, k->name, sizeof(k->name));
		if (RAND_bytes(iv, 16) != 1 ||
		    EVP_EncryptInit_ex(cctx, EVP_aes_256_cbc(), NULL, k->aes,
		    iv) != 1 || set_mac(hctx, k) == -1) {
			rv = -1;
			goto done;
		}
		rv = 1;
		goto done;
	}
	for (i = 0; i < nkeys; i++) {
		k = &keys[i];
		if (!k->valid || CRYPTO_memcmp(name, k->name,
		    sizeof(k->name)) != 0)
			continue;
		if (EVP_DecryptInit_ex(cctx, EVP_aes_256_cbc(), NULL, k->aes,
		    iv) != 1 || set_mac(hctx, k) == -1) {
			rv = -1;
			goto done;
		}
		rv = i == cur ? 1 : 2;
		goto done;
	}
done:
	pthread_rwlock_unlock(&lock);
	return rv;
}

void
ticket_set_rotation(unsigned ms)
{
	if (ms == 0)
		return;
	pthread_rwlock_wrlock(&lock);
	period_ms = ms;
	pthread_rwlock_unlock(&lock);
}

int
ticket_attach(SSL_CTX *ctx)
{
	unsigned	 ms;

	pthread_rwlock_rdlock(&lock);
	ms = period_ms;
	pthread_rwlock_unlock(&lock);
	/* The lifetime clients are told: what a ticket can last. */
	SSL_CTX_set_timeout(ctx, (long)((uint64_t)ms * 2 / 1000 + 1));
	return SSL_CTX_set_tlsext_ticket_key_evp_cb(ctx, ticket_cb) == 1 ?
	    0 : -1;
}

void
ticket_rotate(void)
{
	pthread_rwlock_wrlock(&lock);
	if (!fromfile)
		rotate_locked();
	pthread_rwlock_unlock(&lock);
}

unsigned long
ticket_rotations(void)
{
	unsigned long	 n;

	pthread_rwlock_rdlock(&lock);
	n = rotations;
	pthread_rwlock_unlock(&lock);
	return n;
}


int
ticket_parse_keys(const char *data, size_t len,
    unsigned char out[][TICKET_KEY_BYTES], size_t *n, char *err,
    size_t errlen)
{
	const char	*p = data, *end = data + len, *e, *s, *t;
	size_t		 line = 0, k = 0, i, j, lines[TICKET_FILE_KEYS];
	int		 hi, lo;

	*n = 0;
	while (p < end) {
		line++;
		if ((e = memchr(p, '\n', (size_t)(end - p))) == NULL)
			e = end;
		s = p;
		t = e;
		p = e < end ? e + 1 : end;
		while (s < t && (*s == ' ' || *s == '\t'))
			s++;
		while (t > s && (t[-1] == ' ' || t[-1] == '\t' ||
		    t[-1] == '\r'))
			t--;
		if (s == t || *s == '#')
			continue;
		if ((size_t)(t - s) != HEXLEN) {
			snprintf(err, errlen, "line %zu: a key is %d hex "
			    "digits (%d bytes), not %zu characters", line,
			    HEXLEN, TICKET_KEY_BYTES, (size_t)(t - s));
			goto fail;
		}
		if (k == TICKET_FILE_KEYS) {
			snprintf(err, errlen, "line %zu: more than %d keys",
			    line, TICKET_FILE_KEYS);
			goto fail;
		}
		for (i = 0; i < TICKET_KEY_BYTES; i++) {
			if ((hi = url_hexval((unsigned char)s[2 * i])) == -1 ||
			    (lo = url_hexval((unsigned char)s[2 * i + 1])) == -1) {
				snprintf(err, errlen, "line %zu: not a hex "
				    "digit", line);
				goto fail;
			}
			out[k][i] = (unsigned char)(hi << 4 | lo);
		}
		lines[k++] = line;
	}
	if (k == 0) {
		snprintf(err, errlen, "no keys (a key is a line of %d hex "
		    "digits: openssl rand -hex %d)", HEXLEN,
		    TICKET_KEY_BYTES);
		return -1;
	}
	/* A name picks the key that opens a ticket: names must differ. */
	for (i = 0; i < k; i++)
		for (j = i + 1; j < k; j++)
			if (memcmp(out[i], out[j], 16) == 0) {
				snprintf(err, errlen, "line %zu: the same key "
				    "name (first 16 bytes) as line %zu",
				    lines[j], lines[i]);
				goto fail;
			}
	*n = k;
	return 0;
fail:
	OPENSSL_cleanse(out, k * TICKET_KEY_BYTES);
	return -1;
}

/*
 * Read the key file at path: a regular file that neither group nor
 * others may touch, at most FILE_MAX bytes.  Fills out[0..*n) and *id.
 * Returns 0, or -1 with err "PATH: what".
 */
static int
read_keyfile(const char *path, unsigned char out[][TICKET_KEY_BYTES],
    size_t *n, struct fileid *id, char *err, size_t errlen)
{
	struct stat	 st;
	char		*data = NULL, why[200];
	ssize_t		 r;
	size_t		 len = 0;
	int		 fd, rv = -1;

	/*
	 * O_NONBLOCK: a FIFO (or a device) put at the path must not stop
	 * the main loop in open() until someone writes to it; fstat()
	 * below then refuses it.  Links are followed: a key file is often
	 * one (a secret mounted as a link to a managed file), and whoever
	 * can place one at the path could put the keys there anyway.
	 */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY |
	    O_NONBLOCK)) == -1) {
		snprintf(err, errlen, "ticket_keys: %s: %s", path,
		    strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) == -1) {
		snprintf(err, errlen, "ticket_keys: %s: %s", path,
		    strerror(errno));
		goto done;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "ticket_keys: %s: not a regular file "
		    "(a FIFO, device or directory is not read)", path);
		goto done;
	}
	if (st.st_mode & (S_IRWXG | S_IRWXO)) {
		snprintf(err, errlen, "ticket_keys: %s: mode %04o lets group "
		    "or others in, and a ticket key opens every session it "
		    "sealed: chmod 600 it (owned by the user capsuled runs "
		    "as)", path, (unsigned)(st.st_mode & 07777));
		goto done;
	}
	if (st.st_size > FILE_MAX) {
		snprintf(err, errlen, "ticket_keys: %s: larger than %d bytes",
		    path, FILE_MAX);
		goto done;
	}
	data = xmalloc(FILE_MAX + 1);
	while (len <= FILE_MAX) {
		r = read(fd, data + len, FILE_MAX + 1 - len);
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1) {
			snprintf(err, errlen, "ticket_keys: %s: %s", path,
			    strerror(errno));
			goto done;
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	if (len > FILE_MAX) {
		snprintf(err, errlen, "ticket_keys: %s: larger than %d bytes",
		    path, FILE_MAX);
		goto done;
	}
	if (ticket_parse_keys(data, len, out, n, why, sizeof(why)) == -1) {
		snprintf(err, errlen, "ticket_keys: %s: %s", path, why);
		goto done;
	}
	id->dev = st.st_dev;
	id->ino = st.st_ino;
	id->size = st.st_size;
	id->mtime = st.st_mtim;
	id->ctime = st.st_ctim;
	rv = 0;
done:
	if (data != NULL) {
		OPENSSL_cleanse(data, len);
		free(data);
	}
	close(fd);
	return rv;
}

/* Serve k[0..n) from now on: all open, the last seals.  Wipes k. */
static void
install(unsigned char k[][TICKET_KEY_BYTES], size_t n)
{
	size_t	 i;

	pthread_rwlock_wrlock(&lock);
	OPENSSL_cleanse(keys, sizeof(keys));
	for (i = 0; i < n; i++) {
		memcpy(keys[i].name, k[i], 16);
		memcpy(keys[i].aes, k[i] + 16, 32);
		memcpy(keys[i].hmac, k[i] + 48, 32);
		keys[i].valid = 1;
	}
	nkeys = n;
	cur = n - 1;
	fromfile = 1;
	rotations++;
	pthread_rwlock_unlock(&lock);
	OPENSSL_cleanse(k, n * TICKET_KEY_BYTES);
}

static int
same_id(const struct fileid *a, const struct fileid *b)
{
	return a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
	    a->mtime.tv_sec == b->mtime.tv_sec &&
	    a->mtime.tv_nsec == b->mtime.tv_nsec &&
	    a->ctime.tv_sec == b->ctime.tv_sec &&
	    a->ctime.tv_nsec == b->ctime.tv_nsec;
}

int
ticket_use_file(const char *path, char *err, size_t errlen)
{
	unsigned char	 k[TICKET_FILE_KEYS][TICKET_KEY_BYTES];
	struct fileid	 id;
	size_t		 n;
	int		 rv = 0;

	pthread_mutex_lock(&filemu);
	if (path == NULL) {
		free(kpath);
		kpath = NULL;
		pthread_rwlock_wrlock(&lock);
		if (fromfile) {
			/* Our own keys again, made by the next handshake. */
			OPENSSL_cleanse(keys, sizeof(keys));
			fromfile = 0;
			nkeys = 2;
			cur = 0;
		}
		pthread_rwlock_unlock(&lock);
	} else if (read_keyfile(path, k, &n, &id, err, errlen) == 0) {
		install(k, n);
		if (kpath == NULL || strcmp(kpath, path) != 0) {
			free(kpath);
			kpath = xstrdup(path);
		}
		kseen = id;
		log_info("ticket keys: %zu from %s; the last one seals", n,
		    path);
	} else
		rv = -1;
	pthread_mutex_unlock(&filemu);
	return rv;
}

int
ticket_refresh(void)
{
	unsigned char	 k[TICKET_FILE_KEYS][TICKET_KEY_BYTES];
	struct fileid	 id;
	struct stat	 st;
	char		 err[PATH_MAX + 256];
	size_t		 n;
	int		 rv = 0;

	pthread_mutex_lock(&filemu);
	if (kpath == NULL)
		goto done;
	memset(&id, 0, sizeof(id));
	if (stat(kpath, &st) == 0) {
		id.dev = st.st_dev;
		id.ino = st.st_ino;
		id.size = st.st_size;
		id.mtime = st.st_mtim;
		id.ctime = st.st_ctim;
	}
	if (same_id(&id, &kseen))
		goto done;
	/* Tried once per change: a broken file is reported once. */
	kseen = id;
	if (read_keyfile(kpath, k, &n, &id, err, sizeof(err)) == -1) {
		log_warnx("%s; the keys read before stay", err);
		rv = -1;
		goto done;
	}
	kseen = id;
	install(k, n);
	log_info("ticket keys: %s changed: %zu keys, the last one seals",
	    kpath, n);
	rv = 1;
done:
	pthread_mutex_unlock(&filemu);
	return rv;
}

int
ticket_gen_file(const char *path, char *err, size_t errlen)
{
	unsigned char	 old[TICKET_FILE_KEYS][TICKET_KEY_BYTES];
	unsigned char	 key[TICKET_KEY_BYTES];
	struct fileid	 id;
	struct stat	 st;
	FILE		*f = NULL;
	char		*tmp, iobuf[4096];
	size_t		 nold = 0, keep, i, j;
	int		 fd, exists, rv = -1;

	exists = stat(path, &st) == 0;
	if (exists && read_keyfile(path, old, &nold, &id, err, errlen) == -1)
		return -1;
	if (RAND_bytes(key, sizeof(key)) != 1) {
		snprintf(err, errlen, "%s: no random bytes for a key", path);
		goto wipe;
	}
	tmp = xasprintf("%s.XXXXXX", path);
	if ((fd = mkstemp(tmp)) == -1) {	/* mode 0600 */
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		free(tmp);
		goto wipe;
	}
	/* Root rotating the file of the user capsuled runs as. */
	if (exists && geteuid() == 0)
		(void)!fchown(fd, st.st_uid, st.st_gid);
	if ((f = fdopen(fd, "w")) == NULL) {
		close(fd);
		goto fail;
	}
	setvbuf(f, iobuf, _IOFBF, sizeof(iobuf));	/* wiped below */
	fprintf(f, "# capsuled session-ticket keys (ticket_keys in "
	    "capsuled.yaml): secret,\n"
	    "# mode 0600, owned by the user capsuled runs as.  One key a "
	    "line, %d random\n"
	    "# bytes in hex (name 16, AES 32, HMAC 32).  Every key opens "
	    "tickets, the\n"
	    "# last one seals new ones.  capsuled --gen-ticket-keys FILE "
	    "adds a key\n"
	    "# and keeps the %d newest.\n", TICKET_KEY_BYTES,
	    TICKET_GEN_KEEP);
	keep = nold < TICKET_GEN_KEEP - 1 ? nold : TICKET_GEN_KEEP - 1;
	for (i = nold - keep; i <= nold; i++) {
		const unsigned char *k = i < nold ? old[i] : key;

		for (j = 0; j < TICKET_KEY_BYTES; j++)
			fprintf(f, "%02x", k[j]);
		fputc('\n', f);
	}
	if (fflush(f) != 0 || fsync(fileno(f)) == -1) {
		fclose(f);
		goto fail;
	}
	if (fclose(f) != 0 || rename(tmp, path) == -1)
		goto fail;
	free(tmp);
	rv = (int)keep + 1;
	goto wipe;
fail:
	snprintf(err, errlen, "%s: %s", path, strerror(errno));
	unlink(tmp);
	free(tmp);
wipe:
	OPENSSL_cleanse(iobuf, sizeof(iobuf));
	OPENSSL_cleanse(old, sizeof(old));
	OPENSSL_cleanse(key, sizeof(key));
	return rv;
}
