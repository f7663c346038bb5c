import autocannon from 'autocannon';
import { Pool, type Dispatcher } from 'undici';

/** What one load run measured. Latencies in milliseconds. */
export interface LoadResult {
  connections: number;
  seconds: number;
  requests: number;
  /** 2xx answers per second */
  rate: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** Runs autocannon; with `stopAfterSeconds`, stops a run bounded by `amount` that goes on too long. */
function run(options: autocannon.Options, stopAfterSeconds?: number): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const instance = autocannon(options, (error, result) => {
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(result);
    });
    if (stopAfterSeconds !== undefined) timer = setTimeout(() => instance.stop(), stopAfterSeconds * 1000);
  });
}

/**
 * As many requests as `connections` keep-alive connections get answered (one in flight on each) for a while:
 * the saturation rate of one route. `paths` are used in turn, so requests spread over several rows.
 */
export async function saturate(options: {
  url: string;
  paths: string[];
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
}): Promise<LoadResult> {
  let next = 0;
  const result = await run({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    headers: options.headers ?? {},
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => ({ ...request, path: options.paths[next++ % options.paths.length] }),
      },
    ],
  });
  return {
    connections: options.connections,
    seconds: result.duration,
    requests: result.requests.total,
    rate: result['2xx'] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** One shopper's requests, in order, with what each needs from the answers before it. */
export interface FlowStep {
  name: string;
  method: 'GET' | 'POST' | 'PUT';
  path(state: FlowState): string;
  headers(state: FlowState): Record<string, string>;
  body?(state: FlowState): string;
  /** Reads what later steps need; false when the answer is not the expected one. */
  accept(status: number, body: string, state: FlowState): boolean;
}

export interface FlowState {
  cart: string;
  flow: number;
  values: Record<string, string>;
  startedAt: number;
  stepStartedAt: number;
  failed: boolean;
}

export interface FlowResult {
  /** connections of a saturation run; the most a run at a target rate opened */
  connections: number;
  /** the target rate (flows per second), or null for saturation */
  target: number | null;
  seconds: number;
  flows: number;
  completed: number;
  /** completed flows per second */
  rate: number;
  /** the whole flow, first request sent to last answer */
  flowP50: number;
  flowP99: number;
  /** the last step alone (placing the order) */
  lastP50: number;
  lastP99: number;
  failures: Record<string, number>;
  errors: number;
  /** a run at a target rate: the most flows in progress at once, and the latest a flow started after it was due (ms) */
  peakInFlight?: number;
  startLagMs?: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? NaN;
}

/** The p50 and p99 of whole flows and of their last step (the order), from the latencies of completed flows. */
function latencyFigures(
  flows: number[],
  lasts: number[],
): Pick<FlowResult, 'flowP50' | 'flowP99' | 'lastP50' | 'lastP99'> {
  flows.sort((a, b) => a - b);
  lasts.sort((a, b) => a - b);
  return {
    flowP50: percentile(flows, 50),
    flowP99: percentile(flows, 99),
    lastP50: percentile(lasts, 50),
    lastP99: percentile(lasts, 99),
  };
}

/**
 * Runs one flow per cart through `steps` over `connections` keep-alive connections, each connection starting its next
 * flow as soon as its last one ended: the saturation rate of the whole flow (a closed model).
 */
export async function runFlows(options: {
  url: string;
  steps: FlowStep[];
  carts: string[];
  connections: number;
  maxSeconds: number;
}): Promise<FlowResult> {
  const { steps, carts, connections } = options;
  const perConnection = Math.floor(carts.length / connections);
  if (perConnection < 1) throw new Error('fewer carts than connections');
  const flows = perConnection * connections;
  let nextCart = 0;
  const flowLatencies: number[] = [];
  const lastLatencies: number[] = [];
  const failures: Record<string, number> = {};
  let completed = 0;

  const requests: autocannon.Request[] = steps.map((step, index) => ({
    method: step.method,
    setupRequest(request, context) {
      const state = context as FlowState;
      if (index === 0) {
        state.cart = carts[nextCart++ % carts.length] ?? '';
        state.flow = nextCart;
        state.values = {};
        state.failed = false;
        state.startedAt = performance.now();
      }
      state.stepStartedAt = performance.now();
      const body = step.body?.(state);
      return {
        ...request,
        method: step.method,
        path: step.path(state),
        headers: {
          ...step.headers(state),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body }),
      };
    },
    onResponse(status, body, context) {
      const state = context as FlowState;
      if (state.failed) return;
      if (!step.accept(status, body, state)) {
        state.failed = true;
        const key = `${step.name} ${status}`;
        failures[key] = (failures[key] ?? 0) + 1;
        return;
      }
      if (index === steps.length - 1) {
        const now = performance.now();
        completed++;
        flowLatencies.push(now - state.startedAt);
        lastLatencies.push(now - state.stepStartedAt);
      }
    },
  }));

  const started = performance.now();
  const result = await run(
    {
      url: options.url,
      connections,
      amount: flows * steps.length,
      requests,
    },
    options.maxSeconds,
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    connections,
    target: null,
    seconds,
    flows,
    completed,
    rate: completed / seconds,
    ...latencyFigures(flowLatencies, lastLatencies),
    failures,
    errors: result.errors,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One request through the pool's dispatcher, its answer collected as text: without the Readable stream per answer that
 * pool.request() makes, a quarter to a third less CPU per request (95-139 µs against 125-224 µs on the bench machine),
 * which the load generator takes from the server it measures when they share the machine.
 */
function send(pool: Pool, request: Dispatcher.DispatchOptions): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    let status = 0;
    const chunks: Buffer[] = [];
    pool.dispatch(request, {
      // (its presence selects this handler interface)
      onRequestStart() {},
      onResponseStart(_controller, statusCode) {
        status = statusCode;
      },
      onResponseData(_controller, chunk) {
        chunks.push(chunk);
      },
      onResponseEnd() {
        resolve({ status, text: Buffer.concat(chunks).toString('utf8') });
      },
      onResponseError(_controller, error) {
        reject(error);
      },
    });
  });
}

/**
 * Shoppers arriving at a fixed rate, evenly spaced (an open model, as real shoppers arrive: one starts every
 * 1000/target ms whether or not the ones before have finished). Each flow runs its steps in order over a pool of
 * keep-alive connections. A flow's latency counts from the moment it was due to start, so a server that falls behind
 * (or a load generator that starts a flow late) shows in the figures instead of slowing the arrivals down.
 */
export async function runFlowsAtRate(options: {
  url: string;
  steps: FlowStep[];
  carts: string[];
  /** flows per second */
  target: number;
  /** the most connections the pool opens; requests beyond them wait in the load generator (and that wait counts) */
  maxConnections: number;
  maxSeconds: number;
}): Promise<FlowResult> {
  const { steps, carts, target } = options;
  const pool = new Pool(options.url, { connections: options.maxConnections, pipelining: 1 });
  const flowLatencies: number[] = [];
  const lastLatencies: number[] = [];
  const failures: Record<string, number> = {};
  const fail = (key: string) => {
    failures[key] = (failures[key] ?? 0) + 1;
  };
  let completed = 0;
  let errors = 0;
  let inFlight = 0;
  let peakInFlight = 0;
  let peakConnections = 0;
  let startLagMs = 0;

  const runOne = async (index: number, dueAt: number) => {
    const state: FlowState = {
      cart: carts[index] ?? '',
      flow: index + 1,
      values: {},
      startedAt: dueAt,
      stepStartedAt: dueAt,
      failed: false,
    };
    for (const step of steps) {
      state.stepStartedAt = performance.now();
      const body = step.body?.(state);
      let answer: { status: number; text: string };
      try {
        answer = await send(pool, {
          path: step.path(state),
          method: step.method,
          headers: {
            ...step.headers(state),
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body ?? null,
        });
      } catch (error) {
        errors++;
        fail(`${step.name} ${(error as { code?: string }).code ?? 'error'}`);
        return;
      }
      const { status, text } = answer;
      if (!step.accept(status, text, state)) {
        fail(`${step.name} ${status}`);
        return;
      }
    }
    const now = performance.now();
    completed++;
    flowLatencies.push(now - dueAt);
    lastLatencies.push(now - state.stepStartedAt);
  };

  const interval = 1000 / target;
  const started = performance.now();
  const deadline = started + options.maxSeconds * 1000;
  const running = new Set<Promise<void>>();
  let next = 0;
  while (next < carts.length && performance.now() < deadline) {
    const now = performance.now();
    // Every flow that is due starts now; one the timer woke late for counts from when it was due.
    while (next < carts.length && started + next * interval <= now) {
      const dueAt = started + next * interval;
      startLagMs = Math.max(startLagMs, now - dueAt);
      const flow = runOne(next, dueAt).finally(() => {
        inFlight--;
        running.delete(flow);
      });
      running.add(flow);
      inFlight++;
      peakInFlight = Math.max(peakInFlight, inFlight);
      next++;
    }
    peakConnections = Math.max(peakConnections, pool.stats.connected);
    if (next < carts.length) await sleep(Math.max(0, started + next * interval - performance.now()));
  }
  await Promise.race([Promise.all(running), sleep(Math.max(0, deadline - performance.now()) + 10_000)]);
  const seconds = (performance.now() - started) / 1000;
  await pool.destroy();
  return {
    connections: peakConnections,
    target,
    seconds,
    flows: next,
    completed,
    rate: completed / seconds,
    ...latencyFigures(flowLatencies, lastLatencies),
    failures,
    errors,
    peakInFlight,
    startLagMs,
  };
}
