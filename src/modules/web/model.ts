import { t } from "elysia";
import { SCOPES } from "../../domain/credentials.ts";

export const SignIn = t.Union(
  [
    t.Object({ token: t.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
    t.Object(
      {
        username: t.String({ minLength: 1, maxLength: 64 }),
        password: t.String({ minLength: 1, maxLength: 1024 }),
      },
      { additionalProperties: false },
    ),
    t.Object(
      {
        code: t.String({
          minLength: 1,
          maxLength: 100,
          description: "A one-time sign-in code from POST /api/v1/session/codes (the handheld's QR code)",
        }),
      },
      { additionalProperties: false },
    ),
  ],
  { description: "A token, a Basic user's name and password, or a one-time sign-in code" },
);

export const NewSignInCode = t.Object(
  {
    token_id: t.Optional(
      t.String({ minLength: 1, maxLength: 64, description: "The live token the handheld signs in as" }),
    ),
    user_id: t.Optional(t.String({ minLength: 1, maxLength: 64, description: "Or the user it signs in as" })),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    maxProperties: 1,
    description: "Either token_id or user_id: the credential a new code signs in as",
  },
);

export const SignInCodeEnvelope = t.Object({
  data: t.Object({
    code: t.String({ description: "Works once, for 10 minutes" }),
    expires_at: t.String({ format: "date-time" }),
    sign_in_url: t.String({
      description: "What the QR code holds: the box's address for handhelds, with the code",
    }),
    reachable: t.Boolean({
      description:
        "false when that address is a loopback one (only the box itself can open it): set --public-url",
    }),
  }),
});

export const SessionEnvelope = t.Object({
  data: t.Object({
    kind: t.Union([t.Literal("token"), t.Literal("user")]),
    name: t.String(),
    scopes: t.Array(t.UnionEnum(SCOPES)),
    csrf: t.String({ description: "Send it as X-CSRF-Token with every write made through the session" }),
    time_zone: t.String({
      description:
        "The site's time zone (IANA name, --timezone): the pages show every time in it, wherever the browser is",
    }),
  }),
});

export const HandheldSetupEnvelope = t.Object({
  data: t.Object({
    certificate: t.UnionEnum(["local_ca", "self_signed", "own", "none"], {
      description:
        "local_ca: issued by the box's own CA (install it once); self_signed: made by an earlier version; own: the operator's; none: plain HTTP",
    }),
    fingerprint: t.Union([t.String(), t.Null()], {
      description:
        "SHA-256, colon-separated: of the local CA when there is one, else of the served certificate",
    }),
    ca_certificate_url: t.Union([t.String(), t.Null()], { description: "The CA as DER (.crt), for Android" }),
    ios_profile_url: t.Union([t.String(), t.Null()], {
      description: "The CA as a configuration profile, for iOS",
    }),
    setup_url: t.String({
      description: "The set-up page at an address a handheld can reach (for a QR code)",
    }),
    reachable: t.Boolean({ description: "false when setup_url is a loopback address: set --public-url" }),
  }),
});

/** A file of the plate reader, under the build's tag (plate-reader-routes.ts). */
export const PlateReaderFileParams = t.Object({
  tag: t.String({ description: "The build's tag for its plate reader's files (the app page names it)" }),
  name: t.String({ description: "The file's name, as the reader asks for it" }),
});
