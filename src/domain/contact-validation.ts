import type { FieldErrors } from './field-errors.js';

export interface ContactValues {
  email: string;
  phone: string;
}

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)*\.[^\s@.]{2,}$/;

/** null when the address is fine; otherwise what to do. */
export function checkEmail(value: string, subject: 'your' | 'the recipient’s' = 'your'): string | null {
  const email = value.trim();
  if (email === '') return `Enter ${subject} email address.`;
  if (email.length > 254 || !EMAIL.test(email)) return 'Enter an email address like name@example.com.';
  return null;
}

/** Phone numbers are optional; when given they need 7 to 15 digits (the international maximum). */
export function checkPhone(value: string): string | null {
  const phone = value.trim();
  if (phone === '') return null;
  const digits = phone.replace(/\D/g, '');
  if (!/^\+?[\d\s().-]+$/.test(phone) || digits.length < 7 || digits.length > 15) {
    return 'Enter a phone number with 7 to 15 digits, like +1 512 555 0100.';
  }
  return null;
}

export function validateContact(values: ContactValues): FieldErrors {
  const errors: FieldErrors = {};
  const email = checkEmail(values.email);
  if (email) errors.email = email;
  const phone = checkPhone(values.phone);
  if (phone) errors.phone = phone;
  return errors;
}
