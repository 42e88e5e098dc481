export * from "./changes.ts";
export * from "./credentials.ts";
export * from "./lots.ts";
export * from "./operations.ts";
export * from "./permits.ts";
export * from "./reports.ts";
export * from "./sync.ts";
export * from "./tickets.ts";
