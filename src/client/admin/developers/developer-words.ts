// How the Developers screens say what the API answers (docs/dashboard.md, "Developers").
import type { EmailSummary } from '../../../contract/email.js';

export type DevelopersTab = 'api-keys' | 'webhooks' | 'emails';

export const DEVELOPERS_TABS: readonly { tab: DevelopersTab; label: string }[] = [
  { tab: 'api-keys', label: 'API keys' },
  { tab: 'webhooks', label: 'Webhooks' },
  { tab: 'emails', label: 'Emails' },
];

/** "subscription_welcome" → "Subscription welcome". */
export function kindLabel(kind: string): string {
  const words = kind.replace(/_/g, ' ').trim();
  return words ? words[0]?.toUpperCase() + words.slice(1) : kind;
}

export const EMAIL_STATUS_LABELS: Record<EmailSummary['status'], string> = {
  queued: 'Queued',
  retrying: 'Retrying',
  sent: 'Sent',
  kept: 'Kept (no mail server set)',
  failed: 'Failed',
};

/**
 * The order id a person typed for the email log's filter, as the address carries it: trimmed, '' for none. What is
 * not an id still goes to the server, which says what to type instead.
 */
export function orderFilterOf(search: string): string {
  return new URLSearchParams(search).get('order_id')?.trim() ?? '';
}

/** The webhook events a form sends, in the order the contract lists them. */
export function chosenEvents<T extends string>(all: readonly T[], chosen: ReadonlySet<string>): T[] {
  return all.filter((event) => chosen.has(event));
}
