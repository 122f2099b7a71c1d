# compare_mode_at_80x24.sh - sourced by run.sh (its helpers): compare mode at
# 80x24 with processor names longer than a third of the Processors pane
# (node0000.cpu0 ...), as summit-full's n0000.v100_0 (issue 37 item 6,
# found by the new-user trial: "640   64" for 640 640, "solver: #0
# n0000.v10"). The blocks columns stay whole (the names give way, elided
# in the middle), and each Grid half names the cursor block's processor
# whole or elided in the middle, never cut at the half's edge.
sed 's/"\(cpu[01]\|gpu[01]\)"/"node0000.\1"/' samples/topologies/2cpu-2gpu-topology.json >"$WORK/long-names-topology.json"
sed 's#topologies/2cpu-2gpu-topology.json#long-names-topology.json#' samples/cuboid-2cpu-2gpu.json >"$WORK/long-names.json"
start c8 80 24 xterm-256color "$WORK/long-names.json"
keys c8 : "solve lb -order jik -speeds floor" Enter
must c8 "placed 128"
keys c8 : "map undo" Enter
must c8 "% map undo"
keys c8 V
must c8 "% view compare toggle"
settle c8
# Processors: every processor row ends with blk and blk', whole: four
# rows, each column summing to the 128 blocks.
sums=$(cap c8 | awk -F'│' 'NF > 2 {print $(NF-1)}' | awk 'NF >= 2 && $(NF-1) ~ /^[0-9]+$/ && $NF ~ /^[0-9]+$/ {n++; a += $(NF-1); b += $NF} END {print n + 0, a + 0, b + 0}')
[ "$sums" = "4 128 128" ] && ok "V at 80x24, long names: Processors' blk and blk' whole (4 rows, 128 and 128 blocks)" ||
    bad "compare 80x24 blocks columns" "rows, blk, blk' = '$sums': $(cap c8 | sed -n 2,9p)"
# Grid: the last word of each half's header is a processor name, whole or
# elided with ~.
name_ok() { case "$1" in *?~?*) return 0 ;; node0000.cpu0 | node0000.cpu1 | node0000.gpu0 | node0000.gpu1) return 0 ;; esac; return 1; }
left=$(cap c8 | sed -n 3p | awk -F'│' '{print $2}' | sed 's/ *$//')
right=$(cap c8 | sed -n 3p | awk -F'│' '{print $3}' | sed 's/ *$//')
case "$left" in session:\ \#0\ *) ;; *) left="(no session header) $left" ;; esac
name_ok "${left##* }" && name_ok "${right##* }" && ok "V at 80x24, long names: each Grid half names a processor whole or elided: '$left' '$right'" ||
    bad "compare 80x24 Grid headers" "'$left' | '$right'"
keys c8 q y
must_exit c8
no_sanitizer_errors c8
