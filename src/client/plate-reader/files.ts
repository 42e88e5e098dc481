/**
 * Every file the plate reader fetches at run time, all from the box under one base address
 * (`/plate-reader/<name>`): the reader is given every path, so nothing is ever asked of another
 * origin. The server carries these in the binary, with these content types.
 *
 * - The worker script runs tesseract.js's side of the work. It is started by its own address,
 *   same-origin (not a blob: worker, which `worker-src 'self'` refuses).
 * - The core is tesseract's LSTM-only build with 128-bit SIMD: the legacy engine is not used, and
 *   SIMD is in every phone browser the attendants have (Chrome 91+, Safari 16.4+). Its glue script
 *   finds its .wasm beside the worker script, so both are served under the same base. The wasm is
 *   compiled with instantiateStreaming, which needs `application/wasm`.
 * - The language data is the LSTM-only integer English model, gzipped as the package ships it;
 *   the worker gunzips it itself (it checks the bytes, so a server that adds
 *   `Content-Encoding: gzip` on top is harmless too).
 */
export const PLATE_READER_FILES: readonly { name: string; from: string; type: string }[] = [
  {
    name: "worker.min.js",
    from: "node_modules/tesseract.js/dist/worker.min.js",
    type: "text/javascript; charset=utf-8",
  },
  {
    name: "tesseract-core-simd-lstm.js",
    from: "node_modules/tesseract.js-core/tesseract-core-simd-lstm.js",
    type: "text/javascript; charset=utf-8",
  },
  {
    name: "tesseract-core-simd-lstm.wasm",
    from: "node_modules/tesseract.js-core/tesseract-core-simd-lstm.wasm",
    type: "application/wasm",
  },
  {
    name: "eng.traineddata.gz",
    from: "node_modules/@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz",
    type: "application/octet-stream",
  },
];

/** The names the reader asks for, so the adapter and the list cannot drift apart. */
export const WORKER_FILE = "worker.min.js";
export const CORE_FILE = "tesseract-core-simd-lstm.js";
export const LANGUAGE = "eng";
