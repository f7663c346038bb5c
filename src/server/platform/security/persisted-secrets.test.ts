import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveSecret } from './persisted-secrets.js';

const folder = () => mkdtempSync(path.join(tmpdir(), 'sc-secrets-'));

describe('resolveSecret', () => {
  it('uses the configured value and writes nothing', async () => {
    const dir = folder();
    expect(await resolveSecret('from-the-environment', dir, 'token-secret')).toEqual({
      value: 'from-the-environment',
      generated: false,
    });
    expect(() => statSync(path.join(dir, 'token-secret'))).toThrow();
  });

  it('generates one secret, readable by its owner only, and keeps it across restarts', async () => {
    const dir = folder();
    const first = await resolveSecret(null, dir, 'token-secret');
    expect(first.generated).toBe(true);
    expect(first.value.length).toBeGreaterThanOrEqual(32);
    expect(statSync(path.join(dir, 'token-secret')).mode & 0o777).toBe(0o600);
    expect(await resolveSecret(null, dir, 'token-secret')).toEqual({ value: first.value, generated: false });
  });

  it('gives instances starting together on one data folder the same whole secret', async () => {
    const dir = folder();
    const all = await Promise.all(Array.from({ length: 20 }, () => resolveSecret(null, dir, 'token-secret')));
    const values = new Set(all.map((secret) => secret.value));
    expect(values.size).toBe(1);
    expect([...values][0]?.length).toBeGreaterThanOrEqual(32);
    expect(all.filter((secret) => secret.generated)).toHaveLength(1);
  });

  it('refuses an empty secret file rather than signing with an empty key', async () => {
    const dir = folder();
    writeFileSync(path.join(dir, 'token-secret'), '\n');
    await expect(resolveSecret(null, dir, 'token-secret')).rejects.toThrow(
      /token-secret.*is empty: delete it to have a new secret made, or set the secret in the environment/,
    );
  });
});
