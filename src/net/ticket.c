/*
 * ticket.c -- rotated session ticket keys for every SSL_CTX we build.
 *
 * OpenSSL 3's SSL_CTX_set_tlsext_ticket_key_evp_cb() lets us pick the
 * key for each ticket: on sealing we name the current key, on opening
 * we look the ticket's key name up among the two we keep.  Returning 2
 * for the older key asks OpenSSL to issue a fresh ticket under the
 * current one.  (SSL_CTX_set_tlsext_ticket_keys() would swap the keys
 * inside a context that other threads are using in handshakes, which is
 * not safe; the callback under our own lock is.)
 *
 * A key is a 16-byte name, an AES-256-CBC key and an HMAC-SHA256 key,
 * all from RAND_bytes().  keys[cur] seals, keys[cur ^ 1] (when valid)
 * still opens.  Both are wiped when replaced.  Nothing is ever written
 * to disk: a restart forgets every ticket, which only costs one full
 * handshake per client.
 */
#define OPENSSL_API_COMPAT 30000

#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include "core/log.h"
#include "net/ticket.h"

struct tkey {
	unsigned char	 name[16];
	unsigned char	 aes[32];
	unsigned char	 hmac[32];
	int		 valid;
};

static pthread_rwlock_t	 lock = PTHREAD_RWLOCK_INITIALIZER;
static struct tkey	 keys[2];	/* under lock */
static int		 cur;		/* under lock: the sealing key */
static uint64_t		 born_ms;	/* under lock: keys[cur] made */
static unsigned long	 rotations;	/* under lock: since start */
static unsigned		 period_ms = TICKET_ROTATION_MS; /* under lock */

static uint64_t
mono_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* With the write lock held. */
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
	born_ms = mono_ms();
	rotations++;
}

/* Take the read lock, rotating first when the period is over. */
static void
rdlock_fresh(void)
{
	pthread_rwlock_rdlock(&lock);
	if (keys[cur].valid && mono_ms() - born_ms < period_ms)
		return;
	pthread_rwlock_unlock(&lock);
	pthread_rwlock_wrlock(&lock);
	/* Another thread may have done it meanwhile. */
	if (!keys[cur].valid || mono_ms() - born_ms >= period_ms)
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
	int			 i, rv = 0;

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
	for (i = 0; i < 2; i++) {
		k = &keys[cur ^ i];
		if (!k->valid || CRYPTO_memcmp(name, k->name,
		    sizeof(k->name)) != 0)
			continue;
		if (EVP_DecryptInit_ex(cctx, EVP_aes_256_cbc(), NULL, k->aes,
		    iv) != 1 || set_mac(hctx, k) == -1) {
			rv = -1;
			goto done;
		}
		rv = i == 0 ? 1 : 2;
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
