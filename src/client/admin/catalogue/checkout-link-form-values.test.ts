import { describe, expect, it } from 'vitest';
import type { CheckoutLink } from '../../../contract/merchant.js';
import { ApiFailure } from '../admin-api.js';
import {
  linkBody,
  linkFailure,
  linkFormValues,
  NEW_LINK,
  subscribeBoxLabel,
} from './checkout-link-form-values.js';
import { changedFields } from './form-values.js';

const link: CheckoutLink = {
  id: 2,
  public_id: 'autumn',
  cart_token: '__c__autumn',
  checkout_url: 'http://shop.example/checkout/__c__autumn',
  name: 'Autumn',
  offers: [{ offer_id: 5, quantity: 2, is_gift: false, subscribe: false }],
  bump_offer_ids: [],
  discount_code: 'WELCOME10',
  active: true,
  expires_at: null,
  upsells: [],
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
};

describe("a checkout link's form", () => {
  it('sends its lines as numbers, an empty code as none, and a public id only when given on create', () => {
    const values = {
      ...NEW_LINK,
      lines: [{ offer_id: '5', quantity: '2', is_gift: true, subscribe: false }],
    };
    expect(linkBody(values, true)).toEqual({
      name: '',
      offers: [{ offer_id: 5, quantity: 2, is_gift: true, subscribe: false }],
      bump_offer_ids: [],
      upsells: [],
      discount_code: null,
      active: true,
      expires_at: null,
    });
    expect(linkBody({ ...values, public_id: ' spring ' }, true).public_id).toBe('spring');
    expect(linkBody({ ...values, public_id: 'spring' }, false).public_id).toBeUndefined();
  });

  it('changes nothing when untouched, and sends every line when one changes', () => {
    const values = linkFormValues(link);
    expect(changedFields(linkBody(values, false), linkBody(values, false))).toEqual({});
    const more = {
      ...values,
      lines: [...values.lines, { offer_id: '6', quantity: '1', is_gift: false, subscribe: true }],
    };
    expect(changedFields(linkBody(values, false), linkBody(more, false))).toEqual({
      offers: [
        { offer_id: 5, quantity: 2, is_gift: false, subscribe: false },
        { offer_id: 6, quantity: 1, is_gift: false, subscribe: true },
      ],
    });
  });

  it('sends the chosen bump offers in order, leaving out a row with none chosen', () => {
    const values = { ...linkFormValues({ ...link, bump_offer_ids: [7] }), bumps: ['7', '', '9'] };
    expect(linkBody(values, false).bump_offer_ids).toEqual([7, 9]);
    expect(linkFormValues({ ...link, bump_offer_ids: [7, 9] }).bumps).toEqual(['7', '9']);
    expect(changedFields(linkBody(linkFormValues(link), false), linkBody(values, false))).toEqual({
      bump_offer_ids: [7, 9],
    });
  });
  it('sends the offers after the purchase, a downsell left empty as none', () => {
    const values = {
      ...linkFormValues(link),
      upsells: [
        { offer_id: '7', downsell_offer_id: '8' },
        { offer_id: '9', downsell_offer_id: '' },
      ],
    };
    expect(changedFields(linkBody(linkFormValues(link), false), linkBody(values, false))).toEqual({
      upsells: [
        { offer_id: 7, downsell_offer_id: 8 },
        { offer_id: 9, downsell_offer_id: null },
      ],
    });
    expect(linkFormValues({ ...link, upsells: [{ offer_id: 9, downsell_offer_id: null }] }).upsells).toEqual([
      { offer_id: '9', downsell_offer_id: '' },
    ]);
  });

  it('keeps a line preset to subscribe and save, and labels its box from the offer', () => {
    const preset = { ...link, offers: [{ offer_id: 5, quantity: 1, is_gift: false, subscribe: true }] };
    expect(linkFormValues(preset).lines[0]?.subscribe).toBe(true);
    const terms = { subscribe_and_save: { interval_days: 30, percent_off: 10 } };
    expect(subscribeBoxLabel(terms, { subscribe: false })).toBe(
      'Subscribe and save: every 30 days at 10 % off',
    );
    expect(subscribeBoxLabel({ subscribe_and_save: null }, { subscribe: false })).toBeNull();
    expect(subscribeBoxLabel(undefined, { subscribe: false })).toBeNull();
    expect(subscribeBoxLabel({ subscribe_and_save: null }, { subscribe: true })).toBe(
      'Subscribe and save (the offer no longer allows it)',
    );
  });

  it('says a taken public id by its field', () => {
    expect(
      linkFailure(new ApiFailure(409, 'The link id autumn is taken; choose another public_id.')).fields,
    ).toEqual({
      public_id: 'The link id autumn is taken; choose another public_id.',
    });
  });
});
