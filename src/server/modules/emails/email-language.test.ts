import { describe, expect, it } from 'vitest';
import { renderGiftNotice } from './notice-templates.js';
import { emailLanguageOf, speechFor } from './email-language.js';
import { renderOrderReceipt, type ReceiptInput } from './receipt-template.js';
import { renderRenewalReceipt, renderSubscriptionWelcome } from './subscription-templates.js';

// Emails speak the language of the cart their order came from (docs/emails.md, "Languages").

const RECEIPT: ReceiptInput = {
  store: { name: 'Bean <There>', logoUrl: null },
  order: {
    id: 1042,
    currency: 'JPY',
    isTest: false,
    subtotal: 5000,
    discount: 0,
    discountCode: null,
    shipping: 700,
    tax: 0,
    giftCards: 0,
    total: 5700,
  },
  lines: [{ name: 'Coffee beans', quantity: 2, amount: 5000, isRecurring: false }],
  shippingAddress: null,
  billingAddress: null,
  payment: { method: 'card', brand: 'visa', last4: '1111' },
};

const SUBSCRIPTION = {
  store: { name: 'Bean There', logoUrl: null },
  subscription: {
    id: 7,
    itemName: 'Coffee club',
    quantity: 1,
    currency: 'EUR',
    intervalDays: 30,
    isTest: false,
  },
  manage: { url: 'https://shop.example/checkout/manage/t', expiresAt: new Date('2027-01-20T00:00:00Z') },
};

describe('emailLanguageOf', () => {
  it('takes the cart’s language, else the store’s default', () => {
    expect(emailLanguageOf('ja')).toBe('ja');
    expect(emailLanguageOf(null)).toBe('en');
    expect(emailLanguageOf(null, 'de')).toBe('de');
    expect(emailLanguageOf('xx', 'fr')).toBe('fr');
  });
});

describe('an email in the shopper’s language', () => {
  it('writes a receipt in Japanese: subject, words, amounts, <html lang>', () => {
    const email = renderOrderReceipt(RECEIPT, speechFor('ja'));
    expect(email.subject).toBe('Bean <There> のご注文（注文番号 1042）');
    expect(email.text).toContain('ご注文（注文番号 1042）ありがとうございます。');
    expect(email.text).toContain('小計：￥5,000');
    expect(email.text).toContain('末尾 1111 の Visa でお支払い済みです。');
    expect(email.html).toContain('<html lang="ja" dir="ltr">');
    expect(email.html).toContain('注文番号 <strong>1042</strong>');
    expect(email.html).toContain('Bean &lt;There&gt;');
    expect(email.text).not.toMatch(/Thank you|Subtotal/);
  });

  it('writes a renewal in Spanish, with the date and amount as Spanish writes them', () => {
    const email = renderRenewalReceipt(
      {
        ...SUBSCRIPTION,
        cycle: 3,
        amount: 1999,
        payment: { method: 'paypal', brand: null, last4: null },
        nextChargeAt: new Date('2026-12-21T12:00:00Z'),
      },
      speechFor('es'),
    );
    expect(email.subject).toBe('Recibo de la renovación de Coffee club en Bean There');
    expect(email.text).toContain('Tu suscripción a Coffee club se ha renovado: ciclo 3.');
    expect(email.text).toMatch(/Cobrado: 19,99\s€\. Pagado con PayPal\./);
    expect(email.text).toContain('Tu próximo cargo será el 21 de diciembre de 2026.');
    expect(email.html).toContain('<html lang="es" dir="ltr">');
    expect(email.html).toContain('Gestionar mi suscripción');
  });

  it('counts in the language’s plural forms', () => {
    const welcome = (days: number) =>
      renderSubscriptionWelcome(
        {
          ...SUBSCRIPTION,
          subscription: { ...SUBSCRIPTION.subscription, intervalDays: days },
          cycleAmount: 1000,
          nextChargeAt: new Date('2026-12-21T12:00:00Z'),
        },
        speechFor('ar'),
      ).text;
    expect(welcome(1)).toContain('كل يوم،');
    expect(welcome(2)).toContain('كل يومين');
    expect(welcome(30)).toContain('كل 30 يومًا');
  });

  it('sets an Arabic email right to left', () => {
    const email = renderGiftNotice(
      {
        store: { name: 'Bean There', logoUrl: null },
        from: 'Ada',
        message: '',
        recipientName: 'Grace',
        item: { name: 'Mug', quantity: 1 },
        claimUrl: 'https://shop.example/checkout/__g__abc',
      },
      speechFor('ar'),
    );
    expect(email.html).toContain('<html lang="ar" dir="rtl">');
    expect(email.subject).toBe('أرسل إليك Ada هدية من Bean There');
    expect(email.html).toContain('استلم هديتك');
  });
});
