# falcon_accel_py.cmake -- shared library for the Python package
# (falcon_accel/_falcon_accel.so):
# the core and edge static libraries (built with PIC by the top-level
# project) linked whole into one shared object that cffi opens (ABI mode).
#
# Included at the end of the top-level project by service/python/skbuild_hook.cmake
# (scikit-build-core passes that as CMAKE_PROJECT_falcon_accel_INCLUDE, see
# pyproject.toml), or through service/python/CMakeLists.txt by an
# add_subdirectory(python) in the top-level CMakeLists.txt; either way it
# runs after every library target exists.
if(TARGET falcon_accel_py OR NOT TARGET falcon_accel_edge)
  return()
endif()

# (Threads::Threads is imported per directory: look it up here too.)
find_package(Threads REQUIRED)
add_library(falcon_accel_py SHARED ${CMAKE_CURRENT_LIST_DIR}/src/fa_py.c
  ${CMAKE_CURRENT_LIST_DIR}/src/fa_py_keys.c
  ${CMAKE_CURRENT_LIST_DIR}/src/fa_py_batch_front.c)
target_include_directories(falcon_accel_py PRIVATE ${CMAKE_SOURCE_DIR}/include
  ${CMAKE_SOURCE_DIR}/service/include ${CMAKE_CURRENT_LIST_DIR}/src)
# Whole archives: the Python side calls functions nothing in the shared
# object references.
target_link_libraries(falcon_accel_py PRIVATE
  -Wl,--whole-archive falcon_accel_edge falcon_accel -Wl,--no-whole-archive
  Threads::Threads)
set_target_properties(falcon_accel_py PROPERTIES
  OUTPUT_NAME _falcon_accel PREFIX "" C_VISIBILITY_PRESET default)
# Fail at link time, not at import time, on a missing symbol.
target_link_options(falcon_accel_py PRIVATE -Wl,--no-undefined)

install(TARGETS falcon_accel_py
  LIBRARY DESTINATION falcon_accel COMPONENT python)
install(FILES ${CMAKE_CURRENT_LIST_DIR}/openapi.json
  DESTINATION falcon_accel COMPONENT python)
# The headers the cffi declarations are generated from at import time
# (falcon_accel/_cdef.py).
install(FILES ${CMAKE_SOURCE_DIR}/include/falcon_accel.h
  ${CMAKE_SOURCE_DIR}/service/include/falcon_accel_edge.h
  ${CMAKE_SOURCE_DIR}/include/falcon_accel_kem.h
  ${CMAKE_SOURCE_DIR}/include/falcon_accel_oids.h
  ${CMAKE_SOURCE_DIR}/include/falcon_accel_pki.h
  ${CMAKE_CURRENT_LIST_DIR}/src/fa_py.h
  DESTINATION falcon_accel/_headers COMPONENT python)
