# trnsci_add_library(<name> <export-name> <sources...>): one trnsci library target trnsci_<name>,
# alias trnsci::<export-name>, C++20, public include/ folder, private warnings, no value-changing
# floating-point optimisation (every library's bits are part of its contract), installed and exported.
function(trnsci_add_library name export_name)
  set(target trnsci_${name})
  add_library(${target} ${ARGN})
  add_library(trnsci::${export_name} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${export_name} POSITION_INDEPENDENT_CODE ON
                                             VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR})
  target_compile_features(${target} PUBLIC cxx_std_20)
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(${target} PRIVATE $<BUILD_INTERFACE:trnsci_warnings>)
  target_compile_options(${target} PRIVATE -fno-fast-math -ffp-contract=off)
  install(TARGETS ${target} EXPORT trnsciTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(DIRECTORY include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endfunction()
