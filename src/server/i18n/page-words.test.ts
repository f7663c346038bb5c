import { describe, expect, it } from 'vitest';
import { writePageLanguage } from './page-words.js';

describe('writePageLanguage', () => {
  it('writes <html lang dir> and the words of each marked element, leaving the rest as it is', () => {
    const html = `<!doctype html>
<html lang="en"><head><title data-t="manage.title">Your subscription</title></head>
<body><p class="loading" role="status" data-t="manage.loading">
  Loading your subscription…
</p><p>Pat</p></body></html>`;
    const arabic = writePageLanguage(html, 'ar');
    expect(arabic).toContain('<html lang="ar" dir="rtl">');
    expect(arabic).toMatch(/<title data-t="manage.title">[^<A-Za-z]+<\/title>/);
    expect(arabic).not.toContain('Loading your subscription');
    expect(arabic).toContain('<p>Pat</p>');
    expect(writePageLanguage(html, 'es')).toContain(
      '<p class="loading" role="status" data-t="manage.loading">Cargando tu suscripción…</p>',
    );
    expect(writePageLanguage(html, 'en')).toContain('<html lang="en" dir="ltr">');
  });
});
