import { describe, expect, test } from "bun:test";
import { BodyBytes, ChunkedBody, type RequestHead, readHead } from "../../src/platform/http/http1.ts";

/** An HTTP/1.1 request gets `Host: x` after its request line unless it names a Host itself. */
const withHost = (text: string) =>
  /\r\n(host|x-no-host):/i.test(text) ? text : text.replace(/HTTP\/1\.1\r\n/, "HTTP/1.1\r\nHost: x\r\n");
const head = (text: string) => readHead(Buffer.from(withHost(text), "latin1"));
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

  test.each([
    ["another expectation", "POST / HTTP/1.1\r\nExpect: 200-ok\r\nContent-Length: 1\r\n\r\n"],
    ["a list holding 100-continue and another", "GET / HTTP/1.1\r\nExpect: 100-continue, x\r\n\r\n"],
    ["an empty Expect", "GET / HTTP/1.1\r\nExpect: \r\n\r\n"],
    ["a second Expect line", "GET / HTTP/1.1\r\nExpect: 100-continue\r\nExpect: later\r\n\r\n"],
    ["HTTP/1.0 with an expectation", "GET / HTTP/1.0\r\nExpect: 101-switch\r\n\r\n"],
  ])("Expect other than 100-continue is refused (417): %s", (_, text) => {
    expect(head(text)).toMatchObject({ error: "expectation-failed" });
  });

  test("Expect: 100-continue in any case is served; a broken head is still 400 before its expectation", () => {
    expect(ok("POST / HTTP/1.1\r\nExpect: 100-Continue\r\nContent-Length: 1\r\n\r\n").expectContinue).toBe(
      true,
    );
    expect(head("GET / HTTP/1.1\r\nExpect: x\r\nX-No-Host: 1\r\n\r\n")).toMatchObject({ error: "malformed" });
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
    // RFC 9112 3.2: Host is required in HTTP/1.1, once, and well-formed (DNS rebinding, cache keys).
    ["no Host in HTTP/1.1", "GET / HTTP/1.1\r\nX-No-Host: 1\r\n\r\n"],
    ["two Hosts", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"],
    ["the same Host twice", "GET / HTTP/1.1\r\nHost: a\r\nHost: a\r\n\r\n"],
    ["a Host with a space", "GET / HTTP/1.1\r\nHost: a b\r\n\r\n"],
    ["a Host with user info", "GET / HTTP/1.1\r\nHost: user@x\r\n\r\n"],
    ["a Host with a path", "GET / HTTP/1.1\r\nHost: x/y\r\n\r\n"],
    // Framing: the transfer codings the two front ends once read differently, and NBSP, which
    // JavaScript's trim() strips but is not whitespace in HTTP.
    [
      "Transfer-Encoding with NBSP after chunked",
      "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\xa0\r\n\r\n",
    ],
    ["an empty Transfer-Encoding", "POST / HTTP/1.1\r\nTransfer-Encoding: \r\n\r\n"],
    [
      "Transfer-Encoding: chunked, (an empty coding after it)",
      "POST / HTTP/1.1\r\nTransfer-Encoding: chunked,\r\n\r\n",
    ],
    ["chunked twice", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n"],
    ["Content-Length as a list", "POST / HTTP/1.1\r\nContent-Length: 5, 5\r\n\r\n"],
    ["Content-Length with NBSP", "POST / HTTP/1.1\r\nContent-Length: 5\xa0\r\n\r\n"],
    // RFC 9112 3.2: the target forms.
    ["an asterisk target on GET", "GET * HTTP/1.1\r\n\r\n"],
    ["a target that is no path or URL", "GET x/y HTTP/1.1\r\n\r\n"],
    ["an authority-form target", "GET example.org:80 HTTP/1.1\r\n\r\n"],
    ["HTTP/1.2", "GET / HTTP/1.2\r\n\r\n"],
    ["a lower-case version", "GET / http/1.1\r\n\r\n"],
  ])("refused: %s", (_, text) => {
    expect(head(text)).toMatchObject({ error: "malformed" });
  });

  test("what can never become a request is refused before its head is whole (no wait for the deadline)", () => {
    expect(head("GET / HTTP/1.1\nHost: x\n")).toMatchObject({ error: "malformed" });
    expect(head("GET / HTTP/1.1\r\nHost: x\n")).toMatchObject({ error: "malformed" });
    // A TLS ClientHello on the plain port.
    expect(readHead(Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00]))).toMatchObject({
      error: "malformed",
    });
    expect(head("GET / HTTP/1.1\r\nHost: x\r\n")).toBe("incomplete");
    // A body's own bare LFs after a whole head are the body's business.
    expect(ok("POST / HTTP/1.1\r\nContent-Length: 4\r\n\r\n{\n}\n").contentLength).toBe(4);
  });

  test("target forms: origin, absolute (its path is used) and asterisk for OPTIONS; HTTP/1.0 needs no Host", () => {
    expect(
      ok("GET http://box.local:8443/api/v1/parkings?x=1 HTTP/1.1\r\nHost: box.local:8443\r\n\r\n").path,
    ).toBe("/api/v1/parkings?x=1");
    expect(ok("GET HTTPS://box HTTP/1.1\r\nHost: box\r\n\r\n").path).toBe("/");
    expect(ok("OPTIONS * HTTP/1.1\r\n\r\n").path).toBe("/*");
    expect(ok("GET /old HTTP/1.0\r\n\r\n").host).toBeNull();
  });

  test("Host: names and addresses with ports, lower case without the port; an empty one is allowed", () => {
    expect(ok("GET / HTTP/1.1\r\nHost: Box.Local:8443\r\n\r\n").host).toBe("box.local");
    expect(ok("GET / HTTP/1.1\r\nHost: 192.168.1.20\r\n\r\n").host).toBe("192.168.1.20");
    expect(ok("GET / HTTP/1.1\r\nHost: [fe80::1]:8443\r\n\r\n").host).toBe("[fe80::1]");
    expect(ok("GET / HTTP/1.1\r\nHost:\r\n\r\n").host).toBe("");
  });

  test("a second Authorization does not merge into the first; Cookie lines join as one list", () => {
    const h = ok(
      "GET / HTTP/1.1\r\nAuthorization: Bearer a\r\nAuthorization: Bearer b\r\nCookie: x=1\r\nCookie: y=2\r\n\r\n",
    );
    expect(h.headers).toEqual([
      ["host", "x"],
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
    expect(head("\r\n".repeat(10_000))).toMatchObject({ error: "too-large" });
  });

  test("raw UTF-8 in the target is read, percent-encoded for the URL; bytes that are not UTF-8 are refused", () => {
    const h = readHead(Buffer.from("GET /x?p=ÖZB771 HTTP/1.1\r\nHost: x\r\n\r\n", "utf8")) as RequestHead;
    expect(h.path).toBe("/x?p=%C3%96ZB771");
    expect(new URL(`http://localhost${h.path}`).searchParams.get("p")).toBe("ÖZB771");
    expect(readHead(Buffer.from("GET /x?p=\xd6ZB HTTP/1.1\r\nHost: x\r\n\r\n", "latin1"))).toMatchObject({
      error: "not-utf8",
    });
    expect(head(`GET / HTTP/1.1\r\nX: ${"a".repeat(20_000)}\r\n\r\n`)).toMatchObject({ error: "too-large" });
    expect(head(`GET / HTTP/1.1\r\nX: ${"a".repeat(20_000)}`)).toMatchObject({ error: "too-large" });
  });
});

describe("chunked bodies", () => {
  const body = (...pieces: string[]) => {
    const c = new ChunkedBody(1024);
    let rest = "";
    for (const p of pieces) {
      const buf = Buffer.from(p, "latin1");
      const used = c.feed(buf, 0);
      rest += buf.toString("latin1", used);
    }
    return { done: c.done, text: Buffer.from(c.body.bytes()).toString("latin1"), rest };
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
    // RFC 9112 7.1: chunk-size is 1*HEXDIG, nothing before it and only an extension after it.
    ["a size with a space after it", "3 \r\nabc\r\n0\r\n\r\n"],
    ["a size with a space before it", " 3\r\nabc\r\n0\r\n\r\n"],
    ["a size with a 0x prefix", "0x3\r\nabc\r\n0\r\n\r\n"],
    ["a negative size", "-3\r\nabc\r\n0\r\n\r\n"],
    ["a size of more than 8 hex digits", "000000003\r\nabc\r\n0\r\n\r\n"],
    ["an empty size line", "\r\nabc\r\n0\r\n\r\n"],
    ["data not followed by CRLF", "3\r\nabcX\r\n0\r\n\r\n"],
    ["data followed by a bare LF", "3\r\nabc\n0\r\n\r\n"],
    // RFC 9112 7.1.2: a trailer section is fields, each a token, a colon and a value.
    ["a trailer with a space before its colon", "1\r\nx\r\n0\r\nX-T : 1\r\n\r\n"],
    ["a folded trailer", "1\r\nx\r\n0\r\nX-T: 1\r\n folded\r\n\r\n"],
  ])("refused: %s", (_, text) => {
    expect(() => body(text)).toThrow();
  });

  test("upper- and lower-case hex sizes, a last chunk with an extension, and no trailers", () => {
    expect(body("A\r\n0123456789\r\na\r\n0123456789\r\n0;end=1\r\n\r\n")).toEqual({
      done: true,
      text: "01234567890123456789",
      rest: "",
    });
  });

  test("a chunk size past the body limit is refused when declared, before its data arrives", () => {
    const c = new ChunkedBody(10);
    expect(() => c.feed(Buffer.from("8\r\n12345678\r\n3\r\n"), 0)).toThrow("too-large");
  });

  test("a body of 1-byte chunks holds its own size, not the buffers it arrived in", () => {
    const c = new ChunkedBody(64 * 1024);
    for (let i = 0; i < 20_000; i++) {
      // Each chunk arrives in a buffer of its own, as a client writing one chunk at a time sends it.
      const arrived = Buffer.alloc(4096);
      const n = arrived.write("1\r\nx\r\n", "latin1");
      expect(c.feed(arrived.subarray(0, n), 0)).toBe(n);
    }
    c.feed(Buffer.from("0\r\n\r\n"), 0);
    expect(c.done).toBe(true);
    expect(c.size).toBe(20_000);
    expect(c.body.capacity).toBeLessThanOrEqual(64 * 1024);
  });
});

describe("fixed-length bodies", () => {
  test("grow into one buffer up to the limit; past it, nothing more is kept", () => {
    const b = new BodyBytes(10, 4);
    expect(b.append(Buffer.from("abcd"), 0, 4)).toBe(true);
    expect(b.append(Buffer.from("efghij"), 0, 6)).toBe(true);
    expect(Buffer.from(b.bytes()).toString()).toBe("abcdefghij");
    expect(b.append(Buffer.from("k"), 0, 1)).toBe(false);
    expect(b.capacity).toBeLessThanOrEqual(1024);
  });
});
