import { describe, expect, it } from 'vitest';
import { languagesPatch } from './languages-form.js';

describe('the languages form', () => {
  it('sends the enabled languages in the checkout’s order, with the default always among them', () => {
    expect(languagesPatch('ja', new Set(['ar', 'es']))).toEqual({
      languages: { default: 'ja', enabled: ['es', 'ja', 'ar'] },
    });
    expect(languagesPatch('en', new Set())).toEqual({ languages: { default: 'en', enabled: ['en'] } });
  });
});
