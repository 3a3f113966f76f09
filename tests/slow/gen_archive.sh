#!/bin/sh
# gen_archive.sh N DIR -- write a capsule of N posts into DIR (made if
# missing) for the slow tests and benchmarks: index.md, N posts over ten
# years with front matter (title, date, tags from a pool of 200, a
# summary; every fourth post in one of 100 series, with a part), a body
# of about 400 words with a list, a code block and links to other
# posts, the 100 series files and an about page.  Deterministic: the
# same N gives the same bytes.  Never commit what it makes.
set -eu
n=${1:?usage: gen_archive.sh N DIR}
dir=${2:?usage: gen_archive.sh N DIR}
mkdir -p "$dir/posts" "$dir/series" "$dir/pages"
cat >"$dir/index.md" <<EOF
---
title: A Generated Capsule
subtitle: $n posts for the slow tests
author: The Generator
---
Welcome.  Everything here was written by a script.
EOF
cat >"$dir/pages/about.md" <<EOF
---
title: About
---
A page, so that pages/ is not empty.
EOF
awk -v n="$n" -v dir="$dir" '
function word(i) { return words[(i * 7919 + 13) % nwords + 1] }
BEGIN {
	nwords = split("gemini gopher capsule server archive post series " \
	    "tag feed atom plain text small web reader writer markdown " \
	    "render cache thread loop socket certificate trust first use " \
	    "menu selector link page index draft slug summary title date " \
	    "update snapshot watch debounce rebuild memory bytes request " \
	    "response status header body client protocol", words, " ")
	for (s = 0; s < 100; s++) {
		f = sprintf("%s/series/series-%03d.md", dir, s)
		printf("---\ntitle: Series number %d\nsummary: The %d" \
		    "th series.\nlevel: beginner\n---\nAn introduction to " \
		    "series %d.\n", s, s, s) > f
		close(f)
	}
	for (i = 0; i < n; i++) {
		day = i % 3650
		y = 2015 + int(day / 365); d = day % 365
		m = int(d / 28) + 1; if (m > 12) m = 12
		dd = d % 28 + 1
		date = sprintf("%04d-%02d-%02d", y, m, dd)
		f = sprintf("%s/posts/%s-post-%05d.md", dir, date, i)
		printf("---\ntitle: Post %d about %s and %s\n", i, word(i),
		    word(i + 1)) > f
		printf("date: %sT%02d:%02d:00Z\n", date, i % 24, i % 60) > f
		printf("tags: [t%03d, t%03d, %s]\n", i % 200, (i * 7) % 200,
		    word(i + 2)) > f
		if (i % 4 == 0)
			printf("series: series-%03d\npart: %d\n",
			    int(i / 4) % 100, int(i / 400) + 1) > f
		printf("summary: What post %d has to say about %s.\n---\n",
		    i, word(i + 3)) > f
		for (p = 0; p < 5; p++) {
			line = ""
			for (w = 0; w < 70; w++)
				line = line " " word(i * 31 + p * 71 + w)
			printf("%s.\n\n", substr(line, 2)) > f
		}
		printf("* a list item about %s\n* another about %s\n\n",
		    word(i + 4), word(i + 5)) > f
		printf("```c\nint x = %d;\n```\n\n", i) > f
		j = (i * 13 + 7) % n
		printf("See [an older one](post-%05d.md) and " \
		    "[the site](gemini://example.org/).\n", j) > f
		close(f)
	}
}'
