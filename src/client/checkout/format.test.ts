import { setupPageI18n } from '../../i18n/page-i18n.js';
import arabic from 'virtual:catalogue/checkout/ar';
import japanese from 'virtual:catalogue/checkout/ja';
import { describe, expect, it } from 'vitest';
import type { Translate } from '../i18n/use-t.js';
import { countryName, longDate, money } from './format.js';
import { orderButtonLabel } from './place-order/place-order-block.js';

const translate = (locale: string, messages: typeof japanese): Translate => {
  const i18n = setupPageI18n({ locale, messages: { [locale]: messages } });
  return (key, values) => i18n._(key, values);
};
const order = {
  total: 1234.5,
  currency: 'USD',
  isRecurring: false,
  isGiftClaim: false,
  payment: 'card' as const,
};

describe("amounts, dates and countries in the page's language", () => {
  it('writes them as Japanese and Arabic shoppers read them (Node 20 ICU)', () => {
    expect(money(1234.5, 'USD', 'ja')).toBe('$1,234.50');
    expect(money(1234.5, 'USD', 'ar')).toBe('\u200f1,234.50\u00a0US$');
    expect(money(1234.5, 'USD', 'de')).toBe('1.234,50\u00a0$');
    expect(longDate('2026-12-24', 'ja')).toBe('2026年12月24日');
    expect(longDate('2026-12-24', 'ar')).toBe('24 ديسمبر 2026');
    expect(countryName('US', 'ja')).toBe('アメリカ合衆国');
  });

  it('says the order button in Japanese and Arabic with the amount in their format', () => {
    expect(orderButtonLabel(order, translate('ja', japanese), 'ja')).toBe('$1,234.50 を支払う');
    expect(orderButtonLabel(order, translate('ar', arabic), 'ar')).toBe('ادفع \u200f1,234.50\u00a0US$');
    expect(orderButtonLabel({ ...order, payment: 'none' }, translate('ja', japanese), 'ja')).toBe(
      '注文を確定する',
    );
  });
});
