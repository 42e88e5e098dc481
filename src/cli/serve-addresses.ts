import { type OptionValues, stringOpt, UsageError } from "./args.ts";

export const publicUrlOption = {
  name: "public-url",
  type: "string" as const,
  valueName: "URL",
  help: "the address handhelds reach this box at, for sign-in QR codes (default: the LAN addresses it listens on)",
};

/** --public-url: an http(s) origin, perhaps with a path prefix (a proxy's), without query or fragment. */
export function publicUrlOpt(v: OptionValues): string | undefined {
  const text = stringOpt(v, "public-url");
  if (text === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--public-url: "${text}" is not a URL (e.g. https://parking-box.lan:8443)`);
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.search || url.hash || url.username)
    throw new UsageError(
      `--public-url: "${text}" must be an http or https address without query, fragment or user`,
    );
  return url.href.replace(/\/+$/, "");
}
