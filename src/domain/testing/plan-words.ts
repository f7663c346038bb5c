// The `plan` catalogue's words in a language, for the tests of the rules that say a plan (billing-plan.test.ts): the
// catalogues compiled as the server compiles them (src/server/i18n/translator.ts), without reading files.
import { setupI18n } from '@lingui/core';
import { compileMessageOrThrow } from '@lingui/message-utils/compileMessage';
import ar from '../../i18n/catalogues/plan/ar.json' with { type: 'json' };
import en from '../../i18n/catalogues/plan/en.json' with { type: 'json' };
import es from '../../i18n/catalogues/plan/es.json' with { type: 'json' };
import ja from '../../i18n/catalogues/plan/ja.json' with { type: 'json' };
import type { PlanWords } from '../billing-plan.js';

const CATALOGUES = { en, es, ja, ar } as const;

export function planWordsIn(language: keyof typeof CATALOGUES): PlanWords {
  const compiled = Object.fromEntries(
    Object.entries(CATALOGUES[language]).map(([key, message]) => [key, compileMessageOrThrow(message)]),
  );
  const i18n = setupI18n({ locale: language, messages: { [language]: compiled } });
  return { t: (key, values) => i18n._(key, values), language };
}
