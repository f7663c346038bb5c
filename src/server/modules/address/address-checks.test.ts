import { describe, expect, it } from 'vitest';
import { inEnglish } from '../../platform/errors.js';
import { checkAddress } from './address-checks.js';

/** The refusals as an English reader gets them. */
const said = (problems: ReturnType<typeof checkAddress>) =>
  Object.fromEntries(Object.entries(problems).map(([field, message]) => [field, inEnglish(message)]));

const austin = {
  fname: 'Ada',
  lname: 'Lovelace',
  address1: '1 Main St',
  city: 'Austin',
  state: 'TX',
  zipcode: '73301',
  country: 'US',
};

describe('checkAddress', () => {
  it('accepts a complete address', () => {
    expect(said(checkAddress(austin, 'ship'))).toEqual({});
    expect(said(checkAddress({ ...austin, state: '', zipcode: 'SW1A 1AA', country: 'GB' }, 'bill'))).toEqual(
      {},
    );
  });

  it('names every missing field with the prefix of its form', () => {
    expect(said(checkAddress({}, 'bill'))).toEqual({
      bill_fname: 'Enter a first name.',
      bill_lname: 'Enter a last name.',
      bill_address1: 'Enter a street address.',
      bill_city: 'Enter a city.',
      bill_country: 'Choose a country.',
    });
  });

  it('says the state and postal code by the country’s names for them', () => {
    expect(said(checkAddress({ ...austin, state: '' }, 'ship'))).toEqual({ ship_state: 'Choose a state.' });
    expect(said(checkAddress({ ...austin, state: 'ON' }, 'ship'))).toEqual({
      ship_state: 'Choose a state from the list.',
    });
    expect(said(checkAddress({ ...austin, zipcode: '7330' }, 'ship'))).toEqual({
      ship_zipcode: 'Enter a ZIP code like 95014.',
    });
    expect(said(checkAddress({ ...austin, country: 'JP', state: '', zipcode: '1000001' }, 'ship'))).toEqual({
      ship_state: 'Choose a prefecture.',
    });
    expect(said(checkAddress({ ...austin, country: 'IE', state: 'D', zipcode: '1' }, 'ship'))).toEqual({});
    expect(said(checkAddress({ ...austin, country: 'ZZ' }, 'ship'))).toEqual({
      ship_country: 'Choose a country from the list.',
    });
  });

  it('answers messages for the error handler to say in the shopper’s language', () => {
    expect(checkAddress({ ...austin, country: 'IN', state: 'MH', zipcode: '1234' }, 'bill')).toEqual({
      bill_zipcode: { key: 'address.error.postal_format', values: { type: 'pin', example: '110034' } },
    });
  });
});
