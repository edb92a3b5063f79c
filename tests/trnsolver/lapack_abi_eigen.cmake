# libtrnsolver_lapack.so, eigen and SVD entry points (issue #27; trnsolver/lapack_abi/src/eigen_fortran.cpp,
# svd_fortran.cpp): unmodified clients with the shim preloaded.
#
# numpy.linalg / scipy.linalg (default suite, label lapack_shim): eigh, eigvalsh, svd, scipy eigh with
# b= (gv, gvd; itype 1-3), svd with lapack_driver gesdd / gesvd, and numpy's cholesky, solve, qr
# (answered when the shim exports ?potrf/?gesv/?geqrf), S, D, C, Z; run_numpy_scipy.sh.
add_test(NAME TrnsolverLapackAbi.NumpyScipy
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lapack_abi/run_numpy_scipy.sh $<TARGET_FILE:trnsci_trnsolver_lapack>
                 ${CMAKE_CURRENT_SOURCE_DIR}/lapack_abi/numpy_scipy_eigen.py ${Python3_EXECUTABLE}
                 "${_trnsolver_lapack_runtime}")
set_tests_properties(TrnsolverLapackAbi.NumpyScipy PROPERTIES LABELS "solver;lapack_shim" SKIP_RETURN_CODE 77 TIMEOUT 600)

# LAPACK's eigen test programs (Debian liblapack-test) on their standard inputs with the shim preloaded,
# through lapack_abi/run_xlintst.sh (reference LAPACK with and without the shim; fails when the shim run
# fails more tests, leaves a call unanswered or fails one in the emulator): the SEP drivers (sep.in:
# ?SYEV, ?SYEVD / ?HEEV, ?HEEVD among the others), the SVD drivers (svd.in: ?GESVD, ?GESDD) and the
# generalized drivers (?sg.in: ?SYGV, ?SYGVD / ?HEGV, ?HEGVD). svd.in repeats its driver tests for five
# parameter blocks whose NB only LAPACK's own routines read; svd_shim.in keeps the first block (the
# standard svd.in through the shim: docs/trnsolver.md, 75 s for D, > 30 min for S). Opt-in with the xlintst runs
# (TRNSCI_LAPACK_SHIM_TESTS, lapack_abi/lapack_abi.cmake), label lapack_shim; wall times:
# docs/trnsolver.md "LAPACK ABI shim".
if(TRNSCI_LAPACK_SHIM_TESTS)
  set(_trnsolver_lapack_inputs "/usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/lapack")
  foreach(_p IN ITEMS s d c z)
    foreach(_in IN ITEMS sep svd ${_p}sg)
      set(_file ${_trnsolver_lapack_inputs}/${_in}.in)
      if(_in STREQUAL "svd")
        set(_file ${CMAKE_CURRENT_SOURCE_DIR}/lapack_abi/svd_shim.in)
      endif()
      add_test(NAME TrnsolverLapackAbi.xeigtst${_p}_${_in}
               COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/lapack_abi/run_xlintst.sh xeigtst${_p} ${_file}
                       $<TARGET_FILE:trnsci_trnsolver_lapack>
                       "${_trnsolver_lapack_runtime}")
      set_tests_properties(TrnsolverLapackAbi.xeigtst${_p}_${_in} PROPERTIES LABELS lapack_shim SKIP_RETURN_CODE 77
                           TIMEOUT 7200)
    endforeach()
  endforeach()
endif()

# The entry points called directly (linked against the shim only; reference LAPACK dlopen'ed): workspace
# queries, bad-argument positions through this program's xerbla_, every SVD job in both orientations,
# a NaN call with no next library.
add_executable(test_trnsolver_lapack_eigen_abi test_trnsolver_lapack_eigen_abi.cpp)
target_link_libraries(test_trnsolver_lapack_eigen_abi PRIVATE trnsci::trnsolver_lapack GTest::gtest_main
                                                              ${CMAKE_DL_LIBS} trnsci_warnings)
# The test's own xerbla_ must be in the dynamic symbol table to override the shim's.
set_target_properties(test_trnsolver_lapack_eigen_abi PROPERTIES ENABLE_EXPORTS ON)
gtest_discover_tests(test_trnsolver_lapack_eigen_abi DISCOVERY_TIMEOUT 60 PROPERTIES LABELS "solver;lapack_shim")
