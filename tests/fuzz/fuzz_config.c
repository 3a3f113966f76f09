/*
 * fuzz_config.c -- libFuzzer target for config_load_buffer().
 *
 * Feeds the input as a configuration file, without touching the file
 * system (the name's directory does not exist, so paths resolve
 * lexically).  Beyond ASan/UBSan it checks the contract: a success
 * leaves every value in range, in every host's view too, and prints as
 * YAML that loads back and prints the same; a failure leaves a zeroed
 * struct and a message that starts with "NAME:".
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/config.h"

#define NAME	"/nonexistent/fuzz/capsuled.yaml"

static int
is_zero(const struct config *c)
{
	static const struct config	 zero;

	return memcmp(c, &zero, sizeof(zero)) == 0;
}

/* Absolute, with no empty, "." or ".." component, no trailing '/'. */
static int
is_normal(const char *p)
{
	const char	*s, *e;

	if (p == NULL || p[0] != '/')
		return 0;
	if (p[1] == '\0')
		return 1;
	for (s = p + 1;; s = e + 1) {
		e = strchrnul(s, '/');
		if (e == s || (e - s == 1 && s[0] == '.') ||
		    (e - s == 2 && s[0] == '.' && s[1] == '.'))
			return 0;
		if (*e == '\0')
			return 1;
	}
}

/* Print, load what was printed, print again: the same, or abort. */
static void
round_trip(const struct config *c)
{
	struct config	 back;
	struct buf	 a = BUF_INIT, b = BUF_INIT;
	char		 err[256];

	config_print(c, &a);
	if (config_load_buffer(&back, NAME, a.data, a.len, err,
	    sizeof(err)) == -1)
		abort();
	config_print(&back, &b);
	if (a.len != b.len || memcmp(a.data, b.data, a.len) != 0)
		abort();
	config_free(&back);
	buf_free(&a);
	buf_free(&b);
}

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct config	 c, v;
	char		 err[256];
	size_t		 i;

	if (config_load_buffer(&c, NAME, (const char *)data, len, err,
	    sizeof(err)) == -1) {
		if (!is_zero(&c) || strncmp(err, NAME ":", strlen(NAME) + 1))
			abort();
		return 0;
	}
	if (c.hostname == NULL || c.hostname[0] == '\0' || c.nbind == 0 ||
	    c.port[SURFACE_GEMINI] < 1 || c.port[SURFACE_GEMINI] > 65535 ||
	    c.port[SURFACE_GOPHER] < 0 || c.port[SURFACE_GOPHER] > 65535 ||
	    c.port[SURFACE_GOPHER] == c.port[SURFACE_GEMINI] ||
	    !is_normal(c.capsule_dir) || !is_normal(c.cert_dir) ||
	    (c.log_file != NULL && !is_normal(c.log_file)) ||
	    (c.access_log_file != NULL && !is_normal(c.access_log_file)) ||
	    c.workers < 0 || c.workers > 256 ||
	    c.request_timeout_ms == 0 || c.idle_timeout_ms == 0 ||
	    c.lang == NULL ||
	    (c.site_title != NULL && c.site_title[0] == '\0') ||
	    c.gopher_width < 20 || c.gopher_width > 200 ||
	    c.latest_posts > 1000 || strcmp(c.path, NAME) != 0)
		abort();
	/* The hardening keys. */
	if (c.handshake_timeout_ms == 0 || c.rate_burst == 0 ||
	    c.max_conns_per_ip > 1000000 ||
	    c.rate_limit_milli > 1000000u * 1000 ||
	    c.max_post_size < 1024 || c.max_post_size > ((size_t)1 << 30) ||
	    c.max_archive_size < ((size_t)1 << 20) ||
	    c.max_archive_size > ((size_t)1 << 40) ||
	    c.follow_symlinks < CONFIG_LINKS_INSIDE ||
	    c.follow_symlinks > CONFIG_LINKS_NONE ||
	    (c.allow_root != 0 && c.allow_root != 1) ||
	    c.ticket_rotation_ms < 60000 ||
	    c.ticket_rotation_ms > 7u * 24 * 3600 * 1000 ||
	    (c.chroot_dir != NULL && !is_normal(c.chroot_dir)) ||
	    (c.user != NULL && (c.user[0] == '\0' || c.user[0] == '-' ||
	    strlen(c.user) > 32 || strspn(c.user, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") != strlen(c.user))))
		abort();
	for (i = 0; i < c.nbind; i++)
		if (c.bind[i] == NULL || c.bind[i][0] == '\0')
			abort();
	/* Every host's view: a whole site, its values in range. */
	for (i = 0; i < config_nhosts(&c); i++) {
		config_host_view(&c, i, &v);
		if (v.hostname == NULL || !is_normal(v.capsule_dir) ||
		    !is_normal(v.cert_dir) || v.lang == NULL ||
		    (v.site_title != NULL && v.site_title[0] == '\0') ||
		    v.index == NULL ||
		    v.gopher_width < 20 || v.gopher_width > 200 ||
		    v.hosts != NULL || (v.mount != NULL &&
		    (v.base == NULL || strcmp(v.base, v.mount) != 0)) ||
		    (v.root != NULL && v.cgi != NULL &&
		    strcasecmp(v.root, v.cgi) == 0))
			abort();
	}
	round_trip(&c);
	config_free(&c);
	return 0;
}
