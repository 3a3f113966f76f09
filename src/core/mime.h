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
