import { describe, expect, it } from 'vitest';
import type { OrganizationRow } from './organizations-repository.js';
import { sameJson, settingsOf } from './organization-service.js';

let nextId = 1;
const row = (settings: unknown, id = nextId++) =>
  ({ id, public_id: 'demo', name: 'Demo', currency: 'USD', settings }) as unknown as OrganizationRow;
/** A fresh copy, as each read of the row from the database gives. */
const read = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('settingsOf', () => {
  it('parses a row read once, however often it is asked, and again when its settings change', () => {
    const organization = row({ logoUrl: 'https://cdn.example.com/logo.png' });
    const first = settingsOf(organization);
    expect(first.logoUrl).toBe('https://cdn.example.com/logo.png');
    expect(settingsOf(organization)).toBe(first);
    organization.settings = { logoUrl: 'https://cdn.example.com/other.png' };
    expect(settingsOf(organization).logoUrl).toBe('https://cdn.example.com/other.png');
  });

  it('reuses the parse for later reads of the organization with the same settings, not after they change', () => {
    const stored = {
      logoUrl: 'https://cdn.example.com/logo.png',
      legal: { terms_url: 'https://example.com/terms' },
      clientOptions: {
        cart: { editable: { value: true, override: null } },
        testCards: ['4242424242424242'],
        subscriptionTermsCheckbox: { display: true, autoChecked: false },
        emailOptInCheckbox: { display: false, autoChecked: false },
      },
    };
    const first = settingsOf(row(read(stored), 900));
    expect(settingsOf(row(read(stored), 900))).toBe(first);
    // The same JSON with its keys in another order is the same settings.
    const reordered = {
      clientOptions: read(stored.clientOptions),
      legal: read(stored.legal),
      logoUrl: stored.logoUrl,
    };
    expect(settingsOf(row(reordered, 900))).toBe(first);

    // A change anywhere, however deep, is parsed.
    const changed = read(stored);
    changed.clientOptions.emailOptInCheckbox.display = true;
    const second = settingsOf(row(changed, 900));
    expect(second).not.toBe(first);
    expect(second.clientOptions.emailOptInCheckbox.display).toBe(true);
    const moreCards = read(stored);
    moreCards.clientOptions.testCards.push('4000000000000002');
    expect(settingsOf(row(moreCards, 900)).clientOptions.testCards).toHaveLength(2);

    // Another organization with the same settings has its own entry, and does not displace this one's.
    expect(settingsOf(row(read(moreCards), 901)).clientOptions.testCards).toHaveLength(2);
    expect(settingsOf(row(read(moreCards), 900)).clientOptions.testCards).toHaveLength(2);
  });
});

describe('sameJson', () => {
  it('compares values parsed from JSON by content, key order aside', () => {
    expect(sameJson({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true);
    expect(sameJson([], [])).toBe(true);
    expect(sameJson('x', 'x')).toBe(true);
    expect(sameJson(null, null)).toBe(true);

    expect(sameJson({ a: 1 }, { a: '1' })).toBe(false);
    expect(sameJson({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameJson({ a: 1, b: undefined }, { a: 1, c: undefined })).toBe(false);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
    expect(sameJson([1], [1, 1])).toBe(false);
    expect(sameJson({ 0: 'a' }, ['a'])).toBe(false);
    expect(sameJson(['a'], { 0: 'a' })).toBe(false);
    expect(sameJson(null, {})).toBe(false);
    expect(sameJson({}, null)).toBe(false);
    expect(sameJson({ a: { b: true } }, { a: { b: false } })).toBe(false);
  });
});
