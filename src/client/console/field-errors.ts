import { ApiError } from "../api.ts";
import { h } from "../dom.ts";

/** A problem's field errors (RFC 9457 extension `errors`: JSON pointers into the request body). */
type FieldErrors = { pointer: string; message: string }[];

/**
 * Marks each field a problem names, by its JSON pointer, and says what is wrong beside it: a
 * top-level field by its name (`/name`), a row of an editable table by the table's id, its
 * index and the column (`/parking_lot_fee/2/end_time` → `#fees`, third row, `end_time`).
 * Returns the errors no field was found for, for the status line. Marks from an earlier attempt
 * are cleared first.
 */
export function markFieldErrors(
  form: HTMLElement,
  e: unknown,
  tables: Record<string, string> = {},
): FieldErrors {
  clearFieldErrors(form);
  const errors: FieldErrors = e instanceof ApiError ? (e.problem.errors ?? []) : [];
  const unplaced: FieldErrors = [];
  errors.forEach((err, i) => {
    const field = fieldAt(form, err.pointer, tables);
    if (!field) {
      unplaced.push(err);
      return;
    }
    const id = `field-error-${i}`;
    field.setAttribute("aria-invalid", "true");
    field.setAttribute("aria-describedby", id);
    field.after(h("span", { class: "field-error", id }, err.message));
  });
  return unplaced;
}

export function clearFieldErrors(form: HTMLElement): void {
  for (const el of form.querySelectorAll(".field-error")) el.remove();
  for (const el of form.querySelectorAll("[aria-invalid]")) {
    el.removeAttribute("aria-invalid");
    el.removeAttribute("aria-describedby");
  }
}

function fieldAt(form: HTMLElement, pointer: string, tables: Record<string, string>): HTMLElement | null {
  const [first = "", index, column] = pointer.split("/").slice(1);
  const table = tables[first];
  if (table && index !== undefined) {
    const row = form.querySelector<HTMLElement>(`#${table} tbody tr:nth-child(${Number(index) + 1})`);
    if (!row) return form.querySelector<HTMLElement>(`#${table}`);
    // A row as a whole (a fee overlapping another) is marked at its first field.
    return (
      (column && row.querySelector<HTMLElement>(`[name="${CSS.escape(column)}"]`)) ||
      row.querySelector<HTMLElement>("input, select") ||
      row
    );
  }
  return form.querySelector<HTMLElement>(`[name="${CSS.escape(first)}"]`);
}
