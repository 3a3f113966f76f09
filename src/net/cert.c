/*
 * cert.c -- the server's key pair and certificate on disk.
 *
 * Loads <dir>/cert.pem and <dir>/key.pem, or generates both when both
 * are missing: an ECDSA P-256 key (cheap handshakes) and a self-signed
 * X.509 v3 certificate valid for ten years, written key first with mode
 * 0600, each through a temporary file and a rename.  A file that exists
 * is never replaced, and a lone key or a lone certificate is an error:
 * readers pin the certificate (TOFU), so regenerating it would look
 * like an attack to every returning reader.
 *
 * Knows OpenSSL's X.509 and PEM code and the file system; nothing of
 * SSL_CTX or connections.  A struct cert owns what it points to.
 */
#define OPENSSL_API_COMPAT 30000	/* nothing deprecated in 3.0 */

#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <openssl/bn.h>
#include <openssl/decoder.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "core/log.h"
#include "core/util.h"
#include "net/cert.h"
#include "net/tlserr.h"

#if OPENSSL_VERSION_NUMBER < 0x30000000L
#error "capsuled needs OpenSSL 3.0 or later"
#endif

#define CN_MAX	64	/* ub-common-name, RFC 5280 */

static void seterr(char *, size_t, const char *, ...)
    __attribute__((format(printf, 3, 4)));

static void
seterr(char *err, size_t errlen, const char *fmt, ...)
{
	va_list	 ap;

	if (err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* Never prompt on the terminal for a pass phrase: fail instead. */
static int
no_passphrase(char *buf, int size, int rwflag, void *u)
{
	return -1;
}

/* 1: path exists (even as a dangling link), 0: missing, -1: err set. */
static int
present(const char *path, char *err, size_t errlen)
{
	struct stat	 st;

	if (lstat(path, &st) == 0)
		return 1;
	if (errno == ENOENT)
		return 0;
	seterr(err, errlen, "%s: %s", path, strerror(errno));
	return -1;
}

/* mkdir -p with mode for each directory created. */
static int
mkdirs(const char *dir, mode_t mode, char *err, size_t errlen)
{
	char	*p, *s;
	int	 rv = 0;

	s = xstrdup(dir);
	for (p = s + 1;; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		if (p[-1] != '/') {
			char	 c = *p;

			*p = '\0';
			if (mkdir(s, mode) == -1 && errno != EEXIST) {
				seterr(err, errlen, "%s: cannot create: %s",
				    s, strerror(errno));
				rv = -1;
				break;
			}
			*p = c;
		}
		if (*p == '\0')
			break;
	}
	free(s);
	return rv;
}

/* Add name to gens as an IP address or a DNS name, unless already there. */
static int
san_add(GENERAL_NAMES *gens, const char *name)
{
	GENERAL_NAME		*g;
	ASN1_OCTET_STRING	*ip;
	ASN1_IA5STRING		*dns;
	char			*lower, *p;
	int			 i;

	if ((g = GENERAL_NAME_new()) == NULL)
		return -1;
	if ((ip = a2i_IPADDRESS(name)) != NULL) {
		GENERAL_NAME_set0_value(g, GEN_IPADD, ip);
	} else {
		/* DNS names compare case-insensitively; store them lower. */
		lower = xstrdup(name);
		for (p = lower; *p; p++)
			*p = (char)tolower((unsigned char)*p);
		if ((dns = ASN1_IA5STRING_new()) == NULL ||
		    !ASN1_STRING_set(dns, lower, -1)) {
			ASN1_IA5STRING_free(dns);
			GENERAL_NAME_free(g);
			free(lower);
			return -1;
		}
		free(lower);
		GENERAL_NAME_set0_value(g, GEN_DNS, dns);
	}
	for (i = 0; i < sk_GENERAL_NAME_num(gens); i++)
		if (GENERAL_NAME_cmp(g, sk_GENERAL_NAME_value(gens, i)) == 0) {
			GENERAL_NAME_free(g);
			return 0;
		}
	if (!sk_GENERAL_NAME_push(gens, g)) {
		GENERAL_NAME_free(g);
		return -1;
	}
	return 0;
}

/* subjectAltName: the host name, then the loopback names for testing. */
static int
add_san(X509 *x, const char *host, int critical)
{
	GENERAL_NAMES	*gens;
	int		 rv = -1;

	if ((gens = GENERAL_NAMES_new()) == NULL)
		return -1;
	if (san_add(gens, host) == 0 &&
	    san_add(gens, "localhost") == 0 &&
	    san_add(gens, "127.0.0.1") == 0 &&
	    san_add(gens, "::1") == 0 &&
	    X509_add1_ext_i2d(x, NID_subject_alt_name, gens, critical,
	    X509V3_ADD_DEFAULT) == 1)
		rv = 0;
	GENERAL_NAMES_free(gens);
	return rv;
}

static int
add_ext(X509 *x, X509V3_CTX *v3, int nid, const char *value)
{
	X509_EXTENSION	*ext;
	int		 ok;

	if ((ext = X509V3_EXT_conf_nid(NULL, v3, nid, value)) == NULL)
		return -1;
	ok = X509_add_ext(x, ext, -1);
	X509_EXTENSION_free(ext);
	return ok ? 0 : -1;
}

/*
 * A self-signed leaf for host: random positive 128-bit serial, valid
 * from a day ago (clients with a slow clock) for CERT_DAYS, CN=host
 * when it fits, SAN host + localhost + 127.0.0.1 + ::1, not a CA,
 * digitalSignature for serverAuth, SHA-256.  Returns NULL on failure
 * (reason on the OpenSSL error queue).
 */
static X509 *
self_signed(EVP_PKEY *key, const char *host)
{
	X509		*x;
	X509_NAME	*name;
	X509V3_CTX	 v3;
	BIGNUM		*bn = NULL;
	unsigned char	 serial[16];
	int		 cn;

	if ((x = X509_new()) == NULL)
		return NULL;
	cn = strlen(host) <= CN_MAX;
	if (RAND_bytes(serial, sizeof(serial)) != 1)
		goto fail;
	/* Positive and exactly 16 octets in DER (RFC 5280 §4.1.2.2). */
	serial[0] = (unsigned char)((serial[0] & 0x7f) | 0x40);
	name = X509_get_subject_name(x);
	if (!X509_set_version(x, X509_VERSION_3) ||
	    (bn = BN_bin2bn(serial, sizeof(serial), NULL)) == NULL ||
	    BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(x)) == NULL ||
	    X509_gmtime_adj(X509_getm_notBefore(x), -24 * 60 * 60) == NULL ||
	    X509_time_adj_ex(X509_getm_notAfter(x), CERT_DAYS, 0, NULL) ==
	    NULL)
		goto fail;
	/* Without a CN the subject is empty and the SAN must be critical. */
	if (cn && !X509_NAME_add_entry_by_NID(name, NID_commonName,
	    MBSTRING_UTF8, (const unsigned char *)host, -1, -1, 0))
		goto fail;
	if (!X509_set_issuer_name(x, name) || !X509_set_pubkey(x, key) ||
	    add_san(x, host, !cn) == -1)
		goto fail;
	X509V3_set_ctx(&v3, x, x, NULL, NULL, 0);
	X509V3_set_ctx_nodb(&v3);
	if (add_ext(x, &v3, NID_basic_constraints, "critical,CA:FALSE") ||
	    add_ext(x, &v3, NID_key_usage, "critical,digitalSignature") ||
	    add_ext(x, &v3, NID_ext_key_usage, "serverAuth") ||
	    add_ext(x, &v3, NID_subject_key_identifier, "hash"))
		goto fail;
	if (X509_sign(x, key, EVP_sha256()) <= 0)
		goto fail;
	BN_free(bn);
	return x;
fail:
	BN_free(bn);
	X509_free(x);
	return NULL;
}

/*
 * Write a key or a certificate to a new temporary file next to path
 * and return its name (owned by the caller), or NULL with err set.
 * mkostemp() opens with O_CREAT | O_EXCL and mode 0600, so the key is
 * never readable by others, not even for an instant.
 */
static char *
write_tmp(const char *path, mode_t mode, EVP_PKEY *key, X509 *x,
    char *err, size_t errlen)
{
	char	*tmp;
	FILE	*f;
	int	 fd, ok;

	tmp = xasprintf("%s.XXXXXX", path);
	if ((fd = mkostemp(tmp, O_CLOEXEC)) == -1) {
		seterr(err, errlen, "%s: %s", tmp, strerror(errno));
		free(tmp);
		return NULL;
	}
	if (fchmod(fd, mode) == -1 || (f = fdopen(fd, "w")) == NULL) {
		seterr(err, errlen, "%s: %s", tmp, strerror(errno));
		close(fd);
		goto fail;
	}
	ERR_clear_error();
	ok = key ? PEM_write_PrivateKey(f, key, NULL, NULL, 0, NULL, NULL) :
	    PEM_write_X509(f, x);
	if (!ok) {
		seterr(err, errlen, "%s: %s", tmp,
		    tlserr_reason("unknown OpenSSL error"));
		fclose(f);
		goto fail;
	}
	if (fflush(f) == EOF || fsync(fileno(f)) == -1) {
		seterr(err, errlen, "%s: %s", tmp, strerror(errno));
		fclose(f);
		goto fail;
	}
	if (fclose(f) == EOF) {
		seterr(err, errlen, "%s: %s", tmp, strerror(errno));
		goto fail;
	}
	return tmp;
fail:
	unlink(tmp);
	free(tmp);
	return NULL;
}

/* rename(), but never over an existing file where the kernel can say. */
static int
rename_new(const char *from, const char *to)
{
#ifdef RENAME_NOREPLACE
	if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
#endif
	return rename(from, to);	/* the caller checked it is missing */
}

static void
sync_dir(const char *dir)
{
	int	 fd;

	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return;
	(void)fsync(fd);
	close(fd);
}

static int
generate(const char *dir, const char *kpath, const char *cpath,
    const char *host, char *err, size_t errlen)
{
	EVP_PKEY	*key = NULL;
	X509		*x = NULL;
	char		*ktmp = NULL, *ctmp = NULL;
	int		 rv = -1;

	if (mkdirs(dir, 0755, err, errlen) == -1)
		return -1;
	ERR_clear_error();
	if ((key = EVP_EC_gen("P-256")) == NULL) {
		seterr(err, errlen, "%s: cannot generate a key: %s", kpath,
		    tlserr_reason("unknown OpenSSL error"));
		goto end;
	}
	if ((x = self_signed(key, host)) == NULL) {
		seterr(err, errlen, "%s: cannot make a certificate: %s", cpath,
		    tlserr_reason("unknown OpenSSL error"));
		goto end;
	}
	if ((ktmp = write_tmp(kpath, 0600, key, NULL, err, errlen)) == NULL ||
	    (ctmp = write_tmp(cpath, 0644, NULL, x, err, errlen)) == NULL)
		goto end;
	if (rename_new(ktmp, kpath) == -1) {
		seterr(err, errlen, "%s: %s", kpath, strerror(errno));
		goto end;
	}
	free(ktmp);
	ktmp = NULL;
	if (rename_new(ctmp, cpath) == -1) {
		seterr(err, errlen, "%s: %s", cpath, strerror(errno));
		unlink(kpath);		/* ours, seconds old, never served */
		goto end;
	}
	sync_dir(dir);
	log_info("%s: generated an ECDSA P-256 key and a self-signed "
	    "certificate for %s, valid %d days", cpath, host, CERT_DAYS);
	rv = 0;
end:
	if (ktmp != NULL)
		unlink(ktmp);
	if (ctmp != NULL)
		unlink(ctmp);
	free(ktmp);
	free(ctmp);
	X509_free(x);
	EVP_PKEY_free(key);
	ERR_clear_error();
	return rv;
}

/* The leaf, then any chain certificates that follow it in the file. */
static int
load_certs(struct cert *c, const char *path, char *err, size_t errlen)
{
	FILE		*f;
	X509		*x;
	unsigned long	 e;
	int		 rv = -1;

	if ((f = fopen(path, "re")) == NULL) {
		seterr(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	ERR_clear_error();
	if ((c->x509 = PEM_read_X509(f, NULL, no_passphrase, NULL)) == NULL) {
		seterr(err, errlen, "%s: no PEM certificate: %s", path,
		    tlserr_reason("unknown OpenSSL error"));
		goto end;
	}
	while ((x = PEM_read_X509(f, NULL, no_passphrase, NULL)) != NULL) {
		if ((c->chain == NULL && (c->chain = sk_X509_new_null()) ==
		    NULL) || !sk_X509_push(c->chain, x)) {
			X509_free(x);
			seterr(err, errlen, "%s: %s", path,
			    tlserr_reason("unknown OpenSSL error"));
			goto end;
		}
	}
	/* The end of the file shows up as "no start line". */
	e = ERR_peek_last_error();
	if (ERR_GET_LIB(e) != ERR_LIB_PEM ||
	    ERR_GET_REASON(e) != PEM_R_NO_START_LINE) {
		seterr(err, errlen, "%s: bad chain certificate: %s", path,
		    tlserr_reason("unknown OpenSSL error"));
		goto end;
	}
	rv = 0;
end:
	fclose(f);
	ERR_clear_error();
	return rv;
}

/*
 * The private key in f.  OpenSSL 3.0 builds its chain of decoders anew
 * for every key it reads, trying every key type it knows: 0.6 ms a key
 * here, most of the start of a thousand hosts.  Told the type, it takes
 * a quarter of that.  The keys made here are EC (P-256): EC first, then
 * any type (an operator's RSA key, an encrypted one refused as before).
 */
static EVP_PKEY *
read_key(FILE *f)
{
	OSSL_DECODER_CTX	*d = NULL;
	EVP_PKEY		*k = NULL;
	BIO			*b;

	if ((b = BIO_new_fp(f, BIO_NOCLOSE)) != NULL &&
	    (d = OSSL_DECODER_CTX_new_for_pkey(&k, "PEM", NULL, "EC",
	    EVP_PKEY_KEYPAIR, NULL, NULL)) != NULL &&
	    (OSSL_DECODER_CTX_set_pem_password_cb(d, no_passphrase, NULL) !=
	    1 || OSSL_DECODER_from_bio(d, b) != 1)) {
		EVP_PKEY_free(k);
		k = NULL;
	}
	OSSL_DECODER_CTX_free(d);
	BIO_free(b);
	if (k != NULL)
		return k;
	ERR_clear_error();
	rewind(f);
	return PEM_read_PrivateKey(f, NULL, no_passphrase, NULL);
}

static int
load_key(struct cert *c, const char *path, char *err, size_t errlen)
{
	struct stat	 st;
	FILE		*f;

	if ((f = fopen(path, "re")) == NULL) {
		seterr(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	ERR_clear_error();
	if ((c->key = read_key(f)) == NULL) {
		seterr(err, errlen, "%s: no usable PEM private key (%s); "
		    "encrypted keys are not supported", path,
		    tlserr_reason("unknown OpenSSL error"));
		fclose(f);
		ERR_clear_error();
		return -1;
	}
	/* fstat, not stat: the file we read, not whatever is there now. */
	if (fstat(fileno(f), &st) == 0 && (st.st_mode & 077) != 0)
		log_warnx("%s: private key is accessible by group or others "
		    "(mode %04o); chmod 600 it", path,
		    (unsigned)(st.st_mode & 07777));
	fclose(f);
	return 0;
}

int
cert_load(struct cert *c, const char *dir, const char *hostname, char *err,
    size_t errlen)
{
	char	*kpath, *cpath, *host;
	size_t	 len;
	int	 have_k, have_c, rv = -1;

	memset(c, 0, sizeof(*c));
	if (dir == NULL || *dir == '\0') {
		seterr(err, errlen, "no certificate directory");
		return -1;
	}
	if (hostname == NULL || *hostname == '\0')
		hostname = "localhost";
	/* "[::1]" as written in a URL is the address ::1. */
	len = strlen(hostname);
	if (len > 2 && hostname[0] == '[' && hostname[len - 1] == ']')
		host = xstrndup(hostname + 1, len - 2);
	else
		host = xstrdup(hostname);
	kpath = xasprintf("%s/key.pem", dir);
	cpath = xasprintf("%s/cert.pem", dir);

	if ((have_k = present(kpath, err, errlen)) == -1 ||
	    (have_c = present(cpath, err, errlen)) == -1)
		goto end;
	if (!have_k && !have_c) {
		if (generate(dir, kpath, cpath, host, err, errlen) == -1)
			goto end;
		c->created = 1;
	} else if (!have_k || !have_c) {
		seterr(err, errlen, "%s: missing, but %s exists; restore it, "
		    "or remove both to generate a new pair",
		    have_k ? cpath : kpath, have_k ? kpath : cpath);
		goto end;
	}
	if (load_certs(c, cpath, err, errlen) == -1 ||
	    load_key(c, kpath, err, errlen) == -1)
		goto end;
	ERR_clear_error();
	if (X509_check_private_key(c->x509, c->key) != 1) {
		seterr(err, errlen, "%s: does not match the certificate in %s",
		    kpath, cpath);
		goto end;
	}
	rv = 0;
end:
	ERR_clear_error();
	if (rv == -1)
		cert_free(c);
	free(host);
	free(kpath);
	free(cpath);
	return rv;
}

void
cert_free(struct cert *c)
{
	X509_free(c->x509);
	sk_X509_pop_free(c->chain, X509_free);
	EVP_PKEY_free(c->key);
	memset(c, 0, sizeof(*c));
}

int
cert_sha256(const X509 *x, unsigned char md[32])
{
	unsigned int	 len = 0;

	if (x == NULL || X509_digest(x, EVP_sha256(), md, &len) != 1 ||
	    len != 32) {
		ERR_clear_error();
		return -1;
	}
	return 0;
}

/*
 * The SHA-256 of x as hex into out, two digits a byte (upper or lower
 * case), sep between bytes unless it is '\0', then a NUL; "" when there
 * is no digest.  out holds 32 * 3 bytes with a separator, 32 * 2 + 1
 * without.  The one hex encoder of cert_fingerprint() and cert_hex().
 */
static void
sha256_hex(const X509 *x, int upper, char sep, char *out)
{
	const char	*digits = upper ? "0123456789ABCDEF" :
			    "0123456789abcdef";
	unsigned char	 md[32];
	size_t		 i;

	*out = '\0';
	if (cert_sha256(x, md) == -1)
		return;
	for (i = 0; i < sizeof(md); i++) {
		if (i > 0 && sep != '\0')
			*out++ = sep;
		*out++ = digits[md[i] >> 4];
		*out++ = digits[md[i] & 0xf];
	}
	*out = '\0';
}

void
cert_fingerprint(const X509 *x, char fp[CERT_FP_LEN])
{
	sha256_hex(x, 1, ':', fp);
}

void
cert_hex(const X509 *x, char hex[CERT_HEX_LEN])
{
	sha256_hex(x, 0, '\0', hex);
}

time_t
cert_not_after(const X509 *x)
{
	struct tm	 tm;

	memset(&tm, 0, sizeof(tm));
	if (ASN1_TIME_to_tm(X509_get0_notAfter(x), &tm) != 1) {
		ERR_clear_error();
		return (time_t)-1;
	}
	return timegm(&tm);
}
