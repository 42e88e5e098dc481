import { setLogging } from "../../src/platform/log.ts";

// Request log lines would drown test output; tests that need them turn logging back on.
setLogging(false);
