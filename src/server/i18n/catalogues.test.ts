import { compileMessageOrThrow, type CompiledMessage } from '@lingui/message-utils/compileMessage';
import { describe, expect, it } from 'vitest';
import { catalogueNamespaces, readCatalogue } from './catalogue-files.js';
import { LANGUAGES } from '../../i18n/languages.js';
import { SURFACES } from '../../i18n/surfaces.js';

// Every message exists in every language, says the same things (placeholders, markup), and counts as its language
// counts (docs/languages.md, "Translating").

interface Shape {
  placeholders: Set<string>;
  plurals: { name: string; categories: string[] }[];
}

function shapeOf(message: CompiledMessage, shape: Shape = { placeholders: new Set(), plurals: [] }): Shape {
  for (const token of message) {
    if (typeof token === 'string') continue;
    const [name, type, format] = token;
    shape.placeholders.add(name);
    if (
      (type === 'plural' || type === 'selectordinal' || type === 'select') &&
      format &&
      typeof format === 'object'
    ) {
      const choices = format as Record<string, CompiledMessage | number | undefined>;
      const categories = Object.keys(choices).filter((key) => key !== 'offset' && !key.startsWith('='));
      if (type === 'plural') shape.plurals.push({ name, categories });
      for (const [key, choice] of Object.entries(choices))
        if (key !== 'offset' && Array.isArray(choice)) shapeOf(choice, shape);
    }
  }
  return shape;
}

const markupOf = (message: string) => [...message.matchAll(/<\/?(\d+)\/?>/g)].map((m) => m[0]).sort();

const namespaces = catalogueNamespaces();

describe('message catalogues', () => {
  it('name a namespace for every surface’s catalogue', () => {
    for (const surface of Object.values(SURFACES))
      for (const namespace of surface) expect(namespaces).toContain(namespace);
  });

  describe.each(namespaces)('%s', (namespace) => {
    const english = readCatalogue(namespace, 'en');

    it('keys each message by its namespace', () => {
      expect(Object.keys(english).length).toBeGreaterThan(0);
      for (const key of Object.keys(english)) expect(key.startsWith(`${namespace}.`), key).toBe(true);
    });

    it.each(LANGUAGES)('is complete and well formed in %s', (language) => {
      const translated = readCatalogue(namespace, language);
      expect(Object.keys(translated).sort()).toEqual(Object.keys(english).sort());
      const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
      for (const [key, source] of Object.entries(english)) {
        const message = translated[key] ?? '';
        expect(message.trim(), `${key} is empty`).not.toBe('');
        const shape = shapeOf(compileMessageOrThrow(message));
        expect([...shape.placeholders].sort(), `${key}: placeholders`).toEqual(
          [...shapeOf(compileMessageOrThrow(source)).placeholders].sort(),
        );
        expect(markupOf(message), `${key}: markup`).toEqual(markupOf(source));
        for (const plural of shape.plurals)
          expect(plural.categories.sort(), `${key}: ${language} counts in ${categories.join(', ')}`).toEqual(
            expect.arrayContaining([...categories].sort()),
          );
      }
    });
  });
});
