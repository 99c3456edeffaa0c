#!/usr/bin/env bash
# Fuzzes targets of fuzz_targets with AFL++ (stable Rust, cargo-afl):
#   bash fuzz/run.sh SECONDS [TARGET...]      (default: every target, one after the other)
# Findings go to fuzz/out/<target>/default/{crashes,hangs}; a summary line per target is
# printed (executions, crashes, hangs). Copy each finding into
# fuzz_targets/regressions/<target>/ under a name saying what it found, then fix it.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:?usage: run.sh SECONDS [TARGET...]}
shift
if [ $# -eq 0 ]; then
  set -- jsonc robomaster_files snapshot_line bus_inputs soccer_inputs mcap bt_xml json5_tree soccer_frame soccer_params ros2_cdr
fi
command -v cargo-afl > /dev/null || cargo install cargo-afl --locked
cargo afl config --build > /dev/null 2>&1 || true
cargo afl build --release
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_QUIET=1
for target in "$@"; do
  mkdir -p "out/$target"
  FUZZ_TARGET=$target cargo afl fuzz -V "$seconds" -t 2000 \
    -i "../fuzz_targets/corpus/$target" -o "out/$target" target/release/fuzz > "out/$target.log" 2>&1 || true
  stats="out/$target/default/fuzzer_stats"
  execs=$(awk -F' *: *' '$1=="execs_done"{print $2}' "$stats")
  crashes=$(awk -F' *: *' '$1=="saved_crashes"{print $2}' "$stats")
  hangs=$(awk -F' *: *' '$1=="saved_hangs"{print $2}' "$stats")
  paths=$(awk -F' *: *' '$1=="corpus_count"{print $2}' "$stats")
  echo "$target: $execs executions, $paths corpus entries, $crashes crashes, $hangs hangs"
done
