import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { PageBootSchema } from '../contract/page-config.js';

function readBoot() {
  const element = document.getElementById('checkout-config');
  const parsed = PageBootSchema.safeParse(JSON.parse(element?.textContent ?? 'null'));
  return parsed.success ? parsed.data : null;
}

function Placeholder() {
  const boot = readBoot();
  return (
    <main>
      <h1>Secure Checkout</h1>
      <p>
        {boot && 'organization_name' in boot ? boot.organization_name : (boot?.error.message ?? 'Loading…')}
      </p>
    </main>
  );
}

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <Placeholder />
    </StrictMode>,
  );
}
