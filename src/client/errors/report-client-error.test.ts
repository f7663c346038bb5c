import { describe, expect, it, vi } from 'vitest';
import { ClientErrorReportSchema } from '../../contract/cart.js';
import { buildErrorReport, reportClientError, sentryEvent, sentryStoreUrl } from './report-client-error.js';

describe('buildErrorReport', () => {
  it('scrubs card numbers from the message and stack, and fits the contract', () => {
    const error = new Error('Cannot read card 4111 1111 1111 1111 for cvv 123');
    error.stack = 'Error: 4111111111111111\n    at render (main.js:1:1)';
    const report = buildErrorReport(error, {
      componentStack: '\n    at PaymentSection',
      url: 'http://x/checkout/T',
    });
    expect(JSON.stringify(report)).not.toContain('4111 1111 1111 1111');
    expect(JSON.stringify(report)).not.toContain('4111111111111111');
    expect(report.message).toContain('[card ••••1111]');
    expect(ClientErrorReportSchema.safeParse(report).success).toBe(true);
  });
});

describe('the error report scrubs what shoppers really type', () => {
  it('masks card numbers with dots, underscores, tabs, runs of spaces or %20, and CVVs in free text', async () => {
    const typed = [
      '4111.1111.1111.1111',
      '5555_5555_5555_4444',
      '6011\t1111\t1111\t1117',
      '3782   822463   10005',
      '4111%201111%201111%201111',
    ];
    const error = new TypeError(`Could not charge ${typed[0]} (cvv:123)`);
    error.stack = `TypeError: ${typed[1]}\n    at pay ({"card_cvv":"321"})\n    at ${typed[2]} security code 1234`;
    const report = buildErrorReport(error, {
      componentStack: `\n    at PaymentSection (${typed[3]})`,
      url: `http://x/checkout/T?note=${typed[4]}`,
      cartToken: 'T',
    });
    expect(report.message).toBe('TypeError: Could not charge [card ••••1111] (cvv:[redacted])');
    expect(report.stack).toContain('({"card_cvv":"[redacted]"})');
    expect(report.stack).toContain('security code [redacted]');
    expect(report.url).toBe('http://x/checkout/T?note=[card ••••1111]');

    const sendToServer = vi.fn(async () => undefined);
    await reportClientError({ dsn: null, sendToServer }, report);
    const fetch = vi.fn(async () => new Response(null, { status: 200 }));
    await reportClientError({ dsn: 'https://k@errors.example.com/3', sendToServer, fetch }, report);
    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    for (const sent of [JSON.stringify(sendToServer.mock.calls[0]), String(init.body)]) {
      for (const number of typed) expect(sent).not.toContain(JSON.stringify(number).slice(1, -1));
      expect(sent).not.toMatch(/(?:cvv|security code)(?:[\s\\":=]|%3D)*\d/i);
    }
  });
});

describe('sentryStoreUrl', () => {
  it('turns a DSN into its store endpoint', () => {
    expect(sentryStoreUrl('https://abc123@o1.ingest.example.com/42')).toBe(
      'https://o1.ingest.example.com/api/42/store/?sentry_version=7&sentry_key=abc123&sentry_client=secure-checkout%2F0.1',
    );
    expect(sentryStoreUrl('https://abc@errors.example.com/sentry/7')).toMatch(
      /^https:\/\/errors\.example\.com\/sentry\/api\/7\/store\/\?/,
    );
  });

  it('refuses what is not a DSN', () => {
    expect(sentryStoreUrl('not a url')).toBeNull();
    expect(sentryStoreUrl('https://errors.example.com/42')).toBeNull();
  });
});

describe('reportClientError', () => {
  const report = buildErrorReport(new Error('boom'), { url: 'http://x/checkout/T', cartToken: 'T' });

  it('posts a store event to the DSN when one is configured', async () => {
    const fetch = vi.fn(async () => new Response(null, { status: 200 }));
    const sendToServer = vi.fn(async () => undefined);
    await reportClientError({ dsn: 'https://k@errors.example.com/3', sendToServer, fetch }, report);
    expect(sendToServer).not.toHaveBeenCalled();
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toContain('/api/3/store/');
    expect(JSON.parse(String(init.body))).toMatchObject({
      level: 'error',
      exception: { values: [{ value: 'boom' }] },
    });
  });

  it('sends the report to the server without a DSN', async () => {
    const sendToServer = vi.fn(async () => undefined);
    await reportClientError({ dsn: null, sendToServer }, report);
    expect(sendToServer).toHaveBeenCalledWith(report);
  });

  it('never throws when reporting fails', async () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(
      reportClientError({ dsn: null, sendToServer: () => Promise.reject(new Error('offline')) }, report),
    ).resolves.toBeUndefined();
    expect(spy).toHaveBeenCalled();
    spy.mockRestore();
  });

  it('builds an event with the report fields', () => {
    expect(sentryEvent(report, new Date('2026-11-15T00:00:00Z'))).toMatchObject({
      timestamp: '2026-11-15T00:00:00.000Z',
      tags: { cart_token: 'T' },
    });
  });
});
