// The gift notice, the giver's note and the refund confirmation (docs/emails.md): plain functions from what the email
// says to its subject, HTML and text. Every string a merchant or shopper wrote is escaped in the HTML.
import { formatMoney, minor } from '../../../domain/money.js';
import { escapeHtml } from '../page/page-shell.js';
import type { RenderedEmail } from './receipt-template.js';

export interface EmailStore {
  name: string;
  logoUrl: string | null;
}

/** A header's (or a text line's) text on one line. */
export function oneLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ').trim();
}

/** The page around an email's paragraphs (already HTML): the store's logo and name, the footer. */
export function layout(store: EmailStore, subject: string, body: readonly string[], footer: string): string {
  const e = escapeHtml;
  const logo =
    store.logoUrl !== null && /^https?:\/\//i.test(store.logoUrl)
      ? `<img src="${e(store.logoUrl)}" alt="${e(store.name)}" height="40" style="display:block;margin-bottom:8px"/>`
      : '';
  return [
    '<!doctype html>',
    `<html><head><meta charset="utf-8"/><title>${e(subject)}</title></head>`,
    '<body style="font-family:Arial,Helvetica,sans-serif;color:#222;max-width:600px;margin:0 auto;padding:16px">',
    logo,
    `<h1 style="font-size:20px">${e(store.name)}</h1>`,
    ...body,
    `<p style="color:#666;font-size:12px">${e(footer)}</p>`,
    '</body></html>',
  ].join('\n');
}

/** A multi-line message as HTML: escaped, its line breaks kept. */
function paragraphHtml(text: string): string {
  return escapeHtml(text.trim()).replace(/\r?\n/g, '<br/>');
}

/** "2 x Mug", or "Mug" for one. */
export function giftItems(item: { name: string; quantity: number }): string {
  const name = oneLine(item.name);
  return item.quantity > 1 ? `${item.quantity} x ${name}` : name;
}

export interface GiftNoticeInput {
  store: EmailStore;
  /** the name the giver paid with ('' when none is known) */
  from: string;
  message: string;
  recipientName: string;
  item: { name: string; quantity: number };
  claimUrl: string;
}

export function renderGiftNotice(input: GiftNoticeInput): RenderedEmail {
  const from = oneLine(input.from) || 'Someone';
  const store = oneLine(input.store.name);
  const items = giftItems(input.item);
  const greeting = oneLine(input.recipientName) ? `Hello ${oneLine(input.recipientName)},` : 'Hello,';
  const subject = oneLine(`${from} sent you a gift from ${store}`);
  const message = input.message.trim();
  const text = [
    store,
    '',
    greeting,
    '',
    `${from} sent you a gift: ${items}.`,
    ...(message ? ['', `Their message:`, message] : []),
    '',
    'Claim your gift here (you choose where it is shipped):',
    input.claimUrl,
    '',
    `A gift from ${store}`,
  ];
  const e = escapeHtml;
  const html = layout(
    input.store,
    subject,
    [
      `<p>${e(greeting)}</p>`,
      `<p>${e(from)} sent you a gift: <strong>${e(items)}</strong>.</p>`,
      message
        ? `<blockquote style="margin:0 0 16px;padding-left:12px;border-left:3px solid #ddd">${paragraphHtml(message)}</blockquote>`
        : '',
      `<p><a href="${e(input.claimUrl)}" style="display:inline-block;padding:10px 16px;background:#222;color:#fff;text-decoration:none;border-radius:4px">Claim your gift</a></p>`,
      `<p style="font-size:12px">Or open this link: ${e(input.claimUrl)}</p>`,
    ],
    `A gift from ${store}`,
  );
  return { subject, html, text: `${text.join('\n')}\n` };
}

export interface GiftClaimedInput {
  store: EmailStore;
  recipientName: string;
  item: { name: string; quantity: number };
  /** the giver's order */
  orderId: number;
}

export function renderGiftClaimed(input: GiftClaimedInput): RenderedEmail {
  const store = oneLine(input.store.name);
  const who = oneLine(input.recipientName) || 'The recipient';
  const items = giftItems(input.item);
  const subject = oneLine(`${who} claimed your gift from ${store}`);
  const said = `${who} claimed your gift: ${items} (order #${input.orderId}).`;
  const text = [
    store,
    '',
    said,
    'We will ship it to the address they gave.',
    '',
    `Order #${input.orderId} at ${store}`,
  ];
  const e = escapeHtml;
  const html = layout(
    input.store,
    subject,
    [`<p>${e(said)}</p>`, '<p>We will ship it to the address they gave.</p>'],
    `Order #${input.orderId} at ${store}`,
  );
  return { subject, html, text: `${text.join('\n')}\n` };
}

export interface RefundConfirmationInput {
  store: EmailStore;
  orderId: number;
  currency: string;
  /** integer minor units: this refund, what the order's payment was, and all refunded of it so far */
  amount: number;
  paid: number;
  refunded: number;
}

/** What is left paid after the refunds, never below 0. */
export function leftPaid(input: Pick<RefundConfirmationInput, 'paid' | 'refunded'>): number {
  return Math.max(0, input.paid - input.refunded);
}

export function renderRefundConfirmation(input: RefundConfirmationInput): RenderedEmail {
  const store = oneLine(input.store.name);
  const money = (amount: number) => formatMoney(minor(amount), input.currency);
  const left = leftPaid(input);
  const subject = oneLine(`Your refund of ${money(input.amount)} from ${store}`);
  const said = `We refunded ${money(input.amount)} of your order #${input.orderId}.`;
  const remains =
    left === 0
      ? 'Your order is now refunded in full.'
      : `${money(left)} of the ${money(input.paid)} you paid remains paid.`;
  const timing = 'The refund goes back to the way you paid; your bank may take a few days to show it.';
  const text = [store, '', said, remains, '', timing, '', `Order #${input.orderId} at ${store}`];
  const e = escapeHtml;
  const html = layout(
    input.store,
    subject,
    [`<p>${e(said)}</p>`, `<p>${e(remains)}</p>`, `<p>${e(timing)}</p>`],
    `Order #${input.orderId} at ${store}`,
  );
  return { subject, html, text: `${text.join('\n')}\n` };
}
