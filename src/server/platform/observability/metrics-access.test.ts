import { describe, expect, it } from 'vitest';
import { checkMetricsAccess } from './metrics-access.js';

const TOKEN = 'metrics-token-0123456789';

describe('checkMetricsAccess', () => {
  it('lets a scraper on a loopback or private address in when no token is configured', () => {
    for (const remoteAddress of [
      '127.0.0.1',
      '::1',
      '::ffff:127.0.0.1',
      '10.1.2.3',
      '192.168.0.9',
      'fd00::5',
    ]) {
      expect(
        checkMetricsAccess({ metricsToken: null, authorization: undefined, remoteAddress, relayed: false }),
      ).toEqual({ ok: true });
    }
  });

  it('refuses public addresses without a token', () => {
    expect(
      checkMetricsAccess({
        metricsToken: null,
        authorization: undefined,
        remoteAddress: '8.8.8.8',
        relayed: false,
      }),
    ).toMatchObject({ ok: false, status: 403, code: 'metrics_private_only' });
  });

  it('refuses a request a proxy relayed, even from loopback: it may be any visitor', () => {
    expect(
      checkMetricsAccess({
        metricsToken: null,
        authorization: undefined,
        remoteAddress: '127.0.0.1',
        relayed: true,
      }),
    ).toMatchObject({ ok: false, status: 403, code: 'metrics_private_only' });
  });

  it('asks for the token from everyone once one is configured, loopback included', () => {
    expect(
      checkMetricsAccess({
        metricsToken: TOKEN,
        authorization: undefined,
        remoteAddress: '127.0.0.1',
        relayed: false,
      }),
    ).toMatchObject({ ok: false, status: 401, code: 'metrics_token_required' });
    expect(
      checkMetricsAccess({
        metricsToken: TOKEN,
        authorization: `Bearer ${TOKEN}x`,
        remoteAddress: '127.0.0.1',
        relayed: false,
      }),
    ).toMatchObject({ ok: false, status: 401 });
  });

  it('accepts the configured token from any address, relayed or not', () => {
    expect(
      checkMetricsAccess({
        metricsToken: TOKEN,
        authorization: `Bearer ${TOKEN}`,
        remoteAddress: '8.8.8.8',
        relayed: true,
      }),
    ).toEqual({ ok: true });
  });
});
