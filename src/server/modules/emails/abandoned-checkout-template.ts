// The abandoned-checkout reminder (docs/emails.md, "Abandoned checkout"): a plain function from the cart to its
// subject, HTML and text, in the language it is given (docs/emails.md, "Languages"). Every string a merchant or shopper wrote is escaped in the HTML.
import { escapeHtml } from '../page/page-shell.js';
import { englishSpeech, type EmailSpeech } from './email-language.js';
import type { EmailStore } from './notice-templates.js';
import type { RenderedEmail } from './receipt-template.js';

export interface AbandonedCheckoutInput {
  store: EmailStore;
  currency: string;
  /** integer minor units: each line's items, and the cart's total as the checkout page shows it now */
  lines: readonly { name: string; quantity: number; amount: number }[];
  total: number;
  /** the checkout page with the cart's token: it reopens this cart */
  recoveryUrl: string;
}

/** A header's (or a text line's) text on one line. */
function oneLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ').trim();
}

/** Why the shopper gets it: the consent they gave at checkout. */
export function whyYouGotThis(storeName: string, speech: EmailSpeech = englishSpeech()): string {
  return speech.t('emails.abandoned.why', { store: oneLine(storeName) });
}

export function renderAbandonedCheckout(
  input: AbandonedCheckoutInput,
  speech: EmailSpeech = englishSpeech(),
): RenderedEmail {
  const { t } = speech;
  const store = oneLine(input.store.name);
  const money = (amount: number) => speech.money(amount, input.currency);
  const subject = oneLine(t('emails.abandoned.subject', { store }));
  const intro = t('emails.abandoned.intro');
  const why = whyYouGotThis(store, speech);
  const total = money(input.total);
  const text = [
    store,
    '',
    intro,
    '',
    ...input.lines.map((line) =>
      t('emails.lineText', { quantity: line.quantity, name: oneLine(line.name), amount: money(line.amount) }),
    ),
    t('emails.labelValue', { label: t('emails.total'), value: total }),
    '',
    t('emails.abandoned.completeHere'),
    input.recoveryUrl,
    '',
    why,
  ];
  const e = escapeHtml;
  const cell = 'padding:4px 0;';
  const rows = input.lines
    .map(
      (line) =>
        `<tr><td style="${cell}">${speech.html('emails.line', { quantity: line.quantity, name: oneLine(line.name) })}</td>` +
        `<td style="${cell}text-align:end">${e(money(line.amount))}</td></tr>`,
    )
    .join('');
  const logo =
    input.store.logoUrl !== null && /^https?:\/\//i.test(input.store.logoUrl)
      ? `<img src="${e(input.store.logoUrl)}" alt="${e(store)}" height="40" style="display:block;margin-bottom:8px"/>`
      : '';
  const html = [
    '<!doctype html>',
    `${speech.htmlOpen}<head><meta charset="utf-8"/><title>${e(subject)}</title></head>`,
    '<body style="font-family:Arial,Helvetica,sans-serif;color:#222;max-width:600px;margin:0 auto;padding:16px">',
    logo,
    `<h1 style="font-size:20px">${e(store)}</h1>`,
    `<p>${e(intro)}</p>`,
    `<table style="width:100%;border-collapse:collapse">${rows}</table>`,
    `<table style="width:100%;border-collapse:collapse;border-top:1px solid #ddd;margin-top:8px"><tr><td style="${cell}"><strong>${e(t('emails.total'))}</strong></td><td style="${cell}text-align:end"><strong>${e(total)}</strong></td></tr></table>`,
    `<p><a href="${e(input.recoveryUrl)}" style="display:inline-block;padding:10px 16px;background:#222;color:#fff;text-decoration:none;border-radius:4px">${e(t('emails.abandoned.completeButton'))}</a></p>`,
    `<p style="font-size:12px">${speech.html('emails.orOpenLink', { url: input.recoveryUrl })}</p>`,
    `<p style="color:#666;font-size:12px">${e(why)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject, html, text: `${text.join('\n')}\n` };
}
