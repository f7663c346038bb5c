// The dashboard's page at /admin (docs/dashboard.md): a build of its own (vite.admin.config.ts, dist/client/admin),
// so the checkout page loads none of it. Every path under /admin but its API is the same page, which reads its
// address and asks the API whether the browser is signed in.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

const UNBUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Dashboard</title></head>
<body><main><h1>Dashboard</h1><p>The dashboard has not been built. Run npm run build.</p></main></body></html>`;

export async function registerAdminPageRoutes(app: FastifyInstance, clientDir: string | null): Promise<void> {
  const pageDir = clientDir ? path.join(clientDir, 'admin') : null;
  const indexFile = pageDir ? path.join(pageDir, 'index.html') : null;
  const page = indexFile && existsSync(indexFile) ? await readFile(indexFile, 'utf8') : UNBUILT_PAGE;
  if (pageDir && existsSync(path.join(pageDir, 'assets'))) {
    await app.register(fastifyStatic, {
      root: path.join(pageDir, 'assets'),
      prefix: '/admin/assets/',
      preCompressed: true,
      immutable: true,
      maxAge: '365d',
      index: false,
      decorateReply: false,
    });
  }
  const send = (_request: unknown, reply: FastifyReply) =>
    reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(page);
  app.get('/admin', send);
  // Every screen's address; the API's and the assets' own routes are more specific and answer first, and an unknown
  // one of theirs stays a 404 rather than the page.
  app.get('/admin/*', (request, reply) => {
    const { pathname } = new URL(request.url, 'http://page');
    if (pathname.startsWith('/admin/api/') || pathname.startsWith('/admin/assets/'))
      return reply.callNotFound();
    return send(request, reply);
  });
}
