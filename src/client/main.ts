import { ApiError, api, Offline, onUnauthorized, setCsrf } from "./api.ts";
import type { Session } from "./api-types.ts";
import { field, h, replace } from "./dom.ts";
import { t } from "./i18n.ts";
import { offlineUse } from "./offline-use.ts";
import { CONSOLE } from "./pages.ts";
import { setSessionNow } from "./session-now.ts";
import { SETUP_HASH, setupStandalone } from "./setup.ts";
import { setSiteZone } from "./site-zone.ts";
import { ZONE_CACHE } from "./zone-cache.ts";

/** Who was signed in, without the csrf value: lets the page open offline on a handheld. */
const LAST_SESSION = "parkd.session";
/** Set while a sign-out has not reached the box yet (made offline): nothing re-enters meanwhile. */
const SIGNED_OUT = "parkd.signedOut";

/** A sign-in link's part of the address: a one-time code (QR codes), or a token (older ones). */
const SIGN_IN_LINK = /(?:^#|&)(code|token)=([^&]+)/;

const app = document.getElementById("app")!;
let leave: (() => void) | undefined;

/** The record an address names (`#/tickets/ID`); one that is no valid escape is taken as typed. */
function decodedItem(item: string): string {
  try {
    return decodeURIComponent(item);
  } catch {
    return item;
  }
}

function signInPage(message?: string): void {
  const error = h("p", { class: "error", id: "signin-error", role: "alert" }, message ?? "");
  const submit = async (body: Record<string, string>) => {
    try {
      const s = await api<{ data: Session }>("POST", "/api/v1/session", body);
      localStorage.removeItem(SIGNED_OUT);
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
      // First under the title: why this page shows (a sign-in refused, a session lost).
      error,
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
      h("p", { class: "setup-link" }, h("a", { href: SETUP_HASH }, t("setupLink"))),
    ),
  );
  window.onhashchange = () => location.hash === SETUP_HASH && setupStandalone(app);
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

/** Why the box says the session is gone (GET /api/v1/session's 401 `reason`), in words. */
function lostTextOf(e: unknown): string {
  const reason = e instanceof ApiError ? (e.problem as { reason?: string }).reason : undefined;
  // A restart of the box ends no session (they are kept in its store): any other reason, or
  // none, says the session ended.
  switch (reason) {
    case "revoked":
      return t("lost_revoked");
    case "deleted":
      return t("lost_deleted");
    case "expired":
      return t("lost_expired");
    default:
      return t("lost_ended");
  }
}

async function lostText(): Promise<string> {
  try {
    await api("GET", "/api/v1/session");
    return t("lost_ended");
  } catch (e) {
    return lostTextOf(e);
  }
}

/**
 * The box no longer knows this session (token revoked, user deleted, expired, ended): what
 * the device holds for it goes at once (no plate stays on a handheld whose access ended), and
 * the sign-in page says why.
 */
let losing = false;
async function sessionLost(): Promise<void> {
  if (losing) return;
  losing = true;
  leave?.();
  leave = undefined;
  window.onhashchange = null;
  setCsrf("");
  const why = await lostText();
  await forgetLocalState();
  losing = false;
  signInPage(why);
}

/** Ends the server's session once the box can be reached; true when it was (or is gone). */
async function endServerSession(): Promise<boolean> {
  try {
    await api("DELETE", "/api/v1/session");
  } catch (e) {
    if (e instanceof Offline) {
      tellBoxLater();
      return false;
    }
  }
  localStorage.removeItem(SIGNED_OUT);
  return true;
}

/** While a sign-out has not reached the box, it is asked again this often. */
const SIGN_OUT_RETRY_MS = 3_000;
let signOutRetry: ReturnType<typeof setTimeout> | undefined;
/**
 * The box is asked again on a timer, not only at the browser's `online` event: a phone back on a
 * Wi-Fi where the box is still out of reach has no further event, and some browsers fire none
 * when the network comes back under emulation.
 */
function tellBoxLater(): void {
  if (signOutRetry !== undefined) return;
  signOutRetry = setTimeout(() => {
    signOutRetry = undefined;
    if (localStorage.getItem(SIGNED_OUT)) void endServerSession();
  }, SIGN_OUT_RETRY_MS);
}

/**
 * Signs out at once, online or not: what the device holds goes first, and the box is told now
 * or, offline, as soon as it can be reached. Until then a reload shows the sign-in page.
 */
async function signOut(): Promise<void> {
  localStorage.setItem(SIGNED_OUT, "1");
  await forgetLocalState();
  setCsrf("");
  window.onhashchange = null;
  leave?.();
  leave = undefined;
  signInPage();
  await endServerSession();
}

/** How often an open page asks for its session: each answer moves the cookie's end with the session's. */
const SESSION_REFRESH_MS = 30 * 60_000;
/** After a start on what the device held, how often the box is asked for the session until it answers. */
const OFFLINE_START_RETRY_MS = 5_000;

function started(s: Session, offline = false): void {
  setCsrf(s.csrf);
  setSessionNow(s);
  setSiteZone(s.time_zone);
  if (!offline) localStorage.setItem(LAST_SESSION, JSON.stringify({ ...s, csrf: "" }));
  // A page left open all shift keeps its cookie as long as the box keeps the session, so that
  // closing the browser and opening it again signs no one out. A failure here is no news: the
  // page's own requests say when the box is gone or the session ended.
  const confirm = () =>
    api<{ data: Session }>("GET", "/api/v1/session").then((now) => {
      setCsrf(now.data.csrf);
      localStorage.setItem(LAST_SESSION, JSON.stringify({ ...now.data, csrf: "" }));
      return true;
    });
  setInterval(() => {
    if (navigator.onLine) void confirm().catch(() => {});
  }, SESSION_REFRESH_MS);
  // Opened on what the device held (the box did not answer in time): the csrf value the page's
  // writes need comes once the box answers, asked every few seconds until then.
  if (offline) {
    const retry = setInterval(() => {
      void confirm()
        .then(() => clearInterval(retry))
        .catch((e) => {
          if (e instanceof ApiError && e.status === 401) clearInterval(retry);
        });
    }, OFFLINE_START_RETRY_MS);
  }
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
  // The first stop of the keyboard: past the bar (eleven links on the console) to the page.
  const skip = h(
    "a",
    {
      class: "skip-link",
      href: "#page-title",
      onclick: (e: Event) => {
        // The address holds the page's route: the link moves the focus, never the address.
        e.preventDefault();
        document.getElementById("page-title")?.focus();
      },
    },
    t("skipToContent"),
  );
  replace(
    app,
    skip,
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
  let navigated = false;
  const route = () => {
    if (SIGN_IN_LINK.test(location.hash)) return; // boot() starts again for it
    leave?.();
    leave = undefined;
    // A page's filters may follow its path as a query (`#/tickets?state=active`): the page reads them.
    const path = location.hash.replace(/^#\/?/, "").split("?", 1)[0] ?? "";
    const [page = "", item] = path.split("/", 2);
    const wanted = admin ? page || "lots" : location.hash === SETUP_HASH ? "setup" : "check";
    const entry = CONSOLE.find(([id]) => id === wanted) ?? CONSOLE[1]!;
    for (const a of document.querySelectorAll<HTMLAnchorElement>("nav a"))
      a.classList.toggle("current", a.dataset.page === entry[0]);
    body.className = `page ${entry[0]}`;
    // Each page has its one h1, the tab's title says where one is, and focus moves to the
    // heading on navigation, so a screen reader starts at the new page.
    const heading = h("h1", { class: "visually-hidden", tabindex: "-1", id: "page-title" }, t(entry[1]));
    const pageRoot = h("div", { class: "page-root" });
    replace(body, heading, pageRoot);
    document.title = `${t(entry[1])} · parkd`;
    if (navigated) heading.focus();
    navigated = true;
    leave = entry[2](pageRoot, () => void sessionLost(), item ? decodedItem(item) : undefined) ?? undefined;
  };
  window.onhashchange = route;
  route();
}

/**
 * How long the page waits for the box at start before opening on what the device holds: with the
 * service worker's 0.8 s for the page itself, a reload on a frozen box shows the check page
 * within 4 s.
 */
const BOOT_TIMEOUT_MS = 2_000;

async function boot(): Promise<void> {
  onUnauthorized(() => void sessionLost());
  void offlineUse; // registers the service worker
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
        localStorage.removeItem(SIGNED_OUT);
        return started(s.data);
      } catch (e) {
        return signInPage(`${t("signInFailed")}: ${(e as Error).message}`);
      }
    }
  }
  // Signed out while the box was out of reach: finish it, and never re-enter meanwhile.
  window.addEventListener("online", () => {
    if (localStorage.getItem(SIGNED_OUT)) void endServerSession();
  });
  if (localStorage.getItem(SIGNED_OUT)) {
    await endServerSession();
    return signInPage();
  }
  try {
    // A box that takes the request and never answers (frozen) is as good as gone: the remembered
    // session opens the page on the saved lists rather than a blank page.
    const s = await api<{ data: Session }>("GET", "/api/v1/session", undefined, BOOT_TIMEOUT_MS);
    started(s.data);
  } catch (e) {
    const last = rememberedSession();
    if (e instanceof Offline && last) started(last, true);
    else if (e instanceof ApiError && e.status === 401 && last) {
      // Someone was signed in here and the box no longer knows the session: say why, and
      // forget what the device held for them.
      await forgetLocalState();
      signInPage(lostTextOf(e));
    } else if (location.hash === SETUP_HASH) setupStandalone(app);
    else signInPage(e instanceof ApiError || !last ? undefined : t("offline"));
  }
}

void boot();
