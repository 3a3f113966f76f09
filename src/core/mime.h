/*
 * mime.h -- what a file is, judged by its extension.
 *
 * One table, sorted by extension, gives each known extension a MIME type
 * (for Gemini's 20 header) and a Gopher item type (for menus).  Knows
 * nothing of files' contents or of the protocols: callers add charset
 * and lang parameters themselves, and mime_lang_ok() is the one rule
 * for what a lang parameter may hold.  Every string returned is static.
 */
#ifndef CAPSULED_MIME_H
#define CAPSULED_MIME_H

#define MIME_DEFAULT	"application/octet-stream"
/* Longer than any extension in the table: longer ones are unknown. */
#define MIME_EXT_MAX	16

/*
 * MIME type of a file name, by its extension (case-insensitive; only the
 * last component of a path counts).  text/gemini for .gmi and .gemini,
 * text/markdown for .md.  MIME_DEFAULT when unknown, when there is no
 * extension, or for a dot file such as ".profile".  Never NULL.
 */
const char	*mime_type(const char *name);

/*
 * Gopher item type of a file name: '0' text (including Markdown, gemtext,
 * source code, JSON and XML), 'I' images (SVG too), 'g' GIF, 'h' HTML,
 * 's' audio, 'd' documents (PDF, PostScript, EPUB, office files), '9'
 * anything else, video and unknown extensions included.
 */
char		 mime_gopher_type(const char *name);

/*
 * The extension of a file name, lower-cased into ext (what follows the
 * last '.' of the last path component, provided that dot is not the
 * component's first byte: ".profile" has none): ext, or NULL when there
 * is none or it is longer than MIME_EXT_MAX.
 */
const char	*mime_ext(const char *name, char ext[MIME_EXT_MAX + 1]);

/*
 * The Gopher item type of a MIME type, for types the table does not
 * give by extension (core/config_types.c): that of the first table
 * entry of the same type (case-insensitive, parameters ignored), else
 * by its top-level type: '0' text/, 'I' image/, 's' audio/, '9' the
 * rest.  So "text/html" is 'h', "image/gif" 'g' and "application/pdf"
 * 'd', as when the table types a file.
 */
char		 mime_gopher_of(const char *type);

/*
 * 1 when s is a type for a 20 header, without parameters:
 *   type = name "/" name
 *   name = ALNUM *126( ALNUM / "!" / "#" / "$" / "&" / "-" / "^" /
 *          "_" / "." / "+" )
 * (RFC 6838's restricted names), else 0.
 */
int		 mime_type_ok(const char *s);

/*
 * 1 when s is a charset parameter's value: 1 to MIME_CHARSET_MAX bytes
 * of ALNUM / "-" / "_" / "." / ":" / "+", starting with ALNUM (the
 * IANA names such as utf-8, iso-8859-1, Shift_JIS), else 0.
 */
#define MIME_CHARSET_MAX	40
int		 mime_charset_ok(const char *s);

/* 1 when type is "text/...", case-insensitive (to add charset/lang). */
int		 mime_is_text(const char *type);

/*
 * 1 when s is a language tag for a lang parameter, else 0:
 *   lang = ALPHA *(ALPHA / DIGIT / "-"), no "--", not ending in "-",
 *   1 to MIME_LANG_MAX bytes
 * (the shape of RFC 5646 tags such as en, pt-BR or zh-Hant-TW, without
 * its registry).  Nothing else may ride along into "lang=...".  The
 * site's lang (config.c) and a post's (frontmatter.c) are both checked
 * here.
 */
#define MIME_LANG_MAX	35
int		 mime_lang_ok(const char *s);

#endif
