#!/usr/bin/env bash
# Starts `decision-viewer --soccer-sim` on the sample parameters (paused at 46 s, in open play, of the default
# five-a-side match) in a real window under Xvfb, takes a screenshot of the root window and
# checks that it is not blank: enough distinct colours, the carpet's green, the field lines'
# white and both team colours on the robots. Called by xvfb_screenshot.sh.
#
#   bash gui/tests/xvfb_soccer_screenshot.sh [OUT.png]   (UPDATE_SCREENSHOT=1 also writes gui/soccer_screenshot.png)
#
# Needs: apt-get install -y --no-install-recommends xvfb imagemagick xdotool
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-target/xvfb_soccer_screenshot.png}
for tool in Xvfb import identify convert xdotool; do
  command -v "$tool" >/dev/null || { echo "xvfb_soccer_screenshot: $tool missing (apt-get install -y --no-install-recommends xvfb imagemagick xdotool)"; exit 1; }
done

cargo build -q -p gui --bin decision-viewer
viewer=${CARGO_TARGET_DIR:-target}/debug/decision-viewer
mkdir -p "$(dirname "$out")"

display=${XVFB_SOCCER_DISPLAY:-:98}
tmp=$(mktemp -d)
chmod 700 "$tmp"
Xvfb "$display" -screen 0 1280x800x24 -nolisten tcp >"$tmp/xvfb.log" 2>&1 &
xvfb_pid=$!
viewer_pid=
cleanup() {
  if [ -n "$viewer_pid" ]; then kill "$viewer_pid" 2>/dev/null || true; fi
  kill "$xvfb_pid" 2>/dev/null || true
  wait "$xvfb_pid" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
for _ in $(seq 50); do
  [ -e "/tmp/.X11-unix/X${display#:}" ] && break
  sleep 0.1
done

export DISPLAY=$display XDG_RUNTIME_DIR=$tmp XDG_DATA_HOME=$tmp/data XDG_CONFIG_HOME=$tmp/config
unset WAYLAND_DISPLAY
"$viewer" --soccer-sim --start-at "${START_AT:-46}" \
  --screenshot-after-frames "${FRAMES:-160}" >"$tmp/viewer.log" 2>&1 &
viewer_pid=$!

if ! timeout 90 xdotool search --sync --onlyvisible --name decision-viewer >/dev/null; then
  echo "xvfb_soccer_screenshot: no viewer window"; cat "$tmp/viewer.log"; exit 1
fi
# At most 20 frames per second: 160 frames last at least 8 s, the screenshot is taken at 5 s.
sleep "${SETTLE_SECONDS:-5}"
if ! kill -0 "$viewer_pid" 2>/dev/null; then
  echo "xvfb_soccer_screenshot: the viewer closed before the screenshot"; cat "$tmp/viewer.log"; exit 1
fi
import -window root "$out"

# The viewer closes itself after the frames (ViewportCommand::Close) and exits 0.
status=0
for _ in $(seq 1200); do
  kill -0 "$viewer_pid" 2>/dev/null || break
  sleep 0.1
done
if kill -0 "$viewer_pid" 2>/dev/null; then
  echo "xvfb_soccer_screenshot: the viewer did not close itself after the frames"; exit 1
fi
wait "$viewer_pid" || status=$?
viewer_pid=
if [ "$status" -ne 0 ]; then
  echo "xvfb_soccer_screenshot: viewer exited with $status"; cat "$tmp/viewer.log"; exit 1
fi

colours=$(identify -format %k "$out")
histogram=$(convert "$out" -format %c histogram:info:-)
count() { # pixels of exactly this colour
  printf '%s\n' "$histogram" | awk -v c="($1)" 'index($0, c) { gsub(":", "", $1); n += $1 } END { print n + 0 }'
}
grass=$(count "40,125,55")
white=$(count "255,255,255")
home=$(count "40,110,235")
away=$(count "225,50,40")
echo "xvfb_soccer_screenshot: $out: $colours colours; grass $grass, white $white, home blue $home, away red $away px"
fail=0
[ "$colours" -ge 64 ] || { echo "xvfb_soccer_screenshot: too few colours (blank?)"; fail=1; }
[ "$grass" -ge 2000 ] || { echo "xvfb_soccer_screenshot: no field"; fail=1; }
[ "$white" -ge 500 ] || { echo "xvfb_soccer_screenshot: no field lines"; fail=1; }
[ "$home" -ge 50 ] || { echo "xvfb_soccer_screenshot: no home robots"; fail=1; }
[ "$away" -ge 50 ] || { echo "xvfb_soccer_screenshot: no away robots"; fail=1; }
if [ "$fail" -ne 0 ]; then cat "$tmp/viewer.log"; exit 1; fi
if [ "${UPDATE_SCREENSHOT:-0}" = 1 ]; then cp "$out" gui/soccer_screenshot.png; fi
echo "xvfb_soccer_screenshot: ok"
