import { connect } from "node:net";
import type { FrontEnd } from "../../src/platform/http/server.ts";

/**
 * For the tests that ask two front ends the same thing (test/platform/direct*.test.ts): one
 * request's raw bytes on a connection of its own, and the whole answer once the server closes.
 */
export function exchange(front: FrontEnd, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    const socket = connect(front.port, "127.0.0.1", () => socket.write(raw));
    socket.on("data", (b) => {
      out += b.toString("utf8");
    });
    socket.on("close", () => resolve(out));
    socket.on("error", reject);
  });
}

/** The answer without what differs between any two answers: its date and request id. */
export const comparable = (answer: string) =>
  answer.replace(/^date: .*\r\n/gim, "").replace(/^x-request-id: .*\r\n/gim, "");
