#!/usr/bin/env bash
# Lists functions (and lambdas' enclosing functions) longer than a limit in library code, by
# Universal Ctags' end-line field. Usage: tools/long_functions.sh [limit=150] [dirs...]
# Exit status 1 when one is found (issue #26: no function over ~150 lines in library code).
set -euo pipefail
limit=${1:-150}
shift || true
dirs=("$@")
[ ${#dirs[@]} -eq 0 ] && dirs=(core/src core/include trnblas/src trnblas/include trnblas/blas_abi trnsolver/src trnsolver/include \
  trnfft/src trnfft/include trnsparse/src trnsparse/include trnrand/src trnrand/include trntensor/src trntensor/include)
cd "$(dirname "$0")/.."
ctags -x --_xformat='%N	%F	%n	%{end}' --c++-kinds=fp --fields=+ne -R --languages=C++ -o - "${dirs[@]}" |
  awk -F'\t' -v lim="$limit" '$4 != "" && $4 - $3 + 1 > lim { printf "%5d %s:%d %s\n", $4 - $3 + 1, $2, $3, $1; bad = 1 }
                       END { exit bad }' | sort -rn
