/** Swedish or English, from the browser's language list; English when neither is asked for. */

import { siteZone } from "./site-zone.ts";
import { en, type Key } from "./strings/en.ts";
import { sv } from "./strings/sv.ts";

export const lang: "sv" | "en" = (navigator.languages ?? [navigator.language]).some((l) =>
  /^(sv|nb|nn|no|da)\b/i.test(l),
)
  ? "sv"
  : "en";
const dict: Record<Key, string> = lang === "sv" ? sv : en;
document.documentElement.lang = lang;

export function t(key: Key, vars: Record<string, string | number> = {}): string {
  return dict[key].replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ""));
}

export function list(key: Key): string[] {
  return dict[key].split(",");
}

const locale = lang === "sv" ? "sv-SE" : "en-GB";
export function when(iso: string | number | null): string {
  if (iso === null) return t("none");
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? String(iso)
    : d.toLocaleString(locale, { dateStyle: "short", timeStyle: "short", timeZone: siteZone() });
}

export function money(ore: number, currency = "SEK"): string {
  return new Intl.NumberFormat(locale, { style: "currency", currency }).format(ore / 100);
}

export function age(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 90) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 90) return `${m} min`;
  return `${Math.round(m / 60)} h`;
}

export function bytes(n: number | null): string {
  if (n === null) return t("none");
  const units = ["B", "kB", "MB", "GB"];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(i === 0 ? 0 : 1)} ${units[i]}`;
}
