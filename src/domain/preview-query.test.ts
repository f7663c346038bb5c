import { describe, expect, it } from 'vitest';
import { isLatestPreview, previewKey, previewQueryParams } from './preview-query.js';

describe('previewQueryParams', () => {
  it("sends empty and missing parameters as the text 'null'", () => {
    expect(
      previewQueryParams({ ship_country: 'US', ship_state: '', ship_zipcode: null, version: '3' }),
    ).toEqual({
      ship_country: 'US',
      ship_state: 'null',
      ship_zipcode: 'null',
      ship_city: 'null',
      bill_country: 'null',
      bill_state: 'null',
      bill_zipcode: 'null',
      same_address: 'null',
      shipping_profile_id: 'null',
      version: '3',
    });
  });

  it('sends the same-address box as true or false and trims values', () => {
    const params = previewQueryParams({ same_address: false, ship_zipcode: ' 73301 ' });
    expect(params.same_address).toBe('false');
    expect(params.ship_zipcode).toBe('73301');
    expect(previewQueryParams({ same_address: true }).same_address).toBe('true');
  });
});

describe('previewKey', () => {
  it('ignores the version so an unchanged address asks nothing new', () => {
    expect(previewKey({ ship_country: 'US', version: '1' })).toBe(
      previewKey({ ship_country: 'US', version: '2' }),
    );
    expect(previewKey({ ship_country: 'US' })).not.toBe(previewKey({ ship_country: 'CA' }));
  });
});

describe('isLatestPreview', () => {
  it('applies only the answer that echoes the latest version', () => {
    expect(isLatestPreview('4', '4')).toBe(true);
    expect(isLatestPreview('3', '4')).toBe(false);
    expect(isLatestPreview(null, '4')).toBe(false);
  });
});

describe('previewKey while the billing address is the shipping address', () => {
  it('leaves out the billing fields, which price nothing then', () => {
    const ship = { ship_country: 'US', ship_state: 'TX', ship_zipcode: '73301', same_address: true };
    expect(previewKey({ ...ship, bill_country: 'US' })).toBe(previewKey({ ...ship, bill_country: '' }));
    expect(previewKey({ ...ship, same_address: false, bill_country: 'US' })).not.toBe(
      previewKey({ ...ship, same_address: false, bill_country: 'CA' }),
    );
  });
});
