#!/usr/bin/env bash
# Starts decision-viewer on the sample simulation (paused at 75.5 s, the retreat to supply) in a real window under Xvfb, takes a
# screenshot of the root window and checks that it is not blank: enough distinct colours, the
# grey of ordinary waypoints and at least one waypoint-state colour and one robot colour.
#
#   bash gui/tests/xvfb_screenshot.sh [OUT.png]     (UPDATE_SCREENSHOT=1 also writes gui/screenshot.png)
#
# Then runs xvfb_soccer_screenshot.sh: the same for the soccer view (`--soccer-sim`).
#
# Needs: apt-get install -y --no-install-recommends xvfb imagemagick xdotool
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-target/xvfb_screenshot.png}
for tool in Xvfb import identify convert xdotool; do
  command -v "$tool" >/dev/null || { echo "xvfb_screenshot: $tool missing (apt-get install -y --no-install-recommends xvfb imagemagick xdotool)"; exit 1; }
done

cargo build -q -p gui --bin decision-viewer
viewer=target/debug/decision-viewer

display=${XVFB_DISPLAY:-:99}
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
"$viewer" --sim sample/config.json --scenario sample/scenarios/hp_retreat.json5 --start-at "${START_AT:-75.5}" \
  --screenshot-after-frames "${FRAMES:-160}" >"$tmp/viewer.log" 2>&1 &
viewer_pid=$!

if ! timeout 60 xdotool search --sync --onlyvisible --name decision-viewer >/dev/null; then
  echo "xvfb_screenshot: no viewer window"; cat "$tmp/viewer.log"; exit 1
fi
# At most 20 frames per second: 160 frames last at least 8 s, the screenshot is taken at 5 s.
sleep "${SETTLE_SECONDS:-5}"
if ! kill -0 "$viewer_pid" 2>/dev/null; then
  echo "xvfb_screenshot: the viewer closed before the screenshot"; cat "$tmp/viewer.log"; exit 1
fi
import -window root "$out"

# The viewer closes itself after the frames (ViewportCommand::Close) and exits 0.
status=0
for _ in $(seq 1200); do
  kill -0 "$viewer_pid" 2>/dev/null || break
  sleep 0.1
done
if kill -0 "$viewer_pid" 2>/dev/null; then
  echo "xvfb_screenshot: the viewer did not close itself after the frames"; exit 1
fi
wait "$viewer_pid" || status=$?
viewer_pid=
if [ "$status" -ne 0 ]; then
  echo "xvfb_screenshot: viewer exited with $status"; cat "$tmp/viewer.log"; exit 1
fi

colours=$(identify -format %k "$out")
histogram=$(convert "$out" -format %c histogram:info:-)
count() { # pixels of exactly this colour
  printf '%s\n' "$histogram" | awk -v c="($1)" 'index($0, c) { gsub(":", "", $1); n += $1 } END { print n + 0 }'
}
grey=$(count "150,150,150")
green=$(count "40,200,70")
yellow=$(count "245,210,40")
blue=$(count "120,190,255")
friend=$(count "30,170,60")
enemy=$(count "220,40,40")
echo "xvfb_screenshot: $out: $colours colours; waypoint grey $grey, target green $green, current yellow $yellow, available blue $blue; friend $friend, enemy $enemy px"
fail=0
[ "$colours" -ge 64 ] || { echo "xvfb_screenshot: too few colours (blank?)"; fail=1; }
[ "$grey" -ge 20 ] || { echo "xvfb_screenshot: no grey waypoints"; fail=1; }
[ $((green + yellow + blue)) -ge 20 ] || { echo "xvfb_screenshot: no waypoint state colours"; fail=1; }
[ $((friend + enemy)) -ge 20 ] || { echo "xvfb_screenshot: no robots"; fail=1; }
if [ "$fail" -ne 0 ]; then cat "$tmp/viewer.log"; exit 1; fi
if [ "${UPDATE_SCREENSHOT:-0}" = 1 ]; then cp "$out" gui/screenshot.png; fi
echo "xvfb_screenshot: ok"

# The soccer view, on its own display (this script's Xvfb is still up).
bash gui/tests/xvfb_soccer_screenshot.sh
