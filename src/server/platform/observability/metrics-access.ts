import { createHash, timingSafeEqual } from 'node:crypto';
import { isIpAddress, isPublicIp } from '../../../domain/client-ip.js';

export type MetricsAccess =
  | { ok: true }
  | {
      ok: false;
      status: 401 | 403;
      code: 'metrics_token_required' | 'metrics_private_only';
      message: string;
    };

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Who may read GET /metrics. With METRICS_TOKEN set: whoever presents it as a bearer token, from anywhere. Without:
 * only a scraper connecting directly from a loopback or private address. A request relayed by a proxy is refused
 * then, because behind a reverse proxy on the same host every visitor's request arrives from 127.0.0.1.
 */
export function checkMetricsAccess(input: {
  metricsToken: string | null;
  authorization: string | undefined;
  remoteAddress: string | undefined;
  relayed: boolean;
}): MetricsAccess {
  if (input.metricsToken !== null) {
    const presented = /^Bearer\s+(\S+)\s*$/i.exec(input.authorization ?? '')?.[1] ?? '';
    // Compared as digests: equal lengths, constant time.
    if (timingSafeEqual(digest(presented), digest(input.metricsToken))) return { ok: true };
    return {
      ok: false,
      status: 401,
      code: 'metrics_token_required',
      message: 'Send the METRICS_TOKEN setting as "Authorization: Bearer <token>" to read the metrics.',
    };
  }
  const remote = input.remoteAddress ?? '';
  if (!input.relayed && isIpAddress(remote) && !isPublicIp(remote)) return { ok: true };
  return {
    ok: false,
    status: 403,
    code: 'metrics_private_only',
    message:
      'Metrics are served only to direct requests from private addresses. Set METRICS_TOKEN to scrape them from elsewhere.',
  };
}
