/**
 * The handhelds of feed-load.ts, on a thread of their own: reading 100 TLS streams in the
 * driver's own event loop would hold up its intake requests, and that wait would read as the
 * server's. Messages: {open: {base, query, tokens, feeds, zones}} → "opened"; "bytes" → the
 * bytes read so far; "close" → "closed".
 */
const port = globalThis as unknown as {
  onmessage: (e: MessageEvent) => void;
  postMessage(message: unknown): void;
};

const controllers: AbortController[] = [];
let bytes = 0;
const tls = { rejectUnauthorized: false };

interface Open {
  base: string;
  query: string;
  tokens: string[];
  feeds: number;
  zones: number;
}

async function open({ base, query, tokens, feeds, zones }: Open): Promise<void> {
  for (let i = 0; i < feeds; i++) {
    const abort = new AbortController();
    controllers.push(abort);
    const res = await fetch(`${base}/api/v1/tickets/zone/${1000 + (i % zones)}/events${query}`, {
      headers: { authorization: `Bearer ${tokens[i % tokens.length]}` },
      signal: abort.signal,
      tls,
    });
    if (res.status !== 200) throw new Error(`feed answered ${res.status}`);
    void (async () => {
      try {
        for await (const chunk of res.body!) bytes += chunk.length;
      } catch {}
    })();
  }
}

port.onmessage = async (e: MessageEvent) => {
  if (e.data === "bytes") return port.postMessage(bytes);
  if (e.data === "close") {
    for (const c of controllers.splice(0)) c.abort();
    return port.postMessage("closed");
  }
  await open(e.data.open as Open);
  port.postMessage("opened");
};
