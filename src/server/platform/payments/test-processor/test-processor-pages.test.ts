import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import {
  inlineStyleHashes,
  loadProcessorTemplates,
  PROCESSOR_CONFIG_PLACEHOLDER,
  renderProcessorPage,
} from './test-processor-pages.js';

describe('renderProcessorPage', () => {
  it('writes the config as a JSON block no value can close', () => {
    const page = renderProcessorPage(`<head>${PROCESSOR_CONFIG_PLACEHOLDER}</head>`, {
      checkoutOrigin: 'https://shop.example',
      challenge: { id: '</script><script>alert(1)</script>$&', status: 'pending' },
    });
    expect(page).toContain('<script type="application/json" id="processor-config">{"checkoutOrigin"');
    expect(page).not.toContain('</script><script>');
    expect(page).toContain('$&');
    const json = /<script[^>]*>(.*)<\/script>/.exec(page)?.[1] ?? '';
    expect(JSON.parse(json).challenge.id).toBe('</script><script>alert(1)</script>$&');
  });
});

describe('loadProcessorTemplates', () => {
  it('says to build the pages when they are not built, and refuses a page without its config placeholder', async () => {
    const unbuilt = await loadProcessorTemplates(null);
    expect(unbuilt.frame).toContain('npm run build');
    expect(unbuilt.challenge).toContain(PROCESSOR_CONFIG_PLACEHOLDER);
    const dir = mkdtempSync(path.join(tmpdir(), 'sc-frame-'));
    writeFileSync(path.join(dir, 'index.html'), '<html></html>');
    await expect(loadProcessorTemplates(dir)).rejects.toThrow(/placeholder/);
  });
});

describe('inlineStyleHashes', () => {
  it("answers each <style> element's content hash as a CSP source, and none for a page without one", () => {
    const css = 'body{margin:0}\n.card-frame{gap:1rem}';
    const hash = createHash('sha256').update(css).digest('base64');
    expect(inlineStyleHashes(`<head><style>${css}</style></head><body></body>`)).toEqual([
      `'sha256-${hash}'`,
    ]);
    expect(inlineStyleHashes('<head><link rel="stylesheet" href="/a.css"></head>')).toEqual([]);
  });
});
