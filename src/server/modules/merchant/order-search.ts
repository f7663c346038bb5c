// How the merchant's order list is searched and named (docs/api.md, "Orders: search and filters"): pure, unit tested
// (order-search.test.ts).

/** What `?q=` asks for: one order by its number, or orders whose email or customer name holds the text. */
export type OrderSearch =
  | { kind: 'all' }
  | { kind: 'number'; orderId: number }
  /** `pattern` is a lower-case LIKE pattern (`%text%`) with LIKE's own characters escaped by a backslash */
  | { kind: 'text'; pattern: string };

/**
 * "  1042 " and "#1042" are order 1042; anything else is text matched case-insensitively inside the email or the
 * first and last name ("ada lovelace", spaces collapsed). An empty or blank `q` is no search at all.
 */
export function parseOrderSearch(q: string | undefined): OrderSearch {
  const text = (q ?? '').trim().replace(/\s+/g, ' ');
  if (text === '') return { kind: 'all' };
  const number = /^#?(\d{1,15})$/.exec(text);
  if (number) return { kind: 'number', orderId: Number(number[1]) };
  const escaped = text.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`);
  return { kind: 'text', pattern: `%${escaped}%` };
}

/**
 * `created_from` and `created_to` (both inclusive, UTC days) as the instants the query compares with: from the start
 * of the first day, up to (not including) the start of the day after the last.
 */
export function createdRange(
  from: string | undefined,
  to: string | undefined,
): { from: Date | null; before: Date | null } {
  const start = (day: string) => new Date(`${day}T00:00:00Z`);
  const dayAfter = (day: string) => new Date(start(day).getTime() + 86_400_000);
  return { from: from ? start(from) : null, before: to ? dayAfter(to) : null };
}

interface NamedAddress {
  fname: string;
  lname: string;
}

/** "First Last" of the billing address, else of the shipping address; "" when neither names anyone. */
export function customerNameOf(billing: NamedAddress | null, shipping: NamedAddress | null): string {
  for (const address of [billing, shipping]) {
    const name = [address?.fname ?? '', address?.lname ?? '']
      .map((part) => part.trim())
      .filter(Boolean)
      .join(' ');
    if (name) return name;
  }
  return '';
}
