import type { Scope } from "../../domain/credentials.ts";
import { api } from "../api.ts";
import type { Token, User } from "../api-types.ts";
import { type Child, field, h, replace } from "../dom.ts";
import { t, when } from "../i18n.ts";
import { qrCode } from "../qr.ts";
import { siteZone } from "../site-zone.ts";
import { problemText, table } from "./table.ts";

/** Every scope the box grants, in the order an operator meets them, each with what it allows. */
const SCOPE_CHOICES = [
  ["permits:read", "scopePermitsRead"],
  ["notices:write", "scopeNoticesWrite"],
  ["tickets:write", "scopeTicketsWrite"],
  ["admin", "scopeAdmin"],
] as const satisfies readonly (readonly [Scope, string])[];

function scopeBoxes(prefix: string) {
  return h(
    "fieldset",
    { class: "scopes" },
    h("legend", null, t("scopes")),
    SCOPE_CHOICES.map(([s, about]) =>
      h(
        "div",
        { class: "scope" },
        h(
          "label",
          { class: "check" },
          h("input", {
            type: "checkbox",
            name: "scope",
            value: s,
            id: `${prefix}-${s}`,
            "aria-describedby": `${prefix}-${s}-about`,
            checked: s === "permits:read",
          }),
          s,
        ),
        h("span", { class: "scope-about", id: `${prefix}-${s}-about` }, t(about)),
      ),
    ),
  );
}

function chosenScopes(form: HTMLFormElement): string[] {
  return [...form.querySelectorAll<HTMLInputElement>('input[name="scope"]:checked')].map((i) => i.value);
}

/** A credential with pages to open: only its handheld gets a sign-in code. */
const hasPages = (scopes: readonly string[]) => scopes.some((sc) => sc === "permits:read" || sc === "admin");

interface SignInCode {
  sign_in_url: string;
  expires_at: string;
  reachable: boolean;
}

/**
 * A one-time code for the token or user, as its QR code: the QR code holds the code, never the
 * token (browsers and camera apps keep the URLs they open).
 */
async function newSignInCode(credential: { token_id: string } | { user_id: string }): Promise<SignInCode> {
  return (await api<{ data: SignInCode }>("POST", "/api/v1/session/codes", credential)).data;
}

/** The QR code, until when it works, and a warning when only the box itself can open it. */
function signInQr(qr: SignInCode, name: string): Child[] {
  const until = new Date(qr.expires_at).toLocaleTimeString([], {
    hour: "2-digit",
    minute: "2-digit",
    timeZone: siteZone(),
  });
  return [
    qrCode(qr.sign_in_url),
    h("p", null, t("qrOnce", { name, until })),
    qr.reachable
      ? null
      : h(
          "p",
          { class: "warning", role: "alert", id: "qr-unreachable" },
          t("qrUnreachable", { url: new URL(qr.sign_in_url).origin }),
        ),
  ];
}

/**
 * A new code for a token or user that exists already (a new handheld, or one signed out), in a
 * dialog over the list: the list stays where the operator left it.
 */
function showSignInQr(qr: SignInCode, name: string): void {
  document.getElementById("sign-in-code")?.remove();
  const dialog = h("dialog", { id: "sign-in-code", "aria-labelledby": "sign-in-code-title" });
  const close = h("button", { type: "button", onclick: () => dialog.close() }, t("close"));
  replace(
    dialog,
    h(
      "div",
      { class: "token-once" },
      h("h2", { id: "sign-in-code-title" }, t("signInCodeFor", { name })),
      ...signInQr(qr, name),
      close,
    ),
  );
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  close.focus();
}

export function credentialsPage(root: HTMLElement): () => void {
  const tokens = h("div", { id: "tokens" });
  const users = h("div", { id: "users" });
  const shown = h("div", { id: "new-token", "aria-live": "polite" });
  const note = h("p", { class: "note", role: "status", id: "cred-note" });

  async function load(): Promise<void> {
    try {
      const [tk, us] = await Promise.all([
        api<{ data: Token[] }>("GET", "/api/v1/tokens"),
        api<{ data: User[] }>("GET", "/api/v1/users"),
      ]);
      replace(
        tokens,
        table(
          [t("name"), t("scopes"), t("created"), t("lastUsed"), t("expires"), ""],
          tk.data.reverse(),
          (x) => [
            x.name,
            x.scopes.join(" "),
            when(x.created_at),
            when(x.last_used_at),
            when(x.expires_at),
            x.revoked_at
              ? h("span", { class: "muted" }, `${t("revoked")} ${when(x.revoked_at)}`)
              : [
                  hasPages(x.scopes) ? codeButton(x.name, { token_id: x.id }) : null,
                  " ",
                  h(
                    "button",
                    { type: "button", class: "danger", "data-revoke": x.name, onclick: () => void revoke(x) },
                    t("revoke"),
                  ),
                ],
          ],
          { id: "tokens-table" },
        ),
      );
      replace(
        users,
        table(
          [t("name"), t("scopes"), t("created"), t("lastUsed"), ""],
          us.data,
          (x) => [
            x.name,
            x.scopes.join(" "),
            when(x.created_at),
            when(x.last_used_at),
            [
              hasPages(x.scopes) ? codeButton(x.name, { user_id: x.id }) : null,
              " ",
              h(
                "button",
                { type: "button", class: "danger", onclick: () => void removeUser(x) },
                t("delete"),
              ),
            ],
          ],
          { id: "users-table" },
        ),
      );
    } catch (e) {
      replace(note, problemText(e));
    }
  }

  function codeButton(name: string, credential: { token_id: string } | { user_id: string }) {
    return h(
      "button",
      {
        type: "button",
        "data-sign-in-code": name,
        "aria-label": `${t("newSignInCode")}: ${name}`,
        onclick: async () => {
          try {
            showSignInQr(await newSignInCode(credential), name);
          } catch (e) {
            replace(note, `${t("error")}: ${problemText(e)}`);
            await load();
          }
        },
      },
      t("newSignInCode"),
    );
  }

  async function revoke(x: Token): Promise<void> {
    if (!confirm(`${t("revoke")} ${x.name}?`)) return;
    try {
      await api("DELETE", `/api/v1/tokens/${x.id}`);
      await load();
    } catch (e) {
      replace(note, problemText(e));
    }
  }
  async function removeUser(x: User): Promise<void> {
    if (!confirm(`${t("delete")} ${x.name}?`)) return;
    try {
      await api("DELETE", `/api/v1/users/${x.id}`);
      await load();
    } catch (e) {
      replace(note, problemText(e));
    }
  }

  const tokenForm = h(
    "form",
    {
      id: "token-create",
      onsubmit: async (e: Event) => {
        e.preventDefault();
        const f = e.target as HTMLFormElement;
        const days = field(f, "expires");
        try {
          const made = await api<{ data: { id: string; token: string; name: string; scopes: string[] } }>(
            "POST",
            "/api/v1/tokens",
            {
              name: field(f, "name"),
              scopes: chosenScopes(f),
              ...(days ? { expires_in_days: Number(days) } : {}),
            },
          );
          const qr = hasPages(made.data.scopes) ? await newSignInCode({ token_id: made.data.id }) : null;
          replace(
            shown,
            h(
              "div",
              { class: "token-once" },
              h("p", null, t("tokenOnce")),
              h("code", { id: "token-value" }, made.data.token),
              qr ? signInQr(qr, made.data.name) : null,
            ),
          );
          f.reset();
          await load();
        } catch (err) {
          replace(note, `${t("error")}: ${problemText(err)}`);
        }
      },
    },
    h("h3", null, t("newToken")),
    h(
      "label",
      null,
      t("name"),
      h("input", { name: "name", required: true, pattern: "[A-Za-z0-9][A-Za-z0-9._@\\-]{0,63}" }),
    ),
    scopeBoxes("token"),
    h("label", null, t("expiresDays"), h("input", { name: "expires", type: "number", min: 1, max: 3650 })),
    h("button", { type: "submit", class: "primary" }, t("newToken")),
  );

  const userForm = h(
    "form",
    {
      id: "user-create",
      onsubmit: async (e: Event) => {
        e.preventDefault();
        const f = e.target as HTMLFormElement;
        try {
          await api("POST", "/api/v1/users", {
            name: field(f, "name"),
            password: field(f, "password"),
            scopes: chosenScopes(f),
          });
          f.reset();
          await load();
        } catch (err) {
          replace(note, `${t("error")}: ${problemText(err)}`);
        }
      },
    },
    h("h3", null, t("newUser")),
    h("label", null, t("name"), h("input", { name: "name", required: true })),
    h(
      "label",
      null,
      t("password"),
      h("input", {
        name: "password",
        type: "password",
        minlength: 12,
        required: true,
        autocomplete: "new-password",
      }),
    ),
    scopeBoxes("user"),
    h("button", { type: "submit" }, t("newUser")),
  );

  replace(
    root,
    h(
      "div",
      { class: "split credentials" },
      h("section", null, h("h2", null, t("tokens")), note, tokens, h("h2", null, t("users")), users),
      h("section", { class: "editor" }, tokenForm, shown, userForm),
    ),
  );
  void load();
  return () => {};
}
