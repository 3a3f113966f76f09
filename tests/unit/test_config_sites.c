/*
 * test_config_sites.c -- a site is a whole configuration: host items
 * with every site key, the top level as their defaults whatever the
 * order of keys, server-wide keys refused in a host item, the rules
 * (zones, backends) of a host, the allow-list of a user capsule's view,
 * the effective configuration (printed, loaded back, printed again, and
 * a two-host example pinned), and the manual against the key table.
 *
 * Loads YAML from a mkdtemp() directory (removed at the end); reads
 * tests/unit/config_effective.yaml and the manual from $CAPSULED_TOP
 * (else the working directory).
 */
#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/config.h"
#include "core/config_apps.h"
#include "core/config_int.h"
#include "core/config_types.h"
#include "core/robots.h"
#include "core/util.h"
#include "files.h"
#include "harness.h"

#define FP	"ab00000000000000000000000000000000000000000000000000000000000001"

static char	 tmp[PATH_MAX];		/* realpath of the mkdtemp dir */
static char	 conf[PATH_MAX + 32];	/* tmp/etc/c.yaml */

static int
load(struct config *c, const char *yaml, char *err, size_t errlen)
{
	test_write(conf, "%s", yaml);
	return config_load(c, conf, err, errlen);
}

static void
expect_ok(struct config *c, const char *yaml)
{
	char	 err[512] = "";

	INT_EQ(load(c, yaml, err, sizeof(err)), 0, yaml);
	OK(err[0] == '\0', "unexpected error %s", err);
}

/* Loading yaml must fail with "CONF:" followed by want. */
static void
expect_err(const char *yaml, const char *want)
{
	struct config	 c;
	char		 err[512], *full;

	full = xasprintf("%s:%s", conf, want);
	INT_EQ(load(&c, yaml, err, sizeof(err)), -1, yaml);
	STR_EQ(err, full, yaml);
	config_free(&c);
	free(full);
}

/* c as config_print() writes it; the caller frees it. */
static char *
printed(const struct config *c)
{
	struct buf	 b = BUF_INIT;

	config_print(c, &b);
	return b.data != NULL ? buf_release(&b) : xstrdup("");
}

/* s with every tmp replaced by "@TMP@"; the caller frees it. */
static char *
untmp(const char *s)
{
	struct buf	 b = BUF_INIT;
	const char	*p;
	size_t		 n = strlen(tmp);

	while ((p = strstr(s, tmp)) != NULL) {
		buf_add(&b, s, (size_t)(p - s));
		buf_addstr(&b, "@TMP@");
		s = p + n;
	}
	buf_addstr(&b, s);
	return buf_release(&b);
}

/* Is every byte of f's value in c zero? */
static int
zero_at(const struct config *c, const struct cfe_field *f)
{
	const unsigned char	*p = (const unsigned char *)c + f->off;
	size_t			 i;

	for (i = 0; i < f->size; i++)
		if (p[i] != 0)
			return 0;
	return 1;
}

/* A host item with every site key, each unlike its default. */
static const char every_site_key[] =
    "hostname: top.example\n"
    "hosts:\n"
    "  - hostname: B.example\n"
    "    capsule: b\n"
    "    certs: /srv/certs-b\n"
    "    file_cache_max: 1K\n"
    "    follow_symlinks: never\n"
    "    files_hardlinks: true\n"
    "    listings: false\n"
    "    root: site\n"
    "    mount: /gemlog\n"
    "    index: home.gmi\n"
    "    root_listings: false\n"
    "    listing_titles: false\n"
    "    listing_sort: date\n"
    "    listing_reverse: true\n"
    "    mime_types: {zine: application/x-zine}\n"
    "    default_type: text/plain\n"
    "    path_meta: [{path: /fr/, lang: fr}]\n"
    "    lang: de\n"
    "    title: Bee\n"
    "    subtitle: Sub\n"
    "    author: Ann\n"
    "    latest_posts: 3\n"
    "    atom_full_content: true\n"
    "    link_aliases: [https://old.example/posts/]\n"
    "    web_url: https://old.example/\n"
    "    gopher_width: 60\n"
    "    gopher_charset: ascii\n"
    "    announce: [gemini://agg.example/submit]\n"
    "    redirects: {/old: /new}\n"
    "    redirects_first: true\n"
    "    robots: \"User-agent: *\\nDisallow: /\\n\"\n"
    "    cgi: programs\n"
    "    cgi_timeout: 2s\n"
    "    cgi_max_output: 2K\n"
    "    fastcgi: [{prefix: /f, socket: 'unix:/run/f.sock'}]\n"
    "    scgi: [{prefix: /s, socket: '127.0.0.1:4000'}]\n"
    "    proxy: [{prefix: /p, backend: 'example.org:1965'}]\n"
    "    titan_writers: [" FP "]\n"
    "    titan_max_size: 2K\n"
    "    cert_zones: [{path: /club/}]\n"
    "    gemini_public_port: 1966\n"
    "    gopher_public_port: 71\n";

/*
 * every_site_key and the public port of each surface after those two,
 * made from the table (core/surface.h), so that a new surface needs no
 * line here: 2000 + its place; and each surface's port, 3000 + its
 * place.  The caller frees it.
 */
static char *
every_site_key_yaml(void)
{
	struct buf	 b = BUF_INIT;
	size_t		 i;

	buf_addstr(&b, every_site_key);
	for (i = SURFACE_GOPHER + 1; i < SURFACE_N; i++)
		buf_printf(&b, "    %s_public_port: %zu\n", surfaces[i].name,
		    2000 + i);
	/* A port of its own on each surface (check_ports()'s rules). */
	for (i = 0; i < SURFACE_N; i++)
		buf_printf(&b, "    %s_port: %zu\n", surfaces[i].name,
		    3000 + i);
	buf_addc(&b, '\0');
	return buf_release(&b);
}

static void
test_every_site_key(void)
{
	struct config		 c, v, top;
	const struct cfe_field	*keys;
	const struct config_app	*a;
	const char		*lang, *charset;
	char			*want, *yaml;
	size_t			 n, i;

	yaml = every_site_key_yaml();
	expect_ok(&c, yaml);
	free(yaml);
	if (c.nhosts != 1) {
		OK(0, "one host item");
		config_free(&c);
		return;
	}
	keys = config_keys(&n);
	for (i = 0; i < n; i++)
		if (keys[i].flags & CONFIG_SITE)
			OK(CONFIG_SET(c.hosts[0].set, i), "the item sets the "
			    "site key %s (add it above)", keys[i].key);
	config_host_view(&c, 1, &v);
	STR_EQ(v.hostname, "b.example", "hostname, lower case");
	want = xasprintf("%s/etc/b", tmp);
	STR_EQ(v.capsule_dir, want, "capsule, from the file's directory");
	free(want);
	STR_EQ(v.cert_dir, "/srv/certs-b", "certs");
	INT_EQ(v.file_cache_max, 1024, "file_cache_max");
	INT_EQ(v.follow_symlinks, CONFIG_LINKS_NONE, "follow_symlinks");
	INT_EQ(v.files_hardlinks, 1, "files_hardlinks");
	INT_EQ(v.listings, 0, "listings");
	STR_EQ(v.root, "site", "root");
	STR_EQ(v.mount, "/gemlog", "mount");
	STR_EQ(v.base, "/gemlog", "a view's base is its mount");
	STR_EQ(v.index, "home.gmi", "index");
	INT_EQ(v.root_listings, 0, "root_listings");
	INT_EQ(v.listing_titles, 0, "listing_titles");
	INT_EQ(v.listing_sort, CONFIG_SORT_DATE, "listing_sort");
	INT_EQ(v.listing_reverse, 1, "listing_reverse");
	STR_EQ(config_file_type(v.types, "a.zine", NULL), "application/x-zine",
	    "mime_types");
	STR_EQ(config_file_type(v.types, "a.unknown", NULL), "text/plain",
	    "default_type");
	config_path_meta(v.types, "/fr/x", &lang, &charset);
	STR_EQ(lang, "fr", "path_meta");
	STR_EQ(v.lang, "de", "lang");
	STR_EQ(v.site_title, "Bee", "title");
	STR_EQ(v.site_subtitle, "Sub", "subtitle");
	STR_EQ(v.author, "Ann", "author");
	INT_EQ(v.latest_posts, 3, "latest_posts");
	INT_EQ(v.atom_full_content, 1, "atom_full_content");
	OK(v.nlink_aliases == 1 && strcmp(v.link_aliases[0],
	    "https://old.example/posts/") == 0, "link_aliases");
	STR_EQ(v.web_url, "https://old.example", "web_url");
	INT_EQ(v.gopher_width, 60, "gopher_width");
	INT_EQ(v.gopher_charset, CONFIG_CHARSET_ASCII, "gopher_charset");
	OK(v.nannounce == 1 && strcmp(v.announce[0],
	    "gemini://agg.example/submit") == 0, "announce");
	STR_EQ(config_redirect(&v, "/old", NULL), "/new", "redirects");
	INT_EQ(v.redirects_first, 1, "redirects_first");
	OK(v.robots != NULL && strcmp(v.robots->text,
	    "User-agent: *\nDisallow: /\n") == 0, "robots");
	STR_EQ(v.cgi, "programs", "cgi");
	INT_EQ(v.cgi_timeout_ms, 2000, "cgi_timeout");
	INT_EQ(v.cgi_max_output, 2048, "cgi_max_output");
	OK(v.ntitan_writers == 1 && strcmp(v.titan_writers[0], FP) == 0,
	    "titan_writers");
	INT_EQ(v.titan_max_size, 2048, "titan_max_size");
	INT_EQ(config_public_port(&v, SURFACE_GEMINI), 1966,
	    "gemini_public_port");
	INT_EQ(config_public_port(&v, SURFACE_GOPHER), 71,
	    "gopher_public_port");
	for (i = SURFACE_GOPHER + 1; i < SURFACE_N; i++)
		INT_EQ(config_public_port(&v, (enum surface)i), 2000 + i,
		    surfaces[i].name);
	for (i = 0; i < SURFACE_N; i++)
		OK(v.port[i] == (int)(3000 + i), "%s_port", surfaces[i].name);
	/* The rules of the item are the host's, in the top level's lists. */
	a = config_app_find(v.apps, v.napps, "b.example", "/f/x");
	OK(a != NULL && a->kind == CONFIG_APP_FASTCGI && a->host != NULL &&
	    strcmp(a->host, "b.example") == 0, "fastcgi: the host's");
	a = config_app_find(v.apps, v.napps, "b.example", "/s");
	OK(a != NULL && a->kind == CONFIG_APP_SCGI, "scgi");
	a = config_app_find(v.apps, v.napps, "b.example", "/p/q");
	OK(a != NULL && a->kind == CONFIG_APP_PROXY, "proxy");
	OK(config_app_find(c.apps, c.napps, "top.example", "/f/x") == NULL,
	    "not the top-level host's");
	OK(c.nzones == 1 && strcmp(c.zones[0].path, "/club") == 0 &&
	    c.zones[0].host != NULL && strcmp(c.zones[0].host,
	    "b.example") == 0, "cert_zones: the host's");

	/* The top level kept its defaults: nothing leaked upwards. */
	config_host_view(&c, 0, &v);
	config_defaults(&top, tmp);
	STR_EQ(v.site_title, top.site_title, "top: title");
	STR_EQ(v.root, NULL, "top: no root");
	STR_EQ(v.mount, NULL, "top: no mount");
	STR_EQ(v.base, NULL, "top: no base");
	STR_EQ(v.cgi, NULL, "top: no cgi");
	STR_EQ(v.index, "index.gmi", "top: index");
	INT_EQ(v.nredirects, 0, "top: no redirects");
	INT_EQ(v.ntitan_writers, 0, "top: no writers");
	OK(v.types == NULL, "top: no types");
	INT_EQ(config_public_port(&v, SURFACE_GEMINI), 1965,
	    "top: its own port");
	INT_EQ(v.follow_symlinks, top.follow_symlinks, "top: links");
	config_free(&top);
	config_free(&c);
}

/* The top level is every host's default, wherever it is in the file. */
static void
test_order(void)
{
	static const char after[] =
	    "hosts:\n"
	    "  - {hostname: b.example, title: Bee, mime_types: {x: a/b}}\n"
	    "  - {hostname: c.example, capsule: c}\n"
	    "title: Top\nlang: fr\nindex: start.gmi\nroot: site\n"
	    "default_type: text/plain\ncapsule: top\n"
	    "redirects: {/a: /b}\n";
	static const char before[] =
	    "title: Top\nlang: fr\nindex: start.gmi\nroot: site\n"
	    "default_type: text/plain\ncapsule: top\n"
	    "redirects: {/a: /b}\n"
	    "hosts:\n"
	    "  - {mime_types: {x: a/b}, title: Bee, hostname: b.example}\n"
	    "  - {capsule: c, hostname: c.example}\n";
	struct config	 a, b, v;
	char		*pa, *pb, *want;

	expect_ok(&a, after);
	expect_ok(&b, before);
	pa = printed(&a);
	pb = printed(&b);
	STR_EQ(pa, pb, "the same configuration, whatever the order");
	free(pa);
	free(pb);
	config_host_view(&a, 1, &v);
	STR_EQ(v.site_title, "Bee", "b: its own title");
	STR_EQ(v.lang, "fr", "b: the top's lang, given after hosts");
	STR_EQ(v.index, "start.gmi", "b: the top's index");
	STR_EQ(v.root, "site", "b: the top's root");
	STR_EQ(config_file_type(v.types, "f.x", NULL), "a/b",
	    "b: its own mime_types");
	STR_EQ(config_file_type(v.types, "f.unknown", NULL), "text/plain",
	    "b: the top's default_type, beside its own mime_types");
	STR_EQ(config_redirect(&v, "/a", NULL), "/b", "b: the top's "
	    "redirects, shared");
	OK(v.redirects == a.redirects, "shared, not copied");
	want = xasprintf("%s/etc/top", tmp);
	STR_EQ(v.capsule_dir, want, "b: the top's capsule");
	free(want);
	config_host_view(&a, 2, &v);
	STR_EQ(v.site_title, "Top", "c: the top's title");
	OK(v.types == a.types, "c: the top's types, shared");
	config_free(&a);
	config_free(&b);
}

/* A server-wide key in a host item is refused, and says so. */
static void
test_server_keys(void)
{
	const struct cfe_field	*keys;
	char			*yaml, *want;
	size_t			 n, i, nserver = 0;

	keys = config_keys(&n);
	for (i = 0; i < n; i++) {
		if (keys[i].flags & CONFIG_SITE)
			continue;
		nserver++;
		yaml = xasprintf("hosts:\n  - hostname: b.example\n"
		    "    %s: x\n", keys[i].key);
		want = xasprintf("3:5: hosts: '%s' is server-wide: set it at "
		    "the top level", keys[i].key);
		expect_err(yaml, want);
		free(yaml);
		free(want);
	}
	OK(nserver >= 30, "%zu server-wide keys", nserver);
	/* The messages of a host item's values name the keys they are in. */
	expect_err("hosts:\n  - {hostname: b, index: ''}\n",
	    "2:26: hosts: index: a file name is needed");
	expect_err("hosts:\n  - hostname: b\n    fastcgi: [{prefix: /a, "
	    "colour: red}]\n", "3:28: hosts: fastcgi: unknown key 'colour'");
}

/*
 * A host may listen on a port of its own.  A port is one surface's; on
 * a surface whose requests name no host (Gopher), also one host's.
 */
static void
test_host_ports(void)
{
	struct config	 c, v;

	expect_ok(&c, "gopher_port: 70\n"
	    "hosts:\n"
	    "  - {hostname: b, gopher_port: 7071, gemini_port: 1966}\n"
	    "  - {hostname: c, gemini_port: 1966}\n"
	    "  - {hostname: d}\n");
	config_host_view(&c, 1, &v);
	INT_EQ(v.port[SURFACE_GOPHER], 7071, "b: its own Gopher port");
	INT_EQ(config_public_port(&v, SURFACE_GOPHER), 7071,
	    "b: its links name its own port");
	config_host_view(&c, 2, &v);
	INT_EQ(v.port[SURFACE_GEMINI], 1966, "c: shares b's Gemini port");
	INT_EQ(v.port[SURFACE_GOPHER], 70, "c: the top level's Gopher port");
	config_host_view(&c, 3, &v);
	INT_EQ(v.port[SURFACE_GEMINI], 1965, "d: the top level's");
	config_free(&c);
	expect_err("gopher_port: 70\nhosts:\n  - {hostname: b, gopher_port: "
	    "70}\n", "3:32: gopher_port: port 70 is localhost's already; a "
	    "Gopher request names no host, so each host needs a port of its "
	    "own");
	expect_err("hosts:\n  - {hostname: b, finger_port: 7079}\n"
	    "  - {hostname: c, finger_port: 7079}\n", "3:32: finger_port: "
	    "port 7079 is b's already; a Finger request names no host, so "
	    "each host needs a port of its own");
	expect_err("gopher_port: 70\nhosts:\n  - {hostname: b, gemini_port: "
	    "70}\n", "3:32: gemini_port: port 70 is used by both Gemini and "
	    "Gopher");
	expect_err("hosts:\n  - {hostname: b, nex_port: 1900}\n"
	    "  - {hostname: c, spartan_port: 1900}\n", "3:33: spartan_port: "
	    "port 1900 is used by both Spartan and Nex");
}

/* The rules of a host item are the host's; a host: in them is refused. */
static void
test_host_rules(void)
{
	struct config	 c;

	expect_err("hosts:\n  - hostname: b\n    cert_zones:\n"
	    "      - {path: /a, host: c}\n",
	    "4:26: hosts: cert_zones: host: a host item's zones are that "
	    "host's: leave host out");
	expect_err("hosts:\n  - hostname: b\n    fastcgi:\n"
	    "      - {prefix: /a, socket: 'unix:/s', host: c}\n",
	    "4:47: hosts: fastcgi: host: a host item's entries are that "
	    "host's: leave host out");
	expect_err("fastcgi: [{prefix: /a, socket: 'unix:/s', host: b}]\n"
	    "hosts:\n  - hostname: b\n    scgi: [{prefix: /a/, socket: "
	    "'unix:/t'}]\n", "3:15: hosts: b: prefix /a is routed twice");
	/* The top level's rules for every host stay every host's. */
	expect_ok(&c, "fastcgi: [{prefix: /a, socket: 'unix:/s'}]\n"
	    "cert_zones: [{path: /z}]\n"
	    "hosts:\n  - hostname: b\n    fastcgi: [{prefix: /a/b, socket: "
	    "'unix:/t'}]\n    cert_zones: [{path: /y}]\n");
	INT_EQ(c.napps, 2, "two backends in one list");
	OK(config_app_find(c.apps, c.napps, "b", "/a/x") != NULL &&
	    config_app_find(c.apps, c.napps, "b", "/a/x")->host == NULL,
	    "b: the top's /a");
	OK(config_app_find(c.apps, c.napps, "b", "/a/b/x") != NULL &&
	    config_app_find(c.apps, c.napps, "b", "/a/b/x")->host != NULL,
	    "b: its own /a/b");
	OK(config_app_find(c.apps, c.napps, "localhost", "/a/b/x") != NULL &&
	    config_app_find(c.apps, c.napps, "localhost", "/a/b/x")->host ==
	    NULL, "localhost: the top's /a only");
	INT_EQ(c.nzones, 2, "two zones in one list");
	config_free(&c);
}

/*
 * A user capsule's view is made from the keys the table marks
 * CONFIG_USER; any other key is not inherited, whatever its host says.
 */
static void
test_user_view(void)
{
	static const char yaml[] =
	    "cgi: cgi-bin\nfollow_symlinks: true\nfiles_hardlinks: true\n"
	    "redirects: {/a: /b}\nlink_aliases: [https://o.example/p/]\n"
	    "web_url: https://o.example\nroot: site\nmount: /gemlog\n"
	    "titan_writers: [" FP "]\nuserdirs: public_gemini\n"
	    "fastcgi: [{prefix: /f, socket: 'unix:/s'}]\n"
	    "title: Operator\nsubtitle: Sub\nauthor: Op\n"
	    "lang: fr\nindex: home.gmi\ngopher_width: 50\n"
	    "cert_zones: [{path: /~alice/secret}]\n"
	    "announce: [gemini://agg.example/submit]\n";
	const struct cfe_field	*keys;
	struct config		 c, h, u;
	size_t			 n, i;
	const char		*k;

	expect_ok(&c, yaml);
	config_host_view(&c, 0, &h);
	config_user_view(&h, "/home/alice/public_gemini", 1001, "alice",
	    "/~alice", &u);
	keys = config_keys(&n);
	for (i = 0; i < n; i++) {
		k = keys[i].key;
		/* The user's own, below. */
		if (strcmp(k, "capsule") == 0 || strcmp(k, "title") == 0 ||
		    strcmp(k, "author") == 0)
			continue;
		if (keys[i].flags & CONFIG_USER) {
			if (strcmp(k, "follow_symlinks") != 0)
				OK(memcmp((char *)&u + keys[i].off,
				    (char *)&h + keys[i].off,
				    keys[i].size) == 0, "%s: the host's", k);
		} else
			OK(zero_at(&u, &keys[i]), "%s: not inherited", k);
	}
	/* What the list says, key by key, as user_view() used to. */
	STR_EQ(u.cgi, NULL, "no programs");
	INT_EQ(u.napps, 0, "no backends");
	INT_EQ(u.ntitan_writers, 0, "no writers");
	INT_EQ(u.nredirects, 0, "no redirects");
	INT_EQ(u.nlink_aliases, 0, "no link aliases");
	STR_EQ(u.web_url, NULL, "no web_url");
	INT_EQ(u.nannounce, 0, "no aggregators told on a user's behalf");
	STR_EQ(u.root, NULL, "no root");
	STR_EQ(u.mount, NULL, "no mount");
	STR_EQ(u.userdirs, NULL, "no user capsules of its own");
	INT_EQ(u.follow_symlinks, CONFIG_LINKS_INSIDE, "links: at most "
	    "inside");
	INT_EQ(u.files_hardlinks, 0, "no hard links");
	STR_EQ(u.site_title, "~alice", "the user's title");
	STR_EQ(u.site_subtitle, NULL, "no subtitle");
	STR_EQ(u.author, "alice", "the user's name as author");
	STR_EQ(u.capsule_dir, "/home/alice/public_gemini", "the user's dir");
	STR_EQ(u.base, "/~alice", "base");
	INT_EQ(u.owned, 1, "owned");
	INT_EQ(u.owner_uid, 1001, "owner");
	STR_EQ(u.lang, "fr", "the host's lang");
	STR_EQ(u.index, "home.gmi", "the host's index");
	INT_EQ(u.gopher_width, 50, "the host's gopher_width");
	STR_EQ(u.hostname, h.hostname, "the host's name");
	INT_EQ(u.port[SURFACE_GEMINI], h.port[SURFACE_GEMINI], "its port");
	OK(u.zones == c.zones && u.nzones == 1, "zones guard /~user/ too");
	OK(u.hosts == NULL && u.nhosts == 0, "no hosts");
	config_free(&c);
	/* never stays never. */
	expect_ok(&c, "follow_symlinks: never\n");
	config_host_view(&c, 0, &h);
	config_user_view(&h, "/d", 1, "b", "/~b", &u);
	INT_EQ(u.follow_symlinks, CONFIG_LINKS_NONE, "never stays never");
	config_free(&c);
}

/* Print, load what was printed, print again: the same text. */
static void
round_trip(const char *yaml, const char *what)
{
	struct config	 a, b;
	char		 err[512] = "";
	char		*pa, *pb;

	expect_ok(&a, yaml);
	pa = printed(&a);
	test_write(conf, "%s", pa);
	OK(config_load(&b, conf, err, sizeof(err)) == 0, "%s: the printed "
	    "configuration loads: %s\n%s", what, err, pa);
	pb = printed(&b);
	STR_EQ(pb, pa, what);
	free(pa);
	free(pb);
	config_free(&a);
	config_free(&b);
}

/* The two-host example capsuled.yaml(5) and docs/operating.md give. */
static const char two_hosts[] =
    "hostname: alpha.example\n"
    "capsule: alpha\n"
    "title: Alpha\n"
    "cert_zones: [{path: /club/}]\n"
    "hosts:\n"
    "  - hostname: beta.example\n"
    "    capsule: beta\n"
    "    root: site\n"
    "    index: home.gmi\n"
    "    default_type: text/plain\n"
    "    listings: false\n"
    "    title: Beta\n"
    "    cert_zones: [{path: /members/}]\n";

static void
test_effective(void)
{
	struct config	 c;
	const char	*env = getenv("CAPSULED_TOP");
	char		*path, *want, *got, *p;

	round_trip("", "the defaults");
	round_trip(two_hosts, "two hosts");
	round_trip(every_site_key, "every site key");
	round_trip("title: \"a \\\"quoted\\\" \\\\ title\"\n"
	    "author: \"\\u00e9\\u2028\\N\\L\\P\\uFEFFx\"\n"
	    "robots: \"a\\tb\\n\"\n"
	    "mime_types: {'#x': text/plain, 'a:b': text/plain}\n"
	    "redirects: {/a*: /b/$1, temporary: {/c: 'gemini://h/d'}}\n"
	    "log: syslog\nworkers: 3\nrate_limit: 0.25\n"
	    "ticket_rotation: 90s\nwatch_debounce: 1500ms\n"
	    "proxy: [{host: x.example, backend: '[::1]:1965', "
	    "client_cert: c.pem, client_key: k.pem, fingerprint: " FP "}]\n"
	    "scgi: [{prefix: /s, socket: 'unix:s', params: {A: '1 2'}}]\n"
	    "cert_zones: [{path: /, host: nowhere.example, ca: /dev/null, "
	    "fingerprints: [" FP "]}]\n", "quoting, units, rules");

	/* The pinned two-host example. */
	expect_ok(&c, two_hosts);
	got = printed(&c);
	p = untmp(got);
	path = env != NULL ? xasprintf("%s/tests/unit/config_effective.yaml",
	    env) : xstrdup("tests/unit/config_effective.yaml");
	want = test_read(path, NULL);
	OK(want != NULL, "%s: %s", path, strerror(errno));
	if (want != NULL)
		OK(strcmp(p, want) == 0, "the two-host example printed as "
		    "%s pins it; got:\n%s", path, p);
	free(want);
	free(path);
	free(p);
	free(got);
	config_free(&c);
}

/* The keys named by the lines of path that match re (one group). */
static char **
keys_in(const char *path, const char *re, size_t *n)
{
	regex_t		 rx;
	regmatch_t	 m[2];
	char		*text, *line, *save = NULL, **v = NULL;

	*n = 0;
	if ((text = test_read(path, NULL)) == NULL)
		return NULL;
	if (regcomp(&rx, re, REG_EXTENDED | REG_NEWLINE) != 0) {
		free(text);
		return NULL;
	}
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save))
		if (regexec(&rx, line, 2, m, 0) == 0) {
			v = xreallocarray(v, *n + 1, sizeof(*v));
			v[(*n)++] = xstrndup(line + m[1].rm_so,
			    (size_t)(m[1].rm_eo - m[1].rm_so));
		}
	regfree(&rx);
	free(text);
	return v;
}

static int
listed(char **v, size_t n, const char *key)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (strcmp(v[i], key) == 0)
			return 1;
	return 0;
}

static int
is_key(const char *key)
{
	const struct cfe_field	*keys;
	size_t			 n, i;

	keys = config_keys(&n);
	for (i = 0; i < n; i++)
		if (strcmp(keys[i].key, key) == 0)
			return 1;
	return 0;
}

/*
 * capsuled.yaml(5) has an entry for every key the parser knows, and
 * knows no other (issue 34); a site key's entry ends "Pq per host" and
 * no other's does.
 */
static void
test_manual(void)
{
	const struct cfe_field	*keys;
	const char		*env = getenv("CAPSULED_TOP");
	char			*path, **man, **site;
	size_t			 n, nman, nsite, i;
	int			 is_site;

	path = xasprintf("%s/man/capsuled.yaml.5", env != NULL ? env : ".");
	man = keys_in(path, "^\\.It Ic ([a-z_0-9]+) :", &nman);
	site = keys_in(path, "^\\.It Ic ([a-z_0-9]+) :.* Pq per host$",
	    &nsite);
	OK(nman > 0, "%s: entries", path);
	keys = config_keys(&n);
	for (i = 0; i < n; i++) {
		is_site = (keys[i].flags & CONFIG_SITE) != 0;
		OK(listed(man, nman, keys[i].key), "%s: no entry for %s",
		    path, keys[i].key);
		OK(listed(site, nsite, keys[i].key) == is_site, "%s: %s is %s",
		    path, keys[i].key, is_site ? "a site key: end its .It "
		    "line with \"Pq per host\"" : "server-wide, not per host");
	}
	for (i = 0; i < nman; i++)
		OK(is_key(man[i]), "%s: %s is not a key", path, man[i]);
	util_free_strings(man, nman);
	util_free_strings(site, nsite);
	free(path);
}

static const struct harness_test tests[] = {
	TEST(test_every_site_key),
	TEST(test_order),
	TEST(test_server_keys),
	TEST(test_host_ports),
	TEST(test_host_rules),
	TEST(test_user_view),
	TEST(test_effective),
	TEST(test_manual),
};

int
main(int argc, char **argv)
{
	char	 tmpl[] = "/tmp/test_config_sites.XXXXXX", *etc, *cmd;

	HARNESS_INIT(argc, argv, tests);
	if (mkdtemp(tmpl) == NULL || realpath(tmpl, tmp) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	etc = xasprintf("%s/etc", tmp);
	mkdir(etc, 0700);
	snprintf(conf, sizeof(conf), "%s/c.yaml", etc);
	harness_run();
	cmd = xasprintf("rm -rf '%s'", tmp);
	(void)!system(cmd);
	free(cmd);
	free(etc);
	return harness_done();
}
