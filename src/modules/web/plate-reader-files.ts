/**
 * The plate reader's files as this binary carries them: each imported as a file, so `bun build
 * --compile` embeds it and the path names the embedded copy (under source, the file itself).
 * The list is the reader's own (src/client/plate-reader/files.ts); test/modules/web checks that
 * every file it names is here, and nothing else. Their types: embedded-files.d.ts.
 */
import lang from "@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz" with { type: "file" };
import worker from "tesseract.js/dist/worker.min.js" with { type: "file" };
import coreScript from "tesseract.js-core/tesseract-core-simd-lstm.js" with { type: "file" };
import coreWasm from "tesseract.js-core/tesseract-core-simd-lstm.wasm" with { type: "file" };

/** Each file's path in this binary, by the name the reader asks for it under. */
export const PLATE_READER_PATHS: Readonly<Record<string, string>> = {
  "worker.min.js": worker,
  "tesseract-core-simd-lstm.js": coreScript,
  "tesseract-core-simd-lstm.wasm": coreWasm,
  "eng.traineddata.gz": lang,
};
