import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withCardToken, type TypedCard } from './order-body.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  /** The test processor's URL it printed (`Test card processor: …`), where its card tokens are made; null if none. */
  processorUrl: string | null;
  output: () => string;
  /** Exit code or signal once it has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The test processor's URL in a server's start-up output (server.ts prints it after where the checkout listens). */
export function processorUrlIn(output: string): string | null {
  return /Test card processor: (http:\/\/\S+)/.exec(output)?.[1] ?? null;
}

/**
 * Starts the real server (src/server/server.ts, through tsx) and waits until it prints where it listens (and, with
 * the test processor, where that listens: the start-up lines end with the API reference's).
 */
export async function startServer(
  env: Record<string, string>,
  timeoutMs = 60_000,
  /** 'built': the build `npm start` runs (dist/node), which serves the built pages of dist/client */
  from: 'source' | 'built' = 'source',
): Promise<ServerProcess> {
  const args =
    from === 'built' ? ['dist/node/server/server.js'] : ['--import', 'tsx', 'src/server/server.ts'];
  const child = spawn(process.execPath, args, {
    cwd: projectRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const started = await new Promise<{ baseUrl: string; processorUrl: string | null }>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server did not start in ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    const check = () => {
      const match = /Secure Checkout is running at (http:\/\/\S+)/.exec(output);
      if (match?.[1] && /API reference: /.test(output)) {
        clearTimeout(timer);
        resolve({ baseUrl: match[1], processorUrl: processorUrlIn(output) });
      }
    };
    child.stdout?.on('data', check);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code ?? signal}) before it started:\n${output}`));
    });
  });
  return { child, ...started, output: () => output, exited };
}

export async function stopServer(server: ServerProcess, signal: NodeJS.Signals = 'SIGTERM') {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal);
  return server.exited;
}

/** fetch + JSON, never throwing for an HTTP status (a dropped connection still throws). */
export async function http(
  baseUrl: string,
  method: string,
  urlPath: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const response = await fetch(`${baseUrl}${urlPath}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  return { status: response.status, body, headers: response.headers };
}

/** The page's start-up handshake against a running server: the headers its shopper calls then carry. */
export async function shopperHeaders(
  baseUrl: string,
  organization = 'demo',
): Promise<{ authorization: string; 'csrf-token': string }> {
  const csrf = await http(baseUrl, 'POST', '/checkout/api/csrf', { body: {} });
  if (csrf.status !== 200) throw new Error(`csrf: ${csrf.status} ${JSON.stringify(csrf.body)}`);
  const auth = await http(baseUrl, 'POST', '/checkout/api/authorize', {
    body: { organization },
    headers: { 'csrf-token': csrf.body.csrfToken },
  });
  if (auth.status !== 200) throw new Error(`authorize: ${auth.status} ${JSON.stringify(auth.body)}`);
  return { authorization: `Bearer ${auth.body.access_token}`, 'csrf-token': csrf.body.csrfToken as string };
}

/**
 * Makes a token of a typed card at a running server's test processor, as its framed card fields do in the shopper's
 * browser: POST /v1/tokens from the processor's own origin. Every call comes from this test's address, which the
 * processor limits (TEST_PROCESSOR_TOKENS_PER_IP): a test that stands for many shoppers raises it.
 */
export async function tokenizeOver(processorUrl: string, typed: TypedCard): Promise<string> {
  const answer = await http(processorUrl, 'POST', '/v1/tokens', {
    body: typed,
    headers: { origin: new URL(processorUrl).origin },
  });
  if (answer.status !== 200) throw new Error(`tokens: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.token as string;
}

/**
 * The order body as the page sends it to a running server: its card() made a token at `processorUrl` (once per card,
 * so the same body sent again is the same request). Call it before a burst, so the burst sends only orders.
 */
export async function withCardTokenOver<T>(processorUrl: string | null, body: T): Promise<T> {
  if (processorUrl === null) throw new Error('this server runs no test processor (Stripe takes its cards)');
  return (await withCardToken(body, (typed) => tokenizeOver(processorUrl, typed))) as T;
}
