import { describe, expect, it } from 'vitest';
import { checkEmail, checkPhone, validateContact } from './contact-validation.js';

describe('checkEmail', () => {
  it('asks for a missing email', () => {
    expect(checkEmail('  ')).toBe('Enter your email address.');
    expect(checkEmail('', 'the recipient’s')).toBe('Enter the recipient’s email address.');
  });

  it('shows the expected shape for a malformed one', () => {
    for (const bad of ['ada', 'ada@', 'ada@example', 'ada @example.com', '@example.com', 'ada@example.c']) {
      expect(checkEmail(bad)).toBe('Enter an email address like name@example.com.');
    }
  });

  it('accepts ordinary addresses', () => {
    expect(checkEmail('ada@example.com')).toBeNull();
    expect(checkEmail(' ada.lovelace+shop@mail.example.co.uk ')).toBeNull();
  });
});

describe('checkPhone', () => {
  it('is optional', () => {
    expect(checkPhone('')).toBeNull();
  });

  it('accepts common formats with 7 to 15 digits', () => {
    expect(checkPhone('+1 (512) 555-0100')).toBeNull();
    expect(checkPhone('020 7946 0958')).toBeNull();
  });

  it('refuses letters and too few or too many digits', () => {
    expect(checkPhone('call me')).toMatch(/7 to 15 digits/);
    expect(checkPhone('12345')).toMatch(/7 to 15 digits/);
    expect(checkPhone('1234567890123456')).toMatch(/7 to 15 digits/);
  });
});

describe('validateContact', () => {
  it('returns one message per invalid field', () => {
    expect(validateContact({ email: '', phone: 'abc' })).toEqual({
      email: 'Enter your email address.',
      phone: 'Enter a phone number with 7 to 15 digits, like +1 512 555 0100.',
    });
    expect(validateContact({ email: 'ada@example.com', phone: '' })).toEqual({});
  });
});
