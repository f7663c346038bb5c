import { describe, expect, it } from 'vitest';
import { isNumericPostalCode, postalLabelOf, stateLabelOf } from './address-labels.js';

describe('address labels', () => {
  it('names the state field as the country does', () => {
    expect(stateLabelOf('US')).toBe('State');
    expect(stateLabelOf('CA')).toBe('Province');
    expect(stateLabelOf('AU')).toBe('State or territory');
  });

  it('names the postal code field as the country does', () => {
    expect(postalLabelOf('US')).toBe('ZIP code');
    expect(postalLabelOf('GB')).toBe('Postcode');
    expect(postalLabelOf('IE')).toBe('Eircode');
    expect(postalLabelOf('ZZ')).toBe('Postal code');
  });

  it('asks for the numeric keyboard only where postal codes are digits', () => {
    expect(isNumericPostalCode('US')).toBe(true);
    expect(isNumericPostalCode('PT')).toBe(true);
    expect(isNumericPostalCode('GB')).toBe(false);
    expect(isNumericPostalCode('CA')).toBe(false);
    expect(isNumericPostalCode('ZZ')).toBe(false);
  });
});
