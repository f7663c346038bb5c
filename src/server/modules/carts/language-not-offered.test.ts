import { describe, expect, it } from 'vitest';
import { translatorFor } from '../../i18n/translator.js';
import { languageNotOfferedMessage } from './language-not-offered.js';

const said = (enabled: Parameters<typeof languageNotOfferedMessage>[0], reader: 'en' | 'fr' | 'ja') => {
  const { key, values } = languageNotOfferedMessage(enabled, reader);
  return translatorFor(reader)(key, values);
};

describe('languageNotOfferedMessage', () => {
  it("names and lists the store's languages as the reader's language does", () => {
    expect(said(['en', 'es'], 'en')).toBe(
      'This store does not offer its checkout in that language. Choose one of: English and Spanish.',
    );
    expect(said(['en', 'es', 'de'], 'fr')).toBe(
      'Cette boutique ne propose pas son paiement dans cette langue. Choisissez parmi : anglais, espagnol et allemand.',
    );
    expect(said(['en', 'ja'], 'ja')).toBe(
      'このストアではその言語で購入手続きを行えません。次のいずれかを選んでください：英語、日本語。',
    );
  });
});
