#!/usr/bin/env bash
# Runs one LAPACK test program of Debian's liblapack-test (xlintst?, xeigtst?) on an input (here the
# cut ones, tests/trnblas/lapack/?test_small.in: M, N <= 10, NRHS <= 2, NB in {1, 3}, the GE, PO,
# TR, QR and LS paths) with OpenBLAS and with libtrnblas_blas.so preloaded under netlib's reference
# LAPACK, and fails when the shim run fails more tests: tests/clients/run_lapack_tests.sh does it
# (the same script runs the standard inputs, ctest label lapack_clients).
#   usage: run_lapack_tests.sh PROGRAM INPUT SHIM_SO [LAPACK_DIR]
exec bash "$(dirname "$0")/../clients/run_lapack_tests.sh" "$@"
