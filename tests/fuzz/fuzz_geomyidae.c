/*
 * fuzz_geomyidae.c -- libFuzzer target for the geomyidae menu reader
 * (site/geomyidae.c).
 *
 * The input is a .gph file.  As Gopher menu lines, whatever the input,
 * the output must be whole menu lines: CRLF-ended, exactly four fields
 * (three TABs), no NUL, no bare CR or LF, no "." line (the caller writes
 * it), a selector of ours that names a file without a dot segment, and
 * no longer than its bound allows.  As a page emitted in gemtext, every
 * line must be LF ended, without NUL, and every link line must carry a
 * URL.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/url.h"
#include "core/util.h"
#include "site/geomyidae.h"
#include "site/page.h"

int	 LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* The menu's bound (env.max): small, so that inputs reach it. */
#define MAX	((size_t)64 << 10)

static void
check_menu(const char *s, size_t len)
{
	size_t	 i, start = 0, tabs = 0;
	char	*line, *f[4], *p;
	int	 k;

	for (i = 0; i < len; i++) {
		assert(s[i] != '\0');
		if (s[i] == '\t')
			tabs++;
		if (s[i] == '\r') {
			assert(i + 1 < len && s[i + 1] == '\n');
			assert(tabs == 3);
			assert(!(i - start == 1 && s[start] == '.'));
			line = xstrndup(s + start, i - start);
			for (p = line, k = 0; k < 4; k++) {
				f[k] = p;
				if ((p = strchr(p, '\t')) != NULL)
					*p++ = '\0';
			}
			/*
			 * Ours, of a type that names a file: a selector
			 * without a dot segment (a telnet or CSO item's is
			 * another protocol's, kept as geomyidae keeps it).
			 */
			if (strcmp(f[2], "localhost") == 0 &&
			    strcmp(f[3], "70") == 0 && f[1][0] == '/' &&
			    strchr("i238wT", f[0][0]) == NULL)
				assert(!url_has_dot_segment(f[1]));
			free(line);
			tabs = 0;
			start = i + 2;
			i++;
		} else
			assert(s[i] != '\n');
	}
	assert(start == len);
}

static void
check_page(const char *s, size_t len)
{
	size_t	 i, start = 0;

	for (i = 0; i < len; i++) {
		assert(s[i] != '\0' && s[i] != '\r');
		if (s[i] != '\n')
			continue;
		if (i - start >= 2 && s[start] == '=' && s[start + 1] == '>')
			assert(i - start > 3 && s[start + 2] == ' ' &&
			    s[start + 3] != ' ');
		start = i + 1;
	}
	assert(start == len);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gophermap_env	 env = { .host = "localhost", .port = 70,
	    .dir = "/d/", .max = MAX };
	struct page_target	 t;
	struct page		 p;
	struct buf		 out = BUF_INIT;

	geomyidae_render(&env, (const char *)data, size, &out);
	check_menu(out.data != NULL ? out.data : "", out.len);
	/* Past MAX, one line of the input at most. */
	assert(out.len < MAX + 3 * size + 64);
	buf_free(&out);

	page_init(&p);
	geomyidae_page(&env, (const char *)data, size, &p);
	memset(&t, 0, sizeof(t));
	t.format = FORMAT_GEMTEXT;
	t.host = "localhost";
	t.port = 1965;
	page_emit_gemtext(&p, &t, &out);
	check_page(out.data != NULL ? out.data : "", out.len);
	buf_free(&out);
	page_free(&p);
	return 0;
}
