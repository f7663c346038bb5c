// The floor of the page benchmark: React 19 rendering one heading, built by the same Vite and React plugin as the
// checkout page and served by the same server routes.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <main>
        <h1>Hello</h1>
      </main>
    </StrictMode>,
  );
}
