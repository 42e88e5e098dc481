/**
 * The socket's pace: a bare HTTP/1.1 responder on Bun.listen, the sockets parkd's front end uses.
 * It splits the input at each blank line and writes one fixed answer per request, inside the data
 * callback; no parsing, no app. What parkd could reach over this transport if it did nothing
 * else; over TLS when given a certificate and key (the files parkd serves).
 *
 *   bun bench/bare-server.ts PORT [CERT.pem KEY.pem]
 */
import { CEILING_BODY } from "./ceiling-body.ts";

const [port, certFile, keyFile] = process.argv.slice(2);
const answer = Buffer.from(
  `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(CEILING_BODY)}\r\n\r\n${CEILING_BODY}`,
  "latin1",
);
const END = Buffer.from("\r\n\r\n", "latin1");

/** Bytes after the last blank line, carried to the next data callback. */
interface Carry {
  tail: Buffer | null;
}

Bun.listen<Carry>({
  hostname: "127.0.0.1",
  port: Number(port),
  ...(certFile && keyFile ? { tls: { cert: Bun.file(certFile), key: Bun.file(keyFile) } } : {}),
  socket: {
    open(socket) {
      socket.data = { tail: null };
    },
    data(socket, data) {
      const input = socket.data.tail ? Buffer.concat([socket.data.tail, data]) : data;
      let from = 0;
      let requests = 0;
      for (let end = input.indexOf(END, from); end >= 0; end = input.indexOf(END, from)) {
        requests++;
        from = end + END.length;
      }
      socket.data.tail = from < input.length ? Buffer.from(input.subarray(from)) : null;
      if (requests === 1) socket.write(answer);
      else if (requests > 1) socket.write(Buffer.concat(Array(requests).fill(answer)));
    },
  },
});
console.log(`bare responder on ${port}${certFile ? " (TLS)" : ""}`);
