import { setupI18n } from '@lingui/core';
import type { CompiledMessage, CompiledMessageToken } from '@lingui/message-utils/compileMessage';
import { describe, expect, it } from 'vitest';
import { formattingLocaleOf, LANGUAGES } from '../../i18n/languages.js';
import { readShownCounts, withCountsShown } from '../../i18n/shown-counts.js';
import { catalogueNamespaces, compileCatalogues } from './catalogue-files.js';

/** Each placeholder of a compiled message with the kind of value it takes. */
function placeholdersOf(
  message: CompiledMessage | string,
  into = new Map<string, string>(),
): Map<string, string> {
  if (typeof message === 'string') return into;
  for (const token of message) {
    if (typeof token === 'string') continue;
    const [name, type, format] = token as [string, string | undefined, unknown];
    if (!into.has(name) || type === 'plural') into.set(name, type ?? 'text');
    if (typeof format === 'object' && format !== null)
      for (const branch of Object.values(format))
        if (Array.isArray(branch)) placeholdersOf(branch as CompiledMessageToken[], into);
  }
  return into;
}

describe("the pages' plurals", () => {
  it('say every message of every language as Lingui says it, for counts from 0 to 1,234', () => {
    const counts = [0, 1, 2, 3, 4, 5, 7, 11, 14, 21, 30, 100, 101, 1234];
    let said = 0;
    for (const language of LANGUAGES) {
      const compiled = compileCatalogues(catalogueNamespaces(), language);
      const lingui = setupI18n({ locale: language, messages: { [language]: compiled } });
      const page = setupI18n({
        locale: language,
        messages: {
          [language]: Object.fromEntries(
            Object.entries(compiled).map(([key, m]) => [key, readShownCounts(m)]),
          ),
        },
      });
      for (const [key, message] of Object.entries(compiled)) {
        const placeholders = placeholdersOf(message);
        if (![...placeholders.values()].includes('plural')) continue;
        for (const count of counts) {
          const values = Object.fromEntries(
            [...placeholders].map(([name, type]) => [
              name,
              type === 'plural' ? count : type === 'select' ? 'other' : name,
            ]),
          );
          expect(
            page._(key, withCountsShown(values, formattingLocaleOf(language))),
            `${language} ${key} ${count}`,
          ).toBe(lingui._(key, values));
          said++;
        }
      }
    }
    expect(said).toBeGreaterThan(9 * 20 * 10);
  });
});
