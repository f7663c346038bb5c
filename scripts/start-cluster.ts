// npm run start:cluster [-- --instances N] [--from-source]
// Runs N server processes on one PostgreSQL, on ports PORT, PORT+1, … PORT+N-1 (PORT=0: each picks a free one), for a
// load balancer to spread requests over (docs/operations.md "Scaling out"). Each instance is an ordinary server
// process with the same settings: they share nothing but the database, so they may as well run on N machines.
// An instance that dies is started again; SIGTERM or SIGINT stops them all gracefully.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig, type Config } from '../src/server/platform/config.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MAX_INSTANCES = 64;

const say = (line: string) => console.log(`[cluster] ${line}`);

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const { values: args } = parseArgs({
  options: {
    instances: { type: 'string' },
    'from-source': { type: 'boolean', default: false },
  },
});

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  fail((error as Error).message);
}
if (config.databaseUrl === null) {
  fail(
    'npm run start:cluster needs PostgreSQL: set DATABASE_URL. The embedded database (PGlite in DATA_DIR) belongs ' +
      'to one process, so several instances cannot share it. See docs/operations.md.',
  );
}
const instances = Number(args.instances ?? availableParallelism());
if (!Number.isInteger(instances) || instances < 1 || instances > MAX_INSTANCES) {
  fail(`--instances must be a whole number from 1 to ${MAX_INSTANCES} (got "${args.instances ?? ''}").`);
}
if (config.port !== 0 && config.port + instances - 1 > 65535) {
  fail(`PORT ${config.port} leaves no room for ${instances} instances (up to port 65535).`);
}

const entry = args['from-source']
  ? ['--import', 'tsx', path.join(projectRoot, 'src/server/server.ts')]
  : [path.join(projectRoot, 'dist/node/server/server.js')];
if (!args['from-source'] && !existsSync(entry[0] ?? '')) fail('dist/ is missing: run npm run build first.');

let stopping = false;
const children = new Map<number, ChildProcess>();

function start(index: number, restarts: number): void {
  const port = config.port === 0 ? 0 : config.port + index - 1;
  const child = spawn(process.execPath, entry, {
    cwd: projectRoot,
    // The same settings for every instance but the port; PUBLIC_URL, when set, names the load balancer.
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.set(index, child);
  say(`instance ${index} started (pid ${child.pid ?? '?'}, port ${port === 0 ? 'any free one' : port})`);
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    createInterface({ input: stream }).on('line', (line) => console.log(`[instance ${index}] ${line}`));
  }
  const startedAt = Date.now();
  child.once('exit', (code, signal) => {
    children.delete(index);
    if (stopping) return;
    // A crash loop backs off (up to 30 s); an instance that ran a while is started again at once.
    const quick = Date.now() - startedAt < 10_000;
    const delay = quick ? Math.min(30_000, 1000 * 2 ** restarts) : 1000;
    say(`instance ${index} exited (${code ?? signal}); starting it again in ${Math.round(delay / 1000)} s`);
    setTimeout(() => {
      if (!stopping) start(index, quick ? restarts + 1 : 0);
    }, delay);
  });
}

function stop(signal: NodeJS.Signals): void {
  if (stopping) return;
  stopping = true;
  say(`${signal}: stopping ${children.size} instances (each finishes its requests in flight)`);
  for (const child of children.values()) child.kill('SIGTERM');
  const waitForAll = setInterval(() => {
    if (children.size === 0) {
      clearInterval(waitForAll);
      process.exit(0);
    }
  }, 100);
}

process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));

say(
  `${instances} instances on PostgreSQL, ` +
    (config.port === 0
      ? 'each on a free port'
      : `ports ${config.port}-${config.port + instances - 1}: put a load balancer in front of them`),
);
for (let index = 1; index <= instances; index++) start(index, 0);
