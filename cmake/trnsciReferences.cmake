# Reference libraries used only by tests, benchmarks and the CLI (never by the libraries).
find_package(PkgConfig REQUIRED)
pkg_check_modules(OPENBLAS REQUIRED IMPORTED_TARGET openblas)
find_package(Eigen3 3.3 REQUIRED NO_MODULE)
