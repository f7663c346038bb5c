import { useState } from 'react';
import { LANGUAGE_NAMES, type Language } from '../../../i18n/languages.js';
import { failureOf } from '../../api/http-client.js';
import { checkoutLanguages } from '../../i18n/checkout-languages.js';
import { useT } from '../../i18n/use-t.js';
import { useAnnounce } from '../../ui/live-region.js';
import { useCheckout } from '../checkout-context.js';
import './language-switcher.css';
import { rememberCartLanguage } from './remember-cart-language.js';

/**
 * The page's languages, in the footer (docs/languages.md, "Which language"). Choosing one turns the page to it in
 * place (what was typed stays), keeps it with the cart for reloads and emails, and takes the cart back with the
 * store's catalogue text in that language. The language the page opened in is kept by the page's start-up
 * (use-keep-opening-language.ts), with or without a switcher.
 */
export function LanguageSwitcher({ languages }: { languages: readonly Language[] }) {
  const { t, language } = useT();
  const { api, token, setCart } = useCheckout();
  const announce = useAnnounce();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (languages.length < 2) return null;

  const choose = async (next: Language) => {
    if (next === language || busy) return;
    setBusy(true);
    setError(null);
    try {
      await checkoutLanguages.activate(next);
      announce(checkoutLanguages.i18n._('language.changed', { language: LANGUAGE_NAMES[next] }));
      setCart(await rememberCartLanguage(api, token, next));
    } catch (failure) {
      setError(failureOf(failure, t).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="language-switcher">
      <label className="language-switcher__label" htmlFor="page-language">
        {t('language.label')}
      </label>
      <select
        className="language-switcher__select"
        id="page-language"
        value={language}
        aria-describedby={error ? 'page-language-error' : undefined}
        onChange={(event) => void choose(event.target.value as Language)}
      >
        {languages.map((option) => (
          <option key={option} value={option} lang={option}>
            {LANGUAGE_NAMES[option]}
          </option>
        ))}
      </select>
      {error ? (
        <p className="language-switcher__error" id="page-language-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
