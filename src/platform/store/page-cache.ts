/**
 * Telling the kernel that a file's pages will not be read again (posix_fadvise DONTNEED), for a
 * copy that streams gigabytes through once (a backup's photos). Without it those pages stay in
 * the page cache, which on a box of 256 MB (or a cgroup of that size) they can only fill by
 * pushing out the pages serve answers from: the store's, the program's own.
 *
 * Only clean pages are dropped: a file written is synced first. Where the C library cannot be
 * reached (another libc, no FFI), nothing is dropped and the copy works as before.
 */
import { dlopen, FFIType } from "bun:ffi";
import { closeSync, openSync } from "node:fs";

const POSIX_FADV_DONTNEED = 4;

type Fadvise = (fd: number, offset: number, length: number, advice: number) => number;

let fadvise: Fadvise | null | undefined;

function load(): Fadvise | null {
  if (process.platform !== "linux") return null;
  try {
    const lib = dlopen("libc.so.6", {
      posix_fadvise: { args: [FFIType.i32, FFIType.i64, FFIType.i64, FFIType.i32], returns: FFIType.i32 },
    });
    return lib.symbols.posix_fadvise as unknown as Fadvise;
  } catch {
    return null;
  }
}

/** Drops the cached (clean) pages of the file open as `fd`; false where that cannot be asked. */
export function forgetPages(fd: number): boolean {
  fadvise ??= load();
  return fadvise !== null && fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) === 0;
}

/** forgetPages for a file by its path (a photo just read whole). */
export function forgetPagesOf(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return false;
  }
  try {
    return forgetPages(fd);
  } finally {
    closeSync(fd);
  }
}
