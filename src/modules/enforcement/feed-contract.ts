import type { OperationContract } from "../../platform/http/api-contract.ts";

/** Each route's words for the document, named by its operation id: the route's `operation` option. */
export const feedOperations = {
  streamZonePlates: {
    operationId: "streamZonePlates",
    problems: ["too-many-feeds"],
    tag: "attendant lookups",
    ok: {
      200: {
        description:
          'Server-sent events: `event: plates`, `id: <list id>`, `data: {"data": ["ABC123"]}` on connect and on each change; with `?changes=1`, changes as `event: changes`, `id: <new list id>`, `data: {"from": "<previous list id>", "added": ["XYZ789"], "removed": []}`; a comment line every 15 s.',
        schema: { type: "string" },
        contentType: "text/event-stream",
      },
    },
    headers: [
      {
        name: "Last-Event-ID",
        description:
          "The id of the last list received: nothing is sent again if it is unchanged since; with ?changes=1, what changed since when that version is recent, else the whole list",
      },
    ],
  },
} satisfies Record<string, OperationContract>;
