/**
 * The form plates are matched in: Unicode NFKC, upper case, without spaces, hyphens or dots.
 * `ab-123 `, `AB 123` and `ab123` all become `AB123`; letters such as Å, Ä, Ö stay (plain
 * toUpperCase: only Turkish and Lithuanian need locale rules, and the locale form is slow).
 */
export function normalizePlate(plate: string): string {
  return plate
    .normalize("NFKC")
    .toUpperCase()
    .replace(/[\s\-.\u2010-\u2015\u2212]/gu, "");
}
