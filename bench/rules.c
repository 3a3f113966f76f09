/*
 * rules.c -- what finding a configured path rule costs: 1,000
 * "redirects" loaded as capsuled loads them, then looked up in a loop.
 *
 *	rules SHAPE [ROUNDS]
 *
 * SHAPE is the rule set and the paths asked for:
 *   exact-hit    1,000 exact rules ("/posts/old-0042: /posts/new-0042"),
 *                each path a rule's
 *   exact-miss   the same rules, no path a rule's (what every request
 *                the content answers 51 asks)
 *   mixed-miss   900 exact rules and 100 prefix rules ("/section-0042/" and
 *                a final '*'), no path held
 *   prefix-hit   1,000 prefix rules, each path three segments below one
 *
 * Each round asks 1,000 paths with redirect_match() (core/redirect.h),
 * in lookups(), so that callgrind can count that function alone, apart
 * from the load (load()):
 *
 *	valgrind --tool=callgrind --toggle-collect=lookups \
 *	    build/bench/rules exact-miss
 *
 * ("Collected" is the loop's instructions: divide by ROUNDS x 1,000.)
 * Uses only what redirect.h has had since redirects took patterns, so
 * the same file builds against an older tree for a before/after count.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/config.h"
#include "core/redirect.h"

#define NRULES	1000

static const char *const shapes[] = {
	"exact-hit", "exact-miss", "mixed-miss", "prefix-hit",
};

/* The configuration of shape s, malloc'd. */
static char *
yaml_of(int s)
{
	struct buf	 b = BUF_INIT;
	char		 line[128];
	int		 i;

	buf_addstr(&b, "redirects:\n");
	for (i = 0; i < NRULES; i++) {
		if (s == 3 || (s == 2 && i % 10 == 0))
			snprintf(line, sizeof(line), "  /section-%04d/*: "
			    "/s%04d/*\n", i, i);
		else
			snprintf(line, sizeof(line), "  /posts/old-%04d: "
			    "/posts/new-%04d\n", i, i);
		buf_addstr(&b, line);
	}
	return b.data;
}

/* The i-th path asked for in shape s, into p. */
static void
path_of(int s, int i, char *p, size_t len)
{
	switch (s) {
	case 0:
		snprintf(p, len, "/posts/old-%04d", i);
		break;
	case 1:
		snprintf(p, len, "/posts/other-%04d", i);
		break;
	case 2:
		snprintf(p, len, "/posts/other-%04d/x", i);
		break;
	default:
		snprintf(p, len, "/section-%04d/a/b/c.gmi", i);
		break;
	}
}

static void
load(struct config *c, const char *yaml)
{
	char	 err[512];

	if (config_load_buffer(c, "/tmp/rules.yaml", yaml, strlen(yaml), err,
	    sizeof(err)) == -1) {
		fprintf(stderr, "rules: %s\n", err);
		exit(1);
	}
}

/* Not inlined: callgrind counts this function (--toggle-collect). */
__attribute__((noinline)) static size_t
lookups(const struct config *c, char paths[][64], int rounds)
{
	size_t	 found = 0;
	int	 r, i;

	for (r = 0; r < rounds; r++)
		for (i = 0; i < NRULES; i++)
			found += redirect_match(c->redirects, c->nredirects,
			    paths[i]) != NULL;
	return found;
}

int
main(int argc, char **argv)
{
	static char	 paths[NRULES][64];
	struct config	 c;
	char		*yaml;
	size_t		 found;
	int		 s, i, rounds = argc > 2 ? atoi(argv[2]) : 10;

	for (s = 0; argc > 1 && s < 4 && strcmp(argv[1], shapes[s]) != 0; s++)
		;
	if (argc < 2 || s == 4 || rounds < 1) {
		fprintf(stderr, "usage: rules exact-hit|exact-miss|mixed-miss|"
		    "prefix-hit [ROUNDS]\n");
		return 2;
	}
	yaml = yaml_of(s);
	load(&c, yaml);
	for (i = 0; i < NRULES; i++)
		path_of(s, i, paths[i], sizeof(paths[i]));
	found = lookups(&c, paths, rounds);
	printf("%s: %d lookups among %zu rules, %zu found\n", shapes[s],
	    rounds * NRULES, c.nredirects, found);
	config_free(&c);
	free(yaml);
	return 0;
}
