import { describe, expect, it } from 'vitest';
import { describeAction } from './audit-trail.js';

describe('describeAction', () => {
  it("says a route's change in words", () => {
    expect(describeAction('POST /checkout/api/merchant/orders/:id/refunds')).toBe('Refunded');
    expect(describeAction('POST /checkout/api/merchant/subscriptions/:id/pause')).toBe('Paused');
    expect(describeAction('POST /checkout/api/merchant/offers')).toBe('Created');
    expect(describeAction('PATCH /checkout/api/merchant/offers/:id')).toBe('Changed');
    expect(describeAction('DELETE /checkout/api/merchant/staff/:id')).toBe('Removed');
  });
});
