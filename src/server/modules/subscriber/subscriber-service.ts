// What the subscriber's self-service page reads and does (docs/subscriptions.md, "Self-service"). Each operation is
// given the organization and subscription its verified link names, so one link never reaches another's data.
import { createHash } from 'node:crypto';
import { parseOrganizationSettings } from '../../../contract/organization.js';
import type { CardProcessorConfig } from '../../../contract/page-config.js';
import type { CardAction, SubscriberSubscription } from '../../../contract/subscriber.js';
import type { Message } from '../../../i18n/message-keys.js';
import type { Database } from '../../platform/db/database.js';
import { AppError, refusal } from '../../platform/errors.js';
import { declineMessage, PROCESSOR_UNAVAILABLE } from '../../platform/payments/decline-messages.js';
import { iso, major } from '../../platform/http/money-input.js';
import type { PaymentGateway } from '../../platform/payments/gateway.js';
import { insertPaymentMethod } from '../orders/payment-attempts-repository.js';
import type { OrganizationRow } from '../organizations/organizations-repository.js';
import { emitSubscriptionEvent } from '../subscriptions/subscription-events.js';
import { changeSubscription, type SubscriptionAction } from '../subscriptions/subscription-service.js';
import {
  findSubscription,
  findSubscriptionCharges,
  lockSubscription,
  changeSubscriptionFields,
  setSubscriptionStatus,
  type SubscriptionRow,
} from '../subscriptions/subscriptions-repository.js';
import { chargeAfterNewCard } from './card-update-rules.js';
import {
  findSubscribedItemName,
  findSubscribedLineTerms,
  findSubscriptionCard,
  type SubscribedLineTerms,
} from './subscriber-repository.js';
import { describeSaving, savingOf } from '../../../domain/subscribe-and-save.js';
import { minor } from '../../../domain/money.js';
import { subscriptionLanguage } from './subscriber-language.js';
import { prepaidPeriodEnd, remainingPlanWords } from '../subscriptions/subscription-plan.js';
import { wordsFor } from '../../i18n/translator.js';

/** The subscription a verified link names, within its organization. */
export interface SubscriberSubject {
  organization: OrganizationRow;
  subscriptionId: number;
}

/** The page's own words for it, said in the language the page asks in (docs/languages.md). */
export const SUBSCRIPTION_GONE_MESSAGE = { key: 'manage.refusal.notFound' } as const satisfies Message;

export function subscriptionGone(): AppError {
  return refusal(404, 'subscription_not_found', SUBSCRIPTION_GONE_MESSAGE);
}

function cancelledError(): AppError {
  return new AppError(
    409,
    'subscription_cancelled',
    'This subscription is canceled; start a new one instead.',
  );
}

/** A renewal date the subscriber can count on: none while paused, past due, cancelled or ending. */
function upcomingCharge(row: SubscriptionRow): Date | null {
  if (row.status !== 'active' || row.cancel_at !== null) return null;
  // A prepaid plan's next dates inside its period are $0 fulfilments: its charge is the next period's, if any.
  const period = prepaidPeriodEnd(row);
  if (period) return period.renews ? period.endsAt : null;
  return row.next_charge_at;
}

/** What a subscription that came from subscribe and save saves on every delivery; null for any other. */
function presentSaving(
  line: SubscribedLineTerms | null,
  row: SubscriptionRow,
): SubscriberSubscription['subscribe_and_save'] {
  if (line === null || line.subscribe_and_save_percent === null) return null;
  const saving = savingOf(
    { percentOff: line.subscribe_and_save_percent, intervalDays: row.interval_days },
    line.subscribe_and_save_once_price === null ? null : minor(line.subscribe_and_save_once_price),
    row.quantity,
  );
  const money = (amount: number | null) => (amount === null ? null : major(amount, row.currency));
  return {
    percent_off: saving.percentOff,
    interval_days: saving.intervalDays,
    subscribed_amount: money(saving.subscribedAmount),
    once_amount: money(saving.onceAmount),
    description: describeSaving(saving, row.currency),
  };
}

export async function readSubscriberSubscription(
  db: Database,
  subject: SubscriberSubject,
  cardProcessor: CardProcessorConfig | null,
): Promise<SubscriberSubscription> {
  const { organization, subscriptionId } = subject;
  const row = await findSubscription(db, organization.id, subscriptionId);
  if (!row) throw subscriptionGone();
  const charges = await findSubscriptionCharges(db, organization.id, [subscriptionId]);
  const settings = parseOrganizationSettings(organization.settings);
  const language = await subscriptionLanguage(db, organization.id, subscriptionId);
  return {
    id: row.id,
    store: { name: organization.name, logo_url: settings.logoUrl },
    item_name: (await findSubscribedItemName(db, organization.id, subscriptionId)) ?? 'Subscription',
    quantity: row.quantity,
    currency: row.currency,
    cycle_amount: major(row.cycle_amount, row.currency),
    interval_days: prepaidPeriodEnd(row)?.days ?? row.interval_days,
    // What is left to charge, in the page's language.
    plan_remaining: remainingPlanWords(row, wordsFor(language)),
    subscribe_and_save: presentSaving(
      await findSubscribedLineTerms(db, organization.id, subscriptionId),
      row,
    ),
    status: row.status,
    next_charge_at: iso(upcomingCharge(row)),
    cancel_at: iso(row.cancel_at),
    cancelled_at: iso(row.cancelled_at),
    card: row.pm_method === 'card' ? { brand: row.pm_card_brand, last4: row.pm_card_last4 } : null,
    // Newest first: the subscriber looks for the last charge.
    charges: charges
      .map((charge) => ({
        amount: major(charge.amount, row.currency),
        status: charge.status,
        created_at: iso(charge.created_at),
      }))
      .reverse(),
    cancel_effect: settings.selfService.cancel,
    card_processor: row.status === 'cancelled' ? null : cardProcessor,
    is_test: row.is_test,
    language,
  };
}

/** A pause, resume, skip or cancel the subscriber made: the same change as the merchant's, recorded as theirs. */
export async function changeAsSubscriber(
  db: Database,
  subject: SubscriberSubject,
  action: SubscriptionAction,
  now: Date,
  seenChargeAt: Date | null = null,
): Promise<void> {
  try {
    await changeSubscription(
      db,
      subject.organization,
      subject.subscriptionId,
      { action, by: 'subscriber', seenChargeAt },
      now,
    );
  } catch (error) {
    // The merchant's words name the id; the subscriber has a link, not an id.
    if (error instanceof AppError && error.code === 'subscription_not_found') throw subscriptionGone();
    throw error;
  }
}

/**
 * Makes the card the processor's frame tokenized the subscription's payment method, through the processor (nothing
 * of the card reaches us but its brand, last 4 and expiry). A subscription behind on its payments is charged with it
 * at the next rebill run.
 */
export async function updateSubscriberCard(
  db: Database,
  gateway: PaymentGateway,
  subject: SubscriberSubject,
  card: { token: string; authenticated?: string | undefined },
  now: Date,
): Promise<CardAction | null> {
  const cardToken = card.token;
  const { organization, subscriptionId } = subject;
  const current = await findSubscription(db, organization.id, subscriptionId);
  if (!current) throw subscriptionGone();
  if (current.status === 'cancelled') throw cancelledError();
  if (!gateway.saveCard) {
    throw new AppError(
      409,
      'card_update_unavailable',
      'This store cannot take a new card here; contact the store.',
    );
  }
  const saved = await gateway.saveCard({
    token: cardToken,
    customerReference:
      (await findSubscriptionCard(db, organization.id, subscriptionId))?.gateway_customer ?? null,
    // One key per token: a retried request saves the card once.
    idempotencyKey: `subcard_${organization.id}_${subscriptionId}_${createHash('sha256').update(cardToken).digest('hex').slice(0, 32)}`,
    currency: current.currency,
    description: `Subscription ${subscriptionId}, new card`,
    organizationId: organization.id,
    ...(card.authenticated === undefined ? {} : { authenticated: card.authenticated }),
  });
  // The bank asks the subscriber to authenticate the card: the page does, then sends it again (docs/payments.md).
  if (saved.status === 'requires_action') return { reference: saved.reference, payment_action: saved.action };
  // The shopper reads the code's words in their language (docs/languages.md), not the processor's.
  if (saved.status === 'declined') throw refusal(402, saved.code, declineMessage(saved.code));
  if (saved.status === 'error') throw refusal(503, 'processor_unavailable', PROCESSOR_UNAVAILABLE);

  await db.transaction(async (tx) => {
    const subscription = await lockSubscription(tx, organization.id, subscriptionId);
    if (!subscription) throw subscriptionGone();
    if (subscription.status === 'cancelled') throw cancelledError();
    // The same request again (the processor answered the first save): the card is already the subscription's.
    const card = await findSubscriptionCard(tx, organization.id, subscriptionId);
    if (card?.gateway_token === saved.paymentMethodToken) return;
    const paymentMethodId = await insertPaymentMethod(
      tx,
      organization.id,
      {
        customer_id: subscription.customer_id,
        method: 'card',
        gateway: gateway.name,
        gateway_token: saved.paymentMethodToken,
        card_brand: saved.summary.brand,
        card_type_id: saved.summary.typeId,
        card_last4: saved.summary.last4,
        card_exp_month: saved.summary.expMonth,
        card_exp_year: saved.summary.expYear,
        is_test: subscription.is_test,
        gateway_customer: saved.customerReference,
      },
      now,
    );
    await changeSubscriptionFields(
      tx,
      organization.id,
      subscriptionId,
      { payment_method_id: paymentMethodId },
      { changedBy: 'subscriber', now },
    );
    const occurrence = String(now.getTime());
    // A cancel already scheduled stays as it is: the new card is only for the charges before it.
    const retry =
      subscription.cancel_at !== null
        ? null
        : chargeAfterNewCard({
            status: subscription.status,
            retryCount: subscription.retry_count,
            nextChargeAt: subscription.next_charge_at,
            now,
          });
    if (retry) {
      await setSubscriptionStatus(tx, organization.id, subscriptionId, {
        status: retry.becomesActive ? 'active' : subscription.status,
        nextChargeAt: retry.nextChargeAt,
        resetRetries: retry.becomesActive,
        changedBy: 'subscriber',
        now,
      });
    }
    await emitSubscriptionEvent(
      tx,
      organization.id,
      subscriptionId,
      'subscription.updated',
      `card:${occurrence}`,
      now,
      { cause: 'card' },
    );
    if (retry?.becomesActive) {
      await emitSubscriptionEvent(
        tx,
        organization.id,
        subscriptionId,
        'subscription.resumed',
        occurrence,
        now,
      );
    }
  });
  return null;
}
