/*
 * slug.c -- the names a snapshot makes from the names writers give:
 * slugs, tag keys, and what a post's file name says.
 *
 * archive_slugify() is the one rule that turns a name into the part of
 * a URL that names a post, a series or a tag; slug_tag_key() the one
 * that tells which written tags are one tag.  Both fold Latin letters
 * through core/fold.h, so "Café" and "cafe" make one slug.  Knows
 * UTF-8 and dates in file names; nothing of files on disk.  Every
 * string returned is malloc'd, the caller's.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "content/slug.h"
#include "core/buf.h"
#include "core/capfile.h"
#include "core/date.h"
#include "core/fold.h"
#include "core/utf8.h"
#include "core/util.h"

/* ---- slugs ---------------------------------------------------------- */

/* One code point of the NUL-terminated p: its length, at least 1. */
static size_t
next_cp(const unsigned char *p, uint32_t *cp)
{
	return utf8_decode((const char *)p, strnlen((const char *)p, 4), cp);
}

static int
is_alnum(uint32_t c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9');
}

/* Punctuation and spaces outside ASCII, bad bytes: separators in a slug. */
static int
is_punct_cp(uint32_t cp)
{
	return cp == UTF8_INVALID || (cp >= 0x80 && cp <= 0xBF) ||
	    cp == 0xD7 || cp == 0xF7 || (cp >= 0x2000 && cp <= 0x206F) ||
	    (cp >= 0x3000 && cp <= 0x303F) || cp == 0xFEFF || cp == 0xFFFD;
}

struct slug {
	struct buf	 b;
	int		 sep;		/* a '-' is due before the next char */
};

static void
slug_add(struct slug *s, const char *w)
{
	if (s->sep && s->b.len > 0)
		buf_addc(&s->b, '-');
	s->sep = 0;
	buf_addstr(&s->b, w);
}

/* A word of its own: "c++" -> "c-plus-plus". */
static void
slug_word(struct slug *s, const char *w)
{
	s->sep = 1;
	slug_add(s, w);
	s->sep = 1;
}

/*
 * slug = 1*(a-z / 0-9) *("-" 1*(a-z / 0-9))
 * ASCII letters and digits are kept (lower-cased); Latin-1 and Latin
 * Extended-A letters fold to ASCII (é -> e, ß -> ss, ł -> l); "+" is
 * "plus", "&" is "and", "#" after a letter or digit is "sharp" (C#);
 * apostrophes vanish (don't -> dont); every other letter becomes a word
 * "u<hex>" (漢 -> u6f22), so every name has a reachable slug; anything
 * else is a separator, and runs of separators are one "-".
 */
char *
archive_slugify(const char *name)
{
	struct slug		 s;
	const unsigned char	*p = (const unsigned char *)name;
	const char		*ascii;
	char			 tmp[16];
	uint32_t		 cp;
	int			 prev_alnum = 0;

	buf_init(&s.b);
	s.sep = 0;
	while (*p != '\0') {
		p += next_cp(p, &cp);
		if (is_alnum(cp)) {
			tmp[0] = (char)(cp >= 'A' && cp <= 'Z' ? cp + 32 : cp);
			tmp[1] = '\0';
			slug_add(&s, tmp);
			prev_alnum = 1;
			continue;
		}
		if (cp == '\'' || cp == 0x2019)
			continue;
		if (cp == '+')
			slug_word(&s, "plus");
		else if (cp == '&')
			slug_word(&s, "and");
		else if (cp == '#' && prev_alnum)
			slug_word(&s, "sharp");
		else if ((ascii = fold_latin(cp)) != NULL) {
			slug_add(&s, ascii);
			prev_alnum = 1;
			continue;
		} else if (cp >= 0x80 && !is_punct_cp(cp)) {
			snprintf(tmp, sizeof(tmp), "u%lx", (unsigned long)cp);
			slug_word(&s, tmp);
		} else
			s.sep = 1;
		prev_alnum = 0;
	}
	buf_add(&s.b, "", 0);		/* NUL-terminated even when empty */
	return buf_release(&s.b);
}

/*
 * The slug Pelican makes of a title: what is no letter, digit, blank,
 * "-" or "_" dropped ("C'est l'été" is "cest-lete", not "c-est-l-ete"),
 * then slugified as any name is.
 */
static char *
title_slug(const char *title)
{
	char	*t, *s;
	size_t	 i, n = 0;

	t = xstrdup(title);
	for (i = 0; t[i] != '\0'; i++)
		if ((unsigned char)t[i] >= 0x80 ||
		    isalnum((unsigned char)t[i]) ||
		    strchr(" \t-_", t[i]) != NULL)
			t[n++] = t[i];
	t[n] = '\0';
	s = archive_slugify(t);
	free(t);
	return s;
}

char *
archive_file_slug(const char *fmslug, const char *title, const char *name,
    int *used)
{
	struct date	 d;
	char		*stem, *s;
	const char	*base;
	size_t		 len = strlen(name);

	if (used != NULL)
		*used = 0;
	if (fmslug != NULL) {
		s = archive_slugify(fmslug);
		if (*s != '\0') {
			if (used != NULL)
				*used = 1;
			return s;
		}
		free(s);
	}
	if (title != NULL) {
		s = title_slug(title);
		if (*s != '\0')
			return s;
		free(s);
	}
	if (len > 3 && strcmp(name + len - 3, ".md") == 0)
		len -= 3;
	stem = xstrndup(name, len);
	base = stem + date_from_filename(stem, &d);
	s = archive_slugify(*base != '\0' ? base : stem);
	free(stem);
	return s;
}

/* Lower-case of cp for the letters we group tags by (Latin scripts). */
static uint32_t
lower_cp(uint32_t cp)
{
	if (cp >= 'A' && cp <= 'Z')
		return cp + 32;
	if (cp >= 0xC0 && cp <= 0xDE && cp != 0xD7)
		return cp + 32;
	if (((cp >= 0x100 && cp <= 0x137) || (cp >= 0x14A && cp <= 0x177)) &&
	    cp % 2 == 0)
		return cp + 1;
	if (((cp >= 0x139 && cp <= 0x148) || (cp >= 0x179 && cp <= 0x17E)) &&
	    cp % 2 == 1)
		return cp + 1;
	if (cp == 0x178)
		return 0xFF;
	return cp;
}

/*
 * The key tags are grouped by: case folded, runs of blanks, "-" and "_"
 * made one "-", ends trimmed.  "Small Web", "small-web" and "SMALL_WEB"
 * are one tag.
 */
char *
slug_tag_key(const char *name)
{
	struct buf		 b = BUF_INIT;
	const unsigned char	*p = (const unsigned char *)name, *q;
	uint32_t		 cp;
	int			 sep = 0;

	while (*p != '\0') {
		q = p;
		p += next_cp(p, &cp);
		if (cp == ' ' || cp == '\t' || cp == '-' || cp == '_' ||
		    cp == 0xA0) {
			sep = 1;
			continue;
		}
		if (sep && b.len > 0)
			buf_addc(&b, '-');
		sep = 0;
		if (cp == UTF8_INVALID)
			buf_addc(&b, *q);
		else
			utf8_add(&b, lower_cp(cp));
	}
	buf_add(&b, "", 0);
	return buf_release(&b);
}

/* ---- posts' file names ---------------------------------------------- */

int
archive_md_name(const char *name)
{
	return capfile_markdown(name);
}

int
archive_gmi_name(const char *name)
{
	return capfile_gemtext(name);
}

/*
 * The stem a post's slug and date come from: "2024-01-01-x" for
 * "2024-01-01-x.md" (or ".gmi", in any folder: "2019/2024-01-01-x.md"),
 * the folder's name for a bundle's "2024-01-01-x/index.md" (or
 * "blog/2024-01-01-x/index.md").
 */
void
slug_post_stem(const char *name, char *stem, size_t size)
{
	const char	*end, *start, *dot;

	if (capfile_bundle_path(name))
		end = strrchr(name, '/');
	else if ((dot = strrchr(name, '.')) != NULL &&
	    (capfile_markdown(name) || capfile_gemtext(name)))
		end = dot;
	else
		end = name + strlen(name);
	for (start = end; start > name && start[-1] != '/'; start--)
		;
	snprintf(stem, size, "%.*s", (int)(end - start), start);
}

/* Edits between a and b (Levenshtein), from at most 200 bytes of each. */
static size_t
distance(const char *a, const char *b)
{
	size_t	 la = strnlen(a, 200), lb = strnlen(b, 200), i, j;
	size_t	 row[201], diag, up;

	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		diag = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			up = row[j];
			row[j] = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < row[j])
				row[j] = up + 1;
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			diag = up;
		}
	}
	return row[lb];
}

size_t
slug_nearness(const char *a, const char *b)
{
	char	*sa = archive_slugify(a), *sb = archive_slugify(b);
	size_t	 d;

	if (*sa != '\0' && *sb != '\0' && (strstr(sa, sb) != NULL ||
	    strstr(sb, sa) != NULL))
		d = 0;
	else
		d = 1 + distance(sa, sb);
	free(sa);
	free(sb);
	return d;
}
