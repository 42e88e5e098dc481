import { X509Certificate } from "node:crypto";
import { Elysia } from "elysia";
import { refuse } from "../../domain/errors.ts";
import { rateLimitOption } from "../../platform/http/rate-limit.ts";
import { routeDeclaration } from "../../platform/http/route-declaration.ts";
import { derOfPem } from "../../platform/http/x509.ts";
import { webOperations } from "./contract.ts";
import type { WebContext } from "./deps.ts";
import { caProfile } from "./handheld-trust.ts";
import { HandheldSetupEnvelope } from "./model.ts";
import { consoleOrigin, handheldBase } from "./sign-in-codes.ts";

export const CA_CERTIFICATE_PATH = "/handheld/parkd-ca.crt";
export const CA_PROFILE_PATH = "/handheld/parkd-ca.mobileconfig";

function localCa(ctx: WebContext): { pem: string; fingerprint: string } {
  const ca = ctx.certificate()?.ca;
  if (!ca)
    throw refuse(
      "no-local-ca",
      ctx.certificate()
        ? "the box serves a certificate it did not issue: handhelds trust it through its own issuer"
        : "the box serves plain HTTP (--http): there is no certificate to trust",
    );
  return ca;
}

/**
 * What a handheld needs to trust the box once (no sign-in: a phone opens it before it has a
 * session, and a CA certificate is public): the CA's fingerprint and files, and the page's address.
 */
export function handheldSetupRoutes(ctx: WebContext) {
  const downloads = { "cache-control": "no-cache", "x-content-type-options": "nosniff" };
  return new Elysia({ name: "web-handheld-setup" })
    .use(routeDeclaration)
    .use(rateLimitOption)
    .get(
      "/api/v1/handheld-setup",
      ({ request, set }) => {
        // Its setup_url can come from the request's Host: never one client's answer for another.
        set.headers["cache-control"] = "no-store";
        const tls = ctx.certificate();
        const { base, reachable } = handheldBase(
          ctx.config.publicUrl,
          ctx.listening(),
          consoleOrigin(request),
        );
        const certificate = !tls
          ? "none"
          : tls.source === "local-ca"
            ? "local_ca"
            : tls.source === "self-signed"
              ? "self_signed"
              : "own";
        return {
          data: {
            certificate,
            fingerprint: tls?.ca?.fingerprint ?? tls?.fingerprint ?? null,
            ca_certificate_url: tls?.ca ? CA_CERTIFICATE_PATH : null,
            ios_profile_url: tls?.ca ? CA_PROFILE_PATH : null,
            setup_url: `${base}/#/setup`,
            reachable,
          },
        } as const;
      },
      {
        operation: webOperations.getHandheldSetup,
        rateLimit: "address",
        response: { 200: HandheldSetupEnvelope },
        detail: {
          summary: "How a handheld trusts this box: the certificate's kind, fingerprint and downloads",
          description:
            "No credential needed. With the box's local CA (`local_ca`, the default) a handheld installs the CA once, from `ca_certificate_url` (Android) or `ios_profile_url` (iPhone, iPad), and compares `fingerprint` (the CA's SHA-256); renewals and new addresses need nothing more. `self_signed` is a certificate an earlier version made, `own` the operator's (trusted through its issuer), `none` plain HTTP. `setup_url` is the console's set-up page at an address a handheld can reach (`reachable` false: only a loopback address is known, set --public-url).",
          tags: ["web app"],
        },
      },
    )
    .get(
      CA_CERTIFICATE_PATH,
      () =>
        // The CA as Android installs it: a DER certificate (`.crt`).
        new Response(derOfPem(localCa(ctx).pem) as Uint8Array<ArrayBuffer>, {
          headers: {
            ...downloads,
            "content-type": "application/x-x509-ca-cert",
            "content-disposition": 'attachment; filename="parkd-ca.crt"',
          },
        }),
      {
        operation: webOperations.getHandheldCaCertificate,
        rateLimit: "address",
        detail: {
          summary:
            "The box's local CA certificate (DER), for Android's 'Install a certificate › CA certificate'",
          tags: ["web app"],
        },
      },
    )
    .get(
      CA_PROFILE_PATH,
      () => {
        const ca = localCa(ctx);
        const name = new X509Certificate(ca.pem).subject.replace(/^CN=/, "");
        return new Response(caProfile(ca.pem, ca.fingerprint, name), {
          headers: {
            ...downloads,
            "content-type": "application/x-apple-aspen-config",
            "content-disposition": 'attachment; filename="parkd-ca.mobileconfig"',
          },
        });
      },
      {
        operation: webOperations.getHandheldCaProfile,
        rateLimit: "address",
        detail: {
          summary: "The box's local CA as an iOS configuration profile (unsigned, one root certificate)",
          tags: ["web app"],
        },
      },
    );
}
