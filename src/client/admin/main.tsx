// The dashboard (docs/dashboard.md): an entry of its own (vite.admin.config.ts), so the checkout page's first load
// carries none of it.
import { createRoot } from 'react-dom/client';
import { AdminApp } from './admin-app.js';
import '../theme/theme.css';
import '../theme/base.css';
import './admin.css';

const root = document.getElementById('root');
if (root) createRoot(root).render(<AdminApp />);
