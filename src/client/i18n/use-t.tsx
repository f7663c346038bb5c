// The page's words in its language (docs/languages.md): t(key, values) for text, <T> for text with markup inside.
import type { I18n } from '@lingui/core';
import { LinguiContext } from '@lingui/react';
import { TransNoContext } from '@lingui/react/server';
import { useCallback, useContext, type ReactElement } from 'react';
import { formattingLocaleOf, type Language } from '../../i18n/languages.js';
import type { MessageKey, MessageValues } from '../../i18n/message-keys.js';
import { fallbackI18n } from './fallback-i18n.js';

export type Translate = (key: MessageKey, values?: MessageValues) => string;

function useI18n(): I18n {
  const i18n = useContext(LinguiContext)?.i18n ?? fallbackI18n();
  if (!i18n) throw new Error('A page’s words need its I18nProvider (src/client/i18n).');
  return i18n;
}

/**
 * t(key, values), the page's language, and the locale its amounts and dates are written in (formattingLocaleOf): a
 * component that calls it renders again when the language changes.
 */
export function useT(): { t: Translate; language: Language; locale: string } {
  const i18n = useI18n();
  const language = i18n.locale as Language;
  // The language is a dependency though t does not read it: i18n stays the same object when the language changes,
  // and a new t is what makes memoized children render again.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const t = useCallback<Translate>((key, values) => i18n._(key, values), [i18n, language]);
  return { t, language, locale: formattingLocaleOf(language) };
}

/**
 * A message with markup inside, numbered in the catalogue as <0>…</0>: "I agree to the <0>terms</0>" with
 * components={[<a href={url} />]}. The words stay one sentence for the translator; nothing is concatenated.
 */
export function T(props: {
  id: MessageKey;
  values?: MessageValues;
  components?: ReactElement[];
}): ReactElement | null {
  const i18n = useI18n();
  const components = Object.fromEntries(
    (props.components ?? []).map((element, index) => [String(index), element]),
  );
  return (
    <TransNoContext id={props.id} values={props.values ?? {}} components={components} lingui={{ i18n }} />
  );
}
