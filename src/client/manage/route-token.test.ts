import { describe, expect, it } from 'vitest';
import { manageTokenOf } from './route-token.js';

describe("the link's token", () => {
  it('is the last part of the page address', () => {
    expect(manageTokenOf('/checkout/manage/aaa.bbb.ccc')).toBe('aaa.bbb.ccc');
  });

  it('is missing from an address without one', () => {
    expect(manageTokenOf('/checkout/manage/')).toBeNull();
    expect(manageTokenOf('/checkout/abc')).toBeNull();
  });
});
