// What the merchant's subscription search looks for (docs/api.md, "GET /subscriptions"). Pure, so the repository only
// runs what this decides.

export type SubscriptionSearch =
  { kind: 'id'; id: number } | { kind: 'email'; pattern: string } | { kind: 'none' };

/** A LIKE pattern matching `text` anywhere, its own %, _ and \ taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * All digits: the subscription with that id (a person pastes an id from an email or a receipt). Anything else: the
 * subscriptions whose customer's email contains it, whatever its case.
 */
export function subscriptionSearchOf(q: string | undefined): SubscriptionSearch {
  const text = q?.trim() ?? '';
  if (text === '') return { kind: 'none' };
  if (/^\d{1,15}$/.test(text)) return { kind: 'id', id: Number(text) };
  return { kind: 'email', pattern: containsPattern(text.toLowerCase()) };
}
