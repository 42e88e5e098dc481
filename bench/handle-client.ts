/**
 * Load for bench/handle.ts's front-end figure: CONNECTIONS keep-alive sockets to 127.0.0.1:PORT,
 * one GET PATH_ in flight on each (`{plate}` in it: a random plate each time), until TOTAL answers have come back. Answers are framed by
 * Content-Length; anything but 200 fails the run.
 */
import { connect, type Socket } from "node:net";
import { PLATES, plateOf } from "./plates.ts";

const port = Number(process.env.PORT);
const path = process.env.PATH_ ?? "/";
const total = Number(process.env.TOTAL ?? 10_000);
const connections = Number(process.env.CONNECTIONS ?? 32);
const requestFor = (p: string) =>
  Buffer.from(
    `GET ${p} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${process.env.TOKEN}\r\nAccept: application/json\r\n\r\n`,
  );
const fixed = requestFor(path);
// `{plate}` in the path: a random plate of the bench store for each request (as wrk's plate.lua).
const request = (): Buffer =>
  path.includes("{plate}")
    ? requestFor(path.replace("{plate}", plateOf(Math.floor(Math.random() * PLATES))))
    : fixed;

let sent = 0;
let answered = 0;
const HEADER_END = Buffer.from("\r\n\r\n");

function drive(socket: Socket, finished: () => void): void {
  let buffer: Buffer = Buffer.alloc(0);
  const next = () => {
    if (sent >= total) {
      socket.end();
      finished();
      return;
    }
    sent++;
    socket.write(request());
  };
  socket.on("data", (chunk: Buffer) => {
    buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
    for (;;) {
      const end = buffer.indexOf(HEADER_END);
      if (end < 0) return;
      const head = buffer.subarray(0, end).toString("latin1");
      const status = Number(head.slice(9, 12));
      if (status !== 200) {
        console.error(`status ${status}: ${head}`);
        process.exit(1);
      }
      const length = Number(/content-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
      if (buffer.length < end + 4 + length) return;
      buffer = buffer.subarray(end + 4 + length);
      answered++;
      next();
    }
  });
  socket.on("error", (e) => {
    console.error(e);
    process.exit(1);
  });
  next();
}

let open = connections;
await new Promise<void>((done) => {
  for (let i = 0; i < connections; i++) {
    const socket = connect({ port, host: "127.0.0.1", noDelay: true }, () =>
      drive(socket, () => {
        if (--open === 0) done();
      }),
    );
  }
});
if (answered !== total) {
  console.error(`answered ${answered} of ${total}`);
  process.exit(1);
}
