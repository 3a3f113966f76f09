/*
 * test_config_types.c -- "mime_types", "default_type" and "path_meta"
 * (core/config_types.c) and what they change in answers.
 *
 * The keys read from YAML and every refusal; config_file_type() over
 * the built-in table, the item type it derives (mime_gopher_of()), the
 * default type; config_path_meta()'s longest prefix per parameter; then
 * a capsule in a temp directory through the router: a file's 20 header
 * (a static tree's, files/'s, a bundle's) over Gemini and its item type over Gopher, in a listing, as a file
 * answer and as a post's link, all from the one table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "content/archive.h"
#include "core/buf.h"
#include "core/config.h"
#include "core/config_types.h"
#include "core/log.h"
#include "core/mime.h"
#include "core/util.h"
#include "files.h"
#include "harness.h"
#include "site/router.h"
#include "site/site.h"

static char	 top[64];

static int
load(struct config *c, const char *yaml, char *err, size_t errlen)
{
	return config_load_buffer(c, "/t/c.yaml", yaml, strlen(yaml), err,
	    errlen);
}

/* yaml is refused with a message that contains want. */
static void
refused(const char *yaml, const char *want)
{
	struct config	 c;
	char		 err[512];

	INT_EQ(load(&c, yaml, err, sizeof(err)), -1, yaml);
	OK(strstr(err, want) != NULL, "%s: '%s' (want '%s')", yaml, err,
	    want);
	config_free(&c);
}

static void
test_parse(void)
{
	struct config	 c;
	char		 err[512];

	INT_EQ(load(&c, "mime_types: {gmi: text/gemini, .LOG: text/plain, "
	    "zine: application/octet-stream}\ndefault_type: text/plain\n"
	    "path_meta:\n  - {path: /fr/, lang: fr}\n"
	    "  - path: /old\n    charset: ISO-8859-1\n    lang: de\n"
	    "  - {path: /, charset: utf-8}\n", err, sizeof(err)), 0, err);
	if (c.types == NULL) {
		OK(0, "no types read");
		return;
	}
	INT_EQ(c.types->nmime, 3, "three types");
	STR_EQ(c.types->mime[0].ext, "gmi", "sorted");
	STR_EQ(c.types->mime[1].ext, "log", "lower case, no dot");
	STR_EQ(c.types->mime[2].type, "application/octet-stream", "type");
	STR_EQ(c.types->default_type, "text/plain", "default_type");
	INT_EQ(c.types->nmeta, 3, "three prefixes");
	STR_EQ(c.types->meta[0].path, "/fr", "trailing slash dropped");
	OK(c.types->meta[0].charset == NULL, "no charset given");
	STR_EQ(c.types->meta[1].charset, "ISO-8859-1", "charset as written");
	STR_EQ(c.types->meta[2].path, "", "/ is every path");
	config_free(&c);

	/* molly-brown's MimeOverrides: a type with its charset. */
	INT_EQ(load(&c, "mime_types: {txt: 'text/plain; charset=iso-8859-1', "
	    "gmi: 'text/gemini ;  CHARSET=koi8-r ', log: text/plain}\n",
	    err, sizeof(err)), 0, err);
	if (c.types != NULL && c.types->nmime == 3) {
		STR_EQ(c.types->mime[0].type, "text/gemini", "type, trimmed");
		STR_EQ(c.types->mime[0].charset, "koi8-r",
		    "charset, as written, trimmed");
		STR_EQ(c.types->mime[2].type, "text/plain",
		    "the type without its parameter");
		STR_EQ(c.types->mime[2].charset, "iso-8859-1", "its charset");
		OK(c.types->mime[1].charset == NULL, "no charset given");
	} else
		OK(0, "three types with charsets");
	config_free(&c);

	INT_EQ(load(&c, "mime_types: ~\ndefault_type: null\npath_meta: []\n",
	    err, sizeof(err)), 0, err);
	OK(c.types != NULL && c.types->nmime == 0 &&
	    c.types->default_type == NULL && c.types->nmeta == 0,
	    "null and empty: none");
	config_free(&c);

	refused("mime_types: [gmi]\n", "mime_types: expected a mapping of "
	    "extensions to types");
	refused("mime_types: {gmi: text}\n", "mime_types: gmi: expected a type "
	    "such as text/plain, or a text type with its charset (text/plain; "
	    "charset=iso-8859-1); lang goes in path_meta, got 'text'");
	refused("mime_types: {gmi: 'text/gemini; lang=fr'}\n",
	    "lang goes in path_meta, got 'text/gemini; lang=fr'");
	refused("mime_types: {png: 'image/png; charset=utf-8'}\n",
	    "a text type with its charset");
	refused("mime_types: {txt: 'text/plain; charset=a b'}\n",
	    "got 'text/plain; charset=a b'");
	refused("mime_types: {txt: 'text/plain;'}\n", "got 'text/plain;'");
	refused("mime_types: {tar.gz: application/gzip}\n", "expected an extension "
	    "(1 to 16 bytes, no '.' or '/'), got 'tar.gz'");
	refused("mime_types: {a/b: text/plain}\n", "expected an extension "
	    "(1 to 16 bytes, no '.' or '/'), got 'a/b'");
	refused("mime_types: {abcdefghijklmnopq: text/plain}\n",
	    "expected an extension (1 to 16 bytes");
	refused("mime_types: {.: text/plain}\n", "got ''");
	refused("mime_types: {gmi: text/gemini, GMI: text/plain}\n",
	    "mime_types: 'GMI' is listed twice");
	refused("mime_types: {gmi: [text/gemini]}\n", "gmi: expected a "
	    "string");
	refused("mime_types: {gmi: ~}\n", "mime_types: gmi: must not be "
	    "empty");
	refused("mime_types: {\"a\\tb\": text/plain}\n",
	    "no blanks or control");
	refused("mime_types: {x: &a text/plain}\n", "mime_types: anchors");
	refused("default_type: octet\n", "default_type: expected a type");
	refused("default_type: [text/plain]\n", "default_type: expected a "
	    "type");
	refused("path_meta: {path: /}\n", "path_meta: expected a list");
	refused("path_meta: [/fr/]\n", "expected a mapping with path");
	refused("path_meta: [{lang: fr}]\n", "an entry needs a path and lang "
	    "or charset");
	refused("path_meta: [{path: /fr/}]\n", "an entry needs a path");
	refused("path_meta: [{path: fr, lang: fr}]\n", "path: expected a path "
	    "such as /fr/ (no '.' or '..' segment), got 'fr'");
	refused("path_meta: [{path: /a/../b, lang: fr}]\n", "expected a path");
	refused("path_meta: [{path: /a?x, lang: fr}]\n", "expected a path");
	refused("path_meta: [{path: /fr, lang: 'fr; x=y'}]\n", "lang: expected a "
	    "language tag like en or pt-BR, got 'fr; x=y'");
	refused("path_meta: [{path: /fr, charset: 'utf-8;x'}]\n", "charset: "
	    "expected a charset name such as iso-8859-1, got 'utf-8;x'");
	refused("path_meta: [{path: /fr, lang: fr, lang: en}]\n", "path_meta: "
	    "duplicate key 'lang'");
	refused("path_meta: [{path: /fr, colour: red}]\n", "unknown key "
	    "'colour'");
	refused("path_meta: [{path: /fr/, lang: fr}, {path: /fr, "
	    "lang: en}]\n", "path_meta: '/fr' is listed twice");
	refused("path_meta: [{path: /fr, lang: [fr]}]\n", "lang: expected a "
	    "string");
	refused("mime_types: {gmi: text/gemini\n", "c.yaml:");
}

static void
test_lookup(void)
{
	struct config	 c;
	char		 err[512], g = 0;
	const char	*lang, *charset;

	/* Without a configuration: the built-in table, as before. */
	STR_EQ(config_file_type(NULL, "a/b.PNG", &g), "image/png", "built-in");
	INT_EQ(g, 'I', "its item type");
	STR_EQ(config_file_type(NULL, "x.unknown", &g), MIME_DEFAULT,
	    "unknown");
	INT_EQ(g, '9', "unknown item");
	INT_EQ(mime_gopher_of("text/html; charset=utf-8"), 'h', "html");
	INT_EQ(mime_gopher_of("IMAGE/GIF"), 'g', "gif");
	INT_EQ(mime_gopher_of("application/pdf"), 'd', "pdf");
	INT_EQ(mime_gopher_of("application/json"), '0', "json");
	INT_EQ(mime_gopher_of("text/x-zine"), '0', "any text");
	INT_EQ(mime_gopher_of("image/x-new"), 'I', "any image");
	INT_EQ(mime_gopher_of("audio/x-new"), 's', "any audio");
	INT_EQ(mime_gopher_of("application/x-new"), '9', "anything else");
	OK(mime_type_ok("application/vnd.a+xml") && !mime_type_ok("a/") &&
	    !mime_type_ok("/b") && !mime_type_ok("a/b/c") &&
	    !mime_type_ok("a/b c"), "mime_type_ok");
	OK(mime_charset_ok("Shift_JIS") && !mime_charset_ok("-x") &&
	    !mime_charset_ok("") && !mime_charset_ok("a b") &&
	    !mime_charset_ok("abcdefghijklmnopqrstuvwxyzabcdefghijklmno"),
	    "mime_charset_ok");

	INT_EQ(load(&c, "mime_types: {zine: text/gemini, log: "
	    "application/octet-stream, pic: image/gif, txt: text/x-mine}\n"
	    "default_type: text/plain\n"
	    "path_meta:\n  - {path: /fr/, lang: fr}\n"
	    "  - {path: /fr/ca/, lang: fr-CA}\n"
	    "  - {path: /fr/old, charset: iso-8859-1}\n"
	    "  - {path: /, charset: utf-8, lang: en}\n", err, sizeof(err)), 0,
	    err);
	STR_EQ(config_file_type(c.types, "/x/a.ZINE", &g), "text/gemini",
	    "configured, any case");
	INT_EQ(g, '0', "gemtext is text");
	STR_EQ(config_file_type(c.types, "notes.log", &g),
	    "application/octet-stream", "over the built-in text/plain");
	INT_EQ(g, '9', "and its item type follows");
	STR_EQ(config_file_type(c.types, "p.pic", &g), "image/gif", "gif");
	INT_EQ(g, 'g', "item g");
	STR_EQ(config_file_type(c.types, "a.txt", NULL), "text/x-mine",
	    "NULL gopher is fine");
	STR_EQ(config_file_type(c.types, "a.png", &g), "image/png",
	    "the built-in table still types the rest");
	INT_EQ(g, 'I', "built-in item");
	STR_EQ(config_file_type(c.types, "a.unknown", &g), "text/plain",
	    "default_type");
	INT_EQ(g, '0', "default's item");
	STR_EQ(config_file_type(c.types, "README", &g), "text/plain",
	    "no extension: default_type");
	STR_EQ(config_file_type(c.types, ".zine", &g), "text/plain",
	    "a dot file has no extension");

	config_path_meta(c.types, "/fr/ca/x.gmi", &lang, &charset);
	STR_EQ(lang, "fr-CA", "longest prefix");
	STR_EQ(charset, "utf-8", "charset from the one that sets it");
	config_path_meta(c.types, "/fr/old/y.txt", &lang, &charset);
	STR_EQ(lang, "fr", "lang of /fr/");
	STR_EQ(charset, "iso-8859-1", "charset of /fr/old");
	config_path_meta(c.types, "/fr/older", &lang, &charset);
	STR_EQ(charset, "utf-8", "a prefix is whole segments");
	config_path_meta(c.types, "/fr", &lang, &charset);
	STR_EQ(lang, "fr", "the prefix itself");
	config_path_meta(c.types, "/free", &lang, &charset);
	STR_EQ(lang, "en", "not /fr/");
	config_free(&c);
	config_path_meta(NULL, "/x", &lang, &charset);
	OK(lang == NULL && charset == NULL, "none without a configuration");
}

static void
ask(const struct config *c, struct site *s, enum surface proto,
    const char *path, struct response *r)
{
	struct router_req	 req = { proto, path, NULL, 0, NULL, NULL, 0 };

	response_init(r);
	router_handle(c, s, &req, r);
}

/* Over Gemini, path answers 20 with header meta. */
static void
header(const struct config *c, struct site *s, const char *path,
    const char *meta)
{
	struct response	 r;

	ask(c, s, SURFACE_GEMINI, path, &r);
	INT_EQ(r.status, 20, path);
	STR_EQ(r.meta, meta, path);
	response_free(&r);
}

/* Over Gopher, path's body holds want (and, if type, is of that type). */
static void
gopher(const struct config *c, struct site *s, const char *path, char type,
    const char *want)
{
	struct response	 r;
	struct buf	 b = BUF_INIT;

	ask(c, s, SURFACE_GOPHER, path, &r);
	INT_EQ(r.status, 20, path);
	if (type != 0)
		INT_EQ(r.gopher_type, type, path);
	if (want != NULL) {
		buf_add(&b, r.body != NULL ? r.body : "", r.bodylen);
		buf_addc(&b, '\0');
		OK(strstr(b.data, want) != NULL, "gopher %s: '%s' in:\n%s",
		    path, want, b.data);
	}
	buf_free(&b);
	response_free(&r);
}

static void
test_answers(void)
{
	struct config	 c;
	struct archive	*a;
	struct site	*s;
	char		*yaml, err[512];

	test_mkdir(top, "posts");
	test_put(top, "posts/2024-01-01-hello.md",
	    "# Hello\n\n[The zine](/files/b.zine)\n");
	test_mkdir(top, "posts/2024-02-01-bundle");
	test_put(top, "posts/2024-02-01-bundle/index.md", "# Bundle\n");
	test_put(top, "posts/2024-02-01-bundle/c.zine", "# C\n");
	test_mkdir(top, "files");
	test_put(top, "files/b.zine", "# B\n");
	test_mkdir(top, "site");
	test_mkdir(top, "site/d");
	test_mkdir(top, "site/fr");
	test_mkdir(top, "site/old");
	test_put(top, "site/d/a.zine", "# A zine\n");
	test_put(top, "site/d/notes.log", "log\n");
	test_put(top, "site/d/thing.xyz", "what\n");
	test_put(top, "site/d/pic.png", "png\n");
	test_put(top, "site/fr/x.gmi", "# Bonjour\n");
	test_put(top, "site/old/y.txt", "old\n");
	test_put(top, "site/d/latin.ltn", "caf\xe9\n");
	test_put(top, "site/d/russian.koi", "# \xf0\xd2\xc9\n");
	test_put(top, "site/old/wide.u16", "x\n");
	yaml = xasprintf("capsule: %s\nroot: site\nroot_listings: true\n"
	    "mime_types: {zine: text/gemini, log: application/octet-stream, "
	    "ltn: 'text/plain; charset=iso-8859-1', "
	    "koi: 'text/gemini; charset=koi8-r', "
	    "u16: 'text/plain; charset=utf-16'}\n"
	    "default_type: text/plain\n"
	    "path_meta: [{path: /fr/, lang: fr}, "
	    "{path: /old/, charset: iso-8859-1}, "
	    "{path: /posts/bundle/, lang: de}]\n", top);
	INT_EQ(load(&c, yaml, err, sizeof(err)), 0, err);
	free(yaml);
	if ((a = archive_load(&c)) == NULL) {
		OK(0, "archive_load");
		config_free(&c);
		return;
	}
	s = site_new(a, 0);
	header(&c, s, "/d/a.zine", "text/gemini; charset=utf-8; lang=en");
	header(&c, s, "/d/notes.log", "application/octet-stream");
	header(&c, s, "/d/thing.xyz", "text/plain; charset=utf-8");
	header(&c, s, "/d/pic.png", "image/png");
	header(&c, s, "/fr/x.gmi", "text/gemini; charset=utf-8; lang=fr");
	header(&c, s, "/fr/", "text/gemini; charset=utf-8; lang=fr");
	header(&c, s, "/old/y.txt", "text/plain; charset=iso-8859-1");
	header(&c, s, "/old/", "text/gemini; charset=iso-8859-1");
	/* A type's own charset (molly-brown's MimeOverrides). */
	header(&c, s, "/d/latin.ltn", "text/plain; charset=iso-8859-1");
	header(&c, s, "/d/russian.koi", "text/gemini; charset=koi8-r; lang=en");
	header(&c, s, "/old/wide.u16", "text/plain; charset=utf-16");
	gopher(&c, s, "/d/latin.ltn", '0', NULL);
	header(&c, s, "/files/b.zine", "text/gemini; charset=utf-8; lang=en");
	header(&c, s, "/posts/bundle/c.zine",
	    "text/gemini; charset=utf-8; lang=de");
	/* Gopher: the same table, in listings and in answers. */
	gopher(&c, s, "/d/", '1', "1a.zine\t/d/a.zine/\t");
	gopher(&c, s, "/d/", 0, "9notes.log\t/d/notes.log\t");
	gopher(&c, s, "/d/", 0, "0thing.xyz\t/d/thing.xyz\t");
	gopher(&c, s, "/d/", 0, "Ipic.png\t/d/pic.png\t");
	gopher(&c, s, "/d/a.zine", '0', NULL);
	gopher(&c, s, "/d/notes.log", '9', NULL);
	gopher(&c, s, "/files/", '1', "1b.zine\t/files/b.zine/\t");
	gopher(&c, s, "/posts/hello/", '1',
	    "1Link 1: The zine\t/files/b.zine/\t");
	site_unref(s);
	archive_unref(a);
	config_free(&c);
}

static const struct harness_test tests[] = {
	TEST(test_parse),
	TEST(test_lookup),
	NAMED("answers"),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	log_set_level(LOG_LEVEL_ERROR);
	snprintf(top, sizeof(top), "/tmp/capsuled-types-XXXXXX");
	if (mkdtemp(top) == NULL) {
		perror("mkdtemp");
		return 2;
	}
	harness_run();
	RUN("answers", test_answers());
	test_rm_tree(top);
	return harness_done();
}
