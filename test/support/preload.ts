import { setLogging } from "../../src/http/log.ts";

// Request log lines would drown test output; tests that need them turn logging back on.
setLogging(false);
