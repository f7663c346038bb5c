import { describe, expect, it } from 'vitest';
import { postalLabelOf, stateLabelOf, validateAddress, type AddressValues } from './address-validation.js';

const address = (overrides: Partial<AddressValues> = {}): AddressValues => ({
  fname: 'Ada',
  lname: 'Lovelace',
  address1: '1 Main St',
  address2: '',
  city: 'Austin',
  state: 'TX',
  zipcode: '73301',
  country: 'US',
  ...overrides,
});

describe('validateAddress', () => {
  it('accepts a complete address', () => {
    expect(validateAddress(address())).toEqual({});
  });

  it('asks for each required field in words', () => {
    const errors = validateAddress(
      address({ fname: '', lname: ' ', address1: '', city: '', state: '', zipcode: '' }),
    );
    expect(errors).toEqual({
      fname: 'Enter a first name.',
      lname: 'Enter a last name.',
      address1: 'Enter a street address.',
      city: 'Enter a city.',
      state: 'Choose a state.',
      zipcode: 'Enter a ZIP code.',
    });
  });

  it("checks the postal code against the country's format", () => {
    expect(validateAddress(address({ zipcode: '7330' })).zipcode).toBe('Enter a ZIP code like 73301.');
    expect(validateAddress(address({ country: 'GB', state: '', zipcode: 'nope' })).zipcode).toBe(
      'Enter a postcode like SW1A 1AA.',
    );
  });

  it('requires a state from the list only where the country has states', () => {
    expect(validateAddress(address({ country: 'CA', state: 'TX', zipcode: 'K1A 0B1' })).state).toBe(
      'Choose a province.',
    );
    expect(validateAddress(address({ country: 'DE', state: '', zipcode: '10115' }))).toEqual({});
  });

  it('asks for a country first', () => {
    expect(validateAddress(address({ country: '' })).country).toBe('Choose a country.');
    expect(validateAddress(address({ country: 'XX' })).country).toBe('Choose a country from the list.');
  });

  it('limits lengths', () => {
    expect(validateAddress(address({ city: 'x'.repeat(101) })).city).toBe('Use at most 100 characters.');
  });
});

describe('labels', () => {
  it('names the state and postal fields as the country does', () => {
    expect(stateLabelOf('US')).toBe('State');
    expect(stateLabelOf('CA')).toBe('Province');
    expect(postalLabelOf('US')).toBe('ZIP code');
    expect(postalLabelOf('GB')).toBe('Postcode');
    expect(postalLabelOf('ZZ')).toBe('Postal code');
  });
});
