// The emails a subscriber gets (docs/emails.md, "Subscription emails"): plain functions from what the email says to
// its subject, HTML and text, in the language they are given (docs/emails.md, "Languages"). Each is a list of blocks
// rendered both ways, so the two always say the same; every string a merchant or shopper wrote is escaped in the HTML.
import { escapeHtml } from '../page/page-shell.js';
import { englishSpeech, type EmailSpeech } from './email-language.js';
import { layout, oneLine, type EmailStore } from './notice-templates.js';
import { paymentSummary, type ReceiptInput, type RenderedEmail } from './receipt-template.js';

export interface SubscriptionEmailSubject {
  id: number;
  itemName: string;
  quantity: number;
  currency: string;
  intervalDays: number;
  isTest: boolean;
}

/** What every subscription email carries: the store, the subscription, and its self-service link. */
export interface SubscriptionEmailBase {
  store: EmailStore;
  subscription: SubscriptionEmailSubject;
  manage: { url: string; expiresAt: Date };
}

/** A paragraph, or a button to the self-service page (`primary`: the email's call to act, shown large). */
type Block = { text: string } | { button: string; url: string; primary?: boolean };

/** "December 21, 2026": dates are told in UTC, the zone the charges are scheduled in. */
export function chargeDate(date: Date, speech: EmailSpeech = englishSpeech()): string {
  return speech.date(date);
}

/** "every 30 days", "every day". */
export function everyInterval(intervalDays: number, speech: EmailSpeech = englishSpeech()): string {
  return speech.t('emails.every', { days: intervalDays });
}

/** "Coffee club", or "2 x Coffee club". */
export function subscribedItems(
  subscription: Pick<SubscriptionEmailSubject, 'itemName' | 'quantity'>,
  speech: EmailSpeech = englishSpeech(),
): string {
  const name = oneLine(subscription.itemName);
  return subscription.quantity > 1
    ? speech.t('emails.items', { quantity: subscription.quantity, name })
    : name;
}

const BUTTON =
  'display:inline-block;padding:10px 16px;background:#222;color:#fff;text-decoration:none;border-radius:4px';
const PRIMARY_BUTTON =
  'display:inline-block;padding:14px 22px;background:#b00020;color:#fff;font-size:18px;font-weight:bold;text-decoration:none;border-radius:4px';

function render(
  input: SubscriptionEmailBase,
  speech: EmailSpeech,
  subject: string,
  blocks: readonly Block[],
): RenderedEmail {
  const { t } = speech;
  const store = oneLine(input.store.name);
  const all: Block[] = [...blocks];
  // Every email carries the subscriber's link; the failed payment's is its call to act, placed by the email.
  if (!blocks.some((block) => 'button' in block))
    all.push({ button: t('emails.sub.manageButton'), url: input.manage.url });
  const until = speech.date(input.manage.expiresAt);
  const testNote = input.subscription.isTest ? [t('emails.sub.testNote')] : [];
  const footer = t('emails.sub.footer', { id: input.subscription.id, store });
  const text = [store, ''];
  for (const block of all) {
    if ('text' in block) text.push(block.text, '');
    else text.push(t('emails.sub.linkLabel', { label: block.button }), block.url, '');
  }
  text.push(t('emails.sub.linkNote', { date: until }), ...testNote, '', footer);
  const e = escapeHtml;
  const html = layout(
    input.store,
    subject,
    [
      ...all.map((block) =>
        'text' in block
          ? `<p>${e(block.text)}</p>`
          : `<p><a href="${e(block.url)}" style="${block.primary ? PRIMARY_BUTTON : BUTTON}">${e(block.button)}</a></p>`,
      ),
      `<p style="font-size:12px">${speech.html('emails.sub.linkNoteOrOpen', { date: until, url: input.manage.url })}</p>`,
      ...testNote.map((note) => `<p style="font-size:12px">${e(note)}</p>`),
    ],
    footer,
    speech,
  );
  return { subject: oneLine(subject), html, text: `${text.join('\n')}\n` };
}

export interface WelcomeInput extends SubscriptionEmailBase {
  /** minor units: what each later cycle is charged */
  cycleAmount: number;
  nextChargeAt: Date;
  /** a plan priced by cycle: what its later cycles charge, in words (describeLaterCycles); null when they are alike */
  laterCycles?: string | null;
  /** a prepaid plan that ends after its period (describePrepaidPaidFor): nothing more is charged */
  paidInFull?: string | null;
}

export function renderSubscriptionWelcome(
  input: WelcomeInput,
  speech: EmailSpeech = englishSpeech(),
): RenderedEmail {
  const { t } = speech;
  const items = subscribedItems(input.subscription, speech);
  const date = speech.date(input.nextChargeAt);
  return render(input, speech, t('emails.welcome.subject', { items, store: oneLine(input.store.name) }), [
    { text: t('emails.welcome.thanks', { items }) },
    {
      text: input.paidInFull
        ? t('emails.welcome.paidInFull', { paidFor: input.paidInFull })
        : input.laterCycles
          ? t('emails.welcome.laterCycles', { laterCycles: input.laterCycles, date })
          : t('emails.welcome.charged', {
              amount: speech.money(input.cycleAmount, input.subscription.currency),
              days: input.subscription.intervalDays,
              date,
            }),
    },
    { text: t('emails.welcome.manage') },
  ]);
}

export interface RenewalReceiptInput extends SubscriptionEmailBase {
  cycle: number;
  /** minor units: what this renewal charged */
  amount: number;
  /** how it was paid: a card by its brand and last four digits only */
  payment: ReceiptInput['payment'];
  nextChargeAt: Date;
}

export function renderRenewalReceipt(
  input: RenewalReceiptInput,
  speech: EmailSpeech = englishSpeech(),
): RenderedEmail {
  const { t } = speech;
  const items = subscribedItems(input.subscription, speech);
  const amount = speech.money(input.amount, input.subscription.currency);
  return render(input, speech, t('emails.renewal.subject', { items, store: oneLine(input.store.name) }), [
    { text: t('emails.renewal.renewed', { items, cycle: input.cycle }) },
    { text: t('emails.renewal.charged', { amount, payment: paymentSummary(input.payment, speech) }) },
    { text: t('emails.renewal.next', { date: speech.date(input.nextChargeAt) }) },
  ]);
}

export interface SubscriberChangeInput extends SubscriptionEmailBase {
  /** minor units; with nextChargeAt, the subscription's next charge after the change */
  cycleAmount: number;
  nextChargeAt: Date;
  /** a cancel set for the period's end: when the subscription ends */
  endsAt: Date | null;
  /** a new card: the card by its brand and last four digits only */
  payment: ReceiptInput['payment'];
}

/** The confirmations of a change made on the self-service page: a cancel at the period's end, a skip, a new card. */
export function renderSubscriberChange(
  change: 'cancel_scheduled' | 'skipped' | 'card_updated',
  input: SubscriberChangeInput,
  speech: EmailSpeech = englishSpeech(),
): RenderedEmail {
  const { t } = speech;
  const items = subscribedItems(input.subscription, speech);
  const store = oneLine(input.store.name);
  const amount = speech.money(input.cycleAmount, input.subscription.currency);
  const next = speech.date(input.nextChargeAt);
  switch (change) {
    case 'cancel_scheduled': {
      const date = speech.date(input.endsAt ?? input.nextChargeAt);
      return render(input, speech, t('emails.cancelScheduled.subject', { items, store, date }), [
        { text: t('emails.cancelScheduled.body', { items, date }) },
        { text: t('emails.cancelScheduled.resume') },
      ]);
    }
    case 'skipped':
      return render(input, speech, t('emails.skipped.subject', { items, store }), [
        { text: t('emails.skipped.body', { items }) },
        { text: t('emails.skipped.next', { amount, date: next }) },
      ]);
    case 'card_updated':
      return render(input, speech, t('emails.cardUpdated.subject', { items, store }), [
        { text: t('emails.cardUpdated.body', { items, payment: paymentSummary(input.payment, speech) }) },
        { text: t('emails.sub.nextCharge', { amount, date: next }) },
        { text: t('emails.cardUpdated.notYou', { store }) },
      ]);
  }
}

/** What follows a declined renewal: a retry on a date, or where the organization's dunning ended it. */
export type AfterFailedPayment = { kind: 'retry'; at: Date } | { kind: 'past_due' | 'paused' | 'cancelled' };

/** The sentence saying what happens next after a declined renewal (docs/operations.md, "Dunning"). */
export function afterFailedPaymentSentence(
  next: AfterFailedPayment,
  speech: EmailSpeech = englishSpeech(),
): string {
  const { t } = speech;
  switch (next.kind) {
    case 'retry':
      return t('emails.failed.retry', { date: speech.date(next.at) });
    case 'past_due':
      return t('emails.failed.pastDue');
    case 'paused':
      return t('emails.failed.paused');
    case 'cancelled':
      return t('emails.failed.cancelled');
  }
}

export interface FailedPaymentInput extends SubscriptionEmailBase {
  /** minor units: what the renewal tried to charge */
  amount: number;
  next: AfterFailedPayment;
}

export function renderFailedPayment(
  input: FailedPaymentInput,
  speech: EmailSpeech = englishSpeech(),
): RenderedEmail {
  const { t } = speech;
  const items = subscribedItems(input.subscription, speech);
  const amount = speech.money(input.amount, input.subscription.currency);
  const ended = input.next.kind === 'cancelled';
  return render(input, speech, t('emails.failed.subject', { items, store: oneLine(input.store.name) }), [
    { text: t('emails.failed.body', { amount, items }) },
    {
      button: t(ended ? 'emails.failed.seeButton' : 'emails.failed.updateButton'),
      url: input.manage.url,
      primary: true,
    },
    { text: afterFailedPaymentSentence(input.next, speech) },
  ]);
}

export interface StatusChangeInput extends SubscriptionEmailBase {
  change: 'paused' | 'resumed' | 'cancelled';
  /** minor units; with nextChargeAt, what a resumed subscription is charged next */
  cycleAmount: number;
  nextChargeAt: Date;
}

export function renderStatusChange(
  input: StatusChangeInput,
  speech: EmailSpeech = englishSpeech(),
): RenderedEmail {
  const { t } = speech;
  const items = subscribedItems(input.subscription, speech);
  const store = oneLine(input.store.name);
  switch (input.change) {
    case 'paused':
      return render(input, speech, t('emails.paused.subject', { items, store }), [
        { text: t('emails.paused.body', { items }) },
      ]);
    case 'resumed':
      return render(input, speech, t('emails.resumed.subject', { items, store }), [
        { text: t('emails.resumed.body', { items }) },
        {
          text: t('emails.sub.nextCharge', {
            amount: speech.money(input.cycleAmount, input.subscription.currency),
            date: speech.date(input.nextChargeAt),
          }),
        },
      ]);
    case 'cancelled':
      return render(input, speech, t('emails.cancelled.subject', { items, store }), [
        { text: t('emails.cancelled.body', { items }) },
        { text: t('emails.cancelled.thanks') },
      ]);
  }
}

export interface ChargeReminderInput extends SubscriptionEmailBase {
  /** minor units */
  cycleAmount: number;
  nextChargeAt: Date;
}

export function renderChargeReminder(
  input: ChargeReminderInput,
  speech: EmailSpeech = englishSpeech(),
): RenderedEmail {
  const { t } = speech;
  const items = subscribedItems(input.subscription, speech);
  const amount = speech.money(input.cycleAmount, input.subscription.currency);
  const date = speech.date(input.nextChargeAt);
  return render(
    input,
    speech,
    t('emails.reminder.subject', { items, store: oneLine(input.store.name), date }),
    [
      { text: t('emails.reminder.body', { items, date, amount }) },
      { text: t('emails.reminder.nothingToDo') },
    ],
  );
}
