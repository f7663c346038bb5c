import { checkEmail, checkPhone } from './checkout-fields.js';
import type { Message } from '../i18n/message-keys.js';

export const GIFT_TEXT_MAX_LENGTH = 500;

export interface GiftValues {
  gift_name: string;
  gift_email: string;
  /** YYYY-MM-DD */
  gift_date: string;
  gift_message: string;
  gift_phone: string;
  order_offer_notes: string;
}

/** A local calendar date as YYYY-MM-DD (what a date input holds). */
export function isoDate(date: Date): string {
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${date.getFullYear()}-${month}-${day}`;
}

/**
 * The earliest calendar date on earth at this instant (UTC−12 is a day behind UTC), as YYYY-MM-DD: the server's
 * "today", so a shopper in any time zone can choose their own today.
 */
export function earliestTodayAnywhere(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 1))
    .toISOString()
    .slice(0, 10);
}

function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return isoDate(date) === text;
}

export const GIFT_NAME_MAX_LENGTH = 100;

/** Errors keyed by gift field (without the offer id), as messages to say; today is the shopper's YYYY-MM-DD. */
export function validateGift(values: GiftValues, today: string): Record<string, Message> {
  const errors: Record<string, Message> = {};
  if (values.gift_name.trim() === '') errors.gift_name = { key: 'fields.gift_name_required' };
  else if (values.gift_name.trim().length > GIFT_NAME_MAX_LENGTH)
    errors.gift_name = { key: 'fields.gift_name_too_long', values: { max: GIFT_NAME_MAX_LENGTH } };
  if (values.gift_email.trim() === '') errors.gift_email = { key: 'fields.gift_email_required' };
  else {
    const email = checkEmail(values.gift_email);
    if (email) errors.gift_email = email;
  }
  const date = values.gift_date.trim();
  if (date === '') errors.gift_date = { key: 'fields.gift_date_required' };
  else if (!isCalendarDate(date))
    errors.gift_date = { key: 'fields.gift_date_invalid', values: { example: '2026-12-24' } };
  else if (date < today) errors.gift_date = { key: 'fields.gift_date_past' };
  if (values.gift_message.length > GIFT_TEXT_MAX_LENGTH) {
    errors.gift_message = { key: 'fields.gift_message_too_long', values: { max: GIFT_TEXT_MAX_LENGTH } };
  }
  const phone = checkPhone(values.gift_phone);
  if (phone) errors.gift_phone = phone;
  if (values.order_offer_notes.length > GIFT_TEXT_MAX_LENGTH) {
    errors.order_offer_notes = { key: 'fields.notes_too_long', values: { max: GIFT_TEXT_MAX_LENGTH } };
  }
  return errors;
}
