/*
 * test_cert.c -- the certificate directory: first start generates a key
 * pair, later starts load the same one, and broken directories are
 * refused with a message naming the file.  Cross-checked with the
 * openssl command when it is installed.
 */
#define OPENSSL_API_COMPAT 30000

#include <sys/stat.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "files.h"
#include "harness.h"
#include "core/buf.h"
#include "core/log.h"
#include "core/util.h"
#include "net/cert.h"
#include "net/tlsconn.h"

static char	 top[] = "/tmp/capsuled-test-cert-XXXXXX";
static char	*logpath;

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static char *
path_in(const char *dir, const char *name)
{
	return xasprintf("%s/%s", dir, name);
}

static void
spit(const char *path, const char *s)
{
	FILE	*f;

	if ((f = fopen(path, "w")) == NULL)
		return;
	fputs(s, f);
	fclose(f);
}

static void
log_reset(void)
{
	(void)!truncate(logpath, 0);
}

static char *
log_text(void)
{
	return test_read(logpath, NULL);
}

static X509 *
read_cert(const char *dir)
{
	char	*p = path_in(dir, "cert.pem");
	FILE	*f = fopen(p, "r");
	X509	*x = NULL;

	if (f != NULL) {
		x = PEM_read_X509(f, NULL, NULL, NULL);
		fclose(f);
	}
	free(p);
	return x;
}

/* A self-signed certificate valid from now+from to now+to seconds. */
static X509 *
make_cert(EVP_PKEY *key, const char *cn, long from, long to)
{
	X509	*x = X509_new();

	X509_set_version(x, X509_VERSION_3);
	ASN1_INTEGER_set(X509_get_serialNumber(x), 7);
	X509_gmtime_adj(X509_getm_notBefore(x), from);
	X509_gmtime_adj(X509_getm_notAfter(x), to);
	X509_NAME_add_entry_by_txt(X509_get_subject_name(x), "CN",
	    MBSTRING_ASC, (const unsigned char *)cn, -1, -1, 0);
	X509_set_issuer_name(x, X509_get_subject_name(x));
	X509_set_pubkey(x, key);
	X509_sign(x, key, EVP_sha256());
	return x;
}

static void
write_pair(const char *dir, EVP_PKEY *key, X509 *x)
{
	char	*kp = path_in(dir, "key.pem"), *cp = path_in(dir, "cert.pem");
	FILE	*f;

	mkdir(dir, 0755);
	if ((f = fopen(kp, "w")) != NULL) {
		PEM_write_PrivateKey(f, key, NULL, NULL, 0, NULL, NULL);
		fclose(f);
	}
	chmod(kp, 0600);
	if ((f = fopen(cp, "w")) != NULL) {
		PEM_write_X509(f, x);
		fclose(f);
	}
	free(kp);
	free(cp);
}

/* Our own fingerprint, computed independently of cert.c. */
static void
fingerprint(X509 *x, char out[CERT_FP_LEN])
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
		sprintf(out + i * 3, "%02X%s", md[i], i < 31 ? ":" : "");
}

struct sans {
	int	 n, dns_localhost, ip4_loop, ip6_loop, critical;
	char	 dns[8][128];	/* DNS names in order */
	int	 ndns, nip;
};

static void
get_sans(X509 *x, struct sans *s)
{
	static const unsigned char v6[16] = { [15] = 1 };
	GENERAL_NAMES	*gens;
	GENERAL_NAME	*g;
	int		 i, crit = -1;

	memset(s, 0, sizeof(*s));
	gens = X509_get_ext_d2i(x, NID_subject_alt_name, &crit, NULL);
	s->critical = crit;
	for (i = 0; gens != NULL && i < sk_GENERAL_NAME_num(gens); i++) {
		g = sk_GENERAL_NAME_value(gens, i);
		s->n++;
		if (g->type == GEN_DNS) {
			const char *d = (const char *)ASN1_STRING_get0_data(
			    g->d.dNSName);

			if (s->ndns < 8)
				snprintf(s->dns[s->ndns++], 128, "%s", d);
			if (strcmp(d, "localhost") == 0)
				s->dns_localhost++;
		} else if (g->type == GEN_IPADD) {
			const unsigned char *a = ASN1_STRING_get0_data(
			    g->d.iPAddress);
			int len = ASN1_STRING_length(g->d.iPAddress);

			s->nip++;
			if (len == 4 && memcmp(a, "\x7f\0\0\1", 4) == 0)
				s->ip4_loop++;
			if (len == 16 && memcmp(a, v6, 16) == 0)
				s->ip6_loop++;
		}
	}
	GENERAL_NAMES_free(gens);
}

static int
only_pair_in(const char *dir)
{
	DIR		*d;
	struct dirent	*e;
	int		 others = 0;

	if ((d = opendir(dir)) == NULL)
		return 0;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    strcmp(e->d_name, "key.pem") &&
		    strcmp(e->d_name, "cert.pem"))
			others++;
	closedir(d);
	return others == 0;
}

static void
test_generate(void)
{
	char			 err[512], fp[CERT_FP_LEN], cn[128];
	char			*dir, *kp, *cp, *key1, *log;
	struct tls_server	*srv, *srv2;
	struct stat		 st;
	struct sans		 s;
	X509			*x;
	EVP_PKEY		*pk;
	BIGNUM			*serial;
	int			 days = 0, secs = 0;

	dir = xasprintf("%s/new/certs", top);	/* parents missing too */
	kp = path_in(dir, "key.pem");
	cp = path_in(dir, "cert.pem");
	log_reset();
	err[0] = '\0';
	srv = tls_server_new(dir, "localhost", err, sizeof(err));
	OK(srv != NULL, "generate: %s", err);
	if (srv == NULL)
		goto end;

	OK(stat(dir, &st) == 0 && S_ISDIR(st.st_mode), "certdir created");
	OK(stat(kp, &st) == 0 && (st.st_mode & 0777) == 0600,
	    "key.pem mode %o", st.st_mode & 0777);
	OK(stat(cp, &st) == 0 && (st.st_mode & 0777) == 0644,
	    "cert.pem mode %o", st.st_mode & 0777);
	OK(only_pair_in(dir), "no temporary files left in %s", dir);

	x = read_cert(dir);
	OK(x != NULL, "cert.pem parses");
	if (x == NULL)
		goto end;
	INT_EQ(X509_get_version(x), X509_VERSION_3, "X.509 v3");
	INT_EQ(X509_get_signature_nid(x), NID_ecdsa_with_SHA256,
	    "signed ecdsa-with-SHA256");
	X509_NAME_get_text_by_NID(X509_get_subject_name(x), NID_commonName,
	    cn, sizeof(cn));
	STR_EQ(cn, "localhost", "CN");
	OK(X509_NAME_cmp(X509_get_subject_name(x),
	    X509_get_issuer_name(x)) == 0, "self-signed");

	get_sans(x, &s);
	INT_EQ(s.dns_localhost, 1, "DNS:localhost once (deduplicated)");
	INT_EQ(s.ip4_loop, 1, "IP:127.0.0.1");
	INT_EQ(s.ip6_loop, 1, "IP:::1");
	INT_EQ(s.n, 3, "SAN entries for localhost");
	OK(X509_check_host(x, "localhost", 0, 0, NULL) == 1,
	    "cert names localhost");
	OK(X509_check_ip_asc(x, "::1", 0) == 1, "cert names ::1");

	OK(X509_check_ca(x) == 0, "not a CA");
	OK(X509_get_key_usage(x) == KU_DIGITAL_SIGNATURE,
	    "keyUsage digitalSignature only (%x)", X509_get_key_usage(x));
	OK(X509_get_extended_key_usage(x) & XKU_SSL_SERVER, "EKU serverAuth");
	OK(X509_get0_subject_key_id(x) != NULL, "SKI present");

	serial = ASN1_INTEGER_to_BN(X509_get0_serialNumber(x), NULL);
	OK(serial != NULL && BN_num_bytes(serial) == 16 &&
	    !BN_is_negative(serial), "128-bit positive serial");
	BN_free(serial);

	ASN1_TIME_diff(&days, &secs, X509_get0_notBefore(x),
	    X509_get0_notAfter(x));
	OK(days > 5 * 365, "validity %d days > 5 years", days);
	OK(X509_cmp_current_time(X509_get0_notBefore(x)) < 0,
	    "valid already");
	OK(tls_server_days_left(srv) > 5 * 365 &&
	    tls_server_days_left(srv) <= CERT_DAYS,
	    "days left %d", tls_server_days_left(srv));

	pk = X509_get0_pubkey(x);
	OK(pk != NULL && EVP_PKEY_is_a(pk, "EC") &&
	    EVP_PKEY_get_bits(pk) == 256, "ECDSA P-256 key");

	fingerprint(x, fp);
	STR_EQ(tls_server_fingerprint(srv), fp, "fingerprint");
	INT_EQ(strlen(tls_server_fingerprint(srv)), 95, "fingerprint length");
	/* cert.c's one hex encoder, in both its spellings. */
	{
		char	 fp2[CERT_FP_LEN], hx[CERT_HEX_LEN], want[CERT_HEX_LEN];
		size_t	 i, k = 0;

		cert_fingerprint(x, fp2);
		STR_EQ(fp2, fp, "cert_fingerprint: AB:CD:...");
		for (i = 0; fp[i] != '\0'; i++)
			if (fp[i] != ':')
				want[k++] = (char)tolower((unsigned char)fp[i]);
		want[k] = '\0';
		cert_hex(x, hx);
		STR_EQ(hx, want, "cert_hex: lower case, no separators");
		INT_EQ(strlen(hx), 64, "cert_hex length");
		cert_fingerprint(NULL, fp2);
		STR_EQ(fp2, "", "cert_fingerprint of nothing");
		cert_hex(NULL, hx);
		STR_EQ(hx, "", "cert_hex of nothing");
	}

	log = log_text();
	HAS(log, "generated", "log: generation");
	HAS(log, "CN=localhost", "log: CN");
	HAS(log, fp, "log: fingerprint");
	HAS(log, "SHA-256 fingerprint", "log: fingerprint label");
	OK(log != NULL && strstr(log, "warn:") == NULL,
	    "no warning for a fresh pair:\n%s", log ? log : "");
	free(log);
	X509_free(x);

	/* Second start: same certificate, nothing rewritten. */
	key1 = test_read(kp, NULL);
	log_reset();
	srv2 = tls_server_new(dir, "localhost", err, sizeof(err));
	OK(srv2 != NULL, "reload: %s", err);
	if (srv2 != NULL)
		STR_EQ(tls_server_fingerprint(srv2),
		    tls_server_fingerprint(srv), "reload keeps the cert");
	{
		char *key2 = test_read(kp, NULL);

		OK(key1 && key2 && strcmp(key1, key2) == 0,
		    "key.pem unchanged");
		free(key2);
	}
	log = log_text();
	OK(log != NULL && strstr(log, "generated") == NULL,
	    "reload does not generate");
	HAS(log, "SHA-256 fingerprint", "reload logs the fingerprint");
	free(log);
	free(key1);
	tls_server_free(srv2);
end:
	tls_server_free(srv);
	free(dir);
	free(kp);
	free(cp);
}

static void
test_serials_differ(void)
{
	char			 err[256], *d1, *d2;
	struct tls_server	*a, *b;
	X509			*x1 = NULL, *x2 = NULL;

	d1 = xasprintf("%s/s1", top);
	d2 = xasprintf("%s/s2", top);
	a = tls_server_new(d1, "localhost", err, sizeof(err));
	b = tls_server_new(d2, "localhost", err, sizeof(err));
	OK(a && b, "two generations");
	if (a && b) {
		x1 = read_cert(d1);
		x2 = read_cert(d2);
		OK(x1 && x2 && ASN1_INTEGER_cmp(X509_get0_serialNumber(x1),
		    X509_get0_serialNumber(x2)) != 0, "serials differ");
		OK(strcmp(tls_server_fingerprint(a),
		    tls_server_fingerprint(b)) != 0, "keys differ");
	}
	X509_free(x1);
	X509_free(x2);
	tls_server_free(a);
	tls_server_free(b);
	free(d1);
	free(d2);
}

static void
check_host(const char *name, const char *host, const char *cn_want,
    const char *dns_first, int n_want, int ndns_want, int nip_want)
{
	char			 err[256], cn[128], *dir;
	struct tls_server	*srv;
	struct sans		 s;
	X509			*x = NULL;
	int			 has_cn;

	dir = xasprintf("%s/host-%s", top, name);
	srv = tls_server_new(dir, host, err, sizeof(err));
	OK(srv != NULL, "%s: %s", name, err);
	if (srv != NULL && (x = read_cert(dir)) != NULL) {
		has_cn = X509_NAME_get_text_by_NID(X509_get_subject_name(x),
		    NID_commonName, cn, sizeof(cn)) >= 0;
		if (cn_want != NULL)
			STR_EQ(has_cn ? cn : NULL, cn_want, name);
		else
			OK(!has_cn, "%s: no CN", name);
		get_sans(x, &s);
		INT_EQ(s.n, n_want, name);
		INT_EQ(s.ndns, ndns_want, name);
		INT_EQ(s.nip, nip_want, name);
		INT_EQ(s.ip4_loop, 1, name);
		INT_EQ(s.ip6_loop, 1, name);
		/* An empty subject needs a critical SAN (RFC 5280). */
		INT_EQ(s.critical, cn_want == NULL, name);
		STR_EQ(s.dns[0], dns_first, name);
	}
	X509_free(x);
	tls_server_free(srv);
	free(dir);
}

static void
test_hostnames(void)
{
	char	 longname[120];

	memset(longname, 'a', 70);
	strcpy(longname + 70, ".example.org");

	check_host("dns", "example.org", "example.org", "example.org", 4, 2,
	    2);
	/* SAN names are stored lower-case; the CN keeps what was given. */
	check_host("upper", "Example.ORG", "Example.ORG", "example.org", 4, 2,
	    2);
	/* An IP literal goes in as an IP address, not a DNS name. */
	check_host("ip4", "192.0.2.7", "192.0.2.7", "localhost", 4, 1, 3);
	check_host("ip4-loop", "127.0.0.1", "127.0.0.1", "localhost", 3, 1,
	    2);
	check_host("ip6", "2001:db8::1", "2001:db8::1", "localhost", 4, 1, 3);
	check_host("ip6-brackets", "[::1]", "::1", "localhost", 3, 1, 2);
	check_host("null", NULL, "localhost", "localhost", 3, 1, 2);
	/* Longer than a CN may be: empty subject, critical SAN. */
	check_host("long", longname, NULL, longname, 4, 2, 2);
}

static void
test_lone_files(void)
{
	char			 err[512], *dir, *kp, *cp, *key1, *key2;
	struct tls_server	*srv;

	dir = xasprintf("%s/lone", top);
	kp = path_in(dir, "key.pem");
	cp = path_in(dir, "cert.pem");
	srv = tls_server_new(dir, NULL, err, sizeof(err));
	OK(srv != NULL, "lone: setup: %s", err);
	tls_server_free(srv);

	/* A lone key is never overwritten. */
	key1 = test_read(kp, NULL);
	unlink(cp);
	err[0] = '\0';
	srv = tls_server_new(dir, NULL, err, sizeof(err));
	OK(srv == NULL, "lone key.pem refused");
	HAS(err, cp, "error names the missing cert.pem");
	HAS(err, "key.pem", "error names the lone key.pem");
	key2 = test_read(kp, NULL);
	OK(key1 && key2 && strcmp(key1, key2) == 0, "lone key kept as is");
	OK(access(cp, F_OK) == -1, "no cert.pem written next to it");
	tls_server_free(srv);

	/* A lone certificate is refused too. */
	unlink(kp);
	spit(cp, "placeholder");
	err[0] = '\0';
	srv = tls_server_new(dir, NULL, err, sizeof(err));
	OK(srv == NULL, "lone cert.pem refused");
	HAS(err, kp, "error names the missing key.pem");
	OK(access(kp, F_OK) == -1, "no key.pem written");
	tls_server_free(srv);

	/* A dangling symlink counts as present: never replaced. */
	unlink(cp);
	OK(symlink("/nonexistent/capsuled-key.pem", kp) == 0, "symlink");
	symlink("/nonexistent/capsuled-cert.pem", cp);
	err[0] = '\0';
	srv = tls_server_new(dir, NULL, err, sizeof(err));
	OK(srv == NULL, "dangling symlinks refused");
	HAS(err, dir, "error names the file");
	tls_server_free(srv);

	free(key1);
	free(key2);
	free(dir);
	free(kp);
	free(cp);
}

static void
test_corrupt(void)
{
	char			 err[512], *dir, *cp, *pem;
	struct tls_server	*srv;
	static const char	*bad[] = {
		"",
		"this is not a certificate\n",
		"-----BEGIN CERTIFICATE-----\n!!!!\n"
		    "-----END CERTIFICATE-----\n",
		"-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ\n"
		    "-----END CERTIFICATE-----\n",
		"-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ",
	};
	size_t			 i;

	dir = xasprintf("%s/corrupt", top);
	cp = path_in(dir, "cert.pem");
	srv = tls_server_new(dir, NULL, err, sizeof(err));
	OK(srv != NULL, "corrupt: setup: %s", err);
	tls_server_free(srv);
	pem = test_read(cp, NULL);

	for (i = 0; i < nitems(bad); i++) {
		spit(cp, bad[i]);
		err[0] = '\0';
		srv = tls_server_new(dir, NULL, err, sizeof(err));
		OK(srv == NULL, "corrupt cert.pem #%zu refused", i);
		HAS(err, cp, "error names cert.pem");
		tls_server_free(srv);
	}

	/* A chain after the leaf is fine; a broken one is not. */
	if (pem != NULL) {
		char *two = xasprintf("%s%s", pem, pem);

		spit(cp, two);
		srv = tls_server_new(dir, NULL, err, sizeof(err));
		OK(srv != NULL, "leaf + chain loads: %s", err);
		tls_server_free(srv);
		free(two);

		two = xasprintf("%s%s", pem, bad[2]);
		spit(cp, two);
		err[0] = '\0';
		srv = tls_server_new(dir, NULL, err, sizeof(err));
		OK(srv == NULL, "leaf + broken chain refused");
		HAS(err, "chain", "error says chain");
		tls_server_free(srv);
		free(two);

		two = xasprintf("%s\ntrailing words\n", pem);
		spit(cp, two);
		srv = tls_server_new(dir, NULL, err, sizeof(err));
		OK(srv != NULL, "trailing text is ignored: %s", err);
		tls_server_free(srv);
		free(two);
	}
	free(pem);
	free(dir);
	free(cp);
}

static void
test_mismatch(void)
{
	char			 err[512], *a, *b, *ka, *kb, *kbtext;
	struct tls_server	*srv;

	a = xasprintf("%s/mis-a", top);
	b = xasprintf("%s/mis-b", top);
	ka = path_in(a, "key.pem");
	kb = path_in(b, "key.pem");
	tls_server_free(tls_server_new(a, NULL, err, sizeof(err)));
	tls_server_free(tls_server_new(b, NULL, err, sizeof(err)));
	kbtext = test_read(kb, NULL);
	spit(ka, kbtext ? kbtext : "");
	err[0] = '\0';
	srv = tls_server_new(a, NULL, err, sizeof(err));
	OK(srv == NULL, "mismatched key refused");
	HAS(err, "does not match", "error says mismatch");
	HAS(err, ka, "error names key.pem");
	tls_server_free(srv);

	spit(ka, "garbage\n");
	err[0] = '\0';
	srv = tls_server_new(a, NULL, err, sizeof(err));
	OK(srv == NULL, "garbage key refused");
	HAS(err, ka, "error names key.pem");
	tls_server_free(srv);

	free(kbtext);
	free(a);
	free(b);
	free(ka);
	free(kb);
}

static void
test_encrypted_key(void)
{
	char			 err[512], *dir, *kp;
	struct tls_server	*srv;
	EVP_PKEY		*key;
	X509			*x;
	FILE			*f;

	dir = xasprintf("%s/encrypted", top);
	kp = path_in(dir, "key.pem");
	key = EVP_EC_gen("P-256");
	x = make_cert(key, "localhost", -60, 86400 * 400L);
	write_pair(dir, key, x);
	if ((f = fopen(kp, "w")) != NULL) {
		PEM_write_PrivateKey(f, key, EVP_aes_256_cbc(),
		    (const unsigned char *)"secret", 6, NULL, NULL);
		fclose(f);
	}
	err[0] = '\0';
	/* Must fail without prompting on the terminal. */
	srv = tls_server_new(dir, NULL, err, sizeof(err));
	OK(srv == NULL, "encrypted key refused");
	HAS(err, kp, "error names key.pem");
	HAS(err, "encrypted", "error mentions encryption");
	tls_server_free(srv);
	X509_free(x);
	EVP_PKEY_free(key);
	free(dir);
	free(kp);
}

static void
test_warnings(void)
{
	char			 err[512], *dir, *kp, *log;
	struct tls_server	*srv;
	EVP_PKEY		*key;
	X509			*x;
	int			 days;

	/* Group/world-readable key: warn, serve anyway. */
	dir = xasprintf("%s/perm", top);
	kp = path_in(dir, "key.pem");
	tls_server_free(tls_server_new(dir, NULL, err, sizeof(err)));
	chmod(kp, 0644);
	log_reset();
	srv = tls_server_new(dir, NULL, err, sizeof(err));
	OK(srv != NULL, "readable key still loads: %s", err);
	log = log_text();
	HAS(log, "accessible by group or others", "warns about key mode");
	HAS(log, "key.pem", "warning names key.pem");
	free(log);
	tls_server_free(srv);
	free(dir);
	free(kp);

	key = EVP_EC_gen("P-256");

	/* Ten days left: warn. */
	dir = xasprintf("%s/soon", top);
	x = make_cert(key, "localhost", -86400L * 100, 86400L * 10 + 3600);
	write_pair(dir, key, x);
	X509_free(x);
	log_reset();
	srv = tls_server_new(dir, "localhost", err, sizeof(err));
	OK(srv != NULL, "expiring cert loads: %s", err);
	days = srv ? tls_server_days_left(srv) : -1000;
	INT_EQ(days, 10, "days left");
	log = log_text();
	HAS(log, "expires in 10 days", "warns before expiry");
	HAS(log, "(10 days)", "info line has the day count");
	free(log);
	tls_server_free(srv);
	free(dir);

	/* Expired: warn loudly, keep serving. */
	dir = xasprintf("%s/expired", top);
	x = make_cert(key, "localhost", -86400L * 100, -86400L * 3 - 3600);
	write_pair(dir, key, x);
	X509_free(x);
	log_reset();
	srv = tls_server_new(dir, "localhost", err, sizeof(err));
	OK(srv != NULL, "expired cert still loads: %s", err);
	days = srv ? tls_server_days_left(srv) : 0;
	INT_EQ(days, -4, "days left of an expired cert (floor)");
	log = log_text();
	HAS(log, "EXPIRED", "warns loudly");
	free(log);
	tls_server_free(srv);
	free(dir);

	/* A host name the certificate does not cover: warn, no regenerate. */
	dir = xasprintf("%s/rename", top);
	x = make_cert(key, "old.example", -60, 86400L * 400);
	write_pair(dir, key, x);
	log_reset();
	srv = tls_server_new(dir, "new.example", err, sizeof(err));
	OK(srv != NULL, "other host name still loads: %s", err);
	log = log_text();
	HAS(log, "does not name new.example", "warns about the name");
	free(log);
	if (srv != NULL) {
		char fp[CERT_FP_LEN];

		fingerprint(x, fp);
		STR_EQ(tls_server_fingerprint(srv), fp, "cert kept");
	}
	X509_free(x);
	tls_server_free(srv);
	free(dir);
	EVP_PKEY_free(key);
}

/*
 * Many hosts at once (tls_server_add_many(), on threads): every one
 * made, each its own certificate; one that cannot be made fails them
 * all, naming it, and leaves the server as it was.
 */
static void
test_add_many(void)
{
	const char		*dirs[8], *names[8];
	char			 err[512], *d[8], *file, *first;
	char			 fp0[CERT_FP_LEN];
	struct tls_server	*srv;
	struct stat		 st;
	int			 i, made = 0;

	first = xasprintf("%s/many0", top);
	srv = tls_server_new(first, "localhost", err, sizeof(err));
	free(first);
	OK(srv != NULL, "the first host");
	if (srv == NULL)
		return;
	snprintf(fp0, sizeof(fp0), "%s", tls_server_fingerprint(srv));
	for (i = 0; i < 8; i++) {
		d[i] = xasprintf("%s/many%d", top, i + 1);
		dirs[i] = d[i];
		names[i] = i % 2 ? "odd.example" : "even.example";
	}
	INT_EQ(tls_server_add_many(srv, 8, dirs, names, 4, err, sizeof(err)),
	    0, "eight more on four threads");
	for (i = 0; i < 8; i++) {
		char *k = xasprintf("%s/key.pem", d[i]);

		made += stat(k, &st) == 0;
		free(k);
	}
	INT_EQ(made, 8, "each host's pair made in its own directory");
	STR_EQ(tls_server_fingerprint(srv), fp0, "the first host's stays");

	file = xasprintf("%s/many-file", top);
	spit(file, "x");
	dirs[5] = file;
	err[0] = '\0';
	INT_EQ(tls_server_add_many(srv, 8, dirs, names, 4, err, sizeof(err)),
	    -1, "one that cannot be made fails them all");
	HAS(err, file, "naming it");
	INT_EQ(tls_server_add_many(srv, 0, dirs, names, 4, err, sizeof(err)),
	    0, "none: nothing to do");
	tls_server_free(srv);
	for (i = 0; i < 8; i++)
		free(d[i]);
	free(file);
}

static void
test_bad_dirs(void)
{
	char			 err[512], *file, *dir;
	struct tls_server	*srv;

	file = xasprintf("%s/plainfile", top);
	spit(file, "x");
	err[0] = '\0';
	srv = tls_server_new(file, NULL, err, sizeof(err));
	OK(srv == NULL, "certdir that is a file refused");
	HAS(err, file, "error names the path");
	tls_server_free(srv);

	dir = xasprintf("%s/sub", file);
	err[0] = '\0';
	srv = tls_server_new(dir, NULL, err, sizeof(err));
	OK(srv == NULL, "certdir under a file refused");
	HAS(err, file, "error names the path");
	tls_server_free(srv);

	srv = tls_server_new("", NULL, err, sizeof(err));
	OK(srv == NULL, "empty certdir refused");
	tls_server_free(srv);
	/* A NULL err is allowed. */
	OK(tls_server_new(dir, NULL, NULL, 0) == NULL, "NULL err");
	free(file);
	free(dir);
}

/* The openssl command agrees with what we wrote, when it is installed. */
static void
test_openssl_cli(void)
{
	char			 err[512], *dir, *cmd, *out, *outp;
	struct tls_server	*srv;

	if (system("openssl version >/dev/null 2>&1") != 0) {
		fprintf(stderr, "note: no openssl command; CLI checks "
		    "skipped\n");
		return;
	}
	dir = xasprintf("%s/cli", top);
	outp = xasprintf("%s/cli.out", top);
	srv = tls_server_new(dir, "localhost", err, sizeof(err));
	OK(srv != NULL, "cli: %s", err);
	if (srv == NULL)
		goto end;

	cmd = xasprintf("openssl x509 -in %s/cert.pem -noout -fingerprint "
	    "-sha256 -ext subjectAltName,basicConstraints,keyUsage,"
	    "extendedKeyUsage >%s 2>&1", dir, outp);
	INT_EQ(system(cmd), 0, "openssl x509");
	free(cmd);
	out = test_read(outp, NULL);
	HAS(out, tls_server_fingerprint(srv), "openssl: same fingerprint");
	HAS(out, "DNS:localhost", "openssl: SAN DNS");
	HAS(out, "IP Address:127.0.0.1", "openssl: SAN IPv4");
	HAS(out, "IP Address:0:0:0:0:0:0:0:1", "openssl: SAN IPv6");
	HAS(out, "CA:FALSE", "openssl: basicConstraints");
	HAS(out, "Digital Signature", "openssl: keyUsage");
	HAS(out, "TLS Web Server Authentication", "openssl: EKU");
	free(out);

	cmd = xasprintf("openssl pkey -in %s/key.pem -noout -text >%s 2>&1",
	    dir, outp);
	INT_EQ(system(cmd), 0, "openssl pkey");
	free(cmd);
	out = test_read(outp, NULL);
	HAS(out, "prime256v1", "openssl: P-256 key");
	free(out);

	/* The certificate verifies against itself (signature, dates). */
	cmd = xasprintf("openssl verify -x509_strict -partial_chain "
	    "-CAfile %s/cert.pem %s/cert.pem >%s 2>&1", dir, dir, outp);
	INT_EQ(system(cmd), 0, "openssl verify");
	free(cmd);
	out = test_read(outp, NULL);
	HAS(out, ": OK", "openssl verify says OK");
	free(out);
end:
	tls_server_free(srv);
	free(dir);
	free(outp);
}

static const struct harness_test tests[] = {
	TEST(test_generate),
	TEST(test_serials_differ),
	TEST(test_hostnames),
	TEST(test_lone_files),
	TEST(test_corrupt),
	TEST(test_mismatch),
	TEST(test_encrypted_key),
	TEST(test_warnings),
	TEST(test_bad_dirs),
	TEST(test_add_many),
	TEST(test_openssl_cli),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	logpath = xasprintf("%s/log", top);
	if (log_open(logpath, LOG_LEVEL_DEBUG) == -1) {
		perror(logpath);
		return 1;
	}

	harness_run();

	log_close();
	free(logpath);
	nftw(top, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return harness_done();
}
