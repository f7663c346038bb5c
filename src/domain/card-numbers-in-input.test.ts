import { describe, expect, it } from 'vitest';
import { findCardNumbers } from './card-numbers-in-input.js';

const MESSAGE = { key: 'errors.field_card_number_in_text' };

describe('findCardNumbers', () => {
  it('names every field holding a card number, at any depth, however it is written', () => {
    expect(
      findCardNumbers({
        ship_zipcode: '4111.1111.1111.1111',
        ship_city: 'Austin',
        offers: [{ note: 'ok' }, { note: 'card 5555_5555_5555_4444' }],
        list: ['73301', '6011%201111%201111%201117'],
        version: '1',
      }),
    ).toEqual({ ship_zipcode: MESSAGE, 'offers.1.note': MESSAGE, 'list.1': MESSAGE });
  });

  it('finds a card number sent as a JSON number, and in a field name, which it masks', () => {
    const found = findCardNumbers({
      shipping_profile_id: 4111111111111111,
      quantity: 2,
      '4111111111111111': 'x',
    });
    expect(found).toEqual({ shipping_profile_id: MESSAGE, '[card ••••1111]': MESSAGE });
  });

  it('finds a card number sent as a negative JSON number', () => {
    expect(findCardNumbers({ quantity: -4111111111111111 })).toEqual({ quantity: MESSAGE });
  });

  it('leaves the fields where the route takes a card number on purpose, and ordinary values, alone', () => {
    expect(
      findCardNumbers(
        {
          payment: { method: 'card', card_number: '4111 1111 1111 1111', card_cvv: '123' },
          phone: '+1 512 555 0100',
          gift_date: '2026-12-24',
          ship_address1: '1 Congress Ave, Suite 400',
          order_number: '112-4459871-0039468',
        },
        ['payment.card_number'],
      ),
    ).toEqual({});
  });

  it('reports a hostile field name as an own field', () => {
    const found = findCardNumbers(JSON.parse('{"__proto__": "4111111111111111"}'));
    expect(Object.keys(found)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(found)).toBe(Object.prototype);
  });
  it('answers a catalogue message each reader says in their language, never the number', () => {
    const found = findCardNumbers({ gift_message: 'my card 4111 1111 1111 1111' });
    expect(found).toEqual({ gift_message: { key: 'errors.field_card_number_in_text' } });
    expect(JSON.stringify(found)).not.toContain('4111');
  });
});
