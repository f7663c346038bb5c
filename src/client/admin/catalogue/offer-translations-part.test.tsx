import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Offer } from '../../../contract/merchant.js';
import { LiveRegionProvider } from '../../ui/live-region.js';
import { OfferScreen } from './offer-screen.js';

// Other suites share the machine's cores: limits for a hang, not timing assertions (as render-checkout.tsx sets).
configure({ asyncUtilTimeout: 10_000 });
vi.setConfig({ testTimeout: 30_000 });

const OFFER: Offer = {
  id: 7,
  offer_name: 'Coffee beans',
  offer_title: '',
  item_id: '',
  item_name: 'Bag of beans',
  item_image: null,
  item_category: '',
  item_options: [
    { name: 'Size', value: '340 g' },
    { name: 'Roast', value: 'Dark' },
  ],
  override_initial_item_id: null,
  override_initial_item_name: null,
  price: 12,
  is_recurring: false,
  billing_interval_days: null,
  next_price: null,
  trial_days: null,
  discounted_cycles: null,
  discounted_price: null,
  total_cycles: null,
  prepaid_cycles: null,
  prepaid_renewal: null,
  billing_plan_description: null,
  is_giftable: false,
  is_taxable: true,
  requires_shipping: true,
  shipping_price: 0,
  digital_access: null,
  subscribe_and_save: null,
  bump_text: null,
  translations: { ja: { offer_name: 'コーヒー豆' } },
  active: true,
  created_at: '2026-11-01T00:00:00.000Z',
  updated_at: '2026-11-01T00:00:00.000Z',
};

/** The merchant API as the offer's form meets it; each PATCH answers the next of `answers`. */
function stubApi(answers: { status: number; body: unknown }[]) {
  const sent: Record<string, unknown>[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const json = (status: number, body: unknown) =>
        new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
      if (init.method === 'GET' && url.endsWith('/organization')) {
        return json(200, {
          currency: 'USD',
          languages: { default: 'en', enabled: ['en', 'es', 'fr', 'ja'] },
        });
      }
      if (init.method === 'GET' && url.endsWith('/offers/7')) return json(200, OFFER);
      if (init.method === 'PATCH' && url.endsWith('/offers/7')) {
        sent.push(JSON.parse(String(init.body)) as Record<string, unknown>);
        const answer = answers.shift() ?? { status: 500, body: { message: 'No answer left.' } };
        return json(answer.status, answer.body);
      }
      return json(200, { data: [], has_more: false });
    }),
  );
  return sent;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderOffer() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <LiveRegionProvider>
        <OfferScreen id={7} />
      </LiveRegionProvider>
    </QueryClientProvider>,
  );
}

describe("the offer form's translations", () => {
  it('adds an enabled language as its own group and sends only the fields typed', async () => {
    const sent = stubApi([{ status: 200, body: OFFER }]);
    const user = userEvent.setup();
    renderOffer();
    const translations = await screen.findByRole('group', { name: 'Translations' });
    // The saved Japanese text shows in its own group; the default language is not offered.
    expect(within(translations).getByRole('group', { name: 'Japanese' })).toBeTruthy();
    const language = await within(translations).findByRole('combobox', { name: 'Language' });
    expect(
      within(language)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Spanish', 'French']);

    await user.click(within(translations).getByRole('button', { name: 'Add Spanish' }));
    const spanish = within(translations).getByRole('group', { name: 'Spanish' });
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByLabelText(/^Offer name \(Spanish\)/)),
    );
    expect(screen.getByLabelText(/^Option 1 name \(Spanish\)/).getAttribute('aria-describedby')).toBeTruthy();
    expect(within(spanish).getByText('Empty shows “Size”.')).toBeTruthy();

    await user.keyboard('Granos de café');
    await user.type(screen.getByLabelText(/^Option 2 value \(Spanish\)/), 'Oscuro');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      translations: {
        es: { offer_name: 'Granos de café', item_options: [{}, { value: 'Oscuro' }] },
        ja: { offer_name: 'コーヒー豆' },
      },
    });
  });

  it('keeps each language’s option rows at their option’s place when an option is removed', async () => {
    const sent = stubApi([{ status: 200, body: OFFER }]);
    const user = userEvent.setup();
    renderOffer();
    await user.click(await screen.findByRole('button', { name: 'Add Spanish' }));
    await user.type(screen.getByLabelText(/^Option 2 name \(Spanish\)/), 'Tueste');
    await user.click(screen.getByRole('button', { name: 'Remove option 1' }));
    expect(screen.queryByLabelText(/^Option 2 name \(Spanish\)/)).toBeNull();
    expect((screen.getByLabelText(/^Option 1 name \(Spanish\)/) as HTMLInputElement).value).toBe('Tueste');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toMatchObject({
      item_options: [{ name: 'Roast', value: 'Dark' }],
      translations: { es: { item_options: [{ name: 'Tueste' }] } },
    });
  });

  it('shows the server’s refusal by the field it names, and removes a language with its button', async () => {
    stubApi([
      {
        status: 422,
        body: {
          message: 'Some fields need attention.',
          fields: { 'translations.ja.offer_name': 'Too long: at most 200 characters.' },
        },
      },
    ]);
    const user = userEvent.setup();
    renderOffer();
    const japanese = await screen.findByLabelText(/^Offer name \(Japanese\)/);
    await user.type(japanese, '!');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(japanese.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById('field-translations.ja.offer_name-error')?.textContent).toBe(
      'Too long: at most 200 characters.',
    );
    expect(japanese.getAttribute('aria-describedby')).toContain('field-translations.ja.offer_name-error');

    await user.click(screen.getByRole('button', { name: 'Remove Japanese' }));
    expect(screen.queryByRole('group', { name: 'Japanese' })).toBeNull();
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('combobox', { name: 'Language' })),
    );
  });
});
