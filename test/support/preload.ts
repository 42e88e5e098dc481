import { afterAll } from "bun:test";
import { setLogging } from "../../src/platform/log.ts";
import { writeObserved } from "./observed.ts";

// Request log lines would drown test output; tests that need them turn logging back on.
setLogging(false);

// Hooks in a preloaded file run once for the whole run: after every test file.
afterAll(writeObserved);
