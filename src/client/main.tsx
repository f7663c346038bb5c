import { createRoot } from 'react-dom/client';
import { readPageBoot } from './boot/read-page-boot.js';
import { readRouteToken } from './boot/route-token.js';
import { CheckoutApp, PageMessage } from './checkout/checkout-app.js';
import './theme/theme.css';
import './theme/base.css';

const root = document.getElementById('root');
if (root) {
  const boot = readPageBoot(document);
  const route = readRouteToken(window.location);
  createRoot(root).render(
    boot.ok && route ? (
      <CheckoutApp config={boot.config} routeToken={route.token} />
    ) : (
      <PageMessage
        config={boot.ok ? boot.config : null}
        title="This checkout link is not valid"
        message={boot.ok ? 'This page needs a checkout link from a store.' : boot.message}
      />
    ),
  );
}
