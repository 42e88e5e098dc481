/**
 * A connection's unread input: the bytes received and not yet read as a request. Bytes that
 * arrive while some are still unread are appended into one buffer whose capacity doubles, so
 * input sent a byte at a time costs each byte a copy or two, never a copy of everything before it
 * (a Buffer.concat per arrival copied 256 KiB sent in 1-byte writes about 32 billion times over).
 * Input that arrives with nothing unread is kept as it came, without a copy.
 */
export class InputBytes {
  private data: Buffer | null = null;
  /** Whether `data` is ours to append into (not the buffer it arrived in). */
  private owned = false;
  private start = 0;
  private end = 0;
  /** Bytes copied so far: what a test reads to see that appending stays linear. */
  copied = 0;

  get length(): number {
    return this.end - this.start;
  }

  /** The unread bytes; valid until the next append or consume. */
  view(): Buffer {
    return this.data === null ? EMPTY : this.data.subarray(this.start, this.end);
  }

  append(chunk: Buffer): void {
    if (chunk.length === 0) return;
    if (this.length === 0) {
      this.data = chunk;
      this.owned = false;
      this.start = 0;
      this.end = chunk.length;
      return;
    }
    const data = this.data!;
    if (!this.owned || this.end + chunk.length > data.length) {
      const need = this.length + chunk.length;
      const grown = Buffer.allocUnsafe(Math.max(MIN_CAPACITY, 2 * need));
      data.copy(grown, 0, this.start, this.end);
      this.copied += this.length;
      this.data = grown;
      this.owned = true;
      this.end = this.length;
      this.start = 0;
    }
    chunk.copy(this.data!, this.end);
    this.copied += chunk.length;
    this.end += chunk.length;
  }

  /** Drops the first `n` unread bytes (read as a request). */
  consume(n: number): void {
    this.start += n;
    if (this.start >= this.end) this.clear();
  }

  clear(): void {
    this.data = null;
    this.owned = false;
    this.start = 0;
    this.end = 0;
  }
}

const EMPTY = Buffer.alloc(0);
const MIN_CAPACITY = 4096;
