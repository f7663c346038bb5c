// The emails a subscriber gets (docs/emails.md, "Subscription emails"): plain functions from what the email says to
// its subject, HTML and text. Each is a list of blocks rendered both ways, so the two always say the same; every
// string a merchant or shopper wrote is escaped in the HTML.
import { formatMoney, minor } from '../../../domain/money.js';
import { escapeHtml } from '../page/page-shell.js';
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
export function chargeDate(date: Date): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

/** "every 30 days", "every day". */
export function everyInterval(intervalDays: number): string {
  return intervalDays === 1 ? 'every day' : `every ${intervalDays} days`;
}

/** "Coffee club", or "2 x Coffee club". */
export function subscribedItems(
  subscription: Pick<SubscriptionEmailSubject, 'itemName' | 'quantity'>,
): string {
  const name = oneLine(subscription.itemName);
  return subscription.quantity > 1 ? `${subscription.quantity} x ${name}` : name;
}

function moneyIn(currency: string): (amount: number) => string {
  return (amount) => formatMoney(minor(amount), currency);
}

const BUTTON =
  'display:inline-block;padding:10px 16px;background:#222;color:#fff;text-decoration:none;border-radius:4px';
const PRIMARY_BUTTON =
  'display:inline-block;padding:14px 22px;background:#b00020;color:#fff;font-size:18px;font-weight:bold;text-decoration:none;border-radius:4px';

function render(input: SubscriptionEmailBase, subject: string, blocks: readonly Block[]): RenderedEmail {
  const store = oneLine(input.store.name);
  const all: Block[] = [...blocks];
  // Every email carries the subscriber's link; the failed payment's is its call to act, placed by the email.
  if (!blocks.some((block) => 'button' in block))
    all.push({ button: 'Manage your subscription', url: input.manage.url });
  const linkNote = `This link opens your subscription until ${chargeDate(input.manage.expiresAt)}.`;
  const testNote = input.subscription.isTest
    ? ['This is a test subscription: nothing is really charged.']
    : [];
  const footer = `Subscription #${input.subscription.id} at ${store}`;
  const text = [store, ''];
  for (const block of all) {
    if ('text' in block) text.push(block.text, '');
    else text.push(`${block.button}:`, block.url, '');
  }
  text.push(linkNote, ...testNote, '', footer);
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
      `<p style="font-size:12px">${e(linkNote)} Or open: ${e(input.manage.url)}</p>`,
      ...testNote.map((note) => `<p style="font-size:12px">${e(note)}</p>`),
    ],
    footer,
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

export function renderSubscriptionWelcome(input: WelcomeInput): RenderedEmail {
  const items = subscribedItems(input.subscription);
  const money = moneyIn(input.subscription.currency);
  return render(input, `Your ${items} subscription at ${oneLine(input.store.name)}`, [
    { text: `Thank you for subscribing to ${items}.` },
    {
      text: input.paidInFull
        ? `${input.paidInFull} Nothing more will be charged.`
        : input.laterCycles
          ? `You will be charged ${input.laterCycles}, starting on ${chargeDate(input.nextChargeAt)}.`
          : `You will be charged ${money(input.cycleAmount)} ${everyInterval(input.subscription.intervalDays)}, ` +
            `starting on ${chargeDate(input.nextChargeAt)}, until you cancel.`,
    },
    { text: 'You can pause or cancel your subscription, or update your card, at any time:' },
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

export function renderRenewalReceipt(input: RenewalReceiptInput): RenderedEmail {
  const items = subscribedItems(input.subscription);
  const money = moneyIn(input.subscription.currency);
  return render(input, `Receipt for your ${items} renewal at ${oneLine(input.store.name)}`, [
    { text: `Your subscription to ${items} was renewed: cycle ${input.cycle}.` },
    { text: `Charged: ${money(input.amount)}. ${paymentSummary(input.payment)}` },
    { text: `Your next charge is on ${chargeDate(input.nextChargeAt)}.` },
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
): RenderedEmail {
  const items = subscribedItems(input.subscription);
  const store = oneLine(input.store.name);
  const money = moneyIn(input.subscription.currency);
  switch (change) {
    case 'cancel_scheduled':
      return render(
        input,
        `Your ${items} subscription at ${store} ends on ${chargeDate(input.endsAt ?? input.nextChargeAt)}`,
        [
          {
            text: `Your subscription to ${items} is cancelled: it ends on ${chargeDate(input.endsAt ?? input.nextChargeAt)}, at the end of the period you paid for. Nothing more will be charged.`,
          },
          { text: 'Changed your mind? Resume it from your subscription page before then.' },
        ],
      );
    case 'skipped':
      return render(input, `Your next ${items} charge at ${store} is skipped`, [
        { text: `Your next charge for ${items} is skipped.` },
        {
          text: `Your next charge of ${money(input.cycleAmount)} is now on ${chargeDate(input.nextChargeAt)}.`,
        },
      ]);
    case 'card_updated':
      return render(input, `The card for your ${items} subscription at ${store} was changed`, [
        {
          text: `Your subscription to ${items} is now paid with a new card. ${paymentSummary(input.payment)}`,
        },
        { text: `Your next charge of ${money(input.cycleAmount)} is on ${chargeDate(input.nextChargeAt)}.` },
        { text: `If you did not make this change, contact ${store} at once.` },
      ]);
  }
}

/** What follows a declined renewal: a retry on a date, or where the organization's dunning ended it. */
export type AfterFailedPayment = { kind: 'retry'; at: Date } | { kind: 'past_due' | 'paused' | 'cancelled' };

/** The sentence saying what happens next after a declined renewal (docs/operations.md, "Dunning"). */
export function afterFailedPaymentSentence(next: AfterFailedPayment): string {
  switch (next.kind) {
    case 'retry':
      return `We will try again on ${chargeDate(next.at)}. Update your card before then to keep your subscription.`;
    case 'past_due':
      return 'Your subscription is now past due: we will not try again on our own. Update your card to continue it.';
    case 'paused':
      return 'Your subscription is now paused: nothing more will be charged until it is resumed. Update your card to continue it.';
    case 'cancelled':
      return 'Your subscription is now cancelled: nothing more will be charged.';
  }
}

export interface FailedPaymentInput extends SubscriptionEmailBase {
  /** minor units: what the renewal tried to charge */
  amount: number;
  next: AfterFailedPayment;
}

export function renderFailedPayment(input: FailedPaymentInput): RenderedEmail {
  const items = subscribedItems(input.subscription);
  const money = moneyIn(input.subscription.currency);
  const ended = input.next.kind === 'cancelled';
  return render(input, `Action needed: your ${items} payment at ${oneLine(input.store.name)} failed`, [
    { text: `We could not charge ${money(input.amount)} for your subscription to ${items}.` },
    ended
      ? { button: 'See your subscription', url: input.manage.url, primary: true }
      : { button: 'Update your card', url: input.manage.url, primary: true },
    { text: afterFailedPaymentSentence(input.next) },
  ]);
}

export interface StatusChangeInput extends SubscriptionEmailBase {
  change: 'paused' | 'resumed' | 'cancelled';
  /** minor units; with nextChargeAt, what a resumed subscription is charged next */
  cycleAmount: number;
  nextChargeAt: Date;
}

export function renderStatusChange(input: StatusChangeInput): RenderedEmail {
  const items = subscribedItems(input.subscription);
  const store = oneLine(input.store.name);
  const money = moneyIn(input.subscription.currency);
  switch (input.change) {
    case 'paused':
      return render(input, `Your ${items} subscription at ${store} is paused`, [
        { text: `Your subscription to ${items} is paused. Nothing will be charged until it is resumed.` },
      ]);
    case 'resumed':
      return render(input, `Your ${items} subscription at ${store} is active again`, [
        { text: `Your subscription to ${items} is active again.` },
        { text: `Your next charge of ${money(input.cycleAmount)} is on ${chargeDate(input.nextChargeAt)}.` },
      ]);
    case 'cancelled':
      return render(input, `Your ${items} subscription at ${store} is cancelled`, [
        { text: `Your subscription to ${items} is cancelled. Nothing more will be charged.` },
        { text: 'Thank you for having been a subscriber.' },
      ]);
  }
}

export interface ChargeReminderInput extends SubscriptionEmailBase {
  /** minor units */
  cycleAmount: number;
  nextChargeAt: Date;
}

export function renderChargeReminder(input: ChargeReminderInput): RenderedEmail {
  const items = subscribedItems(input.subscription);
  const money = moneyIn(input.subscription.currency);
  const date = chargeDate(input.nextChargeAt);
  return render(input, `Your ${items} subscription at ${oneLine(input.store.name)} renews on ${date}`, [
    { text: `Your subscription to ${items} renews on ${date}: we will charge ${money(input.cycleAmount)}.` },
    { text: 'Nothing to do if that suits you. To pause or cancel it, or to update your card:' },
  ]);
}
