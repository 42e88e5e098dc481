/** The ceiling: raw Bun.serve answering a fixed JSON array, nothing else. */
const body = JSON.stringify([
  {
    registration_number: "ABC123",
    zone: 1234,
    active: true,
    start_at: "2026-06-15T08:00:00.000000Z",
    end_at: "2026-06-15T10:00:00.000000Z",
    note: "ticket 1",
  },
]);
const port = Number(process.argv[2]);
Bun.serve({
  port,
  hostname: "127.0.0.1",
  reusePort: false,
  fetch: () => new Response(body, { headers: { "content-type": "application/json" } }),
});
console.log(`raw ceiling on ${port}`);
