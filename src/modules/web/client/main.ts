import { ApiError, api, Offline, type Session, setCsrf } from "./api.ts";
import { attendantPage } from "./attendant.ts";
import { auditPage } from "./console/audit.ts";
import { credentialsPage } from "./console/credentials.ts";
import { lotsPage } from "./console/lots.ts";
import { permitsPage } from "./console/permits.ts";
import { statusPage } from "./console/status.ts";
import { ticketsPage } from "./console/tickets.ts";
import { todayPage } from "./console/today.ts";
import { field, h, replace } from "./dom.ts";
import { t } from "./i18n.ts";
import { ZONE_CACHE } from "./zone-cache.ts";

type Page = (root: HTMLElement) => (() => void) | undefined;

const CONSOLE: [string, Parameters<typeof t>[0], Page][] = [
  ["check", "attendant", attendantPage],
  ["today", "today", todayPage],
  ["lots", "lots", lotsPage],
  ["permits", "permits", permitsPage],
  ["tickets", "tickets", ticketsPage],
  ["credentials", "credentials", credentialsPage],
  ["audit", "audit", auditPage],
  ["status", "status", statusPage],
];

/** Who was signed in, without the csrf value: lets the page open offline on a handheld. */
const LAST_SESSION = "parkd.session";

/** A sign-in link's part of the address: a one-time code (QR codes), or a token (older ones). */
const SIGN_IN_LINK = /(?:^#|&)(code|token)=([^&]+)/;

const app = document.getElementById("app")!;
let leave: (() => void) | undefined;

function signInPage(message?: string): void {
  const error = h("p", { class: "error", id: "signin-error", role: "alert" }, message ?? "");
  const submit = async (body: Record<string, string>) => {
    try {
      const s = await api<{ data: Session }>("POST", "/api/v1/session", body);
      started(s.data);
    } catch (e) {
      replace(error, e instanceof Offline ? t("offline") : `${t("signInFailed")}: ${(e as Error).message}`);
    }
  };
  replace(
    app,
    h(
      "div",
      { class: "signin" },
      h("h1", null, "parkd"),
      h(
        "form",
        {
          id: "token-form",
          onsubmit: (e: Event) => {
            e.preventDefault();
            void submit({ token: field(e.target as HTMLFormElement, "token") });
          },
        },
        h("label", { for: "token" }, t("token")),
        h("input", { id: "token", name: "token", type: "password", autocomplete: "off", required: true }),
        h("small", null, t("tokenHint")),
        h("button", { type: "submit", class: "big" }, t("signIn")),
      ),
      h("h2", null, t("orUser")),
      h(
        "form",
        {
          id: "user-form",
          onsubmit: (e: Event) => {
            e.preventDefault();
            const f = e.target as HTMLFormElement;
            void submit({ username: field(f, "username"), password: field(f, "password") });
          },
        },
        h("label", { for: "username" }, t("username")),
        h("input", { id: "username", name: "username", autocomplete: "username", required: true }),
        h("label", { for: "password" }, t("password")),
        h("input", {
          id: "password",
          name: "password",
          type: "password",
          autocomplete: "current-password",
          required: true,
        }),
        h("button", { type: "submit" }, t("signIn")),
      ),
      error,
    ),
  );
}

function rememberedSession(): Session | null {
  const last = localStorage.getItem(LAST_SESSION);
  return last ? (JSON.parse(last) as Session) : null;
}

/** Who was signed in and the zone lists saved for them: plates stay only for whoever signed in. */
async function forgetLocalState(): Promise<void> {
  localStorage.removeItem(LAST_SESSION);
  if ("caches" in self) await caches.delete(ZONE_CACHE).catch(() => false);
}

async function signOut(): Promise<void> {
  await api("DELETE", "/api/v1/session").catch(() => {});
  await forgetLocalState();
  setCsrf("");
  window.onhashchange = null;
  leave?.();
  leave = undefined;
  signInPage();
}

function started(s: Session, offline = false): void {
  setCsrf(s.csrf);
  if (!offline) localStorage.setItem(LAST_SESSION, JSON.stringify({ ...s, csrf: "" }));
  const admin = s.scopes.includes("admin");
  const reader = admin || s.scopes.includes("permits:read");
  const body = h("div", { class: "page", id: "page" });
  const nav = admin
    ? h(
        "nav",
        { class: "console-nav" },
        CONSOLE.map(([id, label]) => h("a", { href: `#/${id}`, "data-page": id }, t(label))),
      )
    : null;
  const banner = h("div", { class: "net", id: "net", hidden: navigator.onLine });
  replace(banner, t("offline"));
  replace(
    app,
    h(
      "header",
      { class: admin ? "bar wide" : "bar" },
      h("strong", null, "parkd"),
      nav,
      h("span", { class: "who" }, s.name),
      h(
        "button",
        { type: "button", class: "link", id: "signout", onclick: () => void signOut() },
        t("signOut"),
      ),
    ),
    banner,
    body,
  );
  window.addEventListener("offline", () => (banner.hidden = false));
  window.addEventListener("online", () => (banner.hidden = true));
  if (!reader) {
    replace(body, h("p", { class: "notice" }, t("noPages")));
    return;
  }
  const route = () => {
    if (SIGN_IN_LINK.test(location.hash)) return; // boot() starts again for it
    leave?.();
    leave = undefined;
    const wanted = admin ? location.hash.replace(/^#\/?/, "") || "lots" : "check";
    const entry = CONSOLE.find(([id]) => id === wanted) ?? CONSOLE[1]!;
    for (const a of document.querySelectorAll<HTMLAnchorElement>("nav a"))
      a.classList.toggle("current", a.dataset.page === entry[0]);
    body.className = `page ${entry[0]}`;
    leave = entry[2](body) ?? undefined;
  };
  window.onhashchange = route;
  route();
}

async function boot(): Promise<void> {
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
  // A sign-in link opened in a tab that already shows the app changes only the address's hash:
  // start again, so that it is handled as below.
  window.addEventListener("hashchange", () => {
    if (SIGN_IN_LINK.test(location.hash)) location.reload();
  });
  // A sign-in link (a handheld's QR code holds a one-time code; older ones held the token): take
  // it out of the address bar and history first, then sign in with it, but never replace a
  // session without asking: a link from anyone else would sign this device in as them.
  const fromLink = SIGN_IN_LINK.exec(location.hash);
  if (fromLink) {
    history.replaceState(null, "", location.pathname);
    const current = await api<{ data: Session }>("GET", "/api/v1/session")
      .then((r) => r.data)
      .catch(() => null);
    const remembered = current ?? rememberedSession();
    if (remembered && !confirm(t("replaceSession", { name: remembered.name }))) {
      if (current) return started(current);
    } else {
      if (remembered) await forgetLocalState();
      try {
        const s = await api<{ data: Session }>("POST", "/api/v1/session", {
          [fromLink[1]!]: decodeURIComponent(fromLink[2]!),
        });
        return started(s.data);
      } catch (e) {
        return signInPage(`${t("signInFailed")}: ${(e as Error).message}`);
      }
    }
  }
  try {
    const s = await api<{ data: Session }>("GET", "/api/v1/session");
    started(s.data);
  } catch (e) {
    const last = localStorage.getItem(LAST_SESSION);
    if (e instanceof Offline && last) started(JSON.parse(last) as Session, true);
    else signInPage(e instanceof ApiError || !last ? undefined : t("offline"));
  }
}

void boot();
