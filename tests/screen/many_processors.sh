# many_processors.sh - sourced by run.sh (its helpers): 256 processors
# told apart by colour and glyph; view node (check 24).

# node, glyph by place in the node. n00.p9_0 and n01.p9_0 show the same
# glyph on different colours, at 256 colours and on TERM=xterm; the
# legend line names the processor under the cursor; f lights only the
# cursor's node; the highlight and cursor colours are not in the palette.
b00=$("$BIN" -e 'scenario load samples/summit-like.json; lsearch -exact [map list] n00.p9_0')
b01=$("$BIN" -e 'scenario load samples/summit-like.json; lsearch -exact [map list] n01.p9_0')
# legend_of NAME PROC: the Grid's legend line for PROC, escapes kept.
legend_of() { $T capture-pane -e -p -t "$1" | awk -F'│' '{print $2}' | grep -F "$2 " | grep " blk " | head -1; }
chip_of() { legend_of "$1" "$2" | sed 's/^\(\(\x1b\[[0-9;]*m\)*\)\([0-9A-Za-z]\).*/\1|\3/'; }
for term in xterm-256color xterm; do
    nm=marks8; [ $term = xterm ] || nm=marks256
    start $nm 140 40 $term samples/summit-like.json
    keys $nm : "view cursor $b00" Enter
    must $nm "#$b00 n00.p9_0"
    settle $nm
    c0=$(chip_of $nm n00.p9_0)
    keys $nm : "view cursor $b01" Enter
    must $nm "#$b01 n01.p9_0"
    settle $nm
    c1=$(chip_of $nm n01.p9_0)
    legend_of $nm n01.p9_0 | sed 's/\x1b\[[0-9;]*m//g' | grep -q "n01.p9_0 power9 [0-9]* blk .*%T  node 1: 0 1 2 3 4 5 6 7" &&
        ok "$term: the legend names the processor under the cursor and its node's glyphs" ||
        bad "$term legend" "$(legend_of $nm n01.p9_0 | sed 's/\x1b\[[0-9;]*m//g')"
    if [ -n "$c0" ] && [ "${c0#*|}" = "${c1#*|}" ] && [ "${c0%|*}" != "${c1%|*}" ]; then
        ok "$term: n00.p9_0 and n01.p9_0 share glyph ${c0#*|} on different colours"
    else bad "$term node colours" "$(printf '%s / %s' "$c0" "$c1" | cat -v)"; fi
done
start nodelit 140 40 xterm-256color samples/summit-like.json
if $T capture-pane -e -p -t nodelit | grep -q '48;5;226m'; then bad "palette" "a block has the highlight colour 226"
else ok "no block has the highlight colour (226, in the theme's list)"; fi
keys nodelit : "view cursor $b01" Enter
must nodelit "#$b01 n01.p9_0"
keys nodelit f
must nodelit "% view node cursor"
settle nodelit
dots=$(cap nodelit | sed -n '4,11p' | awk -F'│' '{print $2}' | tr -cd '.' | wc -c)
lit=$(cap nodelit | sed -n '4,11p' | awk -F'│' '{print $2}' | tr -cd '0-9A-Za-z' | wc -c)
[ "$("$BIN" -e 'scenario load samples/summit-like.json; view node 3; view node')" = 3 ] && [ "$dots" -gt 0 ] && [ "$lit" -gt 0 ] &&
    cap nodelit | grep -q "lit node 1: 0 1 2 3 4 5 6 7" && ok "f lights node 1 ($lit blocks) and dims the rest ($dots)" ||
    bad "view node" "dots $dots lit $lit; $(cap nodelit)"
keys nodelit f
wait_for nodelit "% view node none" && ok "f again: every node lit" || bad "view node none" "$(cap nodelit | tail -4)"
no_sanitizer_errors nodelit

