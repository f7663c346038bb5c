// What the server refused, for a form (docs/dashboard.md, "Forms"): its field errors by the fields, and in a summary
// that moves to them; a refusal tied to no field as one message.
import { ApiFailure } from '../admin-api.js';

export interface FormFailure {
  /** the server's words when no field is named (a 409, a lost connection), else null */
  message: string | null;
  /** field name (as the API names it: "legal.terms_url") → what to do */
  fields: Record<string, string>;
}

export function failureOf(error: unknown): FormFailure {
  if (!error) return { message: null, fields: {} };
  if (!(error instanceof ApiFailure)) return { message: 'Something went wrong. Try again.', fields: {} };
  const hasFields = Object.keys(error.fields).length > 0;
  return { message: hasFields ? null : error.message, fields: error.fields };
}

/**
 * The summary's entries, in the order the form shows its fields; a field the server named that the form does not
 * list comes last, so nothing the server said is dropped.
 */
export function summaryOf(fields: Record<string, string>, order: readonly string[]): [string, string][] {
  const listed = order
    .filter((name) => fields[name])
    .map((name): [string, string] => [name, fields[name] ?? '']);
  const others = Object.entries(fields).filter(([name]) => !order.includes(name));
  return [...listed, ...others];
}
