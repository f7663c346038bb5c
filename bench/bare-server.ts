// The framework's limit on this machine: Fastify with one JSON route and nothing else (no logging, no hooks,
// no database), run as its own process like the real server.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ status: 'ok' }));
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`bare Fastify listening at ${address}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
