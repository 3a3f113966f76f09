/*
 * test_mime.c -- mime_type(), mime_gopher_type() and mime_is_text().
 *
 * The first table repeats every extension mime.c knows: a lookup that
 * misses one of them means the table is out of order for bsearch().
 */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "core/mime.h"
#include "core/util.h"

struct want {
	const char	*ext;
	const char	*type;
	char		 gopher;
};

static const struct want every[] = {
	{ "7z", "application/x-7z-compressed", '9' },
	{ "aac", "audio/aac", 's' },
	{ "asc", "text/plain", '0' },
	{ "atom", "application/atom+xml", '0' },
	{ "avi", "video/x-msvideo", '9' },
	{ "avif", "image/avif", 'I' },
	{ "bash", "text/x-sh", '0' },
	{ "bmp", "image/bmp", 'I' },
	{ "bz2", "application/x-bzip2", '9' },
	{ "c", "text/x-c", '0' },
	{ "cc", "text/x-c++", '0' },
	{ "conf", "text/plain", '0' },
	{ "cpp", "text/x-c++", '0' },
	{ "css", "text/css", '0' },
	{ "csv", "text/csv", '0' },
	{ "diff", "text/x-diff", '0' },
	{ "djvu", "image/vnd.djvu", 'd' },
	{ "doc", "application/msword", 'd' },
	{ "docx", "application/vnd.openxmlformats-officedocument"
	    ".wordprocessingml.document", 'd' },
	{ "eps", "application/postscript", 'd' },
	{ "epub", "application/epub+zip", 'd' },
	{ "flac", "audio/flac", 's' },
	{ "gemini", "text/gemini", '0' },
	{ "gif", "image/gif", 'g' },
	{ "gmi", "text/gemini", '0' },
	{ "go", "text/x-go", '0' },
	{ "gz", "application/gzip", '9' },
	{ "h", "text/x-c", '0' },
	{ "hpp", "text/x-c++", '0' },
	{ "hs", "text/x-haskell", '0' },
	{ "htm", "text/html", 'h' },
	{ "html", "text/html", 'h' },
	{ "ico", "image/vnd.microsoft.icon", 'I' },
	{ "ics", "text/calendar", '0' },
	{ "ini", "text/plain", '0' },
	{ "iso", "application/x-iso9660-image", '9' },
	{ "java", "text/x-java", '0' },
	{ "jpeg", "image/jpeg", 'I' },
	{ "jpg", "image/jpeg", 'I' },
	{ "js", "text/javascript", '0' },
	{ "json", "application/json", '0' },
	{ "jxl", "image/jxl", 'I' },
	{ "log", "text/plain", '0' },
	{ "lua", "text/x-lua", '0' },
	{ "m4a", "audio/mp4", 's' },
	{ "markdown", "text/markdown", '0' },
	{ "md", "text/markdown", '0' },
	{ "mid", "audio/midi", 's' },
	{ "midi", "audio/midi", 's' },
	{ "mjs", "text/javascript", '0' },
	{ "mkv", "video/x-matroska", '9' },
	{ "mov", "video/quicktime", '9' },
	{ "mp3", "audio/mpeg", 's' },
	{ "mp4", "video/mp4", '9' },
	{ "mpeg", "video/mpeg", '9' },
	{ "mpg", "video/mpeg", '9' },
	{ "odt", "application/vnd.oasis.opendocument.text", 'd' },
	{ "oga", "audio/ogg", 's' },
	{ "ogg", "audio/ogg", 's' },
	{ "ogv", "video/ogg", '9' },
	{ "opus", "audio/ogg", 's' },
	{ "org", "text/x-org", '0' },
	{ "otf", "font/otf", '9' },
	{ "patch", "text/x-diff", '0' },
	{ "pdf", "application/pdf", 'd' },
	{ "pl", "text/x-perl", '0' },
	{ "png", "image/png", 'I' },
	{ "ps", "application/postscript", 'd' },
	{ "py", "text/x-python", '0' },
	{ "rb", "text/x-ruby", '0' },
	{ "rs", "text/x-rust", '0' },
	{ "rss", "application/rss+xml", '0' },
	{ "rst", "text/x-rst", '0' },
	{ "scm", "text/x-scheme", '0' },
	{ "sh", "text/x-sh", '0' },
	{ "svg", "image/svg+xml", 'I' },
	{ "tar", "application/x-tar", '9' },
	{ "tex", "text/x-tex", '0' },
	{ "text", "text/plain", '0' },
	{ "tgz", "application/gzip", '9' },
	{ "tif", "image/tiff", 'I' },
	{ "tiff", "image/tiff", 'I' },
	{ "toml", "application/toml", '0' },
	{ "tsv", "text/tab-separated-values", '0' },
	{ "ttf", "font/ttf", '9' },
	{ "txt", "text/plain", '0' },
	{ "vcf", "text/vcard", '0' },
	{ "wav", "audio/wav", 's' },
	{ "webm", "video/webm", '9' },
	{ "webp", "image/webp", 'I' },
	{ "woff", "font/woff", '9' },
	{ "woff2", "font/woff2", '9' },
	{ "xhtml", "application/xhtml+xml", 'h' },
	{ "xml", "application/xml", '0' },
	{ "xz", "application/x-xz", '9' },
	{ "yaml", "application/yaml", '0' },
	{ "yml", "application/yaml", '0' },
	{ "zip", "application/zip", '9' },
	{ "zst", "application/zstd", '9' },
};

static void
test_every_extension(void)
{
	char	 name[64];
	size_t	 i, j;

	for (i = 0; i < nitems(every); i++) {
		snprintf(name, sizeof(name), "file.%s", every[i].ext);
		STR_EQ(mime_type(name), every[i].type, name);
		INT_EQ(mime_gopher_type(name), every[i].gopher, name);
		/* The same in upper case. */
		for (j = 0; name[j] != '\0'; j++)
			if (name[j] >= 'a' && name[j] <= 'z')
				name[j] = (char)(name[j] - 'a' + 'A');
		STR_EQ(mime_type(name), every[i].type, name);
		INT_EQ(mime_gopher_type(name), every[i].gopher, name);
	}
}

static void
test_common(void)
{
	STR_EQ(mime_type("index.gmi"), "text/gemini", "gmi");
	STR_EQ(mime_type("x.gemini"), "text/gemini", "gemini");
	STR_EQ(mime_type("post.md"), "text/markdown", "md");
	STR_EQ(mime_type("notes.txt"), "text/plain", "txt");
	STR_EQ(mime_type("a.HTML"), "text/html", "HTML");
	STR_EQ(mime_type("cat.JpG"), "image/jpeg", "JpG");
	STR_EQ(mime_type("atom.xml"), "application/xml", "xml");
	STR_EQ(mime_type("feed.atom"), "application/atom+xml", "atom");
	STR_EQ(mime_type("paper.pdf"), "application/pdf", "pdf");
	STR_EQ(mime_type("song.opus"), "audio/ogg", "opus");
	STR_EQ(mime_type("backup.tar.gz"), "application/gzip", "tar.gz");
	STR_EQ(mime_type("/files/2024/photo.png"), "image/png", "path");
	STR_EQ(mime_type("files/a.b.c/photo.webp"), "image/webp", "dots");

	INT_EQ(mime_gopher_type("post.md"), '0', "md is text");
	INT_EQ(mime_gopher_type("index.gmi"), '0', "gmi is text");
	INT_EQ(mime_gopher_type("main.c"), '0', "source is text");
	INT_EQ(mime_gopher_type("a.gif"), 'g', "gif");
	INT_EQ(mime_gopher_type("a.png"), 'I', "png");
	INT_EQ(mime_gopher_type("a.jpeg"), 'I', "jpeg");
	INT_EQ(mime_gopher_type("a.svg"), 'I', "svg");
	INT_EQ(mime_gopher_type("a.htm"), 'h', "htm");
	INT_EQ(mime_gopher_type("a.flac"), 's', "flac");
	INT_EQ(mime_gopher_type("a.pdf"), 'd', "pdf");
	INT_EQ(mime_gopher_type("a.mp4"), '9', "video");
	INT_EQ(mime_gopher_type("a.zip"), '9', "zip");
}

static void
test_unknown(void)
{
	STR_EQ(mime_type("README"), MIME_DEFAULT, "no extension");
	STR_EQ(mime_type("a.unknownext"), MIME_DEFAULT, "unknown");
	STR_EQ(mime_type("a."), MIME_DEFAULT, "trailing dot");
	STR_EQ(mime_type(".gmi"), MIME_DEFAULT, "dot file");
	STR_EQ(mime_type("dir/.md"), MIME_DEFAULT, "dot file in dir");
	STR_EQ(mime_type("dir.md/README"), MIME_DEFAULT, "dot in dir only");
	STR_EQ(mime_type("a.txt/"), MIME_DEFAULT, "trailing slash");
	STR_EQ(mime_type(""), MIME_DEFAULT, "empty");
	STR_EQ(mime_type(NULL), MIME_DEFAULT, "NULL");
	STR_EQ(mime_type("a.txtxtxtxtxtxtxtxtxtxt"), MIME_DEFAULT, "long");
	STR_EQ(mime_type("a.t\xc3\xa9xt"), MIME_DEFAULT, "non-ASCII");
	STR_EQ(mime_type("a.txt\n"), MIME_DEFAULT, "control byte");
	INT_EQ(mime_gopher_type("README"), '9', "gopher unknown");
	INT_EQ(mime_gopher_type(NULL), '9', "gopher NULL");
	INT_EQ(mime_gopher_type("x.bin"), '9', "gopher bin");
}

static void
test_is_text(void)
{
	INT_EQ(mime_is_text("text/gemini"), 1, "text/gemini");
	INT_EQ(mime_is_text("text/plain"), 1, "text/plain");
	INT_EQ(mime_is_text("TEXT/HTML"), 1, "upper case");
	INT_EQ(mime_is_text(mime_type("a.md")), 1, "md");
	INT_EQ(mime_is_text("application/json"), 0, "json");
	INT_EQ(mime_is_text("image/png"), 0, "png");
	INT_EQ(mime_is_text("text"), 0, "no slash");
	INT_EQ(mime_is_text("texts/plain"), 0, "texts");
	INT_EQ(mime_is_text(""), 0, "empty");
	INT_EQ(mime_is_text(NULL), 0, "NULL");
	INT_EQ(mime_is_text(MIME_DEFAULT), 0, "default");
}

/* The one language-tag rule, for config.c's lang and a post's. */
static void
test_lang_ok(void)
{
	char	 long_tag[MIME_LANG_MAX + 2];

	INT_EQ(mime_lang_ok("en"), 1, "en");
	INT_EQ(mime_lang_ok("pt-BR"), 1, "pt-BR");
	INT_EQ(mime_lang_ok("zh-Hant-TW"), 1, "zh-Hant-TW");
	INT_EQ(mime_lang_ok("x-1"), 1, "digit after a hyphen");
	INT_EQ(mime_lang_ok(""), 0, "empty");
	INT_EQ(mime_lang_ok("1en"), 0, "digit first");
	INT_EQ(mime_lang_ok("-en"), 0, "hyphen first");
	INT_EQ(mime_lang_ok("en-"), 0, "hyphen last");
	INT_EQ(mime_lang_ok("en--us"), 0, "two hyphens");
	INT_EQ(mime_lang_ok("en_US"), 0, "underscore");
	INT_EQ(mime_lang_ok("en; q=1"), 0, "a parameter riding along");
	INT_EQ(mime_lang_ok("en\r\n"), 0, "CRLF");
	INT_EQ(mime_lang_ok("\xc3\xa9"), 0, "non-ASCII");
	/* The length cap: 35 bytes pass, 36 do not. */
	memset(long_tag, 'a', MIME_LANG_MAX);
	long_tag[MIME_LANG_MAX] = '\0';
	INT_EQ(mime_lang_ok(long_tag), 1, "35 bytes");
	long_tag[MIME_LANG_MAX] = 'a';
	long_tag[MIME_LANG_MAX + 1] = '\0';
	INT_EQ(mime_lang_ok(long_tag), 0, "36 bytes");
}

static const struct harness_test tests[] = {
	TEST(test_every_extension),
	TEST(test_common),
	TEST(test_unknown),
	TEST(test_is_text),
	TEST(test_lang_ok),
};

int
main(int argc, char **argv)
{
	HARNESS_INIT(argc, argv, tests);
	harness_run();
	return harness_done();
}
