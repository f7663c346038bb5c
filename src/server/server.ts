import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.js';
import { systemClock } from './platform/clock.js';
import { loadConfig, type Config } from './platform/config.js';
import { createMetrics } from './platform/observability/metrics.js';
import { migrate } from './platform/db/migrate.js';
import { openDatabase } from './platform/db/open-database.js';
import { createLogger } from './platform/logging.js';
import { resolveSecret } from './platform/security/persisted-secrets.js';
import { ensureDemoStore } from './modules/demo/demo-store.js';
import { newMerchantApiKey } from './platform/security/secrets.js';
import { createPaymentGateways } from './platform/payments/select-gateway.js';
import { buildTestProcessorApp } from './platform/payments/test-processor/test-processor-app.js';
import { runMaintenance } from './modules/housekeeping/maintenance.js';
import { startStatisticsKeeper } from './platform/maintenance/statistics-keeper.js';
import { runRebills } from './modules/subscriptions/rebill-service.js';
import { repeatEvery } from './platform/maintenance/repeat-every.js';
import { pageCardProcessorOf, pageContentSecurityPolicy } from './platform/http/security-headers.js';
import { readPageManifest } from './modules/page/page-manifest.js';
import { createPageSelfCheck } from './modules/page/page-self-check.js';
import { createJobWorker } from './platform/jobs/job-worker.js';
import { emailDeliveryLine } from './modules/emails/email-jobs.js';
import { startChargeReminderScan } from './modules/emails/charge-reminders.js';
import { createJobHandlers } from './job-handlers.js';
import { ownerLinksNeeded } from './modules/staff/staff-service.js';
import { createSubscriberLinks } from './modules/subscriber/subscriber-link.js';
import { createTokenService } from './platform/security/tokens.js';
import { projectRootAbove } from './platform/project-root.js';

// The built server runs from dist/node/server, the source (npm run dev) from src/server: both serve the built pages.
const projectRoot = projectRootAbove(path.dirname(fileURLToPath(import.meta.url)));

async function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * The test processor's port and URL before anything is built: the page's config, its policy and the challenge URLs
 * name its origin (docs/payments.md, "The built-in test processor").
 */
async function resolveTestProcessor(config: Config): Promise<Config['testProcessor']> {
  const port = config.testProcessor.port === 0 ? await freePort(config.host) : config.testProcessor.port;
  const displayHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const url =
    config.testProcessor.url ??
    `http://${displayHost.includes(':') ? `[${displayHost}]` : displayHost}:${port}`;
  return { port, url };
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  if (config.port === 0) {
    // PORT=0 picks a free port; the printed URLs must name the real one.
    const port = await freePort(config.host);
    const publicUrl = config.publicUrlConfigured
      ? config.publicUrl
      : config.publicUrl.replace(/:0$/, `:${port}`);
    config = { ...config, port, publicUrl };
  }
  if (config.stripe === null) config = { ...config, testProcessor: await resolveTestProcessor(config) };

  const logger = createLogger({ level: config.logLevel });
  const db = await openDatabase(config, { warn: (message) => logger.warn(message) });
  const applied = await migrate(db);
  if (applied.length > 0) logger.info({ applied }, 'database migrated');

  const tokenSecret = await resolveSecret(config.tokenSecret, config.dataDir, 'token-secret');
  let demo: Awaited<ReturnType<typeof ensureDemoStore>> | null = null;
  let apiKey: { value: string; generated: boolean } | null = null;
  if (config.seedDemo) {
    apiKey = await resolveSecret(
      config.merchantApiKey,
      config.dataDir,
      'merchant-api-key',
      newMerchantApiKey,
    );
    demo = await ensureDemoStore(db, {
      apiKey: apiKey.value,
      publicUrl: config.publicUrl,
      now: systemClock.now(),
    });
  }

  const metrics = createMetrics();
  const clientDir = path.join(projectRoot, 'dist/client');
  // One set of gateways, for the shoppers' payments and the rebills alike.
  const gateways = createPaymentGateways(config, { db, clock: systemClock, logger });
  const app = await buildApp({
    gateways,
    config,
    db,
    logger,
    metrics,
    tokenSecrets: { current: tokenSecret.value, previous: config.tokenSecretPrevious },
    clientDir,
  });
  // The test processor's origin (docs/payments.md): its card frame, tokens and challenges, on a port of its own.
  const processorUrl = config.stripe === null ? config.testProcessor.url : null;
  const processor =
    processorUrl === null
      ? null
      : await buildTestProcessorApp({
          db,
          clock: systemClock,
          logger,
          checkoutOrigin: new URL(config.publicUrl).origin,
          clientDir: path.join(projectRoot, 'dist/client'),
          processorOrigin: processorUrl,
          tokenRequestsPerIp: config.testProcessorTokensPerIp,
        });

  const statistics = startStatisticsKeeper({ db, logger });
  let closing = false;
  let stopTimers = (): Promise<void> => Promise.resolve();
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down: finishing requests in flight');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      // No new runs; those in progress end before the database closes under them.
      const timersStopped = stopTimers();
      await Promise.all([app.close(), processor?.close()]);
      await timersStopped;
      await statistics.stop();
      await db.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  await processor?.listen({ port: config.testProcessor.port, host: config.host });

  // Optional in-process rebill runner; `npm run rebill` from cron does the same. Runners never charge twice.
  const rebills = repeatEvery(config.rebillIntervalSeconds, 'rebill run', logger, () =>
    runRebills({ db, gateways, clock: systemClock, logger, onOutcome: metrics.recordRebill }),
  );
  // Housekeeping runs by default, so a store nobody set up still drops what it must not keep; first a minute after
  // start, so an instance restarted more often than the interval still does it (docs/operations.md, "Housekeeping").
  const housekeeping = repeatEvery(
    config.housekeepingIntervalSeconds,
    'housekeeping',
    logger,
    async () => {
      const done = await runMaintenance(db, systemClock.now(), {
        untouchedCartRetentionMs: config.untouchedCartRetentionMs,
        jobRetentionMs: config.jobRetentionMs,
        emailBodyRetentionMs: config.emailBodyRetentionMs,
      });
      if (Object.values(done).some((count) => count > 0)) logger.info(done, 'housekeeping done');
    },
    { firstAfterSeconds: Math.min(60, config.housekeepingIntervalSeconds) },
  );
  // The page check compares the served page with what the build wrote down (docs/security.md, "Page scripts").
  const manifest = await readPageManifest(clientDir);
  if (manifest === null && config.pageCheckIntervalSeconds > 0)
    logger.warn('no page manifest in dist/client (npm run build writes it): the page check is off');
  const pageCheck = repeatEvery(
    manifest === null ? 0 : config.pageCheckIntervalSeconds,
    'page check',
    logger,
    manifest === null
      ? () => Promise.resolve()
      : createPageSelfCheck({
          app,
          manifest,
          // The same settings app.ts gives createSecurityHeaders.
          expectedPolicy: () =>
            pageContentSecurityPolicy(
              config.errorReportingDsn,
              pageCardProcessorOf(config),
              manifest.scriptHashes,
            ),
          logger,
          onChanges: metrics.recordPageChanges,
        }),
    { firstAfterSeconds: Math.min(60, config.pageCheckIntervalSeconds) },
  );
  // The job worker (docs/architecture.md, "Jobs"): here unless JOBS_IN_PROCESS=false leaves it to `npm run worker`.
  const subscriberLinks = createSubscriberLinks(
    createTokenService({ current: tokenSecret.value, previous: config.tokenSecretPrevious }, systemClock),
    config.publicUrl,
    () => systemClock.now(),
  );
  const { handlers, emailJobs } = createJobHandlers(config, subscriberLinks);
  const worker = config.jobsInProcess
    ? createJobWorker(db, handlers, {
        clock: systemClock,
        logger,
        leaseSeconds: config.jobLeaseSeconds,
        onOutcome: metrics.recordJob,
      })
    : null;
  worker?.start();
  // The upcoming-charge reminders are scanned for beside each job worker (docs/emails.md, "Subscription emails").
  const reminders = worker ? startChargeReminderScan(db, systemClock, logger) : null;
  stopTimers = () =>
    Promise.all([
      rebills.stop(),
      housekeeping.stop(),
      pageCheck.stop(),
      reminders?.stop(),
      worker?.stop(),
    ]).then(() => emailJobs.mailer.close());

  const lines = [
    '',
    `Secure Checkout is running at ${config.publicUrl} (${config.databaseUrl ? 'PostgreSQL' : `embedded database in ${path.join(config.dataDir, 'pglite')}`})`,
  ];
  if (demo) {
    lines.push(`Checkout: ${demo.checkoutUrl}`);
    if (demo.created) lines.push('Demo store created: organization "demo", test card 4242 4242 4242 4242.');
    if (apiKey) {
      lines.push(
        apiKey.generated || config.merchantApiKey === null
          ? `Merchant API key (demo organization): ${apiKey.value}  (kept in ${path.join(config.dataDir, 'merchant-api-key')})`
          : 'Merchant API key (demo organization): from MERCHANT_API_KEY',
      );
    }
  }
  for (const link of await ownerLinksNeeded(db, config.publicUrl, systemClock.now())) {
    lines.push(
      `Dashboard: the owner of "${link.organization}" sets a password at ${link.url}  (one-time link, 24 hours; a new one: npm run admin:link)`,
    );
  }
  if (processorUrl !== null) lines.push(`Test card processor: ${processorUrl}`);
  lines.push(emailDeliveryLine(emailJobs.mailer, config.smtpUrl));
  if (worker === null) lines.push('Jobs: not run here (JOBS_IN_PROCESS=false): run `npm run worker`.');
  lines.push(`API reference: ${config.publicUrl}/checkout/api/docs`, '');
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? `Secure Checkout could not start: ${error.message}` : error);
  process.exit(1);
});
