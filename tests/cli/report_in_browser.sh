#!/usr/bin/env bash
# End-to-end test of the HTML report: run `trnsci validate` (core and blas suites), render the report
# in headless Chromium, and check what the browser laid out: three SVG charts with their titles,
# non-empty bounding boxes and drawn marks (the page's own getBBox() self-check, read back with
# --dump-dom), plus a non-trivial screenshot. Exit 77 (CTest: skipped, reported) without chromium;
# `bash tools/bootstrap.sh test` installs it.
set -euo pipefail
trnsci=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chromium_bin=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium_bin" ]; then
  echo "SKIPPED: chromium is not installed (bash tools/bootstrap.sh test installs it)"
  exit 77
fi
"$trnsci" validate --suite core,blas --size quick --json "$work/r.json" --html "$work/r.html" > "$work/out.txt" 2>&1 || {
  cat "$work/out.txt"; echo "FAIL: trnsci validate failed"; exit 1; }
grep -q '"schema": "trnsci.report/1"' "$work/r.json" || { echo "FAIL: JSON schema tag missing"; exit 1; }
grep -q '"failed": 0' "$work/r.json" || { echo "FAIL: JSON summary reports failures"; exit 1; }
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
       --disable-component-update --disable-sync --user-data-dir="$work/profile")
timeout 120 "$chromium_bin" "${flags[@]}" --dump-dom "file://$work/r.html" > "$work/dom.html" 2> "$work/chromium.log"
check=$(grep -oE 'chart [a-z]+ title="[^"]*" width=[0-9]+ height=[0-9]+ marks=[0-9]+' "$work/dom.html" || true)
echo "$check"
for title in "Error vs modeled device time per mode (Pareto)" "Error vs size against the bound (dashed)" \
             "Per-engine utilization (modeled)"; do
  line=$(printf '%s\n' "$check" | grep -F "title=\"$title\"" || true)
  [ -n "$line" ] || { echo "FAIL: chart '$title' not rendered"; exit 1; }
  width=$(printf '%s' "$line" | sed -E 's/.* width=([0-9]+).*/\1/')
  marks=$(printf '%s' "$line" | sed -E 's/.* marks=([0-9]+).*/\1/')
  [ "$width" -gt 100 ] || { echo "FAIL: chart '$title' has width $width"; exit 1; }
  [ "$marks" -gt 3 ] || { echo "FAIL: chart '$title' drew $marks marks"; exit 1; }
done
timeout 120 "$chromium_bin" "${flags[@]}" --window-size=1400,1100 --screenshot="$work/r.png" "file://$work/r.html" \
  >> "$work/chromium.log" 2>&1
size=$(stat -c %s "$work/r.png")
[ "$size" -gt 30000 ] || { echo "FAIL: screenshot is only $size bytes (blank page?)"; exit 1; }
echo "report rendered: 3 charts, screenshot $size bytes"
