import { describe, expect, it } from 'vitest';
import type { DiscountCode } from '../../../contract/merchant.js';
import { ApiFailure } from '../admin-api.js';
import { codeBody, codeFailure, codeFormValues, NEW_CODE } from './discount-code-form-values.js';
import { changedFields } from './form-values.js';

const code: DiscountCode = {
  id: 4,
  code: 'WELCOME10',
  kind: 'percent',
  percent_off: 10,
  amount_off: null,
  starts_at: '2026-12-01T08:00:00.000Z',
  ends_at: null,
  usage_limit: 100,
  usage_count: 12,
  min_subtotal: 0,
  offer_ids: [7, 3],
  active: true,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
};

describe("a discount code's form", () => {
  it("sends only the kind's own amount", () => {
    const fixed = codeBody({ ...NEW_CODE, code: 'FIVE', kind: 'fixed', percent_off: '10', amount_off: '5' });
    expect(fixed).toMatchObject({ kind: 'fixed', percent_off: null, amount_off: 5, usage_limit: null });
  });

  it('sends its moments as ISO 8601 with an offset', () => {
    const body = codeBody({ ...NEW_CODE, starts_at: '2026-12-01T09:30' });
    expect(body.starts_at).toMatch(/^2026-12-01T09:30:00[+-]\d{2}:\d{2}$/);
    expect(new Date(body.starts_at as string).getTime()).toBe(new Date(2026, 11, 1, 9, 30).getTime());
  });

  it('changes nothing when untouched, and sends the restricted offers when they change', () => {
    const values = codeFormValues(code);
    expect(changedFields(codeBody(values), codeBody(values))).toEqual({});
    expect(changedFields(codeBody(values), codeBody({ ...values, offer_ids: [3] }))).toEqual({
      offer_ids: [3],
    });
  });

  it('says a duplicate code by the code field', () => {
    const failure = codeFailure(new ApiFailure(409, 'A discount code WELCOME10 already exists.'));
    expect(failure).toEqual({ message: null, fields: { code: 'A discount code WELCOME10 already exists.' } });
    expect(codeFailure(new ApiFailure(422, 'Check', { percent_off: 'Must be at most 100.' })).fields).toEqual(
      {
        percent_off: 'Must be at most 100.',
      },
    );
  });
});
