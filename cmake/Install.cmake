# What `cmake --install` puts on a system (GNUInstallDirs), and the Debian
# package CPack builds from it (`cpack -G DEB` in the build folder).
#   bin/threadmap, bin/threadmap-cli                     (app/gui, app/cli)
#   share/man/man1/threadmap.1.gz, threadmap-cli.1.gz    (docs/man)
#   share/bash-completion/completions/threadmap-cli      (resources/desktop)
#   share/applications/org.threadmap.threadmap.desktop
#   share/metainfo/org.threadmap.threadmap.metainfo.xml  (AppStream)
#   share/mime/packages/org.threadmap.threadmap.xml      (application/x-threadmap, *.threadmap)
#   share/icons/hicolor/{scalable,48x48..512x512}/apps/org.threadmap.threadmap.{svg,png}
#   share/doc/threadmap/{copyright,changelog.gz}
include(GNUInstallDirs)

set(THREADMAP_APP_ID org.threadmap.threadmap)
set(THREADMAP_SCREENSHOT_URL "https://threadmap.invalid/docs/images" CACHE STRING
    "Where docs/images is published: the AppStream screenshots point there")
set(THREADMAP_PACKAGE_CONTACT "ThreadMap maintainers <dev@threadmap.invalid>" CACHE STRING
    "The Debian package's Maintainer")

# Manual pages and the changelog are installed gzipped (-n: no name or time
# stamp, so the package is reproducible).
find_program(GZIP_EXECUTABLE gzip REQUIRED)
set(gzipped "")
foreach(page threadmap-cli.1 threadmap.1)
  add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/man/${page}.gz
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man
    COMMAND ${GZIP_EXECUTABLE} -9n -c ${PROJECT_SOURCE_DIR}/docs/man/${page} > ${CMAKE_BINARY_DIR}/man/${page}.gz
    DEPENDS ${PROJECT_SOURCE_DIR}/docs/man/${page}
    VERBATIM)
  list(APPEND gzipped ${CMAKE_BINARY_DIR}/man/${page}.gz)
endforeach()
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/doc/changelog.gz
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/doc
  COMMAND ${GZIP_EXECUTABLE} -9n -c ${PROJECT_SOURCE_DIR}/resources/desktop/changelog > ${CMAKE_BINARY_DIR}/doc/changelog.gz
  DEPENDS ${PROJECT_SOURCE_DIR}/resources/desktop/changelog
  VERBATIM)
list(APPEND gzipped ${CMAKE_BINARY_DIR}/doc/changelog.gz)
add_custom_target(threadmap_install_files ALL DEPENDS ${gzipped})

install(FILES ${CMAKE_BINARY_DIR}/man/threadmap-cli.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${PROJECT_SOURCE_DIR}/resources/desktop/threadmap-cli.bash
        DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/bash-completion/completions RENAME threadmap-cli)
install(FILES ${PROJECT_SOURCE_DIR}/resources/desktop/copyright ${CMAKE_BINARY_DIR}/doc/changelog.gz
        DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/threadmap)
# The bundled packs (kernels, lessons, exercises), found from the programs'
# folder as ../share/threadmap/packs (kernels/pack/pack_variants.h).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/packs/ DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/threadmap/packs)

if(THREADMAP_HAVE_GUI)
  install(FILES ${CMAKE_BINARY_DIR}/man/threadmap.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  install(FILES ${PROJECT_SOURCE_DIR}/resources/desktop/${THREADMAP_APP_ID}.desktop
          DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/applications)
  configure_file(${PROJECT_SOURCE_DIR}/resources/desktop/${THREADMAP_APP_ID}.metainfo.xml.in
                 ${CMAKE_BINARY_DIR}/${THREADMAP_APP_ID}.metainfo.xml @ONLY)
  install(FILES ${CMAKE_BINARY_DIR}/${THREADMAP_APP_ID}.metainfo.xml DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/metainfo)
  install(FILES ${PROJECT_SOURCE_DIR}/resources/desktop/${THREADMAP_APP_ID}.mime.xml
          DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/mime/packages RENAME ${THREADMAP_APP_ID}.xml)
  install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/${THREADMAP_APP_ID}.svg
          DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/icons/hicolor/scalable/apps)
  foreach(size 48 64 128 256 512)
    install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/${THREADMAP_APP_ID}-${size}.png
            DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/icons/hicolor/${size}x${size}/apps
            RENAME ${THREADMAP_APP_ID}.png)
  endforeach()
endif()

# The Debian package: its Depends computed by dpkg-shlibdeps from the
# binaries; the Qt platform plugins (xcb, offscreen) are only a Recommends of
# Qt, and an OpenCL driver makes the CPU or GPU a device. libclang is opened at
# run time (tracing a learner's OpenCL kernel), so shlibdeps cannot see it.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME threadmap)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${THREADMAP_PACKAGE_CONTACT}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "show how GPU threads map onto memory")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "ThreadMap runs the teaching kernels of five GPU lessons (matrix transpose,
memory coalescing, parallel reduction, shared-memory data layout) on a CUDA
or OpenCL device, checks every result against a CPU reference and times every
variant. threadmap is a Qt GUI for the lecture room (live parameter sliders,
bandwidth charts, the lesson beside the kernel source, recorded traces of what
the threads did), in English, Brazilian Portuguese and Spanish;
threadmap-cli runs the same kernels on a GPU server without a display.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libclang1-14")
if(THREADMAP_HAVE_GUI)
  set(CPACK_DEBIAN_PACKAGE_DEPENDS "${CPACK_DEBIAN_PACKAGE_DEPENDS}, qt6-qpa-plugins")
endif()
# Qt's own texts (file dialogs, --help) in Portuguese and Spanish; the OpenMP
# dialect's compiler and runtime (opened at run time: no shared-library
# dependency names them), GCC's nvptx offload compiler and libgomp's GPU plugin.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS
    "pocl-opencl-icd | opencl-icd, qt6-translations-l10n, libgomp1, gcc-12-offload-nvptx, libgomp-plugin-nvptx1")
set(CPACK_STRIP_FILES ON)
set(CPACK_SOURCE_IGNORE_FILES "/build/;/\\\\.git/")
include(CPack)
