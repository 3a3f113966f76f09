/*
 * test_zone.c -- certificate zones without a socket: "cert_zones" as
 * config.c reads it (and what it refuses), zone_find()'s matching rule,
 * and zone_check()'s answers for each kind of certificate.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "harness.h"
#include "site/response.h"
#include "site/zone.h"

#define FP_A	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define FP_B	"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

static int
load(struct config *c, const char *yaml, char *err, size_t len)
{
	return config_load_buffer(c, "/tmp/z.yaml", yaml, strlen(yaml), err,
	    len);
}

static void
refused(const char *yaml, const char *want)
{
	struct config	 c;
	char		 err[512] = "";

	INT_EQ(load(&c, yaml, err, sizeof(err)), -1, yaml);
	HAS(err, want, yaml);
}

static void
test_parse(void)
{
	struct config	 c;
	char		 err[512] = "";

	INT_EQ(load(&c, "cert_zones:\n"
	    "  - path: /family/\n"
	    "    fingerprints: [\"" FP_A "\"]\n"
	    "  - path: /\n"
	    "    host: Other.Example\n"
	    "    require: certificate\n", err, sizeof(err)), 0, err);
	INT_EQ(c.nzones, 2, "two zones");
	STR_EQ(c.zones[0].path, "/family", "trailing '/' dropped");
	INT_EQ(c.zones[0].nfingerprints, 1, "one fingerprint");
	STR_EQ(c.zones[1].path, "", "the whole host");
	STR_EQ(c.zones[1].host, "other.example", "host in lower case");
	OK(c.zones[0].host == NULL, "no host: every host");
	config_free(&c);

	refused("cert_zones:\n  - fingerprints: []\n", "every zone needs a "
	    "path");
	refused("cert_zones:\n  - path: family\n", "expected a path");
	refused("cert_zones:\n  - path: /a/../b\n", "expected a path");
	refused("cert_zones:\n  - path: /a//b\n", "expected a path");
	refused("cert_zones:\n  - path: /a\n    require: nothing\n",
	    "expected certificate");
	refused("cert_zones:\n  - path: /a\n    fingerprints: [xyz]\n",
	    "expected a SHA-256 fingerprint");
	refused("cert_zones:\n  - path: /a\n    ca: /no/such/ca.pem\n",
	    "/no/such/ca.pem: No such file");
	refused("cert_zones:\n  - path: /a\n    colour: red\n",
	    "cert_zones: unknown key 'colour'");
	refused("cert_zones: /a\n", "expected a list of zones");
	refused("cert_zones: [/a]\n", "expected a mapping with a path");
}

/* zone_find() on c as host hostname, for the URL url naming file. */
static long
find(struct config *c, const char *hostname, const char *url,
    const char *file)
{
	c->hostname = (char *)hostname;
	return zone_find(c, c, url, file);
}

static struct config_zone	 zones[] = {
	{ NULL, (char *)"/family", NULL, 0, NULL, 1 },
	{ NULL, (char *)"/family/kids", NULL, 0, NULL, 1 },
	{ (char *)"a.example", (char *)"/family", NULL, 0, NULL, 1 },
	{ (char *)"b.example", (char *)"", NULL, 0, NULL, 1 },
};

static void
test_find(void)
{
	struct config	 c;

	memset(&c, 0, sizeof(c));
	c.zones = zones;
	c.nzones = sizeof(zones) / sizeof(zones[0]);
	INT_EQ(find(&c, "x.example", "/family", NULL), 0, "the prefix itself");
	INT_EQ(find(&c, "x.example", "/family/", NULL), 0, "below it");
	INT_EQ(find(&c, "x.example", "/familyx", NULL), -1, "not a segment");
	INT_EQ(find(&c, "x.example", "/famil", NULL), -1, "shorter");
	INT_EQ(find(&c, "x.example", "//family///x", NULL), 0,
	    "runs of '/' count as one");
	INT_EQ(find(&c, "x.example", "/family/kids/a", NULL), 1,
	    "the longest prefix wins");
	INT_EQ(find(&c, "a.example", "/family/x", NULL), 2,
	    "equal length: the host's own wins");
	INT_EQ(find(&c, "b.example", "/", NULL), 3, "a whole host");
	INT_EQ(find(&c, "b.example", "/family/kids", NULL), 1,
	    "a longer prefix of every host beats a whole host");
	INT_EQ(find(&c, "x.example", "/", NULL), -1, "no zone");
}

/*
 * One file, two URLs: "root: files" serves files/ at "/" and still at
 * "/files/"; with a mount, files/ is at "<mount>/files/" and the root
 * tree has every path outside the mount.  A zone guards the file its
 * path names, by whichever URL the file is asked for: the router gives
 * the file a request reached (struct ident), and the zone's path is
 * read in the same trees.
 */
static void
test_find_trees(void)
{
	struct config_zone	 tz[] = {
		{ NULL, (char *)"/club", NULL, 0, NULL, 1 },
		{ NULL, (char *)"/files/family", NULL, 0, NULL, 1 },
	};
	struct config		 c;

	memset(&c, 0, sizeof(c));
	c.zones = tz;
	c.nzones = 2;
	INT_EQ(find(&c, "x", "/files/club/m.txt", "files/club/m.txt"), -1,
	    "no root: /club is nothing of files/");
	c.root = (char *)"files";
	INT_EQ(find(&c, "x", "/club/m.txt", "files/club/m.txt"), 0,
	    "the zone's own URL");
	INT_EQ(find(&c, "x", "/files/club/m.txt", "files/club/m.txt"), 0,
	    "root: files: the same file at /files/club/");
	INT_EQ(find(&c, "x", "/files//club", "files//club"), 0,
	    "the directory itself, with a run of '/'");
	INT_EQ(find(&c, "x", "/family/album.txt", "files/family/album.txt"),
	    1, "root: files: /files/family/ is also /family/");
	INT_EQ(find(&c, "x", "/files/clubx/a", "files/clubx/a"), -1,
	    "a segment, not a prefix of a name");
	INT_EQ(find(&c, "x", "/posts/x", NULL), -1,
	    "a generated page no zone names");
	INT_EQ(find(&c, "x", "/files/files/family/a", "files/files/family/a"),
	    1, "the root tree's files/ under /files/family/ itself");
	c.root = (char *)"site";
	INT_EQ(find(&c, "x", "/files/club/a", "files/club/a"), -1,
	    "root: site: /club/ is site/club/, not files/club/");
	INT_EQ(find(&c, "x", "/club/a", "site/club/a"), 0,
	    "root: site: site/club/ by its URL");
	c.root = (char *)"files";
	c.mount = (char *)"/gemlog";
	c.base = c.mount;		/* as config.c sets it */
	INT_EQ(find(&c, "x", "/gemlog/files/club/a", "files/club/a"), 0,
	    "mount: files/ at /gemlog/files/ is guarded too");
	INT_EQ(find(&c, "x", "/files/family/a", "files/files/family/a"), 1,
	    "mount: /files/family/ is the root tree's files/files/family/");
	INT_EQ(find(&c, "x", "/gemlog/files/family/a", "files/family/a"), -1,
	    "mount: so files/family/ is not guarded by it");
	INT_EQ(find(&c, "x", "/gemlog/club/a", NULL), -1,
	    "mount: inside it, the generated pages, not the tree");
	c.mount = NULL;
	c.root = NULL;
	c.owned = 1;
	c.base = (char *)"/~ann";
	tz[0].path = (char *)"/~ann/club";
	INT_EQ(find(&c, "x", "/~ann/club/a", "club/a"), 0,
	    "a plain user capsule: its one tree");
	INT_EQ(find(&c, "x", "/~ann/files/club/a", "files/club/a"), -1,
	    "a user capsule: files/club/ is not club/");
	tz[0].path = (char *)"/~bob/club";
	INT_EQ(find(&c, "x", "/~ann/club/a", "club/a"), -1,
	    "another user's zone");
}

/*
 * A zone's path is a path rule (core/pathrule.h): a pattern guards what
 * it matches, by the URL and by the file it names, and nested zones
 * follow the one tie rule.
 */
static void
test_find_patterns(void)
{
	struct config_zone	 tz[] = {
		{ NULL, (char *)"/diary/*.gmi", NULL, 0, NULL, 1 },
		{ NULL, (char *)"/diary", NULL, 0, NULL, 1 },
		{ NULL, (char *)"/users/*/private", NULL, 0, NULL, 1 },
	};
	struct config		 c;

	memset(&c, 0, sizeof(c));
	c.zones = tz;
	c.nzones = 3;
	c.root = (char *)"files";
	INT_EQ(find(&c, "x", "/diary/a.gmi", "files/diary/a.gmi"), 0,
	    "the pattern, longer than the prefix, wins");
	INT_EQ(find(&c, "x", "/diary/a.txt", "files/diary/a.txt"), 1,
	    "what the pattern misses: the prefix");
	INT_EQ(find(&c, "x", "/files/diary/a.gmi", "files/diary/a.gmi"), 0,
	    "the pattern, by the file's second URL");
	INT_EQ(find(&c, "x", "/files/diary/a.txt", "files/diary/a.txt"), 1,
	    "the prefix, by the file's second URL");
	INT_EQ(find(&c, "x", "/users/bob/private/k", "files/users/bob/"
	    "private/k"), 2, "a '*' inside: the URL");
	INT_EQ(find(&c, "x", "/files/users/bob/private/k", "files/users/bob/"
	    "private/k"), 2, "a '*' inside: the file by /files/");
	INT_EQ(find(&c, "x", "/files/users/bob/public/k", "files/users/bob/"
	    "public/k"), -1, "a '*' inside: not another folder");
	INT_EQ(find(&c, "x", "/users/a/b/private", "files/users/a/b/private"),
	    -1, "a '*' inside takes one segment");
}

/* A client, as a test sets it. */
struct fake {
	const char	*hash;
	int		 dates, by_ca, asked_ca;
};

static const char *
f_hash(void *ctx)
{
	return ((struct fake *)ctx)->hash;
}

static int
f_dates(void *ctx)
{
	return ((struct fake *)ctx)->dates;
}

static int
f_by_ca(void *ctx, size_t i)
{
	struct fake	*f = ctx;

	f->asked_ca++;
	return f->by_ca;
}

static int
check(struct config_zone *z, struct fake *f)
{
	struct config		 c;
	struct response		 r;
	struct zone_client	 zc = { f_hash, f_dates, f_by_ca, f };
	int			 st;

	memset(&c, 0, sizeof(c));
	c.zones = z;
	c.nzones = 1;
	response_init(&r);
	st = zone_check(&c, 0, &zc, &r) == 0 ? 20 : r.status;
	response_free(&r);
	return st;
}

static void
test_check(void)
{
	char			*fps[] = { (char *)FP_A };
	struct config_zone	 any = { NULL, (char *)"/a", NULL, 0, NULL, 1 };
	struct config_zone	 list = { NULL, (char *)"/a", fps, 1, NULL, 1 };
	struct config_zone	 ca = { NULL, (char *)"/a", NULL, 0,
				    (char *)"/ca.pem", 1 };
	struct config_zone	 both = { NULL, (char *)"/a", fps, 1,
				    (char *)"/ca.pem", 1 };
	struct fake		 none = { NULL, 0, 0, 0 };
	struct fake		 a = { FP_A, 0, 0, 0 }, b = { FP_B, 0, 0, 0 };
	struct fake		 old = { FP_A, 1, 1, 0 }, early = { FP_A, -1, 1, 0 };
	struct fake		 signed_b = { FP_B, 0, 1, 0 };

	INT_EQ(check(&any, &none), 60, "no certificate: 60");
	INT_EQ(check(&list, &none), 60, "no certificate, listed zone: 60");
	INT_EQ(check(&any, &b), 20, "any certificate");
	INT_EQ(check(&any, &old), 62, "expired: 62");
	INT_EQ(check(&list, &early), 62, "not yet valid, even listed: 62");
	INT_EQ(check(&list, &a), 20, "listed: 20");
	INT_EQ(check(&list, &b), 61, "not listed: 61");
	INT_EQ(check(&ca, &signed_b), 20, "by the CA: 20");
	INT_EQ(check(&ca, &b), 61, "not by the CA: 61");
	INT_EQ(check(&both, &a), 20, "both: listed is enough");
	INT_EQ(a.asked_ca, 0, "a listed certificate needs no CA check");
	INT_EQ(check(&both, &signed_b), 20, "both: by the CA is enough");
}

static const struct harness_test tests[] = {
	TEST(test_parse),
	TEST(test_find),
	TEST(test_find_trees),
	TEST(test_find_patterns),
	TEST(test_check),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
