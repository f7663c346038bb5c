import { describe, expect, it } from 'vitest';
import type { OrganizationRow } from '../repositories/organizations-repository.js';
import { settingsOf } from './organization-service.js';

const row = (settings: unknown) =>
  ({ id: 1, public_id: 'demo', name: 'Demo', currency: 'USD', settings }) as unknown as OrganizationRow;

describe('settingsOf', () => {
  it('parses a row read once, however often it is asked, and again when its settings change', () => {
    const organization = row({ logoUrl: 'https://cdn.example.com/logo.png' });
    const first = settingsOf(organization);
    expect(first.logoUrl).toBe('https://cdn.example.com/logo.png');
    expect(settingsOf(organization)).toBe(first);
    organization.settings = { logoUrl: 'https://cdn.example.com/other.png' };
    expect(settingsOf(organization).logoUrl).toBe('https://cdn.example.com/other.png');
    // Another read of the same organization is parsed for itself.
    expect(settingsOf(row({ logoUrl: 'https://cdn.example.com/logo.png' }))).not.toBe(first);
  });
});
