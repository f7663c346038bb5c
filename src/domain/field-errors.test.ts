import { describe, expect, it } from 'vitest';
import { hasFieldErrors, renameFieldErrors } from './field-errors.js';

describe('field errors', () => {
  it('tells whether any field has an error', () => {
    expect(hasFieldErrors({})).toBe(false);
    expect(hasFieldErrors({ email: 'Enter your email address.' })).toBe(true);
  });

  it('renames keys to the form field names', () => {
    expect(renameFieldErrors({ zipcode: 'Enter a ZIP code.' }, (name) => `ship_${name}`)).toEqual({
      ship_zipcode: 'Enter a ZIP code.',
    });
  });
});
