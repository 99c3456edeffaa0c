#!/usr/bin/env bash
# Instruction counts of the hot paths under valgrind's callgrind, against committed baselines.
#
#   bash tools/icount/run.sh            # print the table; exit 1 when one grew by more than 5%
#   bash tools/icount/run.sh --update   # write the current counts as the new baselines
#
# Wall-clock timings cannot gate CI on a shared machine whose speed drifts; instruction counts
# of the same binary on the same input can. Each figure is instructions per tick (or per
# `decide` line): two runs of N1 and N2 iterations, (Ir(N2) - Ir(N1)) / (N2 - N1), so loading
# and start-up cancel out. Update a baseline on purpose (a change that costs more, accepted)
# with --update and commit `tools/icount/baselines.txt` with the reason in the message.
set -euo pipefail
cd "$(dirname "$0")/../.."
baselines=tools/icount/baselines.txt
update=false
[ "${1:-}" = "--update" ] && update=true
command -v valgrind >/dev/null || { echo "icount: valgrind is not installed" >&2; exit 2; }

cargo build -q --release -p bt_xml --example schedule_ticks
cargo build -q --release -p decision_core --example sample_ticks
cargo build -q --release -p soccer_profile --example soccer_ticks
cargo build -q --release -p path_planner --example plan_ticks
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
bt="$target_dir/release/examples/schedule_ticks"
rm_ticks="$target_dir/release/examples/sample_ticks"
soccer="$target_dir/release/examples/soccer_ticks"
planner="$target_dir/release/examples/plan_ticks"
trees=bt_xml/benches/trees

# Instructions of one run of COMMAND...
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null \
    | awk '/Collected/ { print $4 }'
}

# per_tick N1 N2 COMMAND_PREFIX...: instructions per iteration (the count is the last argument).
per_tick() {
  local n1=$1 n2=$2
  shift 2
  local a b
  a=$(instructions "$@" "$n1")
  b=$(instructions "$@" "$n2")
  echo $(( (b - a) / (n2 - n1) ))
}

measure() {
  case "$1" in
    bt/game_like) per_tick 2000 6000 "$bt" "$trees/game_like.xml" ;;
    bt/game_like_while) per_tick 2000 6000 "$bt" "$trees/game_like_while.xml" ;;
    bt/deep) per_tick 1000 3000 "$bt" "$trees/deep.xml" ;;
    bt/wide_fallback) per_tick 100 300 "$bt" "$trees/wide_fallback.xml" ;;
    robomaster/tick) per_tick 430 1290 "$rm_ticks" ;;
    robomaster/decide_line) per_tick_decide 430 1290 ;;
    # The soccer frames and the planner's scenes repeat every 1000 ticks and 440 plans: the
    # differences cover whole cycles.
    soccer/striker) per_tick 1000 3000 "$soccer" striker ;;
    soccer/supporter) per_tick 1000 3000 "$soccer" supporter ;;
    soccer/searcher) per_tick 1000 3000 "$soccer" searcher ;;
    soccer/heatmap_update) per_tick 1000 3000 "$soccer" heatmap ;;
    planner/crowded_per_robot) per_tick 440 1320 "$planner" ;;
    *) echo "unknown measurement $1" >&2; exit 2 ;;
  esac
}

per_tick_decide() {
  local a b
  a=$(instructions "$rm_ticks" "$1" --decide)
  b=$(instructions "$rm_ticks" "$2" --decide)
  echo $(( (b - a) / ($2 - $1) ))
}

names="bt/game_like bt/game_like_while bt/deep bt/wide_fallback robomaster/tick robomaster/decide_line
  soccer/striker soccer/supporter soccer/searcher soccer/heatmap_update planner/crowded_per_robot"
declare -A base
if [ -f "$baselines" ]; then
  while read -r name value; do
    [ -n "$name" ] && [ "${name:0:1}" != "#" ] && base[$name]=$value
  done < "$baselines"
fi

failed=0
new=$(mktemp)
echo "# instructions per tick (tools/icount/run.sh --update writes this file)" > "$new"
printf '%-26s %14s %14s %9s\n' "hot path" "baseline" "now" "change"
for name in $names; do
  now=$(measure "$name")
  echo "$name $now" >> "$new"
  old=${base[$name]:-}
  if [ -z "$old" ]; then
    printf '%-26s %14s %14s %9s\n' "$name" "-" "$now" "new"
    continue
  fi
  change=$(awk -v a="$old" -v b="$now" 'BEGIN { printf "%+.1f%%", (b - a) * 100 / a }')
  mark=""
  if awk -v a="$old" -v b="$now" 'BEGIN { exit !(b > a * 1.05) }'; then
    mark="  GREW MORE THAN 5%"
    failed=1
  fi
  printf '%-26s %14s %14s %9s%s\n' "$name" "$old" "$now" "$change" "$mark"
done

if $update; then
  mv "$new" "$baselines"
  echo "icount: baselines written to $baselines"
  exit 0
fi
rm -f "$new"
if [ "$failed" = 1 ]; then
  echo "icount: a hot path grew by more than 5% (tools/icount/run.sh --update accepts it on purpose)"
  exit 1
fi
echo "icount: every hot path within 5% of its baseline"
