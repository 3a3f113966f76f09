/*
 * mime.c -- MIME types and Gopher item types by file extension.
 *
 * One static table, sorted by extension (lower case, strcmp order), is
 * searched with bsearch().  Knows nothing of files' contents: a name is
 * all it looks at.  Owns nothing; every result is a static string.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/mime.h"
#include "core/util.h"

struct mime {
	const char	*ext;		/* lower case, no dot */
	const char	*type;
	char		 gopher;	/* RFC 1436 or de-facto item type */
};

/* Keep sorted by ext (strcmp): mime_find() relies on it. */
static const struct mime mime_table[] = {
	{ "7z",		"application/x-7z-compressed",	'9' },
	{ "aac",	"audio/aac",			's' },
	{ "asc",	"text/plain",			'0' },
	{ "atom",	"application/atom+xml",		'0' },
	{ "avi",	"video/x-msvideo",		'9' },
	{ "avif",	"image/avif",			'I' },
	{ "bash",	"text/x-sh",			'0' },
	{ "bmp",	"image/bmp",			'I' },
	{ "bz2",	"application/x-bzip2",		'9' },
	{ "c",		"text/x-c",			'0' },
	{ "cc",		"text/x-c++",			'0' },
	{ "conf",	"text/plain",			'0' },
	{ "cpp",	"text/x-c++",			'0' },
	{ "css",	"text/css",			'0' },
	{ "csv",	"text/csv",			'0' },
	{ "diff",	"text/x-diff",			'0' },
	{ "djvu",	"image/vnd.djvu",		'd' },
	{ "doc",	"application/msword",		'd' },
	{ "docx",	"application/vnd.openxmlformats-officedocument"
			".wordprocessingml.document",	'd' },
	{ "eps",	"application/postscript",	'd' },
	{ "epub",	"application/epub+zip",		'd' },
	{ "flac",	"audio/flac",			's' },
	{ "gemini",	"text/gemini",			'0' },
	{ "gif",	"image/gif",			'g' },
	{ "gmi",	"text/gemini",			'0' },
	{ "go",		"text/x-go",			'0' },
	{ "gz",		"application/gzip",		'9' },
	{ "h",		"text/x-c",			'0' },
	{ "hpp",	"text/x-c++",			'0' },
	{ "hs",		"text/x-haskell",		'0' },
	{ "htm",	"text/html",			'h' },
	{ "html",	"text/html",			'h' },
	{ "ico",	"image/vnd.microsoft.icon",	'I' },
	{ "ics",	"text/calendar",		'0' },
	{ "ini",	"text/plain",			'0' },
	{ "iso",	"application/x-iso9660-image",	'9' },
	{ "java",	"text/x-java",			'0' },
	{ "jpeg",	"image/jpeg",			'I' },
	{ "jpg",	"image/jpeg",			'I' },
	{ "js",		"text/javascript",		'0' },
	{ "json",	"application/json",		'0' },
	{ "jxl",	"image/jxl",			'I' },
	{ "log",	"text/plain",			'0' },
	{ "lua",	"text/x-lua",			'0' },
	{ "m4a",	"audio/mp4",			's' },
	{ "markdown",	"text/markdown",		'0' },
	{ "md",		"text/markdown",		'0' },
	{ "mid",	"audio/midi",			's' },
	{ "midi",	"audio/midi",			's' },
	{ "mjs",	"text/javascript",		'0' },
	{ "mkv",	"video/x-matroska",		'9' },
	{ "mov",	"video/quicktime",		'9' },
	{ "mp3",	"audio/mpeg",			's' },
	{ "mp4",	"video/mp4",			'9' },
	{ "mpeg",	"video/mpeg",			'9' },
	{ "mpg",	"video/mpeg",			'9' },
	{ "odt",	"application/vnd.oasis.opendocument.text", 'd' },
	{ "oga",	"audio/ogg",			's' },
	{ "ogg",	"audio/ogg",			's' },
	{ "ogv",	"video/ogg",			'9' },
	{ "opus",	"audio/ogg",			's' },
	{ "org",	"text/x-org",			'0' },
	{ "otf",	"font/otf",			'9' },
	{ "patch",	"text/x-diff",			'0' },
	{ "pdf",	"application/pdf",		'd' },
	{ "pl",		"text/x-perl",			'0' },
	{ "png",	"image/png",			'I' },
	{ "ps",		"application/postscript",	'd' },
	{ "py",		"text/x-python",		'0' },
	{ "rb",		"text/x-ruby",			'0' },
	{ "rs",		"text/x-rust",			'0' },
	{ "rss",	"application/rss+xml",		'0' },
	{ "rst",	"text/x-rst",			'0' },
	{ "scm",	"text/x-scheme",		'0' },
	{ "sh",		"text/x-sh",			'0' },
	{ "svg",	"image/svg+xml",		'I' },
	{ "tar",	"application/x-tar",		'9' },
	{ "tex",	"text/x-tex",			'0' },
	{ "text",	"text/plain",			'0' },
	{ "tgz",	"application/gzip",		'9' },
	{ "tif",	"image/tiff",			'I' },
	{ "tiff",	"image/tiff",			'I' },
	{ "toml",	"application/toml",		'0' },
	{ "tsv",	"text/tab-separated-values",	'0' },
	{ "ttf",	"font/ttf",			'9' },
	{ "txt",	"text/plain",			'0' },
	{ "vcf",	"text/vcard",			'0' },
	{ "wav",	"audio/wav",			's' },
	{ "webm",	"video/webm",			'9' },
	{ "webp",	"image/webp",			'I' },
	{ "woff",	"font/woff",			'9' },
	{ "woff2",	"font/woff2",			'9' },
	{ "xhtml",	"application/xhtml+xml",	'h' },
	{ "xml",	"application/xml",		'0' },
	{ "xz",		"application/x-xz",		'9' },
	{ "yaml",	"application/yaml",		'0' },
	{ "yml",	"application/yaml",		'0' },
	{ "zip",	"application/zip",		'9' },
	{ "zst",	"application/zstd",		'9' },
};

static int
cmp_ext(const void *key, const void *elem)
{
	const struct mime	*m = elem;

	return strcmp(key, m->ext);
}

const char *
mime_ext(const char *name, char ext[MIME_EXT_MAX + 1])
{
	const char	*base, *dot;
	size_t		 i, len;

	if (name == NULL)
		return NULL;
	base = strrchr(name, '/');
	base = base != NULL ? base + 1 : name;
	dot = strrchr(base, '.');
	if (dot == NULL || dot == base)
		return NULL;
	len = strlen(dot + 1);
	if (len == 0 || len > MIME_EXT_MAX)
		return NULL;
	for (i = 0; i < len; i++) {
		unsigned char	 ch = (unsigned char)dot[1 + i];

		ext[i] = (ch >= 'A' && ch <= 'Z') ? (char)(ch - 'A' + 'a') :
		    (char)ch;
	}
	ext[len] = '\0';
	return ext;
}

/* The table entry for name's extension (mime_ext()), or NULL. */
static const struct mime *
mime_find(const char *name)
{
	char	 ext[MIME_EXT_MAX + 1];

	if (mime_ext(name, ext) == NULL)
		return NULL;
	return bsearch(ext, mime_table, nitems(mime_table),
	    sizeof(mime_table[0]), cmp_ext);
}

const char *
mime_type(const char *name)
{
	const struct mime	*m;

	return (m = mime_find(name)) != NULL ? m->type : MIME_DEFAULT;
}

char
mime_gopher_type(const char *name)
{
	const struct mime	*m;

	return (m = mime_find(name)) != NULL ? m->gopher : '9';
}

char
mime_gopher_of(const char *type)
{
	size_t	 i, len;

	if (type == NULL)
		return '9';
	len = strcspn(type, "; \t");
	for (i = 0; i < nitems(mime_table); i++)
		if (strlen(mime_table[i].type) == len &&
		    strncasecmp(mime_table[i].type, type, len) == 0)
			return mime_table[i].gopher;
	if (strncasecmp(type, "text/", 5) == 0)
		return '0';
	if (strncasecmp(type, "image/", 6) == 0)
		return 'I';
	if (strncasecmp(type, "audio/", 6) == 0)
		return 's';
	return '9';
}

/* ASCII, whatever the locale says. */
static int
alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9');
}

/* A restricted name of RFC 6838, up to its '/' or end; its length. */
static size_t
type_name(const char *s)
{
	size_t	 i;

	if (!alnum(s[0]))
		return 0;
	for (i = 1; s[i] != '\0' && i < 127; i++)
		if (!alnum(s[i]) &&
		    strchr("!#$&-^_.+", s[i]) == NULL)
			break;
	return i;
}

int
mime_type_ok(const char *s)
{
	size_t	 n;

	if ((n = type_name(s)) == 0 || s[n] != '/')
		return 0;
	s += n + 1;
	return (n = type_name(s)) > 0 && s[n] == '\0';
}

int
mime_charset_ok(const char *s)
{
	size_t	 i;

	if (!alnum(s[0]))
		return 0;
	for (i = 1; s[i] != '\0'; i++)
		if (!alnum(s[i]) &&
		    strchr("-_.:+", s[i]) == NULL)
			return 0;
	return i <= MIME_CHARSET_MAX;
}

int
mime_is_text(const char *type)
{
	return type != NULL && strncasecmp(type, "text/", 5) == 0;
}

int
mime_lang_ok(const char *s)
{
	const char	*p;

	for (p = s; *p != '\0'; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (p > s && *p >= '0' && *p <= '9') ||
		    (p > s && *p == '-' && p[-1] != '-')))
			return 0;
	return p > s && p - s <= MIME_LANG_MAX && p[-1] != '-';
}
