import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';

export function registerHealthRoutes(app: FastifyInstance, context: AppContext): void {
  // Liveness: the process answers.
  app.get('/healthz', async () => ({ status: 'ok' }));

  // Readiness: the database answers too; a load balancer stops sending traffic while this is 503.
  app.get('/readyz', async (_request, reply) => {
    try {
      await context.db.query('SELECT 1');
      return { status: 'ready', database: context.db.kind };
    } catch {
      return reply
        .code(503)
        .send({ status: 503, code: 'not_ready', message: 'The database is not reachable.' });
    }
  });
}
