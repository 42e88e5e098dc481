import { derOfPem } from "../../platform/http/x509.ts";

/** A UUID made from the CA's fingerprint, so a second download replaces the same profile. */
function uuidOf(fingerprint: string, part: string): string {
  const hex = new Bun.CryptoHasher("sha256").update(`${fingerprint}/${part}`).digest("hex");
  const v = `${hex.slice(0, 12)}5${hex.slice(13, 16)}${((Number.parseInt(hex[16]!, 16) & 3) | 8).toString(16)}${hex.slice(17, 32)}`;
  return `${v.slice(0, 8)}-${v.slice(8, 12)}-${v.slice(12, 16)}-${v.slice(16, 20)}-${v.slice(20)}`.toUpperCase();
}

const xml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * The local CA as an iPhone or iPad installs it: a configuration profile with one root
 * certificate payload (`com.apple.security.root`), unsigned. After installing it, full trust is
 * turned on once under Settings › General › About › Certificate Trust Settings.
 */
export function caProfile(caPem: string, fingerprint: string, caName: string): string {
  const id = `parkd.ca.${fingerprint.replace(/:/g, "").slice(0, 16).toLowerCase()}`;
  const der = Buffer.from(derOfPem(caPem)).toString("base64");
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
  <key>PayloadContent</key>
  <array>
    <dict>
      <key>PayloadCertificateFileName</key>
      <string>parkd-ca.crt</string>
      <key>PayloadContent</key>
      <data>${der}</data>
      <key>PayloadDescription</key>
      <string>Lets this device trust the parking box over HTTPS</string>
      <key>PayloadDisplayName</key>
      <string>${xml(caName)}</string>
      <key>PayloadIdentifier</key>
      <string>${id}.root</string>
      <key>PayloadType</key>
      <string>com.apple.security.root</string>
      <key>PayloadUUID</key>
      <string>${uuidOf(fingerprint, "root")}</string>
      <key>PayloadVersion</key>
      <integer>1</integer>
    </dict>
  </array>
  <key>PayloadDescription</key>
  <string>The certificate authority of the parking box. SHA-256 fingerprint ${fingerprint}</string>
  <key>PayloadDisplayName</key>
  <string>${xml(caName)}</string>
  <key>PayloadIdentifier</key>
  <string>${id}</string>
  <key>PayloadRemovalDisallowed</key>
  <false/>
  <key>PayloadType</key>
  <string>Configuration</string>
  <key>PayloadUUID</key>
  <string>${uuidOf(fingerprint, "profile")}</string>
  <key>PayloadVersion</key>
  <integer>1</integer>
</dict>
</plist>
`;
}
