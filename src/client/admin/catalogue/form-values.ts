// What the catalogue's forms send (docs/dashboard.md, "Catalogue"): the fields as typed, turned into the API's body;
// the server judges them. An edit sends only the fields that changed.

/** An amount as typed: a number when it reads as one, the text otherwise (the server says what is wrong with it),
 * nothing when empty (the server says it is required). */
export function amountOf(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/** A whole number as typed, on the same terms as amountOf. */
export function wholeOf(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return /^\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/** An amount from the API as a field shows it. */
export function amountText(amount: number | null): string {
  return amount === null ? '' : String(amount);
}

/**
 * The fields of `next` that differ from `before`, for a PATCH. A field left empty that had a value is sent as null,
 * so the server says whether it may be emptied.
 */
export function changedFields(
  before: Record<string, unknown>,
  next: Record<string, unknown>,
): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(next)])) {
    if (JSON.stringify(before[key]) === JSON.stringify(next[key])) continue;
    changed[key] = next[key] === undefined ? null : next[key];
  }
  return changed;
}

/** Drops undefined values (fields left empty), for a create. */
export function withoutEmpty(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}

const pad = (n: number) => String(Math.abs(n)).padStart(2, '0');

/**
 * A datetime-local input's value ("2026-12-01T09:30"), read in the browser's time zone, as ISO 8601 with that zone's
 * offset ("2026-12-01T09:30:00+01:00"); empty stays empty. `offsetOf` gives the zone's offset at that moment
 * (Date#getTimezoneOffset's minutes west of UTC).
 */
export function localToIso(
  value: string,
  offsetOf: (local: Date) => number = (local) => local.getTimezoneOffset(),
): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!match) return value;
  const [, y, mo, d, h, mi] = match.map(Number) as [number, number, number, number, number, number];
  const east = -offsetOf(new Date(y, mo - 1, d, h, mi));
  const sign = east >= 0 ? '+' : '-';
  return `${value}:00${sign}${pad(Math.trunc(east / 60))}:${pad(east % 60)}`;
}

/** An ISO moment as a datetime-local input shows it, in the browser's time zone; null is empty. */
export function isoToLocal(iso: string | null): string {
  if (iso === null) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(
    date.getMinutes(),
  )}`;
}
