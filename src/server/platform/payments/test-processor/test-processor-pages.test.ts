import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import {
  inlineStyleHashes,
  loadProcessorTemplates,
  PROCESSOR_CONFIG_PLACEHOLDER,
  processorPageLanguage,
  renderProcessorPage,
} from './test-processor-pages.js';
import { translatorFor } from '../../../i18n/translator.js';

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

describe("the processor's pages in the language on their URL", () => {
  it('write <html lang dir> and each marked element in that language', () => {
    const template = `<!doctype html><html lang="en"><head><title data-t="card.challenge_title">Confirm this payment</title>
${PROCESSOR_CONFIG_PLACEHOLDER}</head><body><h1 data-t="card.challenge_heading">Your bank asks</h1>
<button type="button" id="challenge-fail" data-t="card.fail">
  Fail authentication
</button></body></html>`;
    const page = renderProcessorPage(template, { checkoutOrigin: 'https://shop.example' }, 'ar');
    expect(page).toContain('<html lang="ar" dir="rtl">');
    expect(page).toContain(
      `<title data-t="card.challenge_title">${translatorFor('ar')('card.challenge_title')}</title>`,
    );
    expect(page).toContain(
      `id="challenge-fail" data-t="card.fail">${translatorFor('ar')('card.fail')}</button>`,
    );
    expect(page).not.toMatch(/Confirm this payment|Your bank asks|Fail authentication/);
  });

  it('say the pages are not built in that language, and read ?lang= as the pages do', async () => {
    const unbuilt = await loadProcessorTemplates(null);
    const page = renderProcessorPage(unbuilt.frame, { checkoutOrigin: 'https://shop.example' }, 'ja');
    expect(page).toContain('<html lang="ja" dir="ltr">');
    expect(page).toContain('カード入力欄がビルドされていません。npm run build を実行してください。');
    expect(page).not.toContain('have not been built');
    expect(processorPageLanguage('pt-br')).toBe('pt-BR');
    expect(processorPageLanguage('xx')).toBe('en');
    expect(processorPageLanguage(['ja'])).toBe('en');
  });
});

describe('loadProcessorTemplates', () => {
  it('says to build the pages when they are not built, and refuses a page without its config placeholder', async () => {
    const unbuilt = await loadProcessorTemplates(null);
    expect(renderProcessorPage(unbuilt.frame, { checkoutOrigin: 'https://shop.example' })).toContain(
      'The card fields have not been built. Run npm run build.',
    );
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
