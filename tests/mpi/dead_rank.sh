#!/bin/sh
# dead_rank.cpp under mpiexec -n 2: rank 1 dies while rank 0 waits in trnblasMpGemm's exchange. The
# job must end with an error (mpiexec's non-zero exit) within LIMIT seconds -- never hang, never pass.
# Usage: dead_rank.sh MPIEXEC PROGRAM LIMIT EXIT_CODE_OF_THE_DYING_RANK
mpiexec=$1 program=$2 limit=$3 code=$4
start=$(date +%s)
out=$(timeout "$limit" "$mpiexec" -n 2 --oversubscribe "$program" "$code" 2>&1)
rc=$?
echo "$out"
took=$(($(date +%s) - start))
if [ "$rc" -eq 124 ]; then
  echo "FAIL: the job hung (killed by timeout after ${limit} s)"
  exit 1
fi
# The set-up must have succeeded: rank 1 died on purpose and rank 0 was inside the collective.
case "$out" in *"rank 1 exits without MPI_Finalize"*) ;; *) echo "FAIL: rank 1 did not reach its exit"; exit 1 ;; esac
case "$out" in *"rank 0 enters trnblasMpGemm"*) ;; *) echo "FAIL: rank 0 did not reach the collective"; exit 1 ;; esac
if [ "$rc" -eq 0 ]; then
  echo "FAIL: mpiexec exited 0 although rank 1 died"
  exit 1
fi
echo "a dead rank ended the job with exit code $rc after ${took} s (limit ${limit} s): an error, not a hang"
