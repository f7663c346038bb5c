import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { checkMetricsAccess } from './metrics-access.js';
import type { Metrics } from './metrics.js';

const RELAY_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'];

export function registerMetricsRoutes(app: FastifyInstance, context: AppContext, metrics: Metrics): void {
  // Prometheus text format; see docs/operations.md "Metrics" for who may read it.
  app.get('/metrics', async (request, reply) => {
    const access = checkMetricsAccess({
      metricsToken: context.config.metricsToken,
      authorization: request.headers.authorization,
      remoteAddress: request.socket.remoteAddress,
      relayed: RELAY_HEADERS.some((name) => request.headers[name] !== undefined),
    });
    if (!access.ok) {
      if (access.status === 401) reply.header('www-authenticate', 'Bearer realm="metrics"');
      return reply
        .code(access.status)
        .send({ status: access.status, code: access.code, message: access.message });
    }
    return reply
      .header('content-type', metrics.contentType)
      .header('cache-control', 'no-store')
      .send(await metrics.render());
  });
}
