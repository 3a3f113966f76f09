/*
 * fuzz_toml.c -- libFuzzer target for toml.c and frontmatter_toml.c.
 *
 * The input is a TOML document.  toml_parse() must either give a tree
 * or fail with a placed message and no tree.  A tree must hold its
 * invariants (nesting within TOML_MAX_DEPTH, strings of their length and
 * UTF-8, keys unique in their table and found by toml_get(), date-time
 * fields in range), and it must survive a round trip: written back as
 * TOML (every key quoted, every table inline, every string escaped) it
 * must parse to an equal tree.  The same bytes between +++ lines are
 * then front matter, whose fields must be one line each, as in
 * fuzz_frontmatter.c.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "content/frontmatter.h"
#include "core/toml.h"
#include "core/buf.h"
#include "core/utf8.h"

int	 LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define CHECK(c)	do { if (!(c)) abort(); } while (0)

static void
check_dt(const struct toml_value *v)
{
	const struct toml_datetime *dt = &v->u.dt;

	if (v->type != TOML_LOCAL_TIME) {
		CHECK(dt->year >= 0 && dt->year <= 9999);
		CHECK(dt->month >= 1 && dt->month <= 12);
		CHECK(dt->day >= 1 && dt->day <= 31);
	}
	CHECK(dt->hour >= 0 && dt->hour <= 23);
	CHECK(dt->minute >= 0 && dt->minute <= 59);
	CHECK(dt->second >= 0 && dt->second <= 60);
	CHECK(dt->nsec >= 0 && dt->nsec < 1000000000);
	CHECK(dt->offset > -24 * 60 && dt->offset < 24 * 60);
	CHECK(v->type == TOML_DATETIME || dt->offset == 0);
}

static void
check(const struct toml_value *v, int depth, size_t size)
{
	const struct toml_kv	*kv;
	size_t			 i;

	/* Tables and arrays nest TOML_MAX_DEPTH deep, a value one more. */
	CHECK(depth <= TOML_MAX_DEPTH ||
	    (depth == TOML_MAX_DEPTH + 1 && v->type != TOML_TABLE &&
	    v->type != TOML_ARRAY));
	CHECK(v->off <= size);
	switch (v->type) {
	case TOML_TABLE:
		for (i = 0; i < v->u.table.n; i++) {
			kv = &v->u.table.kv[i];
			CHECK(kv->key[kv->keylen] == '\0');
			CHECK(utf8_valid(kv->key, kv->keylen));
			if (strlen(kv->key) == kv->keylen)
				CHECK(toml_get(v, kv->key) == kv->val);
			check(kv->val, depth + 1, size);
		}
		break;
	case TOML_ARRAY:
		for (i = 0; i < v->u.array.n; i++)
			check(v->u.array.v[i], depth + 1, size);
		break;
	case TOML_STRING:
		CHECK(v->u.str.s[v->u.str.len] == '\0');
		CHECK(utf8_valid(v->u.str.s, v->u.str.len));
		break;
	case TOML_INTEGER:
	case TOML_FLOAT:
	case TOML_BOOL:
		break;
	case TOML_DATETIME:
	case TOML_LOCAL_DATETIME:
	case TOML_LOCAL_DATE:
	case TOML_LOCAL_TIME:
		check_dt(v);
		break;
	}
}

static void
write_str(struct buf *b, const char *s, size_t len)
{
	size_t	 i;

	buf_addc(b, '"');
	for (i = 0; i < len; i++) {
		unsigned char	 c = (unsigned char)s[i];

		if (c == '"' || c == '\\') {
			buf_addc(b, '\\');
			buf_addc(b, c);
		} else if (c < 0x20 || c == 0x7F)
			buf_printf(b, "\\u%04X", c);
		else
			buf_addc(b, c);
	}
	buf_addc(b, '"');
}

static void
write_clock(struct buf *b, const struct toml_datetime *dt)
{
	buf_printf(b, "%02d:%02d:%02d", dt->hour, dt->minute, dt->second);
	if (dt->nsec != 0)
		buf_printf(b, ".%09ld", dt->nsec);
}

/* v as a TOML value on one line. */
static void
write_value(struct buf *b, const struct toml_value *v)
{
	const struct toml_datetime *dt = &v->u.dt;
	char	 num[64];
	size_t	 i;

	switch (v->type) {
	case TOML_TABLE:
		buf_addc(b, '{');
		for (i = 0; i < v->u.table.n; i++) {
			buf_addstr(b, i ? ", " : " ");
			write_str(b, v->u.table.kv[i].key,
			    v->u.table.kv[i].keylen);
			buf_addstr(b, " = ");
			write_value(b, v->u.table.kv[i].val);
		}
		buf_addstr(b, " }");
		break;
	case TOML_ARRAY:
		buf_addc(b, '[');
		for (i = 0; i < v->u.array.n; i++) {
			if (i > 0)
				buf_addstr(b, ", ");
			write_value(b, v->u.array.v[i]);
		}
		buf_addc(b, ']');
		break;
	case TOML_STRING:
		write_str(b, v->u.str.s, v->u.str.len);
		break;
	case TOML_INTEGER:
		buf_printf(b, "%lld", (long long)v->u.integer);
		break;
	case TOML_FLOAT:
		if (isnan(v->u.flt))
			buf_addstr(b, "nan");
		else if (isinf(v->u.flt))
			buf_addstr(b, v->u.flt < 0 ? "-inf" : "inf");
		else {
			snprintf(num, sizeof(num), "%.17g", v->u.flt);
			buf_addstr(b, num);
			if (strpbrk(num, ".e") == NULL)
				buf_addstr(b, ".0");
		}
		break;
	case TOML_BOOL:
		buf_addstr(b, v->u.boolean ? "true" : "false");
		break;
	case TOML_DATETIME:
	case TOML_LOCAL_DATETIME:
	case TOML_LOCAL_DATE:
		buf_printf(b, "%04d-%02d-%02d", dt->year, dt->month, dt->day);
		if (v->type == TOML_LOCAL_DATE)
			break;
		buf_addc(b, 'T');
		write_clock(b, dt);
		if (v->type == TOML_DATETIME)
			buf_printf(b, "%c%02d:%02d", dt->offset < 0 ? '-' : '+',
			    abs(dt->offset) / 60, abs(dt->offset) % 60);
		break;
	case TOML_LOCAL_TIME:
		write_clock(b, dt);
		break;
	}
}

static int
equal(const struct toml_value *a, const struct toml_value *b)
{
	const struct toml_kv	*ka, *kb;
	size_t			 i;

	if (a->type != b->type)
		return 0;
	switch (a->type) {
	case TOML_TABLE:
		if (a->u.table.n != b->u.table.n)
			return 0;
		for (i = 0; i < a->u.table.n; i++) {
			ka = &a->u.table.kv[i];
			kb = &b->u.table.kv[i];
			if (ka->keylen != kb->keylen || memcmp(ka->key, kb->key,
			    ka->keylen) != 0 || !equal(ka->val, kb->val))
				return 0;
		}
		return 1;
	case TOML_ARRAY:
		if (a->u.array.n != b->u.array.n)
			return 0;
		for (i = 0; i < a->u.array.n; i++)
			if (!equal(a->u.array.v[i], b->u.array.v[i]))
				return 0;
		return 1;
	case TOML_STRING:
		return a->u.str.len == b->u.str.len &&
		    memcmp(a->u.str.s, b->u.str.s, a->u.str.len) == 0;
	case TOML_INTEGER:
		return a->u.integer == b->u.integer;
	case TOML_FLOAT:
		if (isnan(a->u.flt))
			return isnan(b->u.flt);
		return memcmp(&a->u.flt, &b->u.flt, sizeof(double)) == 0;
	case TOML_BOOL:
		return a->u.boolean == b->u.boolean;
	case TOML_DATETIME:
	case TOML_LOCAL_DATETIME:
	case TOML_LOCAL_DATE:
	case TOML_LOCAL_TIME:
		return memcmp(&a->u.dt, &b->u.dt, sizeof(a->u.dt)) == 0;
	}
	return 0;
}

/* One line, trimmed, no control character (as fuzz_frontmatter.c). */
static void
check_line(const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 len, i;

	if (s == NULL)
		return;
	len = strlen(s);
	CHECK(len > 0 && p[0] != ' ' && p[len - 1] != ' ');
	for (i = 0; i < len; i++)
		CHECK(p[i] >= 0x20 && p[i] != 0x7F);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char		*src = (const char *)data;
	struct toml_value	*root, *again;
	struct toml_error	 err;
	struct meta		 m;
	struct fm_error		 fe;
	struct buf		 b = BUF_INIT;
	size_t			 i;

	if (toml_parse(src, size, &root, &err) == -1) {
		CHECK(root == NULL);
		CHECK(err.line >= 1 && err.col >= 1 && err.off <= size);
		CHECK(err.msg[0] != '\0');
	} else {
		CHECK(root != NULL && root->type == TOML_TABLE);
		check(root, 0, size);
		for (i = 0; i < root->u.table.n; i++) {
			write_str(&b, root->u.table.kv[i].key,
			    root->u.table.kv[i].keylen);
			buf_addstr(&b, " = ");
			write_value(&b, root->u.table.kv[i].val);
			buf_addc(&b, '\n');
		}
		CHECK(toml_parse(b.data ? b.data : "", b.len, &again,
		    &err) == 0);
		CHECK(equal(root, again));
		toml_free(again);
		toml_free(root);
		buf_truncate(&b, 0);
	}

	buf_addstr(&b, "+++\n");
	buf_add(&b, src, size);
	buf_addstr(&b, "\n+++\nbody\n");
	if (frontmatter_parse(b.data, b.len, &m, &fe) == 0) {
		CHECK(m.body_off <= b.len);
		check_line(m.title);
		check_line(m.summary);
		check_line(m.series);
		check_line(m.author);
		check_line(m.lang);
		for (i = 0; i < m.ntags; i++)
			check_line(m.tags[i]);
		if (m.has_date)
			CHECK(strlen(m.date.ymd) == 10);
		meta_free(&m);
	} else
		CHECK(fe.line >= 1 && fe.col >= 1 && fe.msg[0] != '\0');
	buf_free(&b);
	return 0;
}
