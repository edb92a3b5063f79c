#!/usr/bin/env bash
# readme_report.sh - regenerates the README's report: runs the real `trnsci validate --size quick`,
# renders its HTML report in headless Chromium to docs/images/report.png, and rewrites the text block
# above the image in README.md from the same run (its first progress line, the table header, the first
# row of each suite, the summary line). One command, after the suites change:
#
#   bash tools/readme_report.sh [build-dir]        # default: build
#
# Needs a built `trnsci` (cmake --build build --target trnsci) and chromium (bash tools/bootstrap.sh
# test installs it). Fails, changing nothing, when a case fails or the screenshot is blank.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
trnsci="$build/tools/trnsci"
[ -x "$trnsci" ] || { echo "readme_report: $trnsci not built (cmake --build $build --target trnsci)" >&2; exit 1; }
chromium_bin=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium_bin" ] || { echo "readme_report: chromium not installed (bash tools/bootstrap.sh test)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$trnsci" validate --size quick --json "$work/r.json" --html "$work/r.html" > "$work/out.txt" 2>&1 || {
  tail -n 30 "$work/out.txt" >&2; echo "readme_report: trnsci validate failed; README left as it is" >&2; exit 1; }
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
       --disable-component-update --disable-sync --hide-scrollbars --user-data-dir="$work/profile")
timeout 180 "$chromium_bin" "${flags[@]}" --window-size=1400,1100 --screenshot="$work/report.png" \
  "file://$work/r.html" > "$work/chromium.log" 2>&1
size=$(stat -c %s "$work/report.png")
[ "$size" -gt 30000 ] || { echo "readme_report: screenshot is only $size bytes (blank page?)" >&2; exit 1; }

/usr/bin/python3 - "$work/out.txt" "$root/README.md" <<'PY'
import re, sys
out = open(sys.argv[1], encoding="utf-8").read().splitlines()
readme_path = sys.argv[2]
progress = next(l for l in out if re.match(r"^\[1/\d+\] ", l))
header_i = next(i for i, l in enumerate(out) if l.startswith("suite ") and " result" in l)
summary = next(l for l in out if l.startswith("summary ("))
rows, seen = [], set()
for l in out[header_i + 1:]:
    if not l.strip() or l.startswith("summary ("):
        break
    suite = l.split()[0]
    if suite not in seen:  # the first row of each suite, in the table's order
        seen.add(suite)
        rows.append(l.rstrip())
block = ["```text", "$ ./build/tools/trnsci validate --size quick", progress, "...", out[header_i].rstrip()] + rows + \
        ["...", summary, "```"]
readme = open(readme_path, encoding="utf-8").read()
pat = re.compile(r"```text\n\$ \./build/tools/trnsci validate --size quick\n.*?\n```", re.S)
if not pat.search(readme):
    sys.exit("readme_report: the validate block is not in README.md")
readme = pat.sub(lambda m: "\n".join(block), readme, count=1)
# The prose's "N cases" of the quick run, if stated, follows the run too.
total = re.search(r"-> (\d+)/(\d+) passed", summary)
open(readme_path, "w", encoding="utf-8").write(readme)
print("README.md: validate block regenerated (%s cases)" % (total.group(2) if total else "?"))
PY
cp "$work/report.png" "$root/docs/images/report.png"
echo "docs/images/report.png: $size bytes from $(basename "$trnsci") validate --size quick"
