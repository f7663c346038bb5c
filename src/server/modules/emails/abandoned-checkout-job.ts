// Sending the abandoned-checkout reminder when it is due (docs/emails.md, "Abandoned checkout"): the cart is read
// again then, and the reminder goes only if it is still owed (abandoned-checkout-rules.ts).
import { DEFAULT_ABANDONED_CHECKOUT } from '../../../contract/organization.js';
import type { Queryable } from '../../platform/db/database.js';
import type { JobHandler } from '../../platform/jobs/job-queue.js';
import { addressFromPreview, priceCartState } from '../carts/cart-pricing.js';
import { storedPreviewOf } from '../carts/cart-presenter.js';
import { loadCartSnapshot, type CartSnapshot } from '../carts/cart-snapshot-repository.js';
import { settingsOf } from '../organizations/organization-service.js';
import { reasonNotToRemind } from './abandoned-checkout-rules.js';
import { abandonedCheckoutKey } from './abandoned-checkout-enqueue.js';
import { renderAbandonedCheckout } from './abandoned-checkout-template.js';
import { deliverEmail } from './email-delivery.js';
import { cartLanguageOf, emailLanguageOf, speechFor } from './email-language.js';
import {
  findEmailByJobKey,
  insertEmailOnce,
  recordEmailOutcome,
  type NewEmail,
} from './emails-repository.js';
import type { Mailer } from './mailer.js';
import { DEFAULT_MAIL_FROM } from './order-receipt-job.js';

/** The checkout page with the cart's token: it opens this very cart again (modules/page/page-routes.ts). */
export function cartRecoveryUrl(publicUrl: string, cartToken: string): string {
  return `${publicUrl}/checkout/${cartToken}`;
}

/** The reminder's record: the cart's lines and total priced now, as its checkout page would show them. */
async function composeReminder(
  db: Queryable,
  state: CartSnapshot,
  email: { key: string; from: string; to: string; publicUrl: string; now: Date },
): Promise<NewEmail> {
  const pricing = await priceCartState(db, state, {
    address: addressFromPreview(storedPreviewOf(state)),
    requestedProfileId: state.cart.shipping_profile_id,
    now: email.now,
  });
  const priced = new Map(pricing.result.lines.map((line) => [line.id, line]));
  const rendered = renderAbandonedCheckout(
    {
      store: { name: state.organization.name, logoUrl: settingsOf(state.organization).logoUrl },
      currency: state.organization.currency,
      lines: state.lines.map((line) => ({
        name: line.item_name,
        quantity: line.quantity,
        amount: priced.get(line.id)?.subtotal ?? 0,
      })),
      total: pricing.result.total,
      recoveryUrl: cartRecoveryUrl(email.publicUrl, state.cart.token),
    },
    // The language the shopper used on this cart (docs/emails.md, "Languages").
    speechFor(emailLanguageOf(await cartLanguageOf(db, state.organization.id, state.cart.id))),
  );
  return {
    organization_id: state.organization.id,
    kind: 'abandoned_checkout',
    job_key: email.key,
    order_id: state.order?.id ?? null,
    to_address: email.to,
    from_address: email.from,
    subject: rendered.subject,
    body_html: rendered.html,
    body_text: rendered.text,
  };
}

export function abandonedCheckoutHandler(
  mailer: Mailer,
  options: { mailFrom: string | null; publicUrl: string },
): JobHandler {
  const from = options.mailFrom ?? DEFAULT_MAIL_FROM;
  return async (job, { db, now }) => {
    const organizationId = job.organizationId;
    const cartId = Number(job.payload.cart_id);
    const scheduledFor = job.payload.email;
    if (organizationId === null || !Number.isSafeInteger(cartId) || typeof scheduledFor !== 'string')
      throw new Error('An abandoned-checkout job names its organization, cart and email.');
    const key = abandonedCheckoutKey(cartId);
    const known = await findEmailByJobKey(db, key);
    if (known?.status === 'sent' || known?.status === 'kept') return;

    const state = await loadCartSnapshot(db, organizationId, { id: cartId });
    const live = state !== null && (state.cart.expires_at === null || state.cart.expires_at > now);
    const setting = state ? settingsOf(state.organization).abandonedCheckout : DEFAULT_ABANDONED_CHECKOUT;
    const reason = reasonNotToRemind({
      setting,
      scheduledFor,
      cart:
        state && live
          ? {
              orderStatus: state.order?.status ?? null,
              email: state.customer?.email ?? '',
              emailOptIn: state.customer?.email_opt_in ?? false,
              lineCount: state.lines.length,
            }
          : null,
    });
    if (reason !== null || state === null) {
      // Written by an attempt that then failed to send: it says why it never will.
      if (known)
        await recordEmailOutcome(db, known.id, { status: 'failed', error: `Not sent: ${reason}` }, now);
      return;
    }

    const email =
      known ??
      (await insertEmailOnce(
        db,
        await composeReminder(db, state, { key, from, to: scheduledFor, publicUrl: options.publicUrl, now }),
        now,
      ));
    await deliverEmail(db, mailer, email, now);
  };
}
