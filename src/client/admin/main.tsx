import { setupPageI18n } from '../../i18n/page-i18n.js';
import { I18nProvider } from '@lingui/react';
import adminEnglish from 'virtual:catalogue/admin/en';
// The dashboard (docs/dashboard.md): an entry of its own (vite.admin.config.ts), so the checkout page's first load
// carries none of it.
import { createRoot } from 'react-dom/client';
import { AdminApp } from './admin-app.js';
import '../theme/theme.css';
import '../theme/base.css';
import './admin.css';

const root = document.getElementById('root');
// The dashboard speaks English; the shared controls (src/client/ui) say their words through the provider.
const english = setupPageI18n({ locale: 'en', messages: { en: adminEnglish } });
if (root)
  createRoot(root).render(
    <I18nProvider i18n={english}>
      <AdminApp />
    </I18nProvider>,
  );
