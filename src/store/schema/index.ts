export * from "./credentials.ts";
export * from "./operations.ts";
