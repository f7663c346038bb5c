// The order receipt (docs/emails.md): plain functions from an order to its subject, HTML and text, in the language
// they are given (docs/emails.md, "Languages"). Every string a merchant or shopper wrote is escaped in the HTML.
import { addressFormatOf } from '../../../domain/address/address-data.js';
import { addressLines } from '../../../domain/address/address-format.js';
import { CARD_TYPE_IDS, cardTypeOf, type CardBrand } from '../../../domain/card.js';
import { escapeHtml } from '../page/page-shell.js';
import { englishSpeech, type EmailSpeech } from './email-language.js';
import type { OrderAddress } from '../orders/orders-repository.js';

/** An order's address as the receipt prints it (no phone). */
export type ReceiptAddress = Omit<OrderAddress, 'phone'>;

export interface ReceiptInput {
  store: { name: string; logoUrl: string | null };
  order: {
    id: number;
    currency: string;
    isTest: boolean;
    /** integer minor units, as the order stores them */
    subtotal: number;
    discount: number;
    discountCode: string | null;
    shipping: number;
    tax: number;
    giftCards: number;
    total: number;
  };
  lines: readonly { name: string; quantity: number; amount: number; isRecurring: boolean }[];
  /** the items used online the shopper bought (not gifts: a gift's recipient gets them with the claim) */
  access?: readonly DigitalAccess[];
  shippingAddress: ReceiptAddress | null;
  billingAddress: ReceiptAddress | null;
  /** how it was paid: a card by its brand and last four digits only */
  payment: { method: 'card' | 'paypal' | 'none'; brand: string | null; last4: string | null } | null;
}

/** How to reach an item used online, as the offer says (docs/emails.md, "Order receipt"). */
export interface DigitalAccess {
  itemName: string;
  url: string;
  instructions: string;
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

/** A header's text on one line. */
function oneLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ').trim();
}

export function receiptSubject(input: ReceiptInput, speech: EmailSpeech = englishSpeech()): string {
  return oneLine(speech.t('emails.receipt.subject', { store: input.store.name, orderId: input.order.id }));
}

/** "Home brewing guide (PDF): Sign in with this email. https://…" */
function accessLine(access: DigitalAccess, speech: EmailSpeech): string {
  const instructions = oneLine(access.instructions);
  const item = oneLine(access.itemName);
  return instructions
    ? speech.t('emails.receipt.access', { item, instructions, url: access.url })
    : speech.t('emails.receipt.accessNoInstructions', { item, url: access.url });
}

/** A stored brand id (visa, american-express) by the name the page shows; any other brand as it was stored. */
function brandLabel(brand: string): string {
  return Object.hasOwn(CARD_TYPE_IDS, brand) || brand === 'testcard'
    ? cardTypeOf(brand as CardBrand | 'testcard').label
    : brand;
}

/** What the receipt says of the payment: never more of a card than its brand and last four digits. */
export function paymentSummary(
  payment: ReceiptInput['payment'],
  speech: EmailSpeech = englishSpeech(),
): string {
  const { t } = speech;
  if (payment === null || payment.method === 'none') return t('emails.payment.none');
  if (payment.method === 'paypal') return t('emails.payment.paypal');
  const brand = payment.brand ? brandLabel(oneLine(payment.brand)) : t('emails.payment.someCard');
  return payment.last4 !== null && /^\d{4}$/.test(payment.last4)
    ? t('emails.payment.cardEnding', { brand, last4: payment.last4 })
    : t('emails.payment.card', { brand });
}

/** The address as its country writes it, the state by its name in the email's language (docs/languages.md). */
function addressLinesOf(address: ReceiptAddress, speech: EmailSpeech): string[] {
  const one = Object.fromEntries(Object.entries(address).map(([field, value]) => [field, oneLine(value)]));
  const country = one.country ?? '';
  return addressLines(
    one,
    addressFormatOf(country),
    speech.language,
    country ? speech.countryName(country) : '',
  );
}

/** The amounts under the lines: each that applies, with its sign, and the total. */
export function receiptTotals(
  input: ReceiptInput,
  speech: EmailSpeech = englishSpeech(),
): { label: string; amount: string }[] {
  const { order } = input;
  const { t } = speech;
  const money = (amount: number) => speech.money(amount, order.currency);
  const rows = [{ label: t('emails.receipt.subtotal'), amount: money(order.subtotal) }];
  if (order.discount > 0)
    rows.push({
      label: order.discountCode
        ? t('emails.receipt.discountCode', { code: oneLine(order.discountCode) })
        : t('emails.receipt.discount'),
      amount: money(-order.discount),
    });
  if (order.shipping > 0) rows.push({ label: t('emails.receipt.shipping'), amount: money(order.shipping) });
  if (order.tax > 0) rows.push({ label: t('emails.receipt.tax'), amount: money(order.tax) });
  if (order.giftCards > 0)
    rows.push({ label: t('emails.receipt.giftCards'), amount: money(-order.giftCards) });
  rows.push({ label: t('emails.total'), amount: money(order.total) });
  return rows;
}

export function renderReceiptText(input: ReceiptInput, speech: EmailSpeech = englishSpeech()): string {
  const { order, store } = input;
  const { t } = speech;
  const money = (amount: number) => speech.money(amount, order.currency);
  const out = [
    oneLine(store.name),
    '',
    t(order.isTest ? 'emails.receipt.thanksTestText' : 'emails.receipt.thanks', { orderId: order.id }),
    '',
  ];
  for (const line of input.lines)
    out.push(
      t(line.isRecurring ? 'emails.receipt.subscriptionLineText' : 'emails.lineText', {
        quantity: line.quantity,
        name: oneLine(line.name),
        amount: money(line.amount),
      }),
    );
  out.push('');
  for (const row of receiptTotals(input, speech))
    out.push(t('emails.labelValue', { label: row.label, value: row.amount }));
  out.push('', paymentSummary(input.payment, speech));
  if (input.access?.length)
    out.push(
      '',
      t('emails.receipt.itemsOnlineText'),
      ...input.access.map((access) => accessLine(access, speech)),
    );
  if (input.shippingAddress)
    out.push('', t('emails.receipt.shippingToText'), ...addressLinesOf(input.shippingAddress, speech));
  if (input.billingAddress)
    out.push('', t('emails.receipt.billingAddressText'), ...addressLinesOf(input.billingAddress, speech));
  out.push('', t('emails.orderFooter', { orderId: order.id, store: oneLine(store.name) }));
  return `${out.join('\n')}\n`;
}

const CELL = 'padding:4px 0;';

export function renderReceiptHtml(input: ReceiptInput, speech: EmailSpeech = englishSpeech()): string {
  const { order, store } = input;
  const e = escapeHtml;
  const money = (amount: number) => speech.money(amount, order.currency);
  const logo =
    store.logoUrl !== null && /^https?:\/\//i.test(store.logoUrl)
      ? `<img src="${e(store.logoUrl)}" alt="${e(store.name)}" height="40" style="display:block;margin-bottom:8px"/>`
      : '';
  const lines = input.lines
    .map(
      (line) =>
        `<tr><td style="${CELL}">${speech.html(
          line.isRecurring ? 'emails.receipt.subscriptionLine' : 'emails.line',
          { quantity: line.quantity, name: line.name },
        )}</td>` + `<td style="${CELL}text-align:end">${e(money(line.amount))}</td></tr>`,
    )
    .join('');
  const totals = receiptTotals(input, speech)
    .map(
      (row) =>
        `<tr><td style="${CELL}">${e(row.label)}</td><td style="${CELL}text-align:end">${e(row.amount)}</td></tr>`,
    )
    .join('');
  const address = (title: string, value: ReceiptAddress | null) =>
    value === null
      ? ''
      : `<h2 style="font-size:16px">${e(title)}</h2><p>${addressLinesOf(value, speech).map(e).join('<br/>')}</p>`;
  const thanks = speech.html(
    order.isTest ? 'emails.receipt.thanksTest' : 'emails.receipt.thanks',
    {},
    { orderId: `<strong>${order.id}</strong>` },
  );
  return [
    '<!doctype html>',
    `${speech.htmlOpen}<head><meta charset="utf-8"/><title>${e(receiptSubject(input, speech))}</title></head>`,
    '<body style="font-family:Arial,Helvetica,sans-serif;color:#222;max-width:600px;margin:0 auto;padding:16px">',
    logo,
    `<h1 style="font-size:20px">${e(store.name)}</h1>`,
    `<p>${thanks}</p>`,
    `<table style="width:100%;border-collapse:collapse">${lines}</table>`,
    `<table style="width:100%;border-collapse:collapse;border-top:1px solid #ddd;margin-top:8px">${totals}</table>`,
    `<p>${e(paymentSummary(input.payment, speech))}</p>`,
    input.access?.length
      ? `<h2 style="font-size:16px">${e(speech.t('emails.receipt.itemsOnline'))}</h2>` +
        input.access
          .map((access) => {
            const link = `<a href="${e(access.url)}">${e(access.url)}</a>`;
            const item = oneLine(access.itemName);
            const instructions = oneLine(access.instructions);
            return `<p>${
              instructions
                ? speech.html('emails.receipt.access', { item, instructions }, { url: link })
                : speech.html('emails.receipt.accessNoInstructions', { item }, { url: link })
            }</p>`;
          })
          .join('')
      : '',
    address(speech.t('emails.receipt.shippingTo'), input.shippingAddress),
    address(speech.t('emails.receipt.billingAddress'), input.billingAddress),
    `<p style="color:#666;font-size:12px">${speech.html('emails.orderFooter', { orderId: order.id, store: store.name })}</p>`,
    '</body></html>',
  ].join('\n');
}

export function renderOrderReceipt(
  input: ReceiptInput,
  speech: EmailSpeech = englishSpeech(),
): RenderedEmail {
  return {
    subject: receiptSubject(input, speech),
    html: renderReceiptHtml(input, speech),
    text: renderReceiptText(input, speech),
  };
}
