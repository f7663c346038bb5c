// The subscriber's self-service page (docs/subscriptions.md, "Self-service"): an entry of its own
// (vite.manage.config.ts), so the checkout page's first load carries none of it.
import { I18nProvider } from '@lingui/react';
import { createRoot } from 'react-dom/client';
import { DEFAULT_LANGUAGE, languageOf } from '../../i18n/languages.js';
import { manageLanguages } from '../i18n/manage-languages.js';
import { ManageApp } from './manage-app.js';
import { manageTokenOf } from './route-token.js';
import '../theme/theme.css';
import '../theme/base.css';
import './manage.css';

const root = document.getElementById('root');
// ?lang= wins; else the language the server wrote the page in (its subscription's, else the browser's), so the page
// starts in the words its loading line already said (docs/languages.md).
const requested = languageOf(new URLSearchParams(window.location.search).get('lang'));
const first =
  requested ??
  languageOf(document.documentElement.lang) ??
  languageOf(navigator.language) ??
  DEFAULT_LANGUAGE;
if (root)
  void manageLanguages.activate(first).then(() =>
    createRoot(root).render(
      <I18nProvider i18n={manageLanguages.i18n}>
        <ManageApp
          token={manageTokenOf(window.location.pathname)}
          requested={requested}
          activate={manageLanguages.activate}
        />
      </I18nProvider>,
    ),
  );
