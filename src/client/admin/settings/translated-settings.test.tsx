import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Organization } from '../../../contract/merchant.js';
import { LiveRegionProvider } from '../../ui/live-region.js';
import { LegalLinksForm } from './legal-links-form.js';
import { SubscriptionTermsForm } from './subscription-terms-form.js';

configure({ asyncUtilTimeout: 10_000 });
vi.setConfig({ testTimeout: 30_000 });

// Only what these two forms read of the organization.
const ORGANIZATION = {
  id: 1,
  subscription_terms: {
    text: 'I agree to be charged until I cancel.',
    version: 'v7',
    translations: { es: { text: 'Acepto que se me cobre hasta que cancele.' } },
  },
  legal: { terms_url: 'https://shop.example/terms', translations: {} },
  languages: { default: 'en', enabled: ['en', 'es', 'ja'] },
} as unknown as Organization;

/** PATCH /organization: records each body, and answers with the next of `answers`. */
function stubApi(answers: { status: number; body: unknown }[]) {
  const sent: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit) => {
      sent.push(JSON.parse(String(init.body)));
      const answer = answers.shift() ?? { status: 500, body: { message: 'No answer left.' } };
      return new Response(JSON.stringify(answer.body), {
        status: answer.status,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return sent;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderForm(form: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <LiveRegionProvider>{form}</LiveRegionProvider>
    </QueryClientProvider>,
  );
}

describe('the subscription terms in other languages', () => {
  it('are sent with the text, the saved ones kept and a language added', async () => {
    // Only what was sent matters here; the answer is a refusal so nothing else is read.
    const sent = stubApi([{ status: 409, body: { message: 'Changed meanwhile.' } }]);
    const user = userEvent.setup();
    renderForm(<SubscriptionTermsForm organization={ORGANIZATION} />);
    const other = screen.getByRole('group', { name: 'Terms text in other languages' });
    expect(within(other).getByRole('group', { name: 'Spanish' })).toBeTruthy();
    await user.selectOptions(within(other).getByRole('combobox', { name: 'Language' }), 'ja');
    await user.click(within(other).getByRole('button', { name: 'Add Japanese' }));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByLabelText(/^Terms text \(Japanese\)/)),
    );
    await user.keyboard('解約するまで請求されることに同意します。');
    await user.click(screen.getByRole('button', { name: 'Save subscription terms' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      subscription_terms: {
        text: 'I agree to be charged until I cancel.',
        version: 'v7',
        translations: {
          es: { text: 'Acepto que se me cobre hasta que cancele.' },
          ja: { text: '解約するまで請求されることに同意します。' },
        },
      },
    });
  });
});

describe('the legal links in other languages', () => {
  it('show the server’s refusal by the language’s field', async () => {
    const sent = stubApi([
      {
        status: 422,
        body: {
          message: 'Some fields need attention.',
          fields: { 'legal.translations.es.terms_url': 'Enter a full http(s) URL.' },
        },
      },
    ]);
    const user = userEvent.setup();
    renderForm(<LegalLinksForm organization={ORGANIZATION} />);
    await user.click(screen.getByRole('button', { name: 'Add Spanish' }));
    const terms = screen.getByLabelText(/^Terms of sale URL \(Spanish\)/);
    await user.type(terms, 'shop.example/es');
    await user.click(screen.getByRole('button', { name: 'Save legal links' }));
    await waitFor(() => expect(terms.getAttribute('aria-invalid')).toBe('true'));
    expect(sent[0]).toMatchObject({ legal: { translations: { es: { terms_url: 'shop.example/es' } } } });
    expect(document.getElementById('field-legal.translations.es.terms_url-error')?.textContent).toBe(
      'Enter a full http(s) URL.',
    );
  });
});
