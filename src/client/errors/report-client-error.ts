import type { ClientErrorReport } from '../../contract/cart.js';
import { scrubCardData } from '../../domain/card.js';

type Report = Omit<ClientErrorReport, '_is_vrio_checkout' | 'ip_address'>;

const clip = (text: string | undefined, max: number) => (text === undefined ? undefined : text.slice(0, max));

/** A report about a render error, with card numbers and CVVs scrubbed and lengths the contract accepts. */
export function buildErrorReport(
  error: unknown,
  context: { componentStack?: string | null; url: string; cartToken?: string | null },
): Report {
  const raw = error instanceof Error ? error : new Error(String(error));
  const report: Report = {
    message: clip(`${raw.name}: ${raw.message}`, 2000) ?? 'Error',
    url: clip(context.url, 2000),
  };
  if (raw.stack) report.stack = clip(raw.stack, 10_000);
  if (context.componentStack) report.component_stack = clip(context.componentStack, 10_000);
  if (context.cartToken) report.cart_token = clip(context.cartToken, 64);
  return scrubCardData(report);
}

/** The store endpoint of a Sentry-compatible DSN (https://KEY@HOST/[PATH/]PROJECT); null when it is not one. */
export function sentryStoreUrl(dsn: string): string | null {
  let url: URL;
  try {
    url = new URL(dsn);
  } catch {
    return null;
  }
  const key = url.username;
  const segments = url.pathname.split('/').filter(Boolean);
  const project = segments.pop();
  if (!key || !project || !/^\d+$/.test(project) || !/^https?:$/.test(url.protocol)) return null;
  const prefix = segments.length > 0 ? `/${segments.join('/')}` : '';
  const params = new URLSearchParams({
    sentry_version: '7',
    sentry_key: key,
    sentry_client: 'secure-checkout/0.1',
  });
  return `${url.protocol}//${url.host}${prefix}/api/${project}/store/?${params.toString()}`;
}

function eventId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('');
}

/** A Sentry store event for a report (already scrubbed). */
export function sentryEvent(report: Report, now: Date) {
  const [type, ...rest] = report.message.split(': ');
  return {
    event_id: eventId(),
    timestamp: now.toISOString(),
    platform: 'javascript',
    level: 'error',
    logger: 'secure-checkout',
    exception: {
      values: [{ type: rest.length > 0 ? type : 'Error', value: rest.join(': ') || report.message }],
    },
    request: report.url ? { url: report.url } : undefined,
    tags: report.cart_token ? { cart_token: report.cart_token } : undefined,
    extra: { stack: report.stack, component_stack: report.component_stack },
  };
}

export interface ReportTarget {
  dsn: string | null;
  /** POST client-errors on our own server (used when no DSN is configured) */
  sendToServer: (report: Report) => Promise<unknown>;
  fetch?: typeof fetch;
  now?: () => Date;
}

/** Sends a report; reporting never throws (a failed report must not become another error on the page). */
export async function reportClientError(target: ReportTarget, report: Report): Promise<void> {
  try {
    const store = target.dsn ? sentryStoreUrl(target.dsn) : null;
    if (store) {
      const doFetch = target.fetch ?? ((input, init) => fetch(input, init));
      await doFetch(store, {
        method: 'POST',
        credentials: 'omit',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(sentryEvent(report, (target.now ?? (() => new Date()))())),
        keepalive: true,
      });
      return;
    }
    await target.sendToServer(report);
  } catch (error) {
    console.error('Could not report an error', error);
  }
}
