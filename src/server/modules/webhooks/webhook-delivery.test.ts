import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { publicOnlyLookup } from './webhook-delivery.js';

function lookupWith(entries: LookupAddress[]) {
  const lookup = publicOnlyLookup(async () => entries);
  return (all: boolean) =>
    new Promise<{ error: Error | null; address: unknown }>((resolve) =>
      lookup('hooks.example.com', { all }, (error, address) => resolve({ error, address })),
    );
}

describe('publicOnlyLookup', () => {
  it('connects to a public address as the resolver gave it', async () => {
    const lookup = lookupWith([{ address: '93.184.215.14', family: 4 }]);
    expect(await lookup(false)).toEqual({ error: null, address: '93.184.215.14' });
    expect(await lookup(true)).toEqual({ error: null, address: [{ address: '93.184.215.14', family: 4 }] });
  });

  it('refuses a name with any loopback or private address among its answers', async () => {
    for (const inside of ['127.0.0.1', '10.1.2.3', '169.254.169.254', '::1', 'fd00::1']) {
      const lookup = lookupWith([
        { address: '93.184.215.14', family: 4 },
        { address: inside, family: inside.includes(':') ? 6 : 4 },
      ]);
      const { error } = await lookup(false);
      expect(error?.message).toBe(`The URL's host resolves to a private address (${inside}): not sent.`);
    }
  });
});
