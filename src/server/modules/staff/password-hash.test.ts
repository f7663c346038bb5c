import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from './password-hash.js';

// A cheap cost keeps the test fast; the format and the checks are the same.
const CHEAP = { N: 2 ** 10, r: 8, p: 1 };

describe('hashPassword', () => {
  it('verifies the password it hashed, and no other, with a fresh salt each time', async () => {
    const first = await hashPassword('correct horse battery', CHEAP);
    const second = await hashPassword('correct horse battery', CHEAP);
    expect(first).toMatch(/^scrypt\$1024\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword('correct horse battery', first)).toBe(true);
    expect(await verifyPassword('correct horse batterY', first)).toBe(false);
    expect(await verifyPassword('', first)).toBe(false);
  });

  it('takes a password typed in another Unicode form as the same password', async () => {
    const stored = await hashPassword('caf\u00e9 au lait 1', CHEAP);
    expect(await verifyPassword('cafe\u0301 au lait 1', stored)).toBe(true);
  });

  it('refuses a stored value that is not one of its hashes', async () => {
    expect(await verifyPassword('x', 'plain')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$0$8$1$AAAA$AAAA')).toBe(false);
  });
});
