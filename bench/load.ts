import autocannon from 'autocannon';

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
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? NaN;
}

/**
 * Runs `flows` shoppers through `steps` over `connections` connections, each flow with its own cart. With a target
 * rate, autocannon paces requests: each connection sends its share of a second back to back, then waits for the
 * next second (so requests come in bursts, which is harder on latency than evenly spaced arrivals).
 */
export async function runFlows(options: {
  url: string;
  steps: FlowStep[];
  carts: string[];
  connections: number;
  /** flows per second; null = as fast as the connections go */
  target: number | null;
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
      ...(options.target === null ? {} : { overallRate: Math.ceil(options.target * steps.length) }),
      requests,
    },
    options.maxSeconds,
  );
  const seconds = (performance.now() - started) / 1000;
  flowLatencies.sort((a, b) => a - b);
  lastLatencies.sort((a, b) => a - b);
  return {
    connections,
    target: options.target,
    seconds,
    flows,
    completed,
    rate: completed / seconds,
    flowP50: percentile(flowLatencies, 50),
    flowP99: percentile(flowLatencies, 99),
    lastP50: percentile(lastLatencies, 50),
    lastP99: percentile(lastLatencies, 99),
    failures,
    errors: result.errors,
  };
}
