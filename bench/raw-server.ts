/** The ceiling: raw Bun.serve answering a fixed JSON array, nothing else. */
import { CEILING_BODY as body } from "./ceiling-body.ts";

const port = Number(process.argv[2]);
Bun.serve({
  port,
  hostname: "127.0.0.1",
  reusePort: false,
  fetch: () => new Response(body, { headers: { "content-type": "application/json" } }),
});
console.log(`raw ceiling on ${port}`);
