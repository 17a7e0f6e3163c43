# What `cmake --install` puts under the prefix (docs/library.md, docs/architecture.md):
#   bin/scaleopt                               the command line
#   lib/libscaleopt_{core,scenario,analysis,plots,report}.a
#   include/scaleopt/scaleopt.hpp              the umbrella header
#   include/scaleopt/<layer>/...               each library layer's public headers
#   lib/cmake/scaleopt/                        the CMake package: scaleoptConfig.cmake, its
#                                              version file, scaleoptTargets*.cmake
# The catalogs (costmodel/data/*.toml) are compiled into scaleopt::core, so no data is
# installed. The command line's own library and headers (cli/, CLI11) are not installed: a
# program calls the library, and runs the binary for the commands.
include(CMakePackageConfigHelpers)

set(SCALEOPT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/scaleopt)
# The headers a public header never includes, kept out of the install: they name toml++ or the
# CSV parser, which scaleopt links privately (a program needs neither's headers), or hold helpers
# of one library's sources (report_text.hpp). The accelerators of the lifecycle problem
# (problems/lifecycle/accelerators/: closed forms and Newton's method behind the fast path) are
# internals too: a program asks for the fast path through question_fast.hpp.
set(SCALEOPT_PRIVATE_FOLDERS data accelerators)
set(SCALEOPT_PRIVATE_HEADERS toml_reading.hpp toml_tables.hpp price_list_file.hpp fccp.hpp
                             report_text.hpp)

install(TARGETS scaleopt_core scaleopt_scenario scaleopt_analysis scaleopt_plots scaleopt_report
                scaleopt
        EXPORT scaleoptTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS scaleopt_exe RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

install(FILES ${PROJECT_SOURCE_DIR}/scaleopt.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/scaleopt)
set(private_patterns)
foreach(private ${SCALEOPT_PRIVATE_FOLDERS} ${SCALEOPT_PRIVATE_HEADERS})
  list(APPEND private_patterns PATTERN ${private} EXCLUDE)
endforeach()
foreach(layer costmodel solver problems scenario analysis plots report)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${layer}/
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/scaleopt/${layer}
          FILES_MATCHING PATTERN "*.hpp" ${private_patterns})
endforeach()

# A library built with sanitizers needs their runtime wherever it is linked; in the build tree
# scaleopt_warnings adds it, for an installed library its link interface must.
if(SCALEOPT_SANITIZE)
  target_link_options(scaleopt_core INTERFACE
                      $<INSTALL_INTERFACE:-fsanitize=${SCALEOPT_SANITIZE}>)
endif()
if(SCALEOPT_FUZZ)
  target_link_options(scaleopt_core INTERFACE $<INSTALL_INTERFACE:-fsanitize=address,undefined>)
endif()

install(EXPORT scaleoptTargets NAMESPACE scaleopt:: DESTINATION ${SCALEOPT_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/scaleoptConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/scaleoptConfig.cmake
                              INSTALL_DESTINATION ${SCALEOPT_CMAKE_DIR})
# 0.x: a new minor version may change the API (semantic versioning), so only the same
# major.minor satisfies find_package(scaleopt 0.1).
write_basic_package_version_file(${PROJECT_BINARY_DIR}/scaleoptConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/scaleoptConfig.cmake
              ${PROJECT_BINARY_DIR}/scaleoptConfigVersion.cmake
        DESTINATION ${SCALEOPT_CMAKE_DIR})
