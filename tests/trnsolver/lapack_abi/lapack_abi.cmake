# libtrnsolver_lapack.so (trnsolver/lapack_abi, issue #27): a LAPACKE program run with and without the
# shim preloaded (default suite, label solver), and LAPACK's own test programs (Debian liblapack-test
# xlintst?) with the shim preloaded on the inputs of the paths it answers (label lapack_shim).
add_executable(trnsolver_lapacke_client ${CMAKE_CURRENT_LIST_DIR}/lapacke_client.c)
target_link_libraries(trnsolver_lapacke_client PRIVATE PkgConfig::LAPACKE m)
target_compile_options(trnsolver_lapacke_client PRIVATE -std=c99 -Wall -Wextra -Werror -pedantic)
# The client's own xerbla_ must be in the dynamic symbol table to win over both libraries' handlers.
set_target_properties(trnsolver_lapacke_client PROPERTIES ENABLE_EXPORTS ON)
set(_trnsolver_lapack_runtime "")
if(TRNSCI_SANITIZE)
  # An instrumented library preloaded into an uninstrumented program needs the ASan runtime first.
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libasan.so OUTPUT_VARIABLE _trnsolver_lapack_runtime
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
elseif(TRNSCI_SANITIZE_THREAD)
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=libtsan.so OUTPUT_VARIABLE _trnsolver_lapack_runtime
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
endif()
add_test(NAME TrnsolverLapackAbi.Lapacke
         COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run_lapacke_client.sh $<TARGET_FILE:trnsolver_lapacke_client>
                 $<TARGET_FILE:trnsci_trnsolver_lapack> "${_trnsolver_lapack_runtime}")
set_tests_properties(TrnsolverLapackAbi.Lapacke PROPERTIES LABELS solver TIMEOUT 300)

# ---- LAPACK's test programs with the shim preloaded (label lapack_shim) --------------------------
# run_xlintst.sh runs xlintst{s,d,c,z} of Debian's liblapack-test on ?test_shim.in (the standard
# sizes of ?test.in, restricted to the paths whose routines the shim answers: GE, PO, SY, TR, QR, LS)
# with reference LAPACK, with and without the shim, and fails when the shim run fails more tests.
# Every answered call runs on the emulator (minutes per program: docs/trnsolver.md "LAPACK ABI shim"),
# so they are registered only when asked: -DTRNSCI_LAPACK_SHIM_TESTS=ON, then `ctest -L lapack_shim`.
option(TRNSCI_LAPACK_SHIM_TESTS "Register LAPACK's test programs through the LAPACK shim (minutes)" OFF)
if(TRNSCI_LAPACK_SHIM_TESTS)
  foreach(_p IN ITEMS s d c z)
    add_test(NAME TrnsolverLapackAbi.xlintst${_p}
             COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run_xlintst.sh xlintst${_p} ${CMAKE_CURRENT_LIST_DIR}/${_p}test_shim.in
                     $<TARGET_FILE:trnsci_trnsolver_lapack> "${_trnsolver_lapack_runtime}")
    set_tests_properties(TrnsolverLapackAbi.xlintst${_p} PROPERTIES LABELS lapack_shim SKIP_RETURN_CODE 77 TIMEOUT 7200)
  endforeach()
endif()
