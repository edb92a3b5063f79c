# libtrnblas_blas.so (trnblas/blas_abi): the netlib level 1, 2 and 3 BLAS test programs of the Debian
# package libblas-test run with the shim preloaded (run_netlib_blas.sh; skipped when the package is absent),
# and a GoogleTest that calls the shim's entry points directly.

# ---- netlib xblat1/2/3 s/d/c/z (Fortran ABI) and x?cblat1, x?cblat2, x?cblat3 (CBLAS) ----
set(TRNSCI_BLAS_TEST_DIR "/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/blas"
    CACHE PATH "Folder with the netlib BLAS test programs and reference libblas.so.3 (Debian libblas-test)")
set(_trnblas_blas_asan "")
if(TRNSCI_SANITIZE)
  # An instrumented library preloaded into an uninstrumented program needs the ASan runtime first;
  # run_netlib_blas.sh then uses fewer sizes (reason in the script).
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libasan.so OUTPUT_VARIABLE _trnblas_blas_asan
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
elseif(TRNSCI_SANITIZE_THREAD)
  # Likewise the TSan runtime: without it first, the shim's worker threads (the D/Z programs' Ozaki
  # calls) crashed the uninstrumented Fortran programs (SIGSEGV in the first TSan run).
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libtsan.so OUTPUT_VARIABLE _trnblas_blas_asan
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
endif()
# xdcblat3, xdcblat2 and xzcblat2 test the row-major layout only: their column-major halves run the
# same code as the Fortran programs' (xblat3d, xblat2d, xblat2z: a column-major CBLAS call goes
# straight to the same checks and kernels), and each Ozaki call of these tiny shapes costs ~1 ms
# (36-45 kernel launches); xzcblat2 with both layouts takes ~100 s. xzcblat3 likewise (row-major
# alone ~50 s; its column-major half is xblat3z's code).
foreach(_prog_layouts IN ITEMS "xblat1s;both" "xblat1d;both" "xblat1c;both" "xblat1z;both" "xscblat1;both"
                               "xdcblat1;both" "xccblat1;both" "xzcblat1;both" "xblat2s;both" "xblat2d;both"
                               "xblat2c;both" "xblat2z;both" "xscblat2;both" "xdcblat2;row" "xccblat2;both"
                               "xzcblat2;row" "xblat3s;both" "xblat3d;both" "xscblat3;both" "xdcblat3;row" "xblat3c;both"
                               "xblat3z;both" "xccblat3;both" "xzcblat3;row")
  list(GET _prog_layouts 0 _prog)
  list(GET _prog_layouts 1 _layouts)
  add_test(NAME TrnblasBlasAbi.Netlib_${_prog}
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/run_netlib_blas.sh ${_prog} ${TRNSCI_BLAS_TEST_DIR}
                   $<TARGET_FILE:trnsci_trnblas_blas> ${_layouts} "${_trnblas_blas_asan}")
  set_tests_properties(TrnblasBlasAbi.Netlib_${_prog} PROPERTIES SKIP_RETURN_CODE 77 LABELS blas TIMEOUT 300)
endforeach()

# ---- the entry points called directly -----------------------------------------------------------
# Linked against the shim only. OpenBLAS (the reference) is opened with dlopen so that its own
# sgemm_/cblas_sgemm cannot be confused with the shim's; its cblas.h supplies the CBLAS prototypes.
add_executable(test_trnblas_blas_abi test_trnblas_blas_abi.cpp)
target_link_libraries(test_trnblas_blas_abi PRIVATE trnsci::trnblas_blas GTest::gtest_main ${CMAKE_DL_LIBS}
                                                    trnsci_warnings)
target_include_directories(test_trnblas_blas_abi PRIVATE ${OPENBLAS_INCLUDE_DIRS})
target_link_libraries(test_trnblas_blas_abi PRIVATE trnsci_reference)
list(GET OPENBLAS_LINK_LIBRARIES 0 _trnblas_blas_openblas)
target_compile_definitions(test_trnblas_blas_abi PRIVATE TRNBLAS_TEST_OPENBLAS="${_trnblas_blas_openblas}")
target_compile_options(test_trnblas_blas_abi PRIVATE -ffp-contract=off)
# The test's own xerbla_/cblas_xerbla must be in the dynamic symbol table to override the shim's.
set_target_properties(test_trnblas_blas_abi PROPERTIES ENABLE_EXPORTS ON)
gtest_discover_tests(test_trnblas_blas_abi DISCOVERY_TIMEOUT 60 PROPERTIES LABELS blas)

# ---- LAPACK's test programs (Debian liblapack-test) through the shim ----------------------------
# run_lapack_tests.sh runs xlintst{s,d,c,z} on reduced inputs (lapack/?test_small.in) through
# tests/clients/run_lapack_tests.sh: the system LAPACK + BLAS, netlib's reference LAPACK on OpenBLAS's
# BLAS, and the reference LAPACK with the shim preloaded; it fails when the shim run fails more tests
# than the same LAPACK on OpenBLAS. The standard inputs: tests/clients (label lapack_clients). Every BLAS call goes through the emulator (~10-40 min per
# program on 2 cores), so these run only when asked: -DTRNSCI_LAPACK_TESTS=ON, then
# `ctest -L lapack`. Results are recorded in docs/trnblas.md ("LAPACK's test programs").
option(TRNSCI_LAPACK_TESTS "Register LAPACK's test programs through the BLAS shim (slow)" OFF)
if(TRNSCI_LAPACK_TESTS)
  foreach(_p IN ITEMS s d c z)
    add_test(NAME TrnblasBlasAbi.Lapack_xlintst${_p}
             COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/run_lapack_tests.sh xlintst${_p}
                     ${CMAKE_CURRENT_SOURCE_DIR}/lapack/${_p}test_small.in $<TARGET_FILE:trnsci_trnblas_blas>)
    set_tests_properties(TrnblasBlasAbi.Lapack_xlintst${_p} PROPERTIES SKIP_RETURN_CODE 77 LABELS lapack TIMEOUT 7200)
  endforeach()
  # The SY, SR, SK and SP paths of the standard stest.in/dtest.in (all sizes and types, ~30 s for S):
  # their near-underflow/overflow types 9 and 10 need the reference BLAS's order in ?syr/?spr (alpha x first).
  foreach(_p IN ITEMS s d)
    add_test(NAME TrnblasBlasAbi.Lapack_xlintst${_p}_symindef
             COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/run_lapack_tests.sh xlintst${_p}
                     ${CMAKE_CURRENT_SOURCE_DIR}/lapack/${_p}test_symindef.in $<TARGET_FILE:trnsci_trnblas_blas>)
    set_tests_properties(TrnblasBlasAbi.Lapack_xlintst${_p}_symindef PROPERTIES SKIP_RETURN_CODE 77 LABELS lapack TIMEOUT 7200)
  endforeach()
endif()
