import { api } from "./api.ts";
import type { HandheldSetup } from "./api-types.ts";
import { h, replace } from "./dom.ts";
import { t } from "./i18n.ts";
import { offlineUse } from "./offline-use.ts";
import { qrCode } from "./qr.ts";

export const SETUP_HASH = "#/setup";

const steps = (key: Parameters<typeof t>[0], vars: Record<string, string> = {}) =>
  h(
    "ol",
    null,
    t(key, vars)
      .split("|")
      .map((s) => h("li", null, s)),
  );

/** The CA's fingerprint in four lines of eight groups, easy to compare with a phone's screen. */
function fingerprintBlock(fp: string) {
  const groups = fp.split(":");
  const lines = [0, 8, 16, 24].map((i) => groups.slice(i, i + 8).join(":"));
  return h(
    "code",
    { class: "fingerprint", id: "ca-fingerprint" },
    lines.flatMap((l, i) => (i ? [h("br"), l] : [l])),
  );
}

function certificateSection(s: HandheldSetup) {
  switch (s.certificate) {
    case "local_ca":
      return [
        h("p", null, t("setupIntro")),
        h("h2", null, t("setupFingerprint")),
        fingerprintBlock(s.fingerprint!),
        h("p", { class: "note" }, t("setupFingerprintHint")),
        h(
          "div",
          { class: "setup-columns" },
          h(
            "section",
            { "aria-labelledby": "setup-android" },
            h("h2", { id: "setup-android" }, t("setupAndroid")),
            h(
              "a",
              { class: "button", id: "download-crt", href: s.ca_certificate_url!, download: "parkd-ca.crt" },
              t("setupAndroidDownload"),
            ),
            steps("setupAndroidSteps"),
          ),
          h(
            "section",
            { "aria-labelledby": "setup-ios" },
            h("h2", { id: "setup-ios" }, t("setupIos")),
            h(
              "a",
              {
                class: "button",
                id: "download-profile",
                href: s.ios_profile_url!,
                download: "parkd-ca.mobileconfig",
              },
              t("setupIosDownload"),
            ),
            steps("setupIosSteps", { name: "parkd local CA" }),
          ),
        ),
      ];
    case "own":
      return [
        h("p", { class: "notice", id: "setup-state" }, t("setupOwn", { fingerprint: s.fingerprint ?? "" })),
      ];
    case "self_signed":
      return [
        h(
          "p",
          { class: "notice", id: "setup-state" },
          t("setupSelfSigned", { fingerprint: s.fingerprint ?? "" }),
        ),
      ];
    default:
      return [h("p", { class: "notice", id: "setup-state" }, t("setupPlain"))];
  }
}

/**
 * "Set up a handheld": what a phone needs to trust the box once (the CA's fingerprint and files,
 * with each platform's steps), whether this device already does, and a QR code that opens this
 * page on the phone. No sign-in needed: a handheld comes here before it has a session.
 */
export function setupPage(root: HTMLElement): undefined {
  const device = h("p", { id: "device-state", role: "status" });
  void offlineUse.then((ok) => {
    device.className = ok ? "ok-line" : "warning";
    replace(device, t(ok ? "setupDeviceReady" : "setupDeviceNotReady"));
  });
  const body = h("div", { class: "setup" });
  replace(root, body);
  void api<{ data: HandheldSetup }>("GET", "/api/v1/handheld-setup").then(
    ({ data }) =>
      replace(
        body,
        // First what the person holding this device needs: whether it already trusts the box.
        h("h2", null, t("setupThisDevice")),
        device,
        h(
          "figure",
          { class: "setup-qr" },
          qrCode(data.setup_url, 200),
          h("figcaption", null, t("setupQr")),
          data.reachable
            ? null
            : h(
                "p",
                { class: "warning", id: "setup-unreachable" },
                t("setupQrUnreachable", { url: new URL(data.setup_url).origin }),
              ),
        ),
        certificateSection(data),
      ),
    (e: Error) => replace(body, h("p", { class: "error", role: "alert" }, e.message)),
  );
  return undefined;
}

/** The page on its own, before anyone signs in (from the sign-in page or a scanned QR code). */
export function setupStandalone(app: HTMLElement): void {
  const root = h("div", { class: "page-root" });
  replace(
    app,
    h(
      "div",
      { class: "page setup-alone" },
      h("h1", null, t("setup")),
      root,
      h("p", null, h("a", { href: "/" }, t("signIn"))),
    ),
  );
  document.title = `${t("setup")} · parkd`;
  setupPage(root);
}
