// The subscriber's self-service page (docs/subscriptions.md, "Self-service"): an entry of its own
// (vite.manage.config.ts), so the checkout page's first load carries none of it.
import { createRoot } from 'react-dom/client';
import { ManageApp } from './manage-app.js';
import { manageTokenOf } from './route-token.js';
import '../theme/theme.css';
import '../theme/base.css';
import './manage.css';

const root = document.getElementById('root');
if (root) createRoot(root).render(<ManageApp token={manageTokenOf(window.location.pathname)} />);
