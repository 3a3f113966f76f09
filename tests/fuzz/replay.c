/*
 * replay.c -- main() for a fuzz harness built without libFuzzer: feed
 * every file of tests/fuzz/seeds/NAME/ (NAME from -DFUZZ_NAME) to
 * LLVMFuzzerTestOneInput() once.
 *
 * The Makefile builds one of these per harness into BUILD/tests/
 * test_seeds_NAME, so `make test` and `make asan` replay every seed,
 * and with them every input that once crashed a target (the crash-*
 * seeds): a bug found by fuzzing stays a test.  A harness aborts on a
 * broken contract, ASan and UBSan on memory errors and undefined
 * behaviour; either way this program dies and the suite counts a
 * failure.  Otherwise it prints "N passed, 0 failed".
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"

#ifndef FUZZ_NAME
#error "build with -DFUZZ_NAME='\"name\"'"
#endif

int	 LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static int
cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
main(void)
{
	const char	*top = getenv("CAPSULED_TOP");
	char		 dir[1024], path[1300], chunk[65536], **names = NULL;
	struct dirent	*de;
	struct buf	 b;
	size_t		 n = 0, i, got;
	DIR		*d;
	FILE		*f;

	snprintf(dir, sizeof(dir), "%s/tests/fuzz/seeds/%s",
	    top != NULL ? top : ".", FUZZ_NAME);
	if ((d = opendir(dir)) == NULL) {
		perror(dir);
		printf("0 passed, 1 failed\n");
		return 1;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		names = realloc(names, (n + 1) * sizeof(*names));
		names[n++] = strdup(de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if ((f = fopen(path, "rb")) == NULL) {
			perror(path);
			printf("%zu passed, 1 failed\n", i);
			return 1;
		}
		buf_init(&b);
		while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0)
			buf_add(&b, chunk, got);
		fclose(f);
		/* Name it first: a crash then says which seed it was. */
		fprintf(stderr, "%s: %s\n", FUZZ_NAME, names[i]);
		(void)LLVMFuzzerTestOneInput((const uint8_t *)(b.data ?
		    b.data : ""), b.len);
		buf_free(&b);
		free(names[i]);
	}
	free(names);
	printf("%zu passed, 0 failed\n", n);
	return 0;
}
