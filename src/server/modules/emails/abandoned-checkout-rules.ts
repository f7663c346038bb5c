// When a shopper gets the abandoned-checkout reminder (docs/emails.md, "Abandoned checkout"): asked when their contact
// and consent are saved with an order attempt, and again when the reminder is due.
import type { AbandonedCheckout } from '../../../contract/organization.js';

/**
 * Whether saving this contact on a cart calls for a reminder: the store sends them, and the shopper gave an email and
 * agreed to emails.
 */
export function shouldScheduleAbandonedReminder(
  setting: AbandonedCheckout,
  contact: { email: string; emailOptIn: boolean },
): boolean {
  return setting.enabled && contact.emailOptIn && contact.email.trim() !== '';
}

export interface ReminderDue {
  setting: AbandonedCheckout;
  /** the cart as it is now: null when it is gone or expired */
  cart: { orderStatus: string | null; email: string; emailOptIn: boolean; lineCount: number } | null;
  /** the email the reminder was scheduled for */
  scheduledFor: string;
}

/**
 * Why a due reminder is not sent, or null when it is: there is nothing left to come back to, the store turned
 * reminders off, the order was placed, or the shopper withdrew their consent or changed their email.
 */
export function reasonNotToRemind(due: ReminderDue): string | null {
  const { cart } = due;
  if (cart === null) return 'The cart is gone.';
  if (!due.setting.enabled) return 'The store turned abandoned-checkout reminders off.';
  if (cart.orderStatus === 'complete') return 'The order was placed.';
  if (!cart.emailOptIn) return 'The shopper no longer agrees to emails.';
  if (cart.email.trim().toLowerCase() !== due.scheduledFor.trim().toLowerCase())
    return 'The shopper changed their email.';
  if (cart.lineCount === 0) return 'The cart is empty.';
  return null;
}
