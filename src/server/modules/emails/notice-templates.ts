// The gift notice, the giver's note and the refund confirmation (docs/emails.md): plain functions from what the email
// says to its subject, HTML and text, in the language they are given (docs/emails.md, "Languages"). Every string a
// merchant or shopper wrote is escaped in the HTML.
import { escapeHtml } from '../page/page-shell.js';
import { englishSpeech, type EmailSpeech } from './email-language.js';
import type { RenderedEmail } from './receipt-template.js';

export interface EmailStore {
  name: string;
  logoUrl: string | null;
}

/** A header's (or a text line's) text on one line. */
export function oneLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ').trim();
}

/** The page around an email's paragraphs (already HTML): the store's logo and name, the footer, `<html lang dir>`. */
export function layout(
  store: EmailStore,
  subject: string,
  body: readonly string[],
  footer: string,
  speech: EmailSpeech = englishSpeech(),
): string {
  const e = escapeHtml;
  const logo =
    store.logoUrl !== null && /^https?:\/\//i.test(store.logoUrl)
      ? `<img src="${e(store.logoUrl)}" alt="${e(store.name)}" height="40" style="display:block;margin-bottom:8px"/>`
      : '';
  return [
    '<!doctype html>',
    `${speech.htmlOpen}<head><meta charset="utf-8"/><title>${e(subject)}</title></head>`,
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
export function giftItems(
  item: { name: string; quantity: number },
  speech: EmailSpeech = englishSpeech(),
): string {
  const name = oneLine(item.name);
  return item.quantity > 1 ? speech.t('emails.items', { quantity: item.quantity, name }) : name;
}

const BUTTON =
  'display:inline-block;padding:10px 16px;background:#222;color:#fff;text-decoration:none;border-radius:4px';

export interface GiftNoticeInput {
  store: EmailStore;
  /** the name the giver paid with ('' when none is known) */
  from: string;
  message: string;
  recipientName: string;
  item: { name: string; quantity: number };
  claimUrl: string;
}

export function renderGiftNotice(
  input: GiftNoticeInput,
  speech: EmailSpeech = englishSpeech(),
): RenderedEmail {
  const { t } = speech;
  const from = oneLine(input.from) || t('emails.gift.someone');
  const store = oneLine(input.store.name);
  const items = giftItems(input.item, speech);
  const recipient = oneLine(input.recipientName);
  const greeting = recipient ? t('emails.gift.helloName', { name: recipient }) : t('emails.gift.hello');
  const subject = oneLine(t('emails.gift.subject', { from, store }));
  const message = input.message.trim();
  const footer = t('emails.gift.footer', { store });
  const text = [
    store,
    '',
    greeting,
    '',
    t('emails.gift.sent', { from, items }),
    ...(message ? ['', t('emails.gift.theirMessage'), message] : []),
    '',
    t('emails.gift.claimHere'),
    input.claimUrl,
    '',
    footer,
  ];
  const e = escapeHtml;
  const html = layout(
    input.store,
    subject,
    [
      `<p>${e(greeting)}</p>`,
      `<p>${speech.html('emails.gift.sent', { from }, { items: `<strong>${e(items)}</strong>` })}</p>`,
      message
        ? `<blockquote style="margin:0 0 16px;padding-inline-start:12px;border-inline-start:3px solid #ddd">${paragraphHtml(message)}</blockquote>`
        : '',
      `<p><a href="${e(input.claimUrl)}" style="${BUTTON}">${e(t('emails.gift.claimButton'))}</a></p>`,
      `<p style="font-size:12px">${speech.html('emails.orOpenLink', { url: input.claimUrl })}</p>`,
    ],
    footer,
    speech,
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

export function renderGiftClaimed(
  input: GiftClaimedInput,
  speech: EmailSpeech = englishSpeech(),
): RenderedEmail {
  const { t } = speech;
  const store = oneLine(input.store.name);
  const who = oneLine(input.recipientName) || t('emails.giftClaimed.recipient');
  const items = giftItems(input.item, speech);
  const subject = oneLine(t('emails.giftClaimed.subject', { who, store }));
  const said = t('emails.giftClaimed.said', { who, items, orderId: input.orderId });
  const shipping = t('emails.giftClaimed.shipping');
  const footer = t('emails.orderFooter', { orderId: input.orderId, store });
  const text = [store, '', said, shipping, '', footer];
  const e = escapeHtml;
  const html = layout(input.store, subject, [`<p>${e(said)}</p>`, `<p>${e(shipping)}</p>`], footer, speech);
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

export function renderRefundConfirmation(
  input: RefundConfirmationInput,
  speech: EmailSpeech = englishSpeech(),
): RenderedEmail {
  const { t } = speech;
  const store = oneLine(input.store.name);
  const money = (amount: number) => speech.money(amount, input.currency);
  const left = leftPaid(input);
  const subject = oneLine(t('emails.refund.subject', { amount: money(input.amount), store }));
  const said = t('emails.refund.said', { amount: money(input.amount), orderId: input.orderId });
  const remains =
    left === 0
      ? t('emails.refund.full')
      : t('emails.refund.remains', { left: money(left), paid: money(input.paid) });
  const timing = t('emails.refund.timing');
  const footer = t('emails.orderFooter', { orderId: input.orderId, store });
  const text = [store, '', said, remains, '', timing, '', footer];
  const e = escapeHtml;
  const html = layout(
    input.store,
    subject,
    [`<p>${e(said)}</p>`, `<p>${e(remains)}</p>`, `<p>${e(timing)}</p>`],
    footer,
    speech,
  );
  return { subject, html, text: `${text.join('\n')}\n` };
}
