/** Reads an event stream until `until` says it has what it waits for (or 3 s pass). */
export class StreamReader {
  text = "";
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  constructor(res: Response) {
    this.reader = res.body!.getReader();
  }
  async until(done: (text: string) => boolean, ms = 3_000): Promise<string> {
    const deadline = Date.now() + ms;
    while (!done(this.text)) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`stream did not deliver in time; got: ${this.text}`);
      const next = await Promise.race([
        this.reader.read(),
        Bun.sleep(left).then(() => ({ done: true, value: undefined })),
      ]);
      if (next.done) {
        if (!done(this.text)) throw new Error(`stream ended; got: ${this.text}`);
        break;
      }
      this.text += this.decoder.decode(next.value, { stream: true });
    }
    return this.text;
  }
  events(): { id: string; data: string[] }[] {
    return this.text
      .split("\n\n")
      .filter((b) => b.includes("event: plates"))
      .map((b) => ({
        id: /^id: (.*)$/m.exec(b)![1]!,
        data: (JSON.parse(/^data: (.*)$/m.exec(b)![1]!) as { data: string[] }).data,
      }));
  }
  changes(): { id: string; from: string; added: string[]; removed: string[] }[] {
    return this.text
      .split("\n\n")
      .filter((b) => b.includes("event: changes"))
      .map((b) => ({
        id: /^id: (.*)$/m.exec(b)![1]!,
        ...(JSON.parse(/^data: (.*)$/m.exec(b)![1]!) as { from: string; added: string[]; removed: string[] }),
      }));
  }
  cancel(): Promise<void> {
    return this.reader.cancel();
  }
}
