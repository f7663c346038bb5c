import { beforeEach, describe, expect, it, vi } from 'vitest';
import { pageConfigFixture } from '../testing/fixtures.js';
import { readPageBoot } from './read-page-boot.js';

function setBlock(text: string | null) {
  document.head.innerHTML = '';
  if (text === null) return;
  const script = document.createElement('script');
  script.type = 'application/json';
  script.id = 'checkout-config';
  script.textContent = text;
  document.head.append(script);
}

beforeEach(() => setBlock(null));

describe('readPageBoot', () => {
  it("reads the server's config block", async () => {
    setBlock(JSON.stringify(pageConfigFixture()));
    const boot = await readPageBoot(document);
    expect(boot.ok && boot.config.organization).toBe('demo');
  });

  it("shows the server's message when the token names no cart", async () => {
    setBlock(
      JSON.stringify({
        error: { code: 'cart_not_found', message: 'This checkout link is no longer valid.' },
      }),
    );
    expect(await readPageBoot(document)).toEqual({
      ok: false,
      message: 'This checkout link is no longer valid.',
      code: 'cart_not_found',
    });
  });

  it('explains a missing or damaged block instead of failing', async () => {
    expect((await readPageBoot(document)).ok).toBe(false);
    setBlock('{oops');
    expect((await readPageBoot(document)).ok).toBe(false);
    setBlock(JSON.stringify({ organization: 'demo' }));
    expect((await readPageBoot(document)).ok).toBe(false);
  });

  it('explains a page whose config schema did not download (a dropped connection), instead of failing', async () => {
    vi.resetModules();
    vi.doMock('../../contract/page-config.js', () => {
      throw new Error('Failed to fetch dynamically imported module');
    });
    try {
      const { readPageBoot: readOffline } = await import('./read-page-boot.js');
      setBlock(JSON.stringify(pageConfigFixture()));
      expect(await readOffline(document)).toEqual({
        ok: false,
        message: { key: 'checkout.boot_broken' },
        code: null,
      });
    } finally {
      vi.doUnmock('../../contract/page-config.js');
      vi.resetModules();
    }
  });
});
