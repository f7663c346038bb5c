import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  containsCardNumber,
  cvvLength,
  detectBrand,
  formatCardNumber,
  getCardType,
  luhnValid,
  scrubCardData,
  scrubCardNumbers,
} from './card.js';

/** A number that starts like a card of a payment network (2221-2720, 3-6) and passes Luhn, as it was written. */
const writtenCardNumber = fc
  .tuple(
    fc.constantFrom('2221', '2720', '34', '37', '4', '51', '55', '6011', '65'),
    fc.integer({ min: 13, max: 19 }),
    fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 19, maxLength: 19 }),
    fc.constantFrom(' ', '-', '.', '_', '  ', '\t', '%20', '+', ' - ', '\u00a0'),
    fc.constantFrom('plain', 'fours', 'amex'),
  )
  .map(([prefix, length, random, separator, grouping]) => {
    const body = (prefix + random.join('')).slice(0, length - 1);
    const check = [...Array(10).keys()].find((digit) => luhnValid(`${body}${digit}`)) ?? 0;
    const digits = `${body}${check}`;
    if (grouping === 'plain') return { digits, written: digits };
    const sizes = grouping === 'amex' ? [4, 6, 9] : [4, 4, 4, 4, 4];
    const groups: string[] = [];
    let index = 0;
    for (const size of sizes) {
      if (index < digits.length) groups.push(digits.slice(index, index + size));
      index += size;
    }
    return { digits, written: groups.join(separator) };
  });

describe('card type from the first 4 digits', () => {
  it('maps the four accepted brands to their type ids (docs/checkout-rules.md#card-brands)', () => {
    expect(getCardType('5555555555554444')).toMatchObject({ brand: 'mastercard', typeId: 1 });
    expect(getCardType('2221000000000009')).toMatchObject({ brand: 'mastercard', typeId: 1 });
    expect(getCardType('4111111111111111')).toMatchObject({ brand: 'visa', typeId: 2 });
    expect(getCardType('6011111111111117')).toMatchObject({ brand: 'discover', typeId: 3 });
    expect(getCardType('378282246310005')).toMatchObject({ brand: 'american-express', typeId: 4 });
  });

  it('needs 4 digits before it names a brand', () => {
    expect(detectBrand('411')).toBeNull();
    expect(detectBrand('4111')).toBe('visa');
  });

  it('yields no card type for any other brand', () => {
    expect(getCardType('3530111333300000')).toBeNull(); // JCB
    expect(getCardType('6200000000000005')).toBeNull(); // UnionPay
    expect(getCardType('30569309025904')).toBeNull(); // Diners Club
  });

  it('shows a test card as type 2 with the testcard icon', () => {
    expect(getCardType('4242 4242 4242 4242', ['4242424242424242'])).toEqual({
      brand: 'testcard',
      typeId: 2,
      icon: 'testcard',
      label: 'Test card',
    });
  });

  it('wants 4 CVV digits for American Express only', () => {
    expect(cvvLength('american-express')).toBe(4);
    expect(cvvLength('visa')).toBe(3);
  });

  it('formats in groups as typed', () => {
    expect(formatCardNumber('4111111111111111')).toBe('4111 1111 1111 1111');
    expect(formatCardNumber('378282246310005')).toBe('3782 822463 10005');
    expect(formatCardNumber('41111')).toBe('4111 1');
  });
});

describe('Luhn', () => {
  it('accepts the test gateway numbers and rejects a typo', () => {
    for (const n of [
      '4111111111111111',
      '5555555555554444',
      '6011111111111117',
      '378282246310005',
      '4000000000000002',
    ]) {
      expect(luhnValid(n)).toBe(true);
    }
    expect(luhnValid('4111111111111112')).toBe(false);
  });
});

describe('scrubbing card data', () => {
  it('masks Luhn-valid numbers in text, grouped or not, keeping the last 4', () => {
    expect(scrubCardNumbers('card 4111111111111111 failed')).toBe('card [card ••••1111] failed');
    expect(scrubCardNumbers('card 4111 1111 1111 1111.')).toBe('card [card ••••1111].');
    expect(scrubCardNumbers('amex 3782-822463-10005')).toBe('amex [card ••••0005]');
  });

  it('leaves other numbers alone', () => {
    expect(scrubCardNumbers('order 4111111111111112 id')).toBe('order 4111111111111112 id');
    expect(scrubCardNumbers('ts 1700000000000')).toBe('ts 1700000000000');
  });

  it('never lets a card number through, however it is written and wherever it sits in the text', () => {
    fc.assert(
      fc.property(fc.string(), writtenCardNumber, fc.string(), (before, { digits, written }, after) => {
        const text = `${before} ${written} ${after}`;
        expect(containsCardNumber(text)).toBe(true);
        const scrubbed = scrubCardNumbers(text);
        expect(scrubbed).not.toContain(written);
        expect(scrubbed).not.toContain(digits);
      }),
      { numRuns: 2000 },
    );
  });

  it('masks the spellings people really type: dots, underscores, runs of spaces, tabs, %20, + and dashes', () => {
    const spellings = [
      '4111.1111.1111.1111',
      '4111_1111_1111_1111',
      '4111  1111   1111    1111',
      '4111\t1111\t1111\t1111',
      '4111 \t 1111\t\t1111  1111',
      '4111%201111%201111%201111',
      '4111%20%201111%20%201111%20%201111',
      '4111+1111+1111+1111',
      '4111 - 1111 - 1111 - 1111',
      '4111 . 1111 . 1111 . 1111',
      '4111\u00a01111\u00a01111\u00a01111',
      '4111\u20131111\u20131111\u20131111',
      '4111\n1111\n1111\n1111',
      '4111 1111-1111.1111',
      '41111111 11111111',
    ];
    for (const written of spellings) {
      expect(scrubCardNumbers(`card: ${written}, exp 12/28`), JSON.stringify(written)).toBe(
        'card: [card ••••1111], exp 12/28',
      );
      expect(containsCardNumber(`Apt ${written}`), JSON.stringify(written)).toBe(true);
    }
    expect(scrubCardNumbers('amex 3782.822463.10005 and mc 5555_5555_5555_4444')).toBe(
      'amex [card ••••0005] and mc [card ••••4444]',
    );
    expect(scrubCardNumbers('new mastercard 2221 0000 0000 0009')).toBe('new mastercard [card ••••0009]');
    expect(scrubCardNumbers('discover\t6011\t1111\t1111\t1117')).toBe('discover\t[card ••••1117]');
  });

  it('masks card numbers inside URLs and form posts, next to other escapes', () => {
    expect(scrubCardNumbers('/pay?card=4111%201111%201111%201111&exp=12%2F28')).toBe(
      '/pay?card=[card ••••1111]&exp=12%2F28',
    );
    expect(scrubCardNumbers('q=%204111111111111111%20')).toBe('q=%20[card ••••1111]%20');
    expect(scrubCardNumbers('card%3D4111+1111+1111+1111')).toBe('card%3D[card ••••1111]');
    expect(scrubCardNumbers('{"note":"pay with 5555.5555.5555.4444"}')).toBe(
      '{"note":"pay with [card ••••4444]"}',
    );
  });

  it('masks a CVV written in free text', () => {
    const cases: [string, string][] = [
      ['cvv:123', 'cvv:[redacted]'],
      ['{"card_cvv":"321","card_exp_month":12}', '{"card_cvv":"[redacted]","card_exp_month":12}'],
      ['{\\"card_cvv\\":\\"321\\"}', '{\\"card_cvv\\":\\"[redacted]\\"}'],
      ['"cvv": 987', '"cvv": [redacted]'],
      ['security code 123', 'security code [redacted]'],
      ['Security Code: 4321 on the back', 'Security Code: [redacted] on the back'],
      ['my CVV is 123', 'my CVV is [redacted]'],
      ['CVV2=1234', 'CVV2=[redacted]'],
      ['cvc 555.', 'cvc [redacted].'],
      ['cardCvv=321&x=1', 'cardCvv=[redacted]&x=1'],
      ['myCardCvv: 321', 'myCardCvv: [redacted]'],
      ['Amex CID 1234', 'Amex CID [redacted]'],
      ['cvv%3D123', 'cvv%3D[redacted]'],
      ['card_cvv%22%3A%22321', 'card_cvv%22%3A%22[redacted]'],
      ["cvv '123'", "cvv '[redacted]'"],
      ['CVV (123)', 'CVV ([redacted])'],
    ];
    for (const [text, scrubbed] of cases) expect(scrubCardNumbers(text), text).toBe(scrubbed);
    expect(
      scrubCardData({ message: 'Error: charge failed for 4111.1111.1111.1111 cvv 123', line: 7 }),
    ).toEqual({ message: 'Error: charge failed for [card ••••1111] cvv [redacted]', line: 7 });
  });

  it('leaves ordinary numbers alone: order numbers, phone numbers, dates, times, amounts, ZIP codes', () => {
    const ordinary = [
      // Luhn-valid, but no card network starts this way (an order number, a year-and-sequence, a timestamp).
      'Order 112-4459871-0039468',
      'Order 2026000012345670',
      'sent at 1764093272128',
      'Gift card 7000 0000 0000 0005',
      'Tracking 9400 1000 0000 0000 0000 02',
      'Order #100234, invoice 2026-000123',
      'Call +1 (512) 555-0100 or 512 555 0199',
      '512.555.0100 / 737.555.0123',
      '+44 20 7946 0958',
      '+49 30 901820 12',
      'Call 512-555-0100 512-555-0199',
      '2026-11-25 2026-12-24 2027-01-01',
      '25.11.2026 14.30.15',
      '11/25/2026 12:30',
      '2026-11-25T17:54:32.123Z',
      'Total $1,234.56',
      '1 234 567,89 €',
      '4500.00 3200.50 1200.00 99.95',
      'Austin, TX 73301-1234',
      'ZIP 73301',
      'SW1A 1AA',
      '10.0.0.1 192.168.100.200 45.33.32.156',
      'version 5.4.3.2.1',
      'cvv',
      'acid 123',
      'lucid 2024',
      'code 123',
      '1 Congress Ave, Suite 400',
    ];
    for (const text of ordinary) {
      expect(scrubCardNumbers(text), text).toBe(text);
      expect(containsCardNumber(text), text).toBe(false);
    }
  });

  it('never takes phone numbers, dates, times, amounts or addresses of an IP for a card number', () => {
    const digits = (count: number) =>
      fc.array(fc.integer({ min: 0, max: 9 }), { minLength: count, maxLength: count }).map((d) => d.join(''));
    const ordinary = fc.oneof(
      fc
        .tuple(digits(3), digits(3), digits(4), fc.constantFrom('-', '.', ' '))
        .map(([a, b, c, s]) => [a, b, c].join(s)),
      fc
        .tuple(
          fc.integer({ min: 1900, max: 2199 }),
          fc.integer({ min: 1, max: 12 }),
          fc.integer({ min: 1, max: 31 }),
        )
        .map(([y, m, d]) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`),
      fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })).map(([h, m]) => `${h}.${m}`),
      fc.tuple(fc.integer({ min: 0, max: 99_999 }), digits(2)).map(([whole, cents]) => `${whole}.${cents}`),
      fc.ipV4(),
    );
    fc.assert(
      fc.property(
        fc.array(ordinary, { minLength: 1, maxLength: 8 }),
        fc.constantFrom(' ', '  ', '\t', '_'),
        (parts, gap) => {
          const text = parts.join(gap);
          expect(containsCardNumber(text)).toBe(false);
          expect(scrubCardNumbers(text)).toBe(text);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('notices a card number typed into a text field', () => {
    expect(containsCardNumber('Apt 4111 1111 1111 1111')).toBe(true);
    expect(containsCardNumber('1 Congress Ave, Suite 400')).toBe(false);
  });

  it('redacts card fields by name in objects', () => {
    expect(
      scrubCardData({
        payment: { card_number: '4111111111111111', card_cvv: '123', card_exp_month: 12 },
        note: 'x',
      }),
    ).toEqual({
      payment: { card_number: '[redacted]', card_cvv: '[redacted]', card_exp_month: 12 },
      note: 'x',
    });
  });
});
