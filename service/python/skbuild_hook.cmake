# Included right after project(falcon_accel) when scikit-build-core builds
# the Python package (CMAKE_PROJECT_falcon_accel_INCLUDE, set in
# pyproject.toml): defers including service/python/falcon_accel_py.cmake to the
# end of the top-level CMakeLists.txt, when the library targets exist.
# Leaves the top-level file untouched.
if(NOT FA_PYTHON_HOOKED)
  set(FA_PYTHON_HOOKED ON)
  # Deferred arguments are expanded when the call runs: keep the path in
  # a variable of the top-level directory now.
  set(FA_PYTHON_CMAKE "${CMAKE_CURRENT_LIST_DIR}/falcon_accel_py.cmake")
  cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}"
    CALL include "${FA_PYTHON_CMAKE}")
endif()
