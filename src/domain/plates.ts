import type { FieldError } from "./errors.ts";

/**
 * The form plates are matched in: Unicode NFKC, upper case, without spaces, hyphens, dots or
 * format characters (zero-width spaces and joiners, soft hyphens, byte-order and direction marks,
 * which a copy from a web page or a phone keyboard slips in and nobody can see). `ab-123 `,
 * `AB 123`, `ab123` and `AB\u200B123` all become `AB123`; letters such as Å, Ä, Ö stay (plain
 * toUpperCase: only Turkish and Lithuanian need locale rules, and the locale form is slow).
 */
export function normalizePlate(plate: string): string {
  return plate
    .normalize("NFKC")
    .toUpperCase()
    .replace(/[\s\-.\u2010-\u2015\u2212\p{Cf}]/gu, "");
}

/**
 * Control characters other than white space (NUL, ESC, DEL, C1 controls) and lone surrogates: no
 * keyboard types them, so a plate holding one is a broken sender, refused rather than guessed at.
 * White space and format characters are not here: normalizePlate drops them.
 */
const CONTROL = /\p{Cs}|(?![\t\n\v\f\r])\p{Cc}/u;

/** Why a plate as sent cannot be a plate, or null when it can. */
export function plateProblem(plate: string): string | null {
  if (CONTROL.test(plate)) return "must not contain control characters";
  if (normalizePlate(plate) === "") return "must contain letters or digits";
  return null;
}

/**
 * The field error for a registration number as sent that cannot be a plate, or null when it can:
 * what the permit and notice forms answer under `/registration_number`.
 */
export function plateFieldError(plate: string): FieldError | null {
  const problem = plateProblem(plate);
  if (problem === null) return null;
  return {
    pointer: "/registration_number",
    message:
      normalizePlate(plate) === ""
        ? "A registration number needs letters or digits"
        : `A registration number ${problem}`,
  };
}

/**
 * Ticket ids are the sender's own and matched exactly, so an invisible character would make
 * another ticket that looks the same: control and format characters and lone surrogates are
 * refused, not stripped.
 */
export function ticketIdProblem(ticketId: string): string | null {
  return /[\p{Cc}\p{Cf}\p{Cs}]/u.test(ticketId)
    ? "must not contain control or invisible (format) characters"
    : null;
}
