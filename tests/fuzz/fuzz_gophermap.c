/*
 * fuzz_gophermap.c -- libFuzzer target for the gophermap reader
 * (site/gophermap.c).
 *
 * The input is a gophermap; "=" includes read the input again (so
 * includes nest as deep as the reader lets them) and "*" appends a
 * fixed listing.  Whatever the input, the output must be whole menu
 * lines: CRLF-ended, exactly four fields (three TABs), no NUL, no bare
 * CR or LF, no "." line (the caller writes it), a selector of ours
 * without a dot segment; and no longer than its bound allows.
 */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/util.h"
#include "site/gophermap.h"

int	 LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* The menu's bound (env.max): small, so that inputs reach it. */
#define MAX	((size_t)64 << 10)

struct input {
	const uint8_t	*data;
	size_t		 len;
};

static char *
include(void *arg, const char *sel, size_t max, size_t *len)
{
	const struct input	*in = arg;

	assert(sel[0] == '/');
	assert(strstr(sel, "/../") == NULL && strstr(sel, "/./") == NULL);
	*len = in->len;
	if (in->len > max)
		return NULL;		/* too large: not read */
	return xstrndup((const char *)in->data, in->len);
}

static void
listing(void *arg, char *const *hide, size_t nhide, struct buf *out)
{
	size_t	 i;

	(void)arg;
	for (i = 0; i < nhide; i++)
		assert(hide[i] != NULL);
	buf_addstr(out, "0a.txt\t/d/a.txt\tlocalhost\t70\r\n");
}

static void
check(const char *s, size_t len)
{
	size_t	 i, start = 0, tabs = 0;

	for (i = 0; i < len; i++) {
		assert(s[i] != '\0');
		if (s[i] == '\t')
			tabs++;
		if (s[i] == '\r') {
			assert(i + 1 < len && s[i + 1] == '\n');
			assert(tabs == 3);
			assert(!(i - start == 1 && s[start] == '.'));
			tabs = 0;
			start = i + 2;
			i++;
		} else
			assert(s[i] != '\n');
	}
	assert(start == len);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input		 in = { data, size > 4096 ? 4096 : size };
	struct gophermap_env	 env = { "localhost", 70, "/d/", MAX,
				    include, listing, &in };
	struct buf		 out = BUF_INIT;

	gophermap_render(&env, (const char *)data, size, &out);
	check(out.data != NULL ? out.data : "", out.len);
	/* Past MAX, one line of the input (an info line of it) at most. */
	assert(out.len < MAX + 3 * size + 64);
	buf_free(&out);
	return 0;
}
