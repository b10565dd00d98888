# The page app's WebAssembly module (ETVIZ_WASM_APP, Emscripten): the same libraries as the
# native build (core, formats, analysis, the page-data writer, sessions) and its entry points
# (src/wasm). No downloads: Emscripten's ports fetch sources at build time, so only what Debian
# ships as headers is used (FlatBuffers, fmt with FMT_HEADER_ONLY, nlohmann/json); libzip's
# inflating is the browser's DecompressionStream (zip_page_members.cpp) and the page data stays
# plain JSON (no zlib). docs/app.md.
find_program(FLATC flatc REQUIRED)

# Debian's headers, seen through a directory holding only them: /usr/include itself would put
# glibc's headers in front of Emscripten's libc.
set(host_headers ${CMAKE_BINARY_DIR}/host-headers)
file(MAKE_DIRECTORY ${host_headers})
foreach(dir flatbuffers fmt nlohmann)
  if(NOT EXISTS /usr/include/${dir})
    message(FATAL_ERROR "ETVIZ_WASM_APP needs /usr/include/${dir} (Debian's headers)")
  endif()
  file(CREATE_LINK /usr/include/${dir} ${host_headers}/${dir} SYMBOLIC)
endforeach()
foreach(lib flatbuffers::flatbuffers fmt::fmt nlohmann_json::nlohmann_json)
  add_library(${lib} INTERFACE IMPORTED)
  set_target_properties(${lib} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES ${host_headers})
endforeach()
set_property(TARGET fmt::fmt PROPERTY INTERFACE_COMPILE_DEFINITIONS FMT_HEADER_ONLY)

configure_file(src/core/version.h.in ${CMAKE_BINARY_DIR}/generated/etviz/version.h @ONLY)
add_subdirectory(src/core)
add_subdirectory(src/layout)
add_subdirectory(src/formats)
add_subdirectory(src/analysis)
add_subdirectory(src/view)
add_subdirectory(src/render)
add_subdirectory(src/session)
add_subdirectory(src/wasm)
