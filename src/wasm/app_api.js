// JS side of the app module (appended to the Emscripten output with --post-js): strings in
// and out of app_api.cpp's entry points, files into Emscripten's in-memory file system.
//
//   const app = (await createEtvizApp()).etvizApp;
//   app.writeFile('/in/1/model.pte', bytes);
//   for (const m of app.zipPlan(path)) app.provideMember(path, m.name, inflated, '');
//   app.readInPart(size, (begin, end) => bytes, reserve)  // a large file: what the readers read
//   const r = app.open(['/in/1/model.pte'], [['--stages', 'true']]);
//                                             // {ok, meta, html, columns} or {ok: false, error}
//                                             // columns: each file's column bytes (a copy)
//   const i = app.info(path, dataPaths);       // {ok, text} or {ok: false, error}
Module['etvizApp'] = (function () {
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  // A NUL-terminated copy of `text` in the module's memory; the caller frees it.
  function cString(text) {
    const bytes = encoder.encode(text);
    const ptr = _malloc(bytes.length + 1);
    HEAPU8.set(bytes, ptr);
    HEAPU8[ptr + bytes.length] = 0;
    return ptr;
  }
  function withStrings(texts, fn) {
    const ptrs = texts.map(cString);
    try {
      return fn(...ptrs);
    } finally {
      ptrs.forEach((p) => _free(p));
    }
  }
  function result() {
    const ptr = _etviz_app_result_data() >>> 0;
    const size = _etviz_app_result_size() >>> 0;
    return decoder.decode(HEAPU8.subarray(ptr, ptr + size));
  }
  return {
    writeFile(path, bytes) {
      FS.mkdirTree(path.slice(0, path.lastIndexOf('/')) || '/');
      FS.writeFile(path, bytes);
    },
    chdir(dir) { FS.mkdirTree(dir); FS.chdir(dir); },
    removeFile(path) {
      try { FS.unlink(path); } catch (e) { /* already gone */ }
    },
    zipPlan(path) {
      withStrings([path], (p) => _etviz_app_zip_plan(p));
      return JSON.parse(result());
    },
    provideMember(path, name, bytes, error) {
      const data = _malloc(Math.max(bytes.length, 1));
      HEAPU8.set(bytes, data);
      try {
        withStrings([path, name, error || ''], (p, n, e) => _etviz_app_provide_member(p, n, data, bytes.length, e));
      } finally {
        _free(data);
      }
    },
    forget() { _etviz_app_forget(); },
    // A large file read in part (docs/app.md; src/wasm/partial_plan.h). `read(begin, end)`
    // returns those bytes of the file; `reserve(size)` memory the size of the file, zero
    // where nothing is read. The file's head and tail say whether it is a kind read in part
    // (else 0: read it whole, nothing reserved); then the plan's ranges are filled in, round
    // after round. Returns the memory, holding all the readers need.
    readInPart(size, read, reserve) {
      const headEnd = Math.min(4096, size);
      const tailStart = Math.max(0, size - _etviz_app_partial_tail_bytes());
      const head = read(0, headEnd);
      const tail = read(tailStart, size);
      const h = _malloc(head.length + tail.length + 1);
      HEAPU8.set(head, h);
      HEAPU8.set(tail, h + head.length);
      const kind = _etviz_app_partial_kind(h, head.length, h + head.length, tail.length);
      _free(h);
      if (!kind) return 0;
      const ptr = reserve(size);
      if (!ptr) return 0;
      _etviz_app_partial_begin(ptr, size);
      const put = (offset, bytes) => {
        HEAPU8.set(bytes, ptr + offset);
        _etviz_app_partial_loaded(offset, bytes.length);
      };
      put(0, head);
      put(tailStart, tail);
      for (let round = 0; round < 32; round++) {
        _etviz_app_partial_next();
        const step = JSON.parse(result());
        if (step.error) return 0;
        if (step.done) return ptr;
        // Not `for (const [offset, n] of ...)`: this Emscripten's minifier breaks destructuring.
        for (let k = 0; k < step.need.length; k++) {
          const offset = step.need[k][0];
          put(offset, read(offset, offset + step.need[k][1]));
        }
      }
      return 0;  // a plan that never ends is a bug: read the file whole
    },
    // Memory for a whole file, of which only some ranges will be written (the rest stays
    // untouched pages); 0 when the module cannot grow that far. Never given back.
    reserve(size) { return _etviz_app_reserve(size) >>> 0; },
    // Heap memory for a file read whole (0 when there is none); free() after the open.
    alloc(size) { return _malloc(Math.max(size, 1)) >>> 0; },
    free(ptr) { _free(ptr); },
    put(ptr, bytes) { HEAPU8.set(bytes, ptr); },
    registerMemoryFile(path, ptr, size) {
      withStrings([path], (p) => _etviz_app_register_memory_file(p, ptr, size));
    },
    unregisterMemoryFile(path) {
      withStrings([path], (p) => _etviz_app_unregister_memory_file(p));
    },
    // `options`: [[flag, value], ...] of pageOptions()' flags, as the CLI takes them.
    open(paths, options) {
      const rc = withStrings([paths.join('\n'), JSON.stringify(options || [])], (p, o) => _etviz_app_open(p, o));
      const text = result();
      if (rc !== 0) return { ok: false, error: text };
      const cut = text.indexOf('\n');
      const columns = [];
      for (let k = 0; k < _etviz_app_columns_count(); k++) {
        // Unsigned: past 2 GiB (a large file's memory, etviz_app_reserve) pointers are negative.
        const ptr = _etviz_app_columns_data(k) >>> 0;
        columns.push(HEAPU8.slice(ptr, ptr + (_etviz_app_columns_size(k) >>> 0)));
      }
      return { ok: true, meta: JSON.parse(text.slice(0, cut)), html: text.slice(cut + 1), columns };
    },
    // The page options (session/page_options.h): [{flag, help, kind: flag|text|file}].
    pageOptions() {
      _etviz_app_page_options();
      return JSON.parse(result());
    },
    info(path, dataPaths) {
      const rc = withStrings([path, (dataPaths || []).join('\n')], (p, d) => _etviz_app_info(p, d));
      return rc === 0 ? { ok: true, text: result() } : { ok: false, error: result() };
    },
  };
})();
