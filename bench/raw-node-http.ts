/**
 * The ceiling for any front end built on node:http (which parkd needs: the interface's
 * check-tickets example is a GET with a JSON body, and Bun.serve drops GET bodies): Bun's
 * node:http answering the same fixed JSON array as raw-server.ts, nothing else.
 */
import { createServer } from "node:http";
import { CEILING_BODY as body } from "./ceiling-body.ts";

const port = Number(process.argv[2]);
createServer((req, res) => {
  req.resume();
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}).listen({ port, host: "127.0.0.1", exclusive: true });
