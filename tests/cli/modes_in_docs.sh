#!/usr/bin/env bash
# docs/trnblas.md embeds `trnsci modes` verbatim between its modes:begin / modes:end markers.
set -euo pipefail
trnsci=$1
docs=$(cd "$(dirname "$0")/../.." && pwd)/docs/trnblas.md
diff <("$trnsci" modes) <(sed -n '/<!-- modes:begin -->/,/<!-- modes:end -->/p' "$docs" | sed '1d;$d') ||
  { echo "docs/trnblas.md's mode table differs from 'trnsci modes': paste its output between the markers" >&2; exit 1; }
echo "mode table in docs/trnblas.md: up to date"
