// The pages' Lingui: their compiled messages choose plurals by, and show, counts the page writes itself, so no
// Intl.NumberFormat starts before the first paint (src/i18n/shown-counts.ts, docs/languages.md "Counts").
import { setupI18n, type I18n } from '@lingui/core';
import { formattingLocaleOf, type Language } from './languages.js';
import { withCountsShown } from './shown-counts.js';

/** setupI18n for a page's catalogues (virtual:catalogue/…): every message said through it gets its counts written. */
export function setupPageI18n(config: Parameters<typeof setupI18n>[0]): I18n {
  const i18n = setupI18n(config);
  const say = i18n._.bind(i18n);
  const sayWithCounts: I18n['_'] = ((
    id: Parameters<I18n['_']>[0],
    values?: Record<string, unknown>,
    options?: never,
  ) =>
    say(
      id as never,
      withCountsShown(values as never, formattingLocaleOf(i18n.locale as Language)) as never,
      options,
    )) as I18n['_'];
  // `t` is bound to `_` when Lingui builds the instance: both are replaced.
  Object.assign(i18n, { _: sayWithCounts, t: sayWithCounts });
  return i18n;
}
