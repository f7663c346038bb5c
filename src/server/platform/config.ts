import path from 'node:path';

/**
 * The one place that reads process.env. Every setting is parsed here, and every problem is reported at once
 * so an operator fixes their environment in one go instead of one error per restart.
 */
export interface Config {
  port: number;
  host: string;
  /** postgres://… when set; the embedded PGlite database in dataDir otherwise. */
  databaseUrl: string | null;
  databasePoolSize: number;
  /** Server-side prepared statements on PostgreSQL (off behind a pooler that cannot keep them). */
  databasePreparedStatements: boolean;
  dataDir: string;
  /** The demo organization's merchant key; generated and persisted in dataDir when unset. */
  merchantApiKey: string | null;
  /** Secret that signs CSRF and access tokens; generated and persisted in dataDir when unset. */
  tokenSecret: string | null;
  /** Still accepted for verification during a secret rotation; never used to sign. */
  tokenSecretPrevious: string | null;
  /** Base URL printed in checkout links; derived from host and port when unset. */
  publicUrl: string;
  /** Whether PUBLIC_URL was set (else publicUrl follows the port, including one picked for PORT=0). */
  publicUrlConfigured: boolean;
  /** Proxies whose X-Forwarded-For / X-Forwarded-Proto are believed (exact IPs or CIDR ranges). */
  trustedProxies: string[];
  /** The per-IP abuse limits count IPv6 addresses by their network of this many bits. */
  rateLimitIpv6Prefix: number;
  /** Carts made from checkout links that nobody touched for this long are removed by the housekeeping. */
  untouchedCartRetentionMs: number;
  /** Finished jobs and webhook deliveries that are over are deleted by the housekeeping this long after. */
  jobRetentionMs: number;
  /** Emails' bodies are dropped by the housekeeping this long after they were written (the record stays). */
  emailBodyRetentionMs: number;
  redisUrl: string | null;
  /** Prefix of every Redis key this app writes, so several deployments can share one Redis. */
  redisKeyPrefix: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** A request (head and body) must have arrived this long after its first byte, else it is answered 408. */
  requestTimeoutMs: number;
  /** A body that sends nothing for this long is answered 408 (at most requestTimeoutMs). */
  bodyIdleTimeoutMs: number;
  /** Seed the demo store on first start. */
  seedDemo: boolean;
  /** Run the subscription rebill runner inside the server every N seconds (0 = off; use `npm run rebill`). */
  rebillIntervalSeconds: number;
  /** Housekeeping (docs/operations.md, "Housekeeping") every N seconds in the server; 0 turns it off. */
  housekeepingIntervalSeconds: number;
  /** Compare the served page with the build's manifest every N seconds (docs/security.md, "Page scripts"); 0 = off. */
  pageCheckIntervalSeconds: number;
  /**
   * How long a payment in flight holds its order and its Idempotency-Key. After a crash, a retry waits this long
   * before it may take over; it must exceed the slowest gateway call.
   */
  paymentLeaseSeconds: number;
  /**
   * How long a background job (an email, a webhook delivery) is its worker's: after a crash, the job runs again once
   * it has run out; it must exceed the slowest job.
   */
  jobLeaseSeconds: number;
  /** External error-reporting endpoint for the page (Sentry-compatible DSN); reports go to the server when unset. */
  errorReportingDsn: string | null;
  /**
   * Bearer token GET /metrics asks for. Unset: /metrics answers only direct requests from loopback or private
   * addresses (none relayed by a proxy).
   */
  metricsToken: string | null;
  paypal: { clientId: string; clientSecret: string; apiBase: string } | null;
  /**
   * The built-in test processor's own origin (docs/payments.md): a second listener on this port (0 picks one); its
   * URL as browsers reach it, derived from HOST and the bound port when TEST_PROCESSOR_URL is unset.
   */
  testProcessor: { port: number; url: string | null };
  /**
   * Token requests (POST /v1/tokens) the test processor takes from one IP per 10 minutes: a shopper makes a handful,
   * a card tester thousands. Raised only where one address stands for many shoppers (a load test, an HTTP test).
   */
  testProcessorTokensPerIp: number;
  /** Stripe takes the cards when its keys are set; the test processor does otherwise. */
  stripe: { secretKey: string; publishableKey: string; webhookSecret: string | null } | null;
  /** smtp:// or smtps:// server the emails go through; unset, each email is kept locally (docs/emails.md). */
  smtpUrl: string | null;
  /** The address emails come from, under the store's name; no-reply@localhost when unset. */
  mailFrom: string | null;
  /** Run the job worker inside the server (docs/architecture.md, "Jobs"); off, `npm run worker` runs the jobs. */
  jobsInProcess: boolean;
  /**
   * Webhook receivers (docs/webhooks.md): https only in production (NODE_ENV=production or an https PUBLIC_URL);
   * loopback and private addresses only with WEBHOOKS_ALLOW_PRIVATE_URLS=true.
   */
  webhooks: { requireHttps: boolean; allowPrivateUrls: boolean };
}

export type Env = Readonly<Record<string, string | undefined>>;

export type ConfigResult = { ok: true; config: Config } | { ok: false; errors: string[] };

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function parseConfig(env: Env, cwd: string = process.cwd()): ConfigResult {
  const errors: string[] = [];
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };

  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = read(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max) {
      errors.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}").`);
      return fallback;
    }
    return value;
  };

  const bool = (name: string, fallback: boolean): boolean => {
    const raw = read(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
    if (['0', 'false', 'no', 'off'].includes(raw)) return false;
    errors.push(`${name} must be true or false (got "${raw}").`);
    return fallback;
  };

  const url = (name: string, protocols: string[]): string | null => {
    const raw = read(name);
    if (raw === undefined) return null;
    try {
      const parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) {
        errors.push(`${name} must be a ${protocols.join(' or ')} URL (got "${parsed.protocol}").`);
        return null;
      }
      return raw;
    } catch {
      errors.push(`${name} is not a valid URL.`);
      return null;
    }
  };

  const secret = (name: string, minLength: number): string | null => {
    const raw = read(name);
    if (raw === undefined) return null;
    if (raw.length < minLength) {
      errors.push(`${name} must be at least ${minLength} characters long.`);
      return null;
    }
    return raw;
  };

  const port = int('PORT', 3000, 0, 65535);
  const host = read('HOST') ?? '127.0.0.1';
  const databaseUrl = url('DATABASE_URL', ['postgres:', 'postgresql:']);
  const databasePoolSize = int('DATABASE_POOL_SIZE', 10, 1, 500);
  const databasePreparedStatements = bool('DATABASE_PREPARED_STATEMENTS', true);
  const dataDir = path.resolve(cwd, read('DATA_DIR') ?? 'data');
  const merchantApiKey = secret('MERCHANT_API_KEY', 24);
  const tokenSecret = secret('TOKEN_SECRET', 32);
  const tokenSecretPrevious = secret('TOKEN_SECRET_PREVIOUS', 32);
  const publicUrlRaw = url('PUBLIC_URL', ['http:', 'https:']);
  const displayHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const publicUrl = (
    publicUrlRaw ?? `http://${displayHost.includes(':') ? `[${displayHost}]` : displayHost}:${port}`
  ).replace(/\/+$/, '');

  const trustedProxies = (read('TRUSTED_PROXIES') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of trustedProxies) {
    if (!isIpOrCidr(entry))
      errors.push(`TRUSTED_PROXIES entry "${entry}" is not an IP address or CIDR range.`);
  }

  const rateLimitIpv6Prefix = int('RATE_LIMIT_IPV6_PREFIX', 64, 32, 128);
  const untouchedCartRetentionHours = int('UNTOUCHED_CART_RETENTION_HOURS', 7 * 24, 1, 365 * 24);
  const jobRetentionDays = int('JOB_RETENTION_DAYS', 30, 1, 3650);
  const emailBodyRetentionDays = int('EMAIL_BODY_RETENTION_DAYS', 30, 1, 3650);

  const redisUrl = url('REDIS_URL', ['redis:', 'rediss:']);
  const redisKeyPrefix = read('REDIS_KEY_PREFIX') ?? 'secure-checkout:';
  if (!/^[\w:.-]{1,64}$/.test(redisKeyPrefix)) {
    errors.push('REDIS_KEY_PREFIX may use only letters, digits, "_", "-", "." and ":" (up to 64).');
  }
  const logLevelRaw = read('LOG_LEVEL') ?? 'info';
  let logLevel: Config['logLevel'] = 'info';
  if ((LOG_LEVELS as readonly string[]).includes(logLevelRaw)) logLevel = logLevelRaw as Config['logLevel'];
  else errors.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevelRaw}").`);

  const bodyLimit = int('BODY_LIMIT_BYTES', 64 * 1024, 1024, 10 * 1024 * 1024);
  const requestTimeoutSeconds = int('REQUEST_TIMEOUT_SECONDS', 30, 1, 600);
  const bodyIdleTimeoutSeconds = int('BODY_IDLE_TIMEOUT_SECONDS', 10, 1, 600);
  if (bodyIdleTimeoutSeconds > requestTimeoutSeconds) {
    errors.push(
      `BODY_IDLE_TIMEOUT_SECONDS (${bodyIdleTimeoutSeconds}) must not exceed REQUEST_TIMEOUT_SECONDS (${requestTimeoutSeconds}).`,
    );
  }
  const seedDemo = bool('SEED_DEMO', true);
  const rebillIntervalSeconds = int('REBILL_INTERVAL_SECONDS', 0, 0, 86_400);
  const housekeepingIntervalSeconds = int('HOUSEKEEPING_INTERVAL_SECONDS', 3600, 0, 86_400);
  const pageCheckIntervalSeconds = int('PAGE_CHECK_INTERVAL_SECONDS', 3600, 0, 86_400);
  const paymentLeaseSeconds = int('PAYMENT_LEASE_SECONDS', 60, 5, 600);
  const jobLeaseSeconds = int('JOB_LEASE_SECONDS', 300, 20, 3600);
  const errorReportingDsn = url('ERROR_REPORTING_DSN', ['http:', 'https:']);
  const metricsToken = secret('METRICS_TOKEN', 16);

  const paypalClientId = read('PAYPAL_CLIENT_ID');
  const paypalClientSecret = read('PAYPAL_CLIENT_SECRET');
  const paypalApiBase = url('PAYPAL_API_BASE', ['https:', 'http:']) ?? 'https://api-m.sandbox.paypal.com';
  let paypal: Config['paypal'] = null;
  if (paypalClientId !== undefined && paypalClientSecret !== undefined) {
    paypal = { clientId: paypalClientId, clientSecret: paypalClientSecret, apiBase: paypalApiBase };
  } else if (paypalClientId !== undefined || paypalClientSecret !== undefined) {
    errors.push('PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET must be set together.');
  }

  const testProcessorPort = int('TEST_PROCESSOR_PORT', port === 0 ? 0 : Math.min(port + 1, 65535), 0, 65535);
  if (testProcessorPort !== 0 && testProcessorPort === port)
    errors.push(
      `TEST_PROCESSOR_PORT must differ from PORT (${port}): the card fields need an origin of their own.`,
    );
  const testProcessorUrl = url('TEST_PROCESSOR_URL', ['http:', 'https:']);
  if (
    testProcessorUrl !== null &&
    publicUrlRaw !== null &&
    new URL(testProcessorUrl).origin === new URL(publicUrlRaw).origin
  )
    errors.push(
      'TEST_PROCESSOR_URL must be another origin than PUBLIC_URL: the card fields need an origin of their own.',
    );
  const testProcessorTokensPerIp = int('TEST_PROCESSOR_TOKENS_PER_IP', 30, 1, 100_000);

  const stripeSecretKey = read('STRIPE_SECRET_KEY');
  const stripePublishableKey = read('STRIPE_PUBLISHABLE_KEY');
  const stripeWebhookSecret = read('STRIPE_WEBHOOK_SECRET') ?? null;
  let stripe: Config['stripe'] = null;
  if (stripeSecretKey !== undefined && stripePublishableKey !== undefined) {
    if (!/^(sk|rk)_(test|live)_/.test(stripeSecretKey))
      errors.push(
        'STRIPE_SECRET_KEY must be a Stripe secret key (sk_test_…, sk_live_… or a restricted rk_…).',
      );
    if (!/^pk_(test|live)_/.test(stripePublishableKey))
      errors.push('STRIPE_PUBLISHABLE_KEY must be a Stripe publishable key (pk_test_… or pk_live_…).');
    else if (stripeSecretKey.split('_')[1] !== stripePublishableKey.split('_')[1])
      errors.push('STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must both be test keys or both live keys.');
    if (stripeWebhookSecret !== null && !stripeWebhookSecret.startsWith('whsec_'))
      errors.push("STRIPE_WEBHOOK_SECRET must be the endpoint's signing secret (whsec_…).");
    stripe = {
      secretKey: stripeSecretKey,
      publishableKey: stripePublishableKey,
      webhookSecret: stripeWebhookSecret,
    };
  } else if (stripeSecretKey !== undefined || stripePublishableKey !== undefined) {
    errors.push('STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY must be set together.');
  } else if (stripeWebhookSecret !== null) {
    errors.push('STRIPE_WEBHOOK_SECRET needs STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY.');
  }

  const smtpUrl = url('SMTP_URL', ['smtp:', 'smtps:']);
  const mailFrom = read('MAIL_FROM') ?? null;
  if (mailFrom !== null && !/^[^\s@<>"]+@[^\s@<>"]+$/.test(mailFrom))
    errors.push(`MAIL_FROM must be an email address such as orders@example.com (got "${mailFrom}").`);
  const jobsInProcess = bool('JOBS_IN_PROCESS', true);
  const webhooks = {
    requireHttps: read('NODE_ENV') === 'production' || publicUrlRaw?.startsWith('https:') === true,
    allowPrivateUrls: bool('WEBHOOKS_ALLOW_PRIVATE_URLS', false),
  };

  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    config: {
      port,
      host,
      databaseUrl,
      databasePoolSize,
      databasePreparedStatements,
      dataDir,
      merchantApiKey,
      tokenSecret,
      tokenSecretPrevious,
      publicUrl,
      publicUrlConfigured: publicUrlRaw !== null,
      trustedProxies,
      rateLimitIpv6Prefix,
      untouchedCartRetentionMs: untouchedCartRetentionHours * 60 * 60 * 1000,
      jobRetentionMs: jobRetentionDays * 24 * 60 * 60 * 1000,
      emailBodyRetentionMs: emailBodyRetentionDays * 24 * 60 * 60 * 1000,
      redisUrl,
      redisKeyPrefix,
      logLevel,
      bodyLimit,
      requestTimeoutMs: requestTimeoutSeconds * 1000,
      bodyIdleTimeoutMs: bodyIdleTimeoutSeconds * 1000,
      seedDemo,
      rebillIntervalSeconds,
      housekeepingIntervalSeconds,
      pageCheckIntervalSeconds,
      paymentLeaseSeconds,
      jobLeaseSeconds,
      errorReportingDsn,
      metricsToken,
      paypal,
      testProcessor: { port: testProcessorPort, url: testProcessorUrl?.replace(/\/+$/, '') ?? null },
      testProcessorTokensPerIp,
      stripe,
      smtpUrl,
      mailFrom,
      jobsInProcess,
      webhooks,
    },
  };
}

/** Reads the process environment; throws one error naming every bad setting. */
export function loadConfig(): Config {
  const result = parseConfig(process.env);
  if (!result.ok) {
    throw new Error(`Invalid configuration:\n${result.errors.map((error) => `  - ${error}`).join('\n')}`);
  }
  return result.config;
}

function isIpOrCidr(value: string): boolean {
  const [address, bits, ...rest] = value.split('/');
  if (address === undefined || rest.length > 0) return false;
  const ipv4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/.test(address);
  const ipv6 = !ipv4 && /^[0-9a-fA-F:.]+$/.test(address) && address.includes(':');
  if (!ipv4 && !ipv6) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n >= 0 && n <= (ipv4 ? 32 : 128);
}
