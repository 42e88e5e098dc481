import {
  type ApiContract,
  IF_NONE_MATCH,
  NOT_MODIFIED,
  type OperationContract,
} from "../../platform/http/api-contract.ts";
import {
  HandheldSetupEnvelope,
  NewSignInCode,
  SessionEnvelope,
  SignIn,
  SignInCodeEnvelope,
} from "./model.ts";
import { PLATE_READER_TAG } from "./plate-reader-base.ts";

/** Each file's operation, named for what it serves. */
const FILE_OPERATIONS: Record<string, string> = {
  "/": "getWebApp",
  "/app.js": "getWebAppScript",
  "/app.css": "getWebAppStyles",
  "/sw.js": "getServiceWorker",
  "/manifest.webmanifest": "getWebAppManifest",
  "/icon.svg": "getWebAppIcon",
  "/board": "getBoardPage",
  "/board.js": "getBoardScript",
  "/board.css": "getBoardStyles",
};

/** A file's words for the document (its route's `operation` option, static-routes.ts). */
export function fileOperation(f: { path: string; type: string }): OperationContract {
  return {
    operationId:
      FILE_OPERATIONS[f.path] ??
      `getFile${f.path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? "").toUpperCase())}`,
    tag: "web app",
    noStore: true,
    ok: {
      200: {
        description: f.path === "/" ? "The page" : "The file",
        // The manifest is a JSON object (a browser reads its fields); the rest are text.
        schema:
          f.path === "/manifest.webmanifest"
            ? {
                type: "object",
                properties: { name: { type: "string" }, start_url: { type: "string" } },
                required: ["name", "start_url"],
              }
            : { type: "string" },
        contentType: f.type.split(";")[0]!,
        headers: ["ETag"],
      },
      304: NOT_MODIFIED,
    },
    headers: IF_NONE_MATCH,
  };
}

/** What the OpenAPI document says of the web app's files and browser sessions (api-contract.ts). */
export const webContract: ApiContract = {
  named: {
    SignIn: { schema: SignIn, example: { token: "pk_Qm9vdHN0cmFwIHRva2VuIGV4YW1wbGUgb25seQ" } },
    NewSignInCode: { schema: NewSignInCode, example: { token_id: "tok_3f9a1c22b7e4" } },
    SignInCodeEnvelope: {
      schema: SignInCodeEnvelope,
      example: {
        data: {
          code: "Zm9yIGV4YW1wbGUgb25seSwgbm90IGEgY29kZQ",
          expires_at: "2026-06-15T10:10:00.000000Z",
          sign_in_url: "https://parking-box.lan:8443/#code=Zm9yIGV4YW1wbGUgb25seSwgbm90IGEgY29kZQ",
          reachable: true,
        },
      },
    },
    HandheldSetupEnvelope: {
      schema: HandheldSetupEnvelope,
      example: {
        data: {
          certificate: "local_ca",
          fingerprint:
            "3A:1F:9C:0B:52:E7:48:D1:6A:93:C4:2E:7F:05:B8:61:D0:4C:9E:27:83:F6:1A:B5:0D:72:E9:3C:58:A4:16:BF",
          ca_certificate_url: "/handheld/parkd-ca.crt",
          ios_profile_url: "/handheld/parkd-ca.mobileconfig",
          setup_url: "https://parking-box.lan:8443/#/setup",
          reachable: true,
        },
      },
    },
    SessionEnvelope: {
      schema: SessionEnvelope,
      example: {
        data: {
          kind: "token",
          name: "handheld-1",
          scopes: ["permits:read"],
          csrf: "x4S5w0bP2Z1vYg3cQm8Lr6TdNq7Hk9Ja0Fe2Ub4Wc1E",
          time_zone: "Europe/Stockholm",
        },
      },
    },
  },
};

/** Each route's words for the document, named by its operation id: the route's `operation` option. */
export const webOperations = {
  getPlateReaderFile: {
    operationId: "getPlateReaderFile",
    problems: ["not-found"],
    tag: "web app",
    noStore: true,
    examples: { tag: PLATE_READER_TAG, name: "worker.min.js" },
    description:
      "The handheld's plate reader runs on the phone: its worker script, the engine's WebAssembly and the model, all from the box (nothing is fetched from anywhere else), named by the build's tag, which the app page gives in `<meta name=\"plate-reader\">`. A file never changes under its tag; a tag from another build is 404. The worker is answered with its own Content-Security-Policy, which lets it compile WebAssembly.",
    ok: {
      200: {
        description: "The file",
        schema: { type: "string", format: "binary" },
        contentType: ["text/javascript", "application/wasm", "application/octet-stream"],
        headers: ["ETag"],
      },
      304: NOT_MODIFIED,
    },
    headers: IF_NONE_MATCH,
  },
  signIn: {
    operationId: "signIn",
    problems: ["unauthorized", "too-many-requests", "cross-origin", "password-checks-busy"],
    tag: "web app",
    description:
      "Takes `Content-Type: application/json` only, and refuses (403) a request whose `Origin` or `Sec-Fetch-Site` says it comes from another site, port or scheme. A valid token is never refused for earlier failures from the address; a user name and address locked after 10 failures, or an address after 30 failures across user names (counted with Basic on the API), are refused (429, with Retry-After) until the lockout ends; a locked address is still served a name and password verified before. A password that would wait behind 8 others for its check is refused at once (503 password-checks-busy, Retry-After: 1). Each credential holds at most 50 sessions: past that its own least recently used ends.",
  },
  createSignInCode: {
    operationId: "createSignInCode",
    problems: ["credential-not-found"],
    tag: "web app",
  },
  getHandheldSetup: { operationId: "getHandheldSetup", tag: "web app", noStore: true },
  getHandheldCaCertificate: {
    operationId: "getHandheldCaCertificate",
    problems: ["no-local-ca"],
    tag: "web app",
    noStore: true,
    ok: {
      200: {
        description: "The local CA's certificate, DER-encoded",
        schema: { type: "string", format: "binary" },
        contentType: "application/x-x509-ca-cert",
      },
    },
  },
  getHandheldCaProfile: {
    operationId: "getHandheldCaProfile",
    problems: ["no-local-ca"],
    tag: "web app",
    noStore: true,
    ok: {
      200: {
        description: "An unsigned configuration profile with the local CA as its one root certificate",
        schema: { type: "string" },
        contentType: "application/x-apple-aspen-config",
      },
    },
  },
  getSession: { operationId: "getSession", problems: ["unauthorized"], tag: "web app" },
  signOut: {
    operationId: "signOut",
    problems: ["csrf"],
    tag: "web app",
    ok: { 204: { description: "Signed out (also when there was no session)" } },
    headers: [
      {
        name: "X-CSRF-Token",
        description:
          "The session's csrf value; not needed when the browser says the request comes from the app's own page",
      },
    ],
  },
} satisfies Record<string, OperationContract>;
