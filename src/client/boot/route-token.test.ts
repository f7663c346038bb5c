import { describe, expect, it } from 'vitest';
import { addressForToken, readRouteToken } from './route-token.js';

describe('readRouteToken', () => {
  it('reads the token from the route', () => {
    expect(readRouteToken({ pathname: '/checkout/Ab3dEf6hIj9kLm2nOp5qRs8t', search: '' })).toEqual({
      token: 'Ab3dEf6hIj9kLm2nOp5qRs8t',
      isUnique: true,
    });
  });

  it('reads the cart_token query when the route has none', () => {
    expect(readRouteToken({ pathname: '/checkout', search: '?cart_token=__c__coffee' })).toEqual({
      token: '__c__coffee',
      isUnique: false,
    });
  });

  it('marks __g__ claims as not unique and answers null without a token', () => {
    expect(readRouteToken({ pathname: '/checkout/__g__abc', search: '' })?.isUnique).toBe(false);
    expect(readRouteToken({ pathname: '/checkout', search: '' })).toBeNull();
  });
});

describe('addressForToken', () => {
  it('replaces the token and keeps the query and hash', () => {
    expect(addressForToken({ search: '?cypress=1&payment_token_id=pt_1', hash: '#x' }, 'NEW123')).toBe(
      '/checkout/NEW123?cypress=1&payment_token_id=pt_1#x',
    );
  });

  it('drops the cart_token query it replaces', () => {
    expect(addressForToken({ search: '?cart_token=__c__coffee&cypress=1', hash: '' }, 'NEW123')).toBe(
      '/checkout/NEW123?cypress=1',
    );
  });
});
