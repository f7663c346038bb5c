import { describe, expect, it } from 'vitest';
import type { MessageKey, MessageValues } from '../i18n/message-keys.js';
import { hasFieldErrors, renameFieldErrors, sayFieldMessages } from './field-errors.js';

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

  it('says each message with the reader’s translator and keeps text a rule already wrote', () => {
    const say = (key: MessageKey, values?: MessageValues) => `${key}(${JSON.stringify(values ?? {})})`;
    expect(
      sayFieldMessages(
        {
          email: { key: 'fields.email_required' },
          gift_message: { key: 'fields.gift_message_too_long', values: { max: 500 } },
          ship_city: 'Enter a city.',
        },
        say,
      ),
    ).toEqual({
      email: 'fields.email_required({})',
      gift_message: 'fields.gift_message_too_long({"max":500})',
      ship_city: 'Enter a city.',
    });
  });
});
