import { describe, expect, it } from 'vitest';
import { afterFailure } from '../../platform/jobs/retry-delays.js';
import { isDelivered, WEBHOOK_RETRY_DELAYS_SECONDS, webhookUrlProblem } from './webhook-rules.js';

const production = { requireHttps: true, allowPrivate: false };
const local = { requireHttps: false, allowPrivate: true };

describe('webhookUrlProblem', () => {
  it('takes a public https URL', () => {
    expect(webhookUrlProblem('https://hooks.example.com/checkout', production)).toBeNull();
  });

  it('refuses what is not a URL, another scheme, http in production and credentials in the URL', () => {
    expect(webhookUrlProblem('hooks.example.com', production)).toMatch(/full URL/);
    expect(webhookUrlProblem('ftp://hooks.example.com/', production)).toMatch(/https/);
    expect(webhookUrlProblem('http://hooks.example.com/', production)).toMatch(/https/);
    expect(webhookUrlProblem('http://hooks.example.com/', { ...production, requireHttps: false })).toBeNull();
    expect(webhookUrlProblem('https://user:pw@hooks.example.com/', production)).toMatch(/user name/);
  });

  it('refuses loopback and private addresses unless the operator allows them', () => {
    for (const url of [
      'https://127.0.0.1/x',
      'https://localhost:8080/x',
      'https://10.1.2.3/x',
      'https://192.168.1.10/x',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/x',
      'https://[fd00::1]/x',
      'https://printer.local/x',
      'https://intranet/x',
    ]) {
      expect(webhookUrlProblem(url, production), url).toMatch(/public address/);
      expect(webhookUrlProblem(url.replace('https', 'http'), local), url).toBeNull();
    }
  });
});

describe('the retry schedule', () => {
  it('tries again for at least three days before it gives up', () => {
    const total = WEBHOOK_RETRY_DELAYS_SECONDS.reduce((sum, delay) => sum + delay, 0);
    expect(total).toBeGreaterThanOrEqual(3 * 86_400);
    const at = new Date('2026-11-26T00:00:00Z');
    expect(afterFailure(1, WEBHOOK_RETRY_DELAYS_SECONDS, at)).toEqual({
      retry: true,
      runAt: new Date('2026-11-26T00:00:05Z'),
    });
    expect(afterFailure(WEBHOOK_RETRY_DELAYS_SECONDS.length + 1, WEBHOOK_RETRY_DELAYS_SECONDS, at)).toEqual({
      retry: false,
    });
  });

  it('counts only a 2xx answer as delivered', () => {
    expect(isDelivered(200)).toBe(true);
    expect(isDelivered(204)).toBe(true);
    expect(isDelivered(301)).toBe(false);
    expect(isDelivered(500)).toBe(false);
    expect(isDelivered(null)).toBe(false);
  });
});
