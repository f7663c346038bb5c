import type { Message } from '../i18n/message-keys.js';
import { digitsOnly } from './card.js';

export interface CardExpiry {
  month: number;
  /** four digits */
  year: number;
}

/** "04 / 28", "04/28", "0428", "4/2028" → { month: 4, year: 2028 }; null when it is not a month and a year. */
export function parseCardExpiry(text: string): CardExpiry | null {
  const match = /^\s*(\d{1,2})\s*[/-]?\s*(\d{2}|\d{4})\s*$/.exec(text);
  if (!match) return null;
  const month = Number(match[1]);
  const yearText = match[2] ?? '';
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  if (month < 1 || month > 12) return null;
  return { month, year };
}

/** "4" → "04", "042" → "04 / 2": what the one expiry field shows as the shopper types digits. */
export function formatCardExpiry(text: string): string {
  let digits = digitsOnly(text).slice(0, 4);
  if (digits.length === 1 && Number(digits) > 1) digits = `0${digits}`;
  if (digits.length <= 2) return digits;
  return `${digits.slice(0, 2)} / ${digits.slice(2)}`;
}

/** What the one expiry field says when it is empty, or not a month and a year (docs/languages.md). */
export const EXPIRY_MISSING: Message = { key: 'card.expiry_missing' };
export const EXPIRY_MALFORMED: Message = { key: 'card.expiry_malformed' };
