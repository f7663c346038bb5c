import { describe, expect, it } from 'vitest';
import { HIDDEN_LINK_WORDS, withoutOneTimeLinks } from './email-secrets.js';

describe('withoutOneTimeLinks', () => {
  it("hides a dashboard link's secret, in the text and in an HTML href, and keeps the rest", () => {
    const secret = 'o1YgxiNQ1JkMemzOvsyod9oyP6tCfb9Y6R0UQ0yoFNk';
    const text = `Set your password: https://shop.example/admin/link#${secret}\nIt works for 7 days.`;
    const shown = withoutOneTimeLinks(text);
    expect(shown).not.toContain(secret);
    expect(shown).toBe(
      `Set your password: https://shop.example/admin/link#${HIDDEN_LINK_WORDS}\nIt works for 7 days.`,
    );
    const html = `<a href="https://shop.example/admin/link#${secret}">Set your password</a>`;
    expect(withoutOneTimeLinks(html)).not.toContain(secret);
  });

  it('leaves other links as they are', () => {
    const receipt = 'Manage it: https://shop.example/checkout/manage/abc.def-ghi';
    expect(withoutOneTimeLinks(receipt)).toBe(receipt);
  });
});
