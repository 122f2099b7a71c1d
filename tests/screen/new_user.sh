# new_user.sh - sourced by run.sh (its helpers): what a new user met at
# 200x50, 80x24 and on the largest samples (#23 item 7), one check each.

# 33. w on a shipped sample offers a new file in the current directory,
# never the sample itself; on the user's own file it offers that file.
start nu 100 30 xterm-256color samples/cuboid-cpu-gpu.json
keys nu w
wait_for nu "save scenario" || true
prompt=$(cap nu | tail -1)
case "$prompt" in
*"as: cuboid-cpu-gpu.json"*) ok "w on a shipped sample offers cuboid-cpu-gpu.json here ($prompt)" ;;
*) bad "w on a sample" "offered: $prompt" ;;
esac
keys nu Escape
keys nu : "scenario save $WORK/mine.json" Enter
wait_for nu "% scenario save" || true
keys nu Escape w
wait_for nu "save scenario" || true
cap nu | tail -1 | grep -qF "as: $WORK/mine.json" && ok "w on the user's file offers that file" ||
    bad "w on own file" "$(cap nu | tail -1)"
keys nu Escape

# 34. A demo loads its scenario through scripts/..: the status line shows
# the path tidied (samples/...), not scripts/../samples/...
keys nu : "session replay scripts/demo-single-node.tcl -delay 0" Enter
wait_for nu "% session replay" || true
settle nu
line=$(cap nu | head -1)
case "$line" in
*" stencilmap  samples/cuboid-cpu-gpu.json "*) ok "demo: the status line shows samples/cuboid-cpu-gpu.json" ;;
*) bad "demo path" "$line" ;;
esac
keys nu q y
exited nu || true
no_sanitizer_errors nu
