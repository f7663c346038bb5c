import { describe, expect, it } from 'vitest';
import { acceptedTags, chooseLanguage, directionOf, languageOf, storeLanguagesProblem } from './languages.js';

describe('languageOf', () => {
  it('reads tags the way browsers and links write them', () => {
    expect(languageOf('es')).toBe('es');
    expect(languageOf('es-MX')).toBe('es');
    expect(languageOf('pt-br')).toBe('pt-BR');
    expect(languageOf('pt-PT')).toBe('pt-BR');
    expect(languageOf('ja_JP')).toBe('ja');
    expect(languageOf('AR')).toBe('ar');
  });

  it('knows no language it has no catalogue for', () => {
    expect(languageOf('sv')).toBeNull();
    expect(languageOf('')).toBeNull();
    expect(languageOf(null)).toBeNull();
  });
});

describe('acceptedTags', () => {
  it('orders by weight, then by place', () => {
    expect(acceptedTags('fr;q=0.5, es-MX,es;q=0.9,en;q=0.9')).toEqual(['es-MX', 'es', 'en', 'fr']);
  });

  it('drops the wildcard and refused tags', () => {
    expect(acceptedTags('*, de;q=0, it')).toEqual(['it']);
    expect(acceptedTags(undefined)).toEqual([]);
  });
});

describe('chooseLanguage', () => {
  const store = { enabled: ['en', 'es', 'ja', 'ar'] as const, storeDefault: 'en' as const };

  it('takes the asked-for language first, then the remembered one', () => {
    expect(chooseLanguage({ ...store, requested: 'ja', remembered: 'es', accepted: ['ar'] })).toBe('ja');
    expect(chooseLanguage({ ...store, remembered: 'es', accepted: ['ar'] })).toBe('es');
  });

  it('takes the browser’s first language the store speaks', () => {
    expect(chooseLanguage({ ...store, accepted: ['sv', 'de', 'es-ES', 'en'] })).toBe('es');
  });

  it('ignores a language the store has not enabled, and falls back to its default', () => {
    expect(chooseLanguage({ ...store, requested: 'de', accepted: ['fr'] })).toBe('en');
    expect(chooseLanguage({ enabled: [], storeDefault: 'fr', requested: 'es' })).toBe('fr');
  });
});

describe('directionOf', () => {
  it('writes Arabic right to left and the others left to right', () => {
    expect(directionOf('ar')).toBe('rtl');
    expect(directionOf('ja')).toBe('ltr');
  });
});

describe('storeLanguagesProblem', () => {
  it('asks for the default language to be enabled', () => {
    expect(storeLanguagesProblem({ default: 'es', enabled: ['en', 'ja'] })).toMatch(/add "es" to enabled/);
    expect(storeLanguagesProblem({ default: 'ja', enabled: ['en', 'ja'] })).toBeNull();
  });
});
