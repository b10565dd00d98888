// The app module's Emscripten glue (src/wasm, cmake/wasm_app.cmake) runs before app_worker.js
// in the same worker script (app.js joins them) and defines this factory.
declare function createEtvizApp(options: {
  wasmBinary: Uint8Array;
  onProgress?: (text: string) => void;
}): Promise<{ etvizApp: any }>;
