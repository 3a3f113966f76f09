#!/bin/sh
# links.sh -- every relative link of README.md and docs/*.md resolves:
# the file or directory it names exists (relative to the document), and
# a "#anchor" names a heading of the Markdown file it points into, by
# GitHub's rule (the heading's text in lower case, Markdown's marks and
# punctuation dropped, each space a '-', a repeated anchor "-1", "-2").
# Links in code (fenced blocks, code spans) are examples, not links, and
# absolute URLs (gemini://, https://, mailto:) are not followed.  The
# keys themselves are checked elsewhere (man.sh, and
# tests/unit/test_config_sites.c against the parser's table, both ways).
#
# And every citation of a section in the tree's comments and texts
# (src/, tests/, config/, man/, contrib/, mk/, bench/), README.md or
# docs/NAME.md and a quoted heading (docs/operating.md, then "Static
# trees" in quotes; the heading may run over lines, and "and" adds a
# second one), names a heading of that file by the same rule, so a
# section that moves cannot leave its citations behind.
set -u
. "$(dirname "$0")/e2e.subr"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# The anchors of a Markdown file, one a line.
anchors() {
	awk '
	    /^```/ { fence = !fence; next }
	    fence || !/^#+ / { next }
	    {
		h = $0
		sub(/^#+ +/, "", h); sub(/ +#* *$/, "", h)
		# [text](target) is its text; marks and ASCII punctuation go,
		# but for "-" and "_", which GitHub keeps.
		while (match(h, /\[[^]]*\]\([^)]*\)/)) {
			t = substr(h, RSTART + 1, RLENGTH)
			sub(/\].*/, "", t)
			h = substr(h, 1, RSTART - 1) t substr(h, RSTART + RLENGTH)
		}
		h = tolower(h)
		gsub(/[!-,.\/:-@[\\\]^`{-~]/, "", h)
		gsub(/—|–|’|‘|“|”|…|·|→|←|×/, "", h)
		gsub(/ /, "-", h)
		n = seen[h]++
		print (n == 0 ? h : h "-" n)
	    }' "$1"
}

# The link targets of a Markdown file, one a line: [text](target) and
# ![alt](target), outside code.
targets() {
	awk '
	    /^ *```/ { fence = !fence; next }
	    fence { next }
	    {
		l = $0
		gsub(/`[^`]*`/, "", l)
		while (match(l, /\]\([^)[:space:]]+( "[^"]*")?\)/)) {
			t = substr(l, RSTART + 2, RLENGTH - 3)
			sub(/ ".*/, "", t)
			print t
			l = substr(l, RSTART + RLENGTH)
		}
	    }' "$1"
}

docs="$top/README.md"
for f in "$top"/docs/*.md; do
	[ -f "$f" ] && docs="$docs $f"
done
n=0
for doc in $docs; do
	rel=${doc#"$top"/}
	dir=$(dirname "$doc")
	targets "$doc" >"$tmp/targets"
	while IFS= read -r t; do
		case $t in
		*:*) continue ;;	# gemini://, https://, mailto:
		esac
		n=$((n + 1))
		path=${t%%#*}
		anchor=
		case $t in *'#'*) anchor=${t#*#} ;; esac
		if [ -z "$path" ]; then
			file=$doc
		else
			file=$dir/$path
		fi
		if [ ! -e "$file" ]; then
			nok "$rel: link to $t: $path does not exist"
			continue
		fi
		if [ -n "$anchor" ]; then
			case $file in
			*.md) ;;
			*) nok "$rel: link to $t: an anchor into a file that" \
			    "is not Markdown"; continue ;;
			esac
			if anchors "$file" | grep -qxF -- "$anchor"; then
				ok
			else
				nok "$rel: link to $t: no heading" \
				    "'#$anchor' in ${file#"$top"/}"
			fi
		else
			ok
		fi
	done <"$tmp/targets"
done
[ "$n" -gt 20 ] && ok || nok "only $n relative links found: is the reader broken?"

# The section citations of files, one a line: FILE<TAB>DOC<TAB>HEADING.
# A line's comment marks (" * ", "# ", "//") are dropped and a file's
# lines joined, so a heading may run across lines.
citations() {
	awk '
	    function scan(f,   t, c, doc, h) {
		t = text
		while (match(t, /(README(\.md)?|docs\/[A-Za-z0-9_-]+\.md),? "[^"]+"/)) {
			c = substr(t, RSTART, RLENGTH)
			t = substr(t, RSTART + RLENGTH)
			doc = c; sub(/,? ".*/, "", doc)
			if (doc == "README") doc = "README.md"
			for (;;) {
				h = c; sub(/^[^"]*"/, "", h); sub(/"$/, "", h)
				print f "\t" doc "\t" h
				if (!match(t, /^,? and "[^"]+"/))
					break
				c = substr(t, RSTART, RLENGTH)
				t = substr(t, RSTART + RLENGTH)
			}
		}
	    }
	    FNR == 1 { if (NR > 1) scan(f); f = FILENAME; text = "" }
	    {
		l = $0
		sub(/^[ \t]*(\*|#+|\/\/)?[ \t]*/, "", l)
		text = text " " l
	    }
	    END { if (NR > 0) scan(f) }' "$@"
}

# cited ROOT FILE...: each citation of FILE... whose document (relative
# to ROOT) is missing or has no such heading, one a line.
cited() {
	_root=$1; shift
	citations "$@" | while IFS="$tab" read -r f doc h; do
		if [ ! -f "$_root/$doc" ]; then
			echo "${f#"$_root"/}: cites $doc, \"$h\": no such file"
			continue
		fi
		printf '# %s\n' "$h" >"$tmp/heading"
		a=$(anchors "$tmp/heading")
		anchors "$_root/$doc" | grep -qxF -- "$a" ||
		    echo "${f#"$_root"/}: cites $doc, \"$h\": no such heading"
	done
}

tab=$(printf '\t')
files=$(cd "$top" && grep -rlIE 'README|docs/' src tests config man \
    contrib mk bench | grep -vxF tests/e2e/links.sh | sed "s|^|$top/|")
c=$(citations $files | wc -l)
[ "$c" -gt 40 ] && ok || nok "only $c section citations found: is the reader broken?"
cited "$top" $files >"$tmp/cited"
if [ -s "$tmp/cited" ]; then
	while IFS= read -r l; do nok "$l"; done <"$tmp/cited"
else
	ok
fi

# The reader itself, on a document of known anchors and links.
mkdir -p "$tmp/t/sub"
cat >"$tmp/t/a.md" <<'EOF'
# A title
## Your own folder: `serve DIR`
## Gophermaps and .gph menus
## Twice
## Twice
## A [link](b.md) in it
```
[not a link](nowhere.md)
```
[ok](#your-own-folder-serve-dir) [ok](#gophermaps-and-gph-menus)
[ok](#twice-1) [ok](sub/) [ok](#a-link-in-it) `[code](nowhere.md)`
[bad](#twice-2) [bad](nowhere.md) [ok](https://example.org/x.md)
EOF
got=$(anchors "$tmp/t/a.md" | tr '\n' ' ')
want="a-title your-own-folder-serve-dir gophermaps-and-gph-menus twice twice-1 a-link-in-it "
[ "$got" = "$want" ] && ok || nok "anchors: got '$got', want '$want'"
got=$(targets "$tmp/t/a.md" | tr '\n' ' ')
want="b.md #your-own-folder-serve-dir #gophermaps-and-gph-menus #twice-1 sub/ #a-link-in-it #twice-2 nowhere.md https://example.org/x.md "
[ "$got" = "$want" ] && ok || nok "targets: got '$got', want '$want'"

# The citation reader, on a tree of known citations.
mkdir -p "$tmp/t/docs" "$tmp/t/src"
printf '# R\n## Static trees\n' >"$tmp/t/README.md"
cp "$tmp/t/a.md" "$tmp/t/docs/a.md"
cat >"$tmp/t/src/x.c" <<'EOF'
/*
 * x.c -- (README.md, "Static trees") (README "Static
 * trees"); docs/a.md, "Your own folder: `serve DIR`" and "Twice".
 *   docs/a.md, "Gone" (README.md, "Gone too") docs/none.md, "A title"
 */
EOF
printf '# (docs/a.md, "A title"; docs/a.md "A [link](b.md) in it")\n' \
    >"$tmp/t/src/x.sh"
got=$(citations "$tmp/t/src/x.c" "$tmp/t/src/x.sh" |
    sed "s|^$tmp/t/||" | tr '\t\n' '|;')
want='src/x.c|README.md|Static trees;src/x.c|README.md|Static trees;'\
'src/x.c|docs/a.md|Your own folder: `serve DIR`;src/x.c|docs/a.md|Twice;'\
'src/x.c|docs/a.md|Gone;src/x.c|README.md|Gone too;'\
'src/x.c|docs/none.md|A title;src/x.sh|docs/a.md|A title;'\
'src/x.sh|docs/a.md|A [link](b.md) in it;'
[ "$got" = "$want" ] && ok || nok "citations: got '$got', want '$want'"
got=$(cited "$tmp/t" "$tmp/t/src/x.c" "$tmp/t/src/x.sh" | tr '\n' ';')
want='src/x.c: cites docs/a.md, "Gone": no such heading;'\
'src/x.c: cites README.md, "Gone too": no such heading;'\
'src/x.c: cites docs/none.md, "A title": no such file;'
[ "$got" = "$want" ] && ok || nok "cited: got '$got', want '$want'"
summary
