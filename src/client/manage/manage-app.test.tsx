import { setupPageI18n } from '../../i18n/page-i18n.js';
import { I18nProvider } from '@lingui/react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import german from 'virtual:catalogue/manage/de';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SubscriberSubscription } from '../../contract/subscriber.js';
import { manageLanguages } from '../i18n/manage-languages.js';
import { ManageApp } from './manage-app.js';

// The subscriber's page in its language (docs/languages.md): every word, date and amount, and the API's refusals,
// which it asks for in that language.

const SUBSCRIPTION: SubscriberSubscription = {
  id: 7,
  store: { name: 'Kaffeerösterei', logo_url: null },
  item_name: 'Kaffeeclub',
  quantity: 1,
  currency: 'EUR',
  cycle_amount: 25,
  interval_days: 30,
  plan_remaining: null,
  subscribe_and_save: null,
  status: 'active',
  next_charge_at: '2026-12-24T10:00:00.000Z',
  cancel_at: null,
  cancelled_at: null,
  card: { brand: 'visa', last4: '1111' },
  charges: [{ amount: 25, status: 'approved', created_at: '2026-11-24T10:00:00.000Z' }],
  cancel_effect: 'immediately',
  card_processor: null,
  is_test: false,
  language: 'de',
};

function answer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderInGerman() {
  const i18n = setupPageI18n({ locale: 'de', messages: { de: german } });
  return render(
    <I18nProvider i18n={i18n}>
      <ManageApp token="signed.token" />
    </I18nProvider>,
  );
}

describe('the subscriber’s page in German', () => {
  it('says the subscription, its dates and amounts in German, and asks the API in German', async () => {
    const fetch = vi.fn(async () => answer(200, SUBSCRIPTION));
    vi.stubGlobal('fetch', fetch);
    renderInGerman();

    expect(await screen.findByRole('heading', { name: 'Ihr Abonnement' })).toBeTruthy();
    expect(screen.getByText('Nächste Abbuchung am 24. Dezember 2026.')).toBeTruthy();
    expect(screen.getByText(/25,00\s€ monatlich/)).toBeTruthy();
    expect(screen.getByText('Visa, endend auf 1111')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Abonnement pausieren' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Nächste Abbuchung überspringen' })).toBeTruthy();
    const charges = screen.getByRole('table');
    expect(within(charges).getByText('Bezahlt')).toBeTruthy();
    expect(within(charges).getByRole('columnheader', { name: 'Betrag' })).toBeTruthy();
    expect(document.title).toBe('Ihr Abonnement');
    expect(screen.queryByText(/Next charge|Pause subscription/)).toBeNull();

    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect((init.headers as Record<string, string>)['accept-language']).toBe('de');
  });

  it('shows the API’s refusal, and its own words after an action, in German', async () => {
    const fetch = vi.fn(async (_url: string, init?: RequestInit) =>
      init?.method === 'POST'
        ? answer(409, {
            status: 409,
            code: 'charge_in_progress',
            message: 'Die nächste Abbuchung läuft gerade; versuchen Sie es in einigen Minuten erneut.',
          })
        : answer(200, SUBSCRIPTION),
    );
    vi.stubGlobal('fetch', fetch);
    renderInGerman();
    await userEvent.click(await screen.findByRole('button', { name: 'Abonnement kündigen' }));
    expect(screen.getByRole('heading', { name: 'Abonnement kündigen?' })).toBeTruthy();
    expect(screen.getByText('Ihr Abonnement endet jetzt, und es wird nichts mehr belastet.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Ja, Abonnement kündigen' }));
    expect(
      await screen.findByText(
        'Die nächste Abbuchung läuft gerade; versuchen Sie es in einigen Minuten erneut.',
      ),
    ).toBeTruthy();
  });

  it('says a link the API refuses in German, titled by its code', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        answer(401, {
          status: 401,
          code: 'subscriber_link_expired',
          message:
            'Dieser Link ist abgelaufen. Bitten Sie den Shop um einen neuen Link, um Ihr Abonnement zu verwalten.',
        }),
      ),
    );
    renderInGerman();
    expect(await screen.findByRole('heading', { name: 'Dieser Link ist abgelaufen' })).toBeTruthy();
  });
});

describe('the page’s languages', () => {
  it('turns to the subscription’s language when no ?lang= asked for one, and sets Arabic right to left', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer(200, { ...SUBSCRIPTION, language: 'ar' })),
    );
    await manageLanguages.activate('en');
    render(
      <I18nProvider i18n={manageLanguages.i18n}>
        <ManageApp token="signed.token" activate={manageLanguages.activate} />
      </I18nProvider>,
    );
    expect(await screen.findByRole('heading', { name: 'اشتراكك' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('ar');
    expect(document.documentElement.dir).toBe('rtl');
    await manageLanguages.activate('en');
    expect(document.documentElement.dir).toBe('ltr');
  });

  it('keeps the language ?lang= asked for', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer(200, { ...SUBSCRIPTION, language: 'ar' })),
    );
    await manageLanguages.activate('ja');
    render(
      <I18nProvider i18n={manageLanguages.i18n}>
        <ManageApp token="signed.token" requested="ja" activate={manageLanguages.activate} />
      </I18nProvider>,
    );
    expect(await screen.findByRole('heading', { name: 'ご契約中の定期購入' })).toBeTruthy();
    expect(document.documentElement.lang).toBe('ja');
    await manageLanguages.activate('en');
  });
});
