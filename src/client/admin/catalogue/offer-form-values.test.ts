import { describe, expect, it } from 'vitest';
import type { Offer } from '../../../contract/merchant.js';
import { changedFields } from './form-values.js';
import { NEW_OFFER, offerBody, offerFormValues } from './offer-form-values.js';

const offer: Offer = {
  id: 3,
  offer_name: 'Club',
  offer_title: '',
  item_id: 'CLUB',
  item_name: 'Coffee club',
  item_image: null,
  item_category: 'Coffee',
  item_options: [{ name: 'Grind', value: 'Whole bean' }],
  override_initial_item_id: null,
  override_initial_item_name: null,
  price: 29,
  is_recurring: true,
  billing_interval_days: 30,
  next_price: 25,
  trial_days: null,
  discounted_cycles: null,
  discounted_price: null,
  total_cycles: null,
  prepaid_cycles: null,
  prepaid_renewal: null,
  billing_plan_description: '$29.00 today, then $25.00 every 30 days',
  is_giftable: true,
  is_taxable: true,
  requires_shipping: true,
  shipping_price: 0,
  digital_access: null,
  subscribe_and_save: null,
  bump_text: null,
  translations: {},
  active: true,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
};

describe("an offer's form", () => {
  it('sends subscribe and save only for a one-off offer that offers it', () => {
    const oneOff = { ...NEW_OFFER, offer_name: 'Tea', item_name: 'Tea', price: '20' };
    expect(offerBody(oneOff).subscribe_and_save).toBeNull();
    const saving = {
      ...oneOff,
      has_subscribe_and_save: true,
      subscribe_interval_days: '45',
      subscribe_percent_off: '15',
    };
    expect(offerBody(saving).subscribe_and_save).toEqual({ interval_days: 45, percent_off: 15 });
    expect(offerBody({ ...saving, is_recurring: true }).subscribe_and_save).toBeNull();
  });

  it('sends no interval or later price for a one-off offer', () => {
    const body = offerBody({ ...NEW_OFFER, offer_name: 'Tea', item_name: 'Tea', price: '12.5' });
    expect(body).toMatchObject({
      price: 12.5,
      is_recurring: false,
      billing_interval_days: null,
      next_price: null,
      trial_days: null,
      discounted_cycles: null,
      discounted_price: null,
      total_cycles: null,
    });
  });

  it('sends a trial, discounted cycles and an end only for a recurring offer', () => {
    const values = {
      ...offerFormValues(offer),
      trial_days: '14',
      discounted_cycles: '2',
      discounted_price: '19.99',
      total_cycles: '12',
    };
    expect(offerBody(values)).toMatchObject({
      trial_days: 14,
      discounted_cycles: 2,
      discounted_price: 19.99,
      total_cycles: 12,
    });
    expect(
      changedFields(offerBody(offerFormValues(offer)), offerBody({ ...values, total_cycles: '' })),
    ).toEqual({
      trial_days: 14,
      discounted_cycles: 2,
      discounted_price: 19.99,
    });
    expect(offerBody({ ...values, is_recurring: false })).toMatchObject({
      trial_days: null,
      total_cycles: null,
    });
  });

  it('sends a prepaid plan with its renewal only when its cycles are given, on a recurring offer', () => {
    const values = { ...offerFormValues(offer), prepaid_cycles: '3', prepaid_renewal: 'end' as const };
    expect(offerBody(values)).toMatchObject({ prepaid_cycles: 3, prepaid_renewal: 'end' });
    expect(offerBody({ ...values, prepaid_cycles: '' })).toMatchObject({
      prepaid_cycles: null,
      prepaid_renewal: null,
    });
    expect(offerBody({ ...values, is_recurring: false })).toMatchObject({
      prepaid_cycles: null,
      prepaid_renewal: null,
    });
  });

  it('gives back the offer it was filled from, so an untouched edit changes nothing', () => {
    const values = offerFormValues(offer);
    const before = offerBody(values);
    expect(changedFields(before, offerBody(values))).toEqual({});
  });

  it('sends only what changed in an edit', () => {
    const values = offerFormValues(offer);
    const next = {
      ...values,
      next_price: '27',
      item_options: [...values.item_options, { name: 'Size', value: '1 kg' }],
    };
    expect(changedFields(offerBody(values), offerBody(next))).toEqual({
      next_price: 27,
      item_options: [
        { name: 'Grind', value: 'Whole bean' },
        { name: 'Size', value: '1 kg' },
      ],
    });
  });

  it('sends the digital access only when it is asked for, and an empty image as none', () => {
    const values = {
      ...offerFormValues(offer),
      has_digital_access: true,
      digital_url: 'https://x.example/get',
    };
    expect(offerBody(values).digital_access).toEqual({ url: 'https://x.example/get', instructions: '' });
    expect(offerBody({ ...values, item_image: ' ' }).item_image).toBeNull();
  });
});
