import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../../i18n/languages.js';
import { translatorFor } from '../../i18n/translator.js';
import {
  DECLINE_MESSAGES,
  declineMessage,
  PROCESSOR_UNAVAILABLE,
  PROCESSOR_UNAVAILABLE_MESSAGE,
} from './decline-messages.js';
import type { DeclineCode } from './gateway.js';

const CODES = Object.keys(DECLINE_MESSAGES) as DeclineCode[];

describe('declineMessage', () => {
  it('gives each decline code a message of its own', () => {
    const keys = CODES.map((code) => declineMessage(code).key);
    expect(new Set(keys).size).toBe(CODES.length);
    for (const code of CODES) expect(declineMessage(code).key).toBe(`payment.decline.${code}`);
  });

  it('says in English what the merchant records say', () => {
    const say = translatorFor('en');
    for (const code of CODES) expect(say(declineMessage(code).key), code).toBe(DECLINE_MESSAGES[code]);
    expect(say(PROCESSOR_UNAVAILABLE.key)).toBe(PROCESSOR_UNAVAILABLE_MESSAGE);
  });

  it('says a decline in every language in its own words', () => {
    for (const language of LANGUAGES.filter((l) => l !== 'en')) {
      const say = translatorFor(language);
      for (const code of CODES) {
        const { key } = declineMessage(code);
        expect(say(key), `${language} ${code}`).not.toBe(DECLINE_MESSAGES[code]);
      }
    }
    expect(translatorFor('es')(declineMessage('insufficient_funds').key)).toBe(
      'Tu tarjeta no tiene fondos suficientes. Prueba con otra tarjeta o con PayPal.',
    );
    expect(translatorFor('ja')(declineMessage('card_declined').key)).toBe(
      'カードが拒否されました。別のカードまたはPayPalをお試しください。',
    );
  });

  it('reads an unmapped code as a declined payment', () => {
    expect(declineMessage('stolen_card' as DeclineCode)).toEqual({ key: 'payment.decline.payment_declined' });
  });
});
