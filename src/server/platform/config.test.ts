import { describe, expect, it } from 'vitest';
import { parseConfig } from './config.js';

describe('parseConfig', () => {
  it('has working defaults for a first run', () => {
    const result = parseConfig({}, '/srv/app');
    expect(result).toMatchObject({
      ok: true,
      config: {
        port: 3000,
        host: '127.0.0.1',
        databaseUrl: null,
        dataDir: '/srv/app/data',
        merchantApiKey: null,
        publicUrl: 'http://127.0.0.1:3000',
        publicUrlConfigured: false,
        trustedProxies: [],
        seedDemo: true,
      },
    });
  });

  it('reads every setting', () => {
    const result = parseConfig(
      {
        PORT: '8080',
        HOST: '0.0.0.0',
        DATABASE_URL: 'postgres://u@db:5432/checkout',
        DATA_DIR: '/var/lib/checkout',
        MERCHANT_API_KEY: 'sk_0123456789abcdefghijklmn',
        TOKEN_SECRET: 'x'.repeat(40),
        PUBLIC_URL: 'https://pay.example.com/',
        TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1',
        LOG_LEVEL: 'warn',
      },
      '/',
    );
    expect(result).toMatchObject({
      ok: true,
      config: {
        port: 8080,
        databaseUrl: 'postgres://u@db:5432/checkout',
        dataDir: '/var/lib/checkout',
        publicUrl: 'https://pay.example.com',
        publicUrlConfigured: true,
        trustedProxies: ['10.0.0.0/8', '127.0.0.1'],
        logLevel: 'warn',
      },
    });
  });

  it('names prepared statements on PostgreSQL unless DATABASE_PREPARED_STATEMENTS turns them off (a pooler)', () => {
    const database = 'postgres://u@db:5432/checkout';
    expect(parseConfig({ DATABASE_URL: database }, '/')).toMatchObject({
      config: { databasePreparedStatements: true },
    });
    expect(parseConfig({ DATABASE_URL: database, DATABASE_PREPARED_STATEMENTS: 'false' }, '/')).toMatchObject(
      { config: { databasePreparedStatements: false } },
    );
  });

  it('names every missing or malformed setting at once', () => {
    const result = parseConfig({
      PORT: 'eighty',
      DATABASE_URL: 'mysql://db',
      MERCHANT_API_KEY: 'short',
      TRUSTED_PROXIES: 'proxy.local',
      LOG_LEVEL: 'loud',
      SEED_DEMO: 'maybe',
      PAYPAL_CLIENT_ID: 'id-only',
    });
    expect(result).toEqual({
      ok: false,
      errors: [
        'PORT must be a whole number from 0 to 65535 (got "eighty").',
        'DATABASE_URL must be a postgres: or postgresql: URL (got "mysql:").',
        'MERCHANT_API_KEY must be at least 24 characters long.',
        'TRUSTED_PROXIES entry "proxy.local" is not an IP address or CIDR range.',
        'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud").',
        'SEED_DEMO must be true or false (got "maybe").',
        'PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET must be set together.',
      ],
    });
  });

  it('keeps Redis keys under a prefix, secure-checkout: unless REDIS_KEY_PREFIX says otherwise', () => {
    expect(parseConfig({ REDIS_URL: 'redis://cache:6379' })).toMatchObject({
      ok: true,
      config: { redisUrl: 'redis://cache:6379', redisKeyPrefix: 'secure-checkout:' },
    });
    expect(parseConfig({ REDIS_KEY_PREFIX: 'shop-2:' })).toMatchObject({
      ok: true,
      config: { redisKeyPrefix: 'shop-2:' },
    });
    expect(parseConfig({ REDIS_KEY_PREFIX: 'a b' })).toEqual({
      ok: false,
      errors: ['REDIS_KEY_PREFIX may use only letters, digits, "_", "-", "." and ":" (up to 64).'],
    });
  });
});

describe('METRICS_TOKEN', () => {
  it('is off by default and must be long enough to be a secret when set', () => {
    expect(parseConfig({})).toMatchObject({ ok: true, config: { metricsToken: null } });
    expect(parseConfig({ METRICS_TOKEN: 'scrape-me-0123456789' })).toMatchObject({
      ok: true,
      config: { metricsToken: 'scrape-me-0123456789' },
    });
    expect(parseConfig({ METRICS_TOKEN: 'short' })).toEqual({
      ok: false,
      errors: ['METRICS_TOKEN must be at least 16 characters long.'],
    });
  });
});

describe('request deadlines', () => {
  it('give a request 30 s and a silent body 10 s by default, in whole seconds from the environment', () => {
    expect(parseConfig({})).toMatchObject({
      ok: true,
      config: { requestTimeoutMs: 30_000, bodyIdleTimeoutMs: 10_000 },
    });
    expect(parseConfig({ REQUEST_TIMEOUT_SECONDS: '60', BODY_IDLE_TIMEOUT_SECONDS: '5' })).toMatchObject({
      ok: true,
      config: { requestTimeoutMs: 60_000, bodyIdleTimeoutMs: 5_000 },
    });
  });

  it('refuses a body deadline longer than the whole request may take, and deadlines out of range', () => {
    expect(parseConfig({ REQUEST_TIMEOUT_SECONDS: '5' })).toEqual({
      ok: false,
      errors: ['BODY_IDLE_TIMEOUT_SECONDS (10) must not exceed REQUEST_TIMEOUT_SECONDS (5).'],
    });
    expect(parseConfig({ REQUEST_TIMEOUT_SECONDS: '0', BODY_IDLE_TIMEOUT_SECONDS: '1.5' })).toEqual({
      ok: false,
      errors: [
        'REQUEST_TIMEOUT_SECONDS must be a whole number from 1 to 600 (got "0").',
        'BODY_IDLE_TIMEOUT_SECONDS must be a whole number from 1 to 600 (got "1.5").',
      ],
    });
  });
});

describe('housekeeping settings', () => {
  it('run the housekeeping hourly by default, on any other interval, or never', () => {
    expect(parseConfig({})).toMatchObject({ ok: true, config: { housekeepingIntervalSeconds: 3600 } });
    expect(parseConfig({ HOUSEKEEPING_INTERVAL_SECONDS: '0' })).toMatchObject({
      ok: true,
      config: { housekeepingIntervalSeconds: 0 },
    });
    expect(parseConfig({ HOUSEKEEPING_INTERVAL_SECONDS: 'hourly' })).toEqual({
      ok: false,
      errors: ['HOUSEKEEPING_INTERVAL_SECONDS must be a whole number from 0 to 86400 (got "hourly").'],
    });
  });
});

describe('retention settings', () => {
  it('keep finished jobs and email bodies 30 days by default, or the days given', () => {
    const day = 24 * 3_600_000;
    expect(parseConfig({})).toMatchObject({
      ok: true,
      config: { jobRetentionMs: 30 * day, emailBodyRetentionMs: 30 * day },
    });
    expect(parseConfig({ JOB_RETENTION_DAYS: '7', EMAIL_BODY_RETENTION_DAYS: '365' })).toMatchObject({
      ok: true,
      config: { jobRetentionMs: 7 * day, emailBodyRetentionMs: 365 * day },
    });
    expect(parseConfig({ JOB_RETENTION_DAYS: '0' })).toEqual({
      ok: false,
      errors: ['JOB_RETENTION_DAYS must be a whole number from 1 to 3650 (got "0").'],
    });
  });
});

describe('page check settings', () => {
  it('check the served page hourly by default, on any other interval, or never', () => {
    expect(parseConfig({})).toMatchObject({ ok: true, config: { pageCheckIntervalSeconds: 3600 } });
    expect(parseConfig({ PAGE_CHECK_INTERVAL_SECONDS: '0' })).toMatchObject({
      ok: true,
      config: { pageCheckIntervalSeconds: 0 },
    });
    expect(parseConfig({ PAGE_CHECK_INTERVAL_SECONDS: '-5' })).toEqual({
      ok: false,
      errors: ['PAGE_CHECK_INTERVAL_SECONDS must be a whole number from 0 to 86400 (got "-5").'],
    });
  });
});

describe('abuse-limit settings', () => {
  it('count IPv6 by /64 and remove untouched link carts after a week by default', () => {
    expect(parseConfig({})).toMatchObject({
      ok: true,
      config: { rateLimitIpv6Prefix: 64, untouchedCartRetentionMs: 7 * 24 * 3_600_000 },
    });
    expect(parseConfig({ RATE_LIMIT_IPV6_PREFIX: '56', UNTOUCHED_CART_RETENTION_HOURS: '24' })).toMatchObject(
      { ok: true, config: { rateLimitIpv6Prefix: 56, untouchedCartRetentionMs: 24 * 3_600_000 } },
    );
    expect(parseConfig({ RATE_LIMIT_IPV6_PREFIX: '129', UNTOUCHED_CART_RETENTION_HOURS: '0' })).toEqual({
      ok: false,
      errors: [
        'RATE_LIMIT_IPV6_PREFIX must be a whole number from 32 to 128 (got "129").',
        'UNTOUCHED_CART_RETENTION_HOURS must be a whole number from 1 to 8760 (got "0").',
      ],
    });
  });
});

describe('TEST_PROCESSOR_TOKENS_PER_IP', () => {
  it('lets one IP make 30 test processor tokens per 10 minutes by default, more or fewer when set', () => {
    expect(parseConfig({}, '/')).toMatchObject({ config: { testProcessorTokensPerIp: 30 } });
    expect(parseConfig({ TEST_PROCESSOR_TOKENS_PER_IP: '500' }, '/')).toMatchObject({
      config: { testProcessorTokensPerIp: 500 },
    });
    for (const value of ['0', '-1', 'many', '1.5', '100001']) {
      expect(parseConfig({ TEST_PROCESSOR_TOKENS_PER_IP: value }, '/')).toEqual({
        ok: false,
        errors: [`TEST_PROCESSOR_TOKENS_PER_IP must be a whole number from 1 to 100000 (got "${value}").`],
      });
    }
  });
});

describe('email and job settings', () => {
  it('keep emails locally and run jobs in the server by default', () => {
    expect(parseConfig({})).toMatchObject({
      ok: true,
      config: { smtpUrl: null, mailFrom: null, jobsInProcess: true },
    });
  });

  it('read the SMTP server, the sender address and where jobs run', () => {
    expect(
      parseConfig({
        SMTP_URL: 'smtps://user:pass@smtp.example.com:465',
        MAIL_FROM: 'orders@shop.example',
        JOBS_IN_PROCESS: 'false',
      }),
    ).toMatchObject({
      ok: true,
      config: {
        smtpUrl: 'smtps://user:pass@smtp.example.com:465',
        mailFrom: 'orders@shop.example',
        jobsInProcess: false,
      },
    });
  });

  it('refuse an SMTP URL of another scheme and a sender that is not an address', () => {
    expect(
      parseConfig({ SMTP_URL: 'http://smtp.example.com', MAIL_FROM: 'Shop <orders@shop.example>' }),
    ).toEqual({
      ok: false,
      errors: [
        'SMTP_URL must be a smtp: or smtps: URL (got "http:").',
        'MAIL_FROM must be an email address such as orders@example.com (got "Shop <orders@shop.example>").',
      ],
    });
  });
});

describe('webhook settings', () => {
  it('allow http receivers off production and private addresses only when the operator says so', () => {
    expect(parseConfig({})).toMatchObject({
      ok: true,
      config: { webhooks: { requireHttps: false, allowPrivateUrls: false } },
    });
    expect(
      parseConfig({ PUBLIC_URL: 'https://shop.example.com', WEBHOOKS_ALLOW_PRIVATE_URLS: 'true' }),
    ).toMatchObject({
      ok: true,
      config: { webhooks: { requireHttps: true, allowPrivateUrls: true } },
    });
    expect(parseConfig({ NODE_ENV: 'production' })).toMatchObject({
      ok: true,
      config: { webhooks: { requireHttps: true } },
    });
  });
});
