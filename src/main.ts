import { sizeEngineHeap } from "./platform/engine-heap.ts";

// `serve` may first start again in place with the engine sized (platform/engine-heap.ts). This
// entry stays small so that the restart loads nothing else: the program is a second entry point
// of the build (build.sh), found inside the binary at its path below src/ and from source beside
// this file; an import the bundler cannot follow keeps it out of this entry's bundle.
sizeEngineHeap();
const program = new URL("./cli/run.ts", import.meta.url).href;
await import(program);
