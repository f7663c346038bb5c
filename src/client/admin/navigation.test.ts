import { describe, expect, it } from 'vitest';
import { screenOf } from './navigation.js';

describe('screenOf', () => {
  it('opens the link and sign-in screens by their address, and home for anything else under /admin', () => {
    expect(screenOf('/admin/link')).toBe('link');
    expect(screenOf('/admin/sign-in')).toBe('sign-in');
    expect(screenOf('/admin')).toBe('home');
    expect(screenOf('/admin/orders')).toBe('home');
  });
});
