// Files imported `with { type: "file" }` (plate-reader-files.ts): the import is the file's path.
declare module "@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz" {
  const path: string;
  export default path;
}
declare module "tesseract.js-core/tesseract-core-simd-lstm.js" {
  const path: string;
  export default path;
}
declare module "tesseract.js-core/tesseract-core-simd-lstm.wasm" {
  const path: string;
  export default path;
}
declare module "tesseract.js/dist/worker.min.js" {
  const path: string;
  export default path;
}
