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
