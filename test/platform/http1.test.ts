import { describe, expect, test } from "bun:test";
import { ChunkedBody, type RequestHead, readHead } from "../../src/platform/http/http1.ts";

const head = (text: string) => readHead(Buffer.from(text, "latin1"));
const ok = (text: string) => {
  const read = head(text);
  if (typeof read === "string" || "error" in read) throw new Error(`not read: ${JSON.stringify(read)}`);
  return read as RequestHead;
};

describe("request heads", () => {
  test("a plain GET, its headers in order, lower-cased, trimmed", () => {
    const h = ok("GET /a?b=1 HTTP/1.1\r\nHost: x\r\nX-Thing:  two words \t\r\n\r\nrest");
    expect(h.method).toBe("GET");
    expect(h.target).toBe("/a?b=1");
    expect(h.headers).toEqual([
      ["host", "x"],
      ["x-thing", "two words"],
    ]);
    expect(h.length).toBe("GET /a?b=1 HTTP/1.1\r\nHost: x\r\nX-Thing:  two words \t\r\n\r\n".length);
    expect([h.contentLength, h.chunked, h.keepAlive, h.expectContinue]).toEqual([null, false, true, false]);
  });

  test.each([
    ["HTTP/1.1 keeps the connection", "GET / HTTP/1.1\r\n\r\n", true],
    ["HTTP/1.1 with Connection: close", "GET / HTTP/1.1\r\nConnection: close\r\n\r\n", false],
    ["HTTP/1.0 closes", "GET / HTTP/1.0\r\n\r\n", false],
    ["HTTP/1.0 with keep-alive", "GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n", true],
  ])("%s", (_, text, keepAlive) => {
    expect(ok(text).keepAlive).toBe(keepAlive);
  });

  test("bodies: Content-Length, repeated equal, chunked, Expect: 100-continue", () => {
    expect(ok("POST / HTTP/1.1\r\nContent-Length: 12\r\n\r\n").contentLength).toBe(12);
    expect(ok("POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\n").contentLength).toBe(3);
    expect(ok("POST / HTTP/1.1\r\nTransfer-Encoding: Chunked\r\n\r\n").chunked).toBe(true);
    expect(ok("POST / HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\n").expectContinue).toBe(
      true,
    );
  });

  test("empty lines before the request line are skipped; an unfinished head is incomplete", () => {
    expect(ok("\r\n\r\nGET / HTTP/1.1\r\n\r\n").target).toBe("/");
    expect(head("GET / HTTP/1.1\r\nHost: x\r\n")).toBe("incomplete");
  });

  // Each of these would let two readers of the same bytes disagree, or is simply not HTTP/1.1.
  test.each([
    ["no version", "GET /\r\n\r\n"],
    ["HTTP/2 on this port", "GET / HTTP/2.0\r\n\r\n"],
    ["a space too many", "GET  / HTTP/1.1\r\n\r\n"],
    ["a bad method", "G(T / HTTP/1.1\r\n\r\n"],
    ["a header without a colon", "GET / HTTP/1.1\r\nBad\r\n\r\n"],
    ["whitespace before the colon", "GET / HTTP/1.1\r\nContent-Length : 5\r\n\r\n"],
    ["obs-fold", "GET / HTTP/1.1\r\nX-A: a\r\n  folded\r\n\r\n"],
    ["a bare LF", "GET / HTTP/1.1\r\nX-A: a\nX-B: b\r\n\r\n"],
    ["a control character in a value", "GET / HTTP/1.1\r\nX-A: a\u0001b\r\n\r\n"],
    [
      "Content-Length and Transfer-Encoding",
      "POST / HTTP/1.1\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n",
    ],
    ["two different Content-Lengths", "POST / HTTP/1.1\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n"],
    ["a Content-Length that is not digits", "POST / HTTP/1.1\r\nContent-Length: +5\r\n\r\n"],
    ["a coding other than chunked", "POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"],
    // A fetch Request would read `head` as HEAD and an unknown method as GET.
    ["a method in lower case", "head / HTTP/1.1\r\n\r\n"],
    ["a method not served", "TRACE / HTTP/1.1\r\n\r\n"],
  ])("refused: %s", (_, text) => {
    expect(head(text)).toEqual({ error: "malformed" });
  });

  test("a second Authorization does not merge into the first; Cookie lines join as one list", () => {
    const h = ok(
      "GET / HTTP/1.1\r\nAuthorization: Bearer a\r\nAuthorization: Bearer b\r\nCookie: x=1\r\nCookie: y=2\r\n\r\n",
    );
    expect(h.headers).toEqual([
      ["authorization", "Bearer a"],
      ["cookie", "x=1; y=2"],
    ]);
  });

  test("HTTP/1.0: a chunked request closes its connection, and no 100 Continue is promised", () => {
    const h = ok(
      "POST / HTTP/1.0\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n",
    );
    expect([h.chunked, h.keepAlive, h.http10, h.expectContinue]).toEqual([true, false, true, false]);
  });

  test("empty lines before a request count against the head limit", () => {
    expect(head("\r\n".repeat(10_000))).toEqual({ error: "too-large" });
  });

  test("raw UTF-8 in the target is named as such; oversized heads are too large", () => {
    expect(readHead(Buffer.from("GET /x?p=ÖZB771 HTTP/1.1\r\n\r\n", "utf8"))).toEqual({ error: "not-ascii" });
    expect(head(`GET / HTTP/1.1\r\nX: ${"a".repeat(20_000)}\r\n\r\n`)).toEqual({ error: "too-large" });
    expect(head(`GET / HTTP/1.1\r\nX: ${"a".repeat(20_000)}`)).toEqual({ error: "too-large" });
  });
});

describe("chunked bodies", () => {
  const body = (...pieces: string[]) => {
    const c = new ChunkedBody();
    let rest = "";
    for (const p of pieces) {
      const buf = Buffer.from(p, "latin1");
      const used = c.feed(buf, 0);
      rest += buf.toString("latin1", used);
    }
    return { done: c.done, text: Buffer.concat(c.parts).toString("latin1"), rest };
  };

  test("chunks, an extension and a trailer, in one piece or split anywhere; what follows is left", () => {
    const whole = "5;name=v\r\nhello\r\n6\r\n world\r\n0\r\nX-T: 1\r\n\r\nNEXT";
    expect(body(whole)).toEqual({ done: true, text: "hello world", rest: "NEXT" });
    for (let cut = 1; cut < whole.length - 4; cut++)
      expect(body(whole.slice(0, cut), whole.slice(cut))).toEqual({
        done: true,
        text: "hello world",
        rest: "NEXT",
      });
  });

  test.each([
    ["a size that is not hex", "ZZ\r\nabc\r\n0\r\n\r\n"],
    ["data longer than its size", "2\r\nabc\r\n0\r\n\r\n"],
    ["a size line with a bare LF", "3\nabc\r\n0\r\n\r\n"],
    ["a bare CR in an extension", "1;a\rb\r\nx\r\n0\r\n\r\n"],
    ["a NUL in an extension", "1;\u0000\r\nx\r\n0\r\n\r\n"],
    ["a trailer without a colon", "1\r\nx\r\n0\r\nnot a field\r\n\r\n"],
  ])("refused: %s", (_, text) => {
    expect(() => body(text)).toThrow();
  });
});
