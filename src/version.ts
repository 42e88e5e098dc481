import pkg from "../package.json" with { type: "json" };

declare const BUILD_COMMIT: string | undefined;
declare const BUILD_TARGET: string | undefined;

export const VERSION: string = pkg.version;
export const COMMIT: string = typeof BUILD_COMMIT === "string" ? BUILD_COMMIT : "source";
/** What the binary was compiled for (linux-x64, linux-x64-baseline, linux-arm64), set by build.sh. */
export const TARGET: string =
  typeof BUILD_TARGET === "string" ? BUILD_TARGET : `source on ${process.platform}-${process.arch}`;
