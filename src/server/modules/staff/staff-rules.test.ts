import { describe, expect, it } from 'vitest';
import {
  auditedObjectOf,
  passwordProblem,
  SESSION_IDLE_MS,
  SESSION_MAX_MS,
  sessionExpiresAt,
  signInAllowed,
  staffMayUse,
} from './staff-rules.js';

describe('sessionExpiresAt', () => {
  it('moves with use, but never past the longest a session lasts', () => {
    const created = new Date('2026-11-26T08:00:00Z');
    expect(sessionExpiresAt(created, created).getTime()).toBe(created.getTime() + SESSION_IDLE_MS);
    const late = new Date(created.getTime() + SESSION_MAX_MS - 1000);
    expect(sessionExpiresAt(created, late).getTime()).toBe(created.getTime() + SESSION_MAX_MS);
  });
});

describe('signInAllowed', () => {
  it('stops a fifth failure for one address, and a twentieth from one IP', () => {
    expect(signInAllowed({ byEmail: 4, byIp: 19 })).toBe(true);
    expect(signInAllowed({ byEmail: 5, byIp: 0 })).toBe(false);
    expect(signInAllowed({ byEmail: 0, byIp: 20 })).toBe(false);
  });
});

describe('passwordProblem', () => {
  it('asks for 12 to 200 characters, counted as a person counts them, and not the email', () => {
    expect(passwordProblem('short', 'a@b.co')).toBe('Use at least 12 characters.');
    expect(passwordProblem('😀'.repeat(12), 'a@b.co')).toBeNull();
    expect(passwordProblem('x'.repeat(201), 'a@b.co')).toBe('Use at most 200 characters.');
    expect(passwordProblem('Owner@Shop.example', 'owner@shop.example')).toBe(
      'Use a password that is not your email.',
    );
    expect(passwordProblem('a long enough passphrase', 'owner@shop.example')).toBeNull();
  });
});

describe('staffMayUse', () => {
  it('lets the owner use everything', () => {
    expect(staffMayUse('owner', 'POST', '/checkout/api/merchant/api-keys')).toBe(true);
    expect(staffMayUse('owner', 'PATCH', '/checkout/api/merchant/organization')).toBe(true);
  });

  it('keeps keys, webhooks, staff and settings changes from staff, and lets them run the store', () => {
    for (const url of [
      '/checkout/api/merchant/api-keys',
      '/checkout/api/merchant/api-keys/:id/revoke',
      '/checkout/api/merchant/webhook-endpoints/:id/deliveries',
      '/checkout/api/merchant/staff',
    ]) {
      expect(staffMayUse('staff', 'GET', url)).toBe(false);
    }
    expect(staffMayUse('staff', 'PATCH', '/checkout/api/merchant/organization')).toBe(false);
    expect(staffMayUse('staff', 'GET', '/checkout/api/merchant/organization')).toBe(true);
    expect(staffMayUse('staff', 'POST', '/checkout/api/merchant/orders/:id/refunds')).toBe(true);
    expect(staffMayUse('staff', 'POST', '/checkout/api/merchant/subscriptions/:id/pause')).toBe(true);
    expect(staffMayUse('staff', 'PATCH', '/checkout/api/merchant/offers/:id')).toBe(true);
  });
});

describe('auditedObjectOf', () => {
  it('names the object a route changes, with the id in its path', () => {
    expect(auditedObjectOf('/checkout/api/merchant/orders/:id/refunds', { id: '12' })).toEqual({
      type: 'order',
      id: '12',
    });
    expect(auditedObjectOf('/checkout/api/merchant/discount-codes', {})).toEqual({
      type: 'discount_code',
      id: null,
    });
    expect(auditedObjectOf('/checkout/api/orders', { id: '1' })).toBeNull();
  });
});
