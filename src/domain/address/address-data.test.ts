import { describe, expect, it } from 'vitest';
import data from './address-data.json' with { type: 'json' };
import { addressFormatOf, isSubdivisionOf, validateAddress } from './address-data.js';
import { subdivisionName } from './address-format.js';

const street = { fname: 'Ada', lname: 'Lovelace', address1: '1 Main St', city: 'Town' };

/** A valid address per country: every continent, with and without states and postal codes. */
const VALID: Record<string, { state?: string; zipcode?: string; city?: string }> = {
  US: { state: 'TX', zipcode: '73301' },
  CA: { state: 'ON', zipcode: 'k1a 0b1' },
  BR: { state: 'SP', zipcode: '01310-100' },
  MX: { state: 'JAL', zipcode: '44100' },
  GB: { zipcode: 'SW1A 1AA' },
  DE: { zipcode: '10115' },
  FR: { zipcode: '75001' },
  JP: { state: '13', zipcode: '100-0001' },
  CN: { state: '11', zipcode: '100000' },
  IN: { state: 'MH', zipcode: '400001' },
  AU: { state: 'NSW', zipcode: '2000' },
  NZ: { zipcode: '6011' },
  ZA: { zipcode: '0083' },
  NG: { state: 'LA', zipcode: '100001' },
  EG: { state: 'C', zipcode: '11511' },
  AE: { state: 'Dubai' },
  KR: { state: '11', zipcode: '03051' },
  AR: { state: 'C', zipcode: 'C1070AAM' },
  CL: { state: 'RM', zipcode: '8340457' },
  IE: { state: 'D', zipcode: 'D02 AF30' },
  NL: { zipcode: '1011 AB' },
};

describe('validateAddress', () => {
  it.each(Object.entries(VALID))('accepts an address in %s', (country, fields) => {
    expect(validateAddress({ ...street, ...fields, country })).toEqual({});
  });

  it('asks for what each country requires', () => {
    expect(validateAddress({ ...street, country: 'US' })).toEqual({
      state: { key: 'address.error.state_required', values: { type: 'state' } },
      zipcode: { key: 'address.error.postal_required', values: { type: 'zip' } },
    });
    expect(validateAddress({ ...street, country: 'JP', zipcode: '100-0001' }).state).toEqual({
      key: 'address.error.state_required',
      values: { type: 'prefecture' },
    });
    expect(validateAddress({ ...street, country: 'IN', state: 'MH' }).zipcode?.values).toEqual({
      type: 'pin',
    });
    expect(validateAddress({ ...street, country: 'CA', zipcode: 'K1A 0B1' }).state?.values).toEqual({
      type: 'province',
    });
    expect(validateAddress({ ...street, country: 'AE' }).state?.values).toEqual({ type: 'emirate' });
    expect(
      validateAddress({ fname: 'Ada', lname: 'L', address1: '1 Main', country: 'DE', zipcode: '10115' }),
    ).toEqual({
      city: { key: 'address.error.city', values: { type: 'city' } },
    });
  });

  it('leaves out what a country does not require', () => {
    // Ireland's county and Eircode, Germany's state (it has no state field), New Zealand's city aside.
    expect(validateAddress({ ...street, country: 'IE' })).toEqual({});
    expect(validateAddress({ ...street, country: 'DE', zipcode: '10115', state: 'whatever' })).toEqual({});
    expect(validateAddress({ ...street, country: 'AR', state: 'C' })).toEqual({});
  });

  it('checks the whole postal code, any case, spaces around it ignored', () => {
    const zip = (country: string, zipcode: string, state?: string) =>
      validateAddress({ ...street, country, zipcode, state: state ?? VALID[country]?.state }).zipcode;
    expect(zip('US', ' 73301-1234 ')).toBeUndefined();
    expect(zip('US', '7330')).toEqual({
      key: 'address.error.postal_format',
      values: { type: 'zip', example: '95014' },
    });
    expect(zip('US', '73301x')).toBeDefined();
    expect(zip('CA', 'k1a0b1')).toBeUndefined();
    expect(zip('CA', 'D1A 0B1')).toBeDefined();
    expect(zip('GB', 'ec1y 8sy')).toBeUndefined();
    expect(zip('GB', '12345')).toBeDefined();
    expect(zip('NL', '1011AB')).toBeUndefined();
    expect(zip('NL', 'AB 1011')).toBeDefined();
    expect(zip('BR', '01310100')).toBeUndefined();
    expect(zip('JP', '1000001')).toBeUndefined();
    expect(zip('JP', '100-00011')).toBeDefined();
    expect(zip('IN', '11000')).toEqual({
      key: 'address.error.postal_format',
      values: { type: 'pin', example: '110034' },
    });
    expect(zip('AU', '20000')).toBeDefined();
    expect(zip('CL', '834045')).toBeDefined();
  });

  it('takes a subdivision of the country only', () => {
    expect(validateAddress({ ...street, ...VALID.US, country: 'US', state: 'ON' }).state).toEqual({
      key: 'address.error.state_unknown',
      values: { type: 'state' },
    });
    expect(validateAddress({ ...street, ...VALID.IE, country: 'IE', state: 'XX' }).state?.key).toBe(
      'address.error.state_unknown',
    );
    expect(validateAddress({ ...street, ...VALID.US, country: 'US', state: 'tx' })).toEqual({});
    expect(isSubdivisionOf('JP', '13')).toBe(true);
    expect(isSubdivisionOf('JP', '48')).toBe(false);
  });

  it('names the country when it is missing or unknown', () => {
    expect(validateAddress({ ...street }).country).toEqual({ key: 'address.error.country_required' });
    expect(validateAddress({ ...street, country: 'XX' }).country).toEqual({
      key: 'address.error.country_unknown',
    });
  });
});

describe('addressFormatOf', () => {
  it('orders the fields as the country writes its addresses', () => {
    expect(addressFormatOf('US')?.rows).toEqual([
      ['fname', 'lname'],
      ['address1'],
      ['address2'],
      ['city', 'state', 'zipcode'],
    ]);
    // Japan: postal code, prefecture, street, then the name.
    expect(addressFormatOf('JP')?.rows).toEqual([
      ['zipcode'],
      ['state'],
      ['address1'],
      ['address2'],
      ['fname', 'lname'],
    ]);
    expect(addressFormatOf('GB')?.rows.flat()).not.toContain('state');
    expect(addressFormatOf('IE')?.rows.flat()).toEqual([
      'fname',
      'lname',
      'address1',
      'address2',
      'city',
      'state',
      'zipcode',
    ]);
  });

  it('names the state and postal code by the country’s name types', () => {
    const labels = (country: string) => {
      const format = addressFormatOf(country);
      return [format?.stateLabel, format?.postalLabel];
    };
    expect(labels('US')).toEqual(['address.state', 'address.zip_code']);
    expect(labels('JP')).toEqual(['address.prefecture', 'address.postal_code']);
    expect(labels('IE')).toEqual(['address.county', 'address.eircode']);
    expect(labels('IN')).toEqual(['address.state', 'address.pin_code']);
    expect(labels('CA')).toEqual(['address.province', 'address.postal_code']);
    expect(labels('AE')[0]).toBe('address.emirate');
    expect(labels('KR')[0]).toBe('address.do_si');
    expect(addressFormatOf('GB')?.cityLabel).toBe('address.post_town');
  });

  it('gives the required fields, the postal pattern and example', () => {
    expect(addressFormatOf('US')).toMatchObject({
      required: ['fname', 'lname', 'address1', 'city', 'state', 'zipcode'],
      postalExample: '95014',
    });
    expect(addressFormatOf('DE')?.required).toEqual(['fname', 'lname', 'address1', 'city', 'zipcode']);
    expect(addressFormatOf('IE')?.required).toEqual(['fname', 'lname', 'address1', 'city']);
    expect(addressFormatOf('IE')?.postalExample).toBe('A65 F4E2');
  });

  it('lists subdivisions by code, in the page’s script', () => {
    const jp = addressFormatOf('JP');
    const tokyo = jp?.subdivisions.find((entry) => entry.code === '13');
    expect(tokyo).toEqual({ code: '13', name: '東京都', key: '東京都', latinName: 'TOKYO' });
    if (!jp || !tokyo) throw new Error('no Tokyo');
    expect(subdivisionName(tokyo, jp, 'ja')).toBe('東京都');
    expect(subdivisionName(tokyo, jp, 'en')).toBe('TOKYO');
    expect(addressFormatOf('US')?.subdivisions).toHaveLength(62);
    expect(addressFormatOf('DE')?.subdivisions).toEqual([]);
    const cairo = addressFormatOf('EG')?.subdivisions.find((entry) => entry.code === 'C');
    expect(cairo?.latinName).toBe('Cairo');
  });

  it('keeps Google’s key for each subdivision: the code, the name, or written out where it is neither', () => {
    const keyOf = (country: string, code: string) =>
      addressFormatOf(country)?.subdivisions.find((entry) => entry.code === code)?.key;
    expect(keyOf('US', 'TX')).toBe('TX');
    expect(keyOf('CA', 'QC')).toBe('QC');
    expect(keyOf('AU', 'NSW')).toBe('NSW');
    expect(keyOf('BR', 'SP')).toBe('SP');
    expect(keyOf('JP', '13')).toBe('東京都');
    expect(keyOf('IE', 'D')).toBe('Co. Dublin');
    expect(keyOf('MX', 'AGU')).toBe('AGS');
    expect(keyOf('MX', 'BCS')).toBe('BCS');
    expect(addressFormatOf('MX')?.subdivisions.find((entry) => entry.code === 'AGU')).toEqual({
      code: 'AGU',
      name: 'Aguascalientes',
      key: 'AGS',
    });
  });

  it('answers a country the data does not list with its defaults, and no country with null', () => {
    expect(addressFormatOf('BV')).toMatchObject({
      rows: [['fname', 'lname'], ['address1'], ['address2'], ['city']],
    });
    expect(addressFormatOf('XX')).toBeNull();
  });

  it('says which commit of Google’s data it was made from', () => {
    expect(data.source).toContain('google/libaddressinput e20690c8d5178bb282641d5eb06ef0298ff4cbc5');
  });
});
