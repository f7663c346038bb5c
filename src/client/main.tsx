import { createRoot } from 'react-dom/client';
import { readPageBoot } from './boot/read-page-boot.js';
import { readCartTokenCookie } from '../domain/router-status.js';
import { readRouteToken } from './boot/route-token.js';
import { CheckoutApp, PageMessage } from './checkout/checkout-app.js';
import './theme/theme.css';
import './theme/base.css';

const root = document.getElementById('root');
if (root) {
  // The server's first view (page-shell.ts) is on screen meanwhile: the config is checked, then React replaces it
  // with the same markup, after the browser has painted it at least once.
  const painted = new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  void Promise.all([readPageBoot(document), painted]).then(([boot]) => {
    // The route or the cart_token query names the cart; /checkout alone resumes the cart this browser remembers.
    const routeToken = readRouteToken(window.location)?.token ?? readCartTokenCookie(document.cookie);
    createRoot(root).render(
      boot.ok && routeToken ? (
        <CheckoutApp config={boot.config} routeToken={routeToken} />
      ) : (
        <PageMessage
          config={boot.ok ? boot.config : null}
          title="This checkout link is not valid"
          message={boot.ok ? 'This page needs a checkout link from a store.' : boot.message}
        />
      ),
    );
  });
}
