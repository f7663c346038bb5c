// The order receipt (docs/emails.md): plain functions from an order to its subject, HTML and text. Every string a
// merchant or shopper wrote is escaped in the HTML.
import { CARD_TYPE_IDS, cardTypeOf, type CardBrand } from '../../../domain/card.js';
import { formatMoney, minor } from '../../../domain/money.js';
import { escapeHtml } from '../page/page-shell.js';
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

/** "Home brewing guide (PDF): Sign in with this email. https://…" */
function accessLine(access: DigitalAccess): string {
  const instructions = oneLine(access.instructions);
  return `${oneLine(access.itemName)}: ${instructions ? `${instructions} ` : ''}${access.url}`;
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

export function receiptSubject(input: ReceiptInput): string {
  return oneLine(`Your ${input.store.name} order #${input.order.id}`);
}

/** A stored brand id (visa, american-express) by the name the page shows; any other brand as it was stored. */
function brandLabel(brand: string): string {
  return Object.hasOwn(CARD_TYPE_IDS, brand) || brand === 'testcard'
    ? cardTypeOf(brand as CardBrand | 'testcard').label
    : brand;
}

/** What the receipt says of the payment: never more of a card than its brand and last four digits. */
export function paymentSummary(payment: ReceiptInput['payment']): string {
  if (payment === null || payment.method === 'none') return 'No payment was due.';
  if (payment.method === 'paypal') return 'Paid with PayPal.';
  const brand = payment.brand ? brandLabel(oneLine(payment.brand)) : 'Card';
  const last4 = payment.last4 !== null && /^\d{4}$/.test(payment.last4) ? ` ending in ${payment.last4}` : '';
  return `Paid with ${brand}${last4}.`;
}

function addressLines(address: ReceiptAddress): string[] {
  const name = [address.fname, address.lname].filter(Boolean).join(' ');
  const city = [address.city, address.state, address.zipcode].filter(Boolean).join(', ');
  return [name, address.address1, address.address2, city, address.country].map(oneLine).filter(Boolean);
}

/** The amounts under the lines: each that applies, with its sign, and the total. */
export function receiptTotals(input: ReceiptInput): { label: string; amount: string }[] {
  const { order } = input;
  const money = (amount: number) => formatMoney(minor(amount), order.currency);
  const rows = [{ label: 'Subtotal', amount: money(order.subtotal) }];
  if (order.discount > 0)
    rows.push({
      label: order.discountCode ? `Discount (${oneLine(order.discountCode)})` : 'Discount',
      amount: `-${money(order.discount)}`,
    });
  if (order.shipping > 0) rows.push({ label: 'Shipping', amount: money(order.shipping) });
  if (order.tax > 0) rows.push({ label: 'Tax', amount: money(order.tax) });
  if (order.giftCards > 0) rows.push({ label: 'Gift cards', amount: `-${money(order.giftCards)}` });
  rows.push({ label: 'Total', amount: money(order.total) });
  return rows;
}

export function renderReceiptText(input: ReceiptInput): string {
  const { order, store } = input;
  const money = (amount: number) => formatMoney(minor(amount), order.currency);
  const out = [
    oneLine(store.name),
    '',
    `Thank you for your order #${order.id}.${order.isTest ? ' (test order: nothing was charged)' : ''}`,
    '',
  ];
  for (const line of input.lines)
    out.push(
      `${line.quantity} x ${oneLine(line.name)}${line.isRecurring ? ' (subscription)' : ''}: ${money(line.amount)}`,
    );
  out.push('');
  for (const row of receiptTotals(input)) out.push(`${row.label}: ${row.amount}`);
  out.push('', paymentSummary(input.payment));
  if (input.access?.length) out.push('', 'Your items online:', ...input.access.map(accessLine));
  if (input.shippingAddress) out.push('', 'Shipping to:', ...addressLines(input.shippingAddress));
  if (input.billingAddress) out.push('', 'Billing address:', ...addressLines(input.billingAddress));
  out.push('', `Order #${order.id} at ${oneLine(store.name)}`);
  return `${out.join('\n')}\n`;
}

const CELL = 'padding:4px 0;';

export function renderReceiptHtml(input: ReceiptInput): string {
  const { order, store } = input;
  const e = escapeHtml;
  const money = (amount: number) => formatMoney(minor(amount), order.currency);
  const logo =
    store.logoUrl !== null && /^https?:\/\//i.test(store.logoUrl)
      ? `<img src="${e(store.logoUrl)}" alt="${e(store.name)}" height="40" style="display:block;margin-bottom:8px"/>`
      : '';
  const lines = input.lines
    .map(
      (line) =>
        `<tr><td style="${CELL}">${line.quantity} &times; ${e(line.name)}${line.isRecurring ? ' (subscription)' : ''}</td>` +
        `<td style="${CELL}text-align:right">${e(money(line.amount))}</td></tr>`,
    )
    .join('');
  const totals = receiptTotals(input)
    .map(
      (row) =>
        `<tr><td style="${CELL}">${e(row.label)}</td><td style="${CELL}text-align:right">${e(row.amount)}</td></tr>`,
    )
    .join('');
  const address = (title: string, value: ReceiptAddress | null) =>
    value === null
      ? ''
      : `<h2 style="font-size:16px">${title}</h2><p>${addressLines(value).map(e).join('<br/>')}</p>`;
  return [
    '<!doctype html>',
    `<html><head><meta charset="utf-8"/><title>${e(receiptSubject(input))}</title></head>`,
    '<body style="font-family:Arial,Helvetica,sans-serif;color:#222;max-width:600px;margin:0 auto;padding:16px">',
    logo,
    `<h1 style="font-size:20px">${e(store.name)}</h1>`,
    `<p>Thank you for your order <strong>#${order.id}</strong>.${order.isTest ? ' This was a test order: nothing was charged.' : ''}</p>`,
    `<table style="width:100%;border-collapse:collapse">${lines}</table>`,
    `<table style="width:100%;border-collapse:collapse;border-top:1px solid #ddd;margin-top:8px">${totals}</table>`,
    `<p>${e(paymentSummary(input.payment))}</p>`,
    input.access?.length
      ? '<h2 style="font-size:16px">Your items online</h2>' +
        input.access
          .map(
            (access) =>
              `<p>${e(oneLine(access.itemName))}: ${e(oneLine(access.instructions))} ` +
              `<a href="${e(access.url)}">${e(access.url)}</a></p>`,
          )
          .join('')
      : '',
    address('Shipping to', input.shippingAddress),
    address('Billing address', input.billingAddress),
    `<p style="color:#666;font-size:12px">Order #${order.id} at ${e(store.name)}</p>`,
    '</body></html>',
  ].join('\n');
}

export function renderOrderReceipt(input: ReceiptInput): RenderedEmail {
  return { subject: receiptSubject(input), html: renderReceiptHtml(input), text: renderReceiptText(input) };
}
