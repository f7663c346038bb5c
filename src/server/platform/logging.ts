import { hostname } from 'node:os';
import pino, {
  type Bindings,
  type ChildLoggerOptions,
  type DestinationStream,
  type LogFn,
  type Logger,
} from 'pino';
import { isSensitiveCardKey, scrubCardData, scrubCardNumbers } from '../../domain/card.js';

export interface LoggerOptions {
  level: string;
  /** Where JSON lines go; stdout when absent. Tests pass a stream to read what was logged. */
  stream?: DestinationStream;
}

/**
 * Standard output is written in batches of up to 4 KB, at least every 250 ms (a write per request line was a twentieth
 * of a busy server's CPU); pino writes out what is left when the process exits.
 */
const STDOUT_BUFFERING = { sync: false, minLength: 4096, periodicFlush: 250 } as const;

/** Header and body fields that must never be logged, by pino path. */
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers["csrf-token"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["csrf-token"]',
  '*.card_number',
  '*.card_cvv',
  '*.*.card_number',
  '*.*.card_cvv',
];

/**
 * JSON logs (pino) that cannot carry card data: known fields are redacted by path, every logged value is scrubbed by
 * key name, and every string (messages, URLs, error messages and stacks) has card numbers, however they are written,
 * and CVVs written next to their label masked (src/domain/card.ts, docs/security.md).
 */
export function createLogger(options: LoggerOptions): Logger {
  const destination = options.stream ?? pino.destination(STDOUT_BUFFERING);
  const logger = pino(
    {
      level: options.level,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      formatters: {
        log: (object) => scrubLogObject(object),
      },
      hooks: {
        logMethod(args, method) {
          const scrubbed = args.map((arg) => (typeof arg === 'string' ? scrubCardNumbers(arg) : arg));
          method.apply(this, scrubbed as Parameters<typeof method>);
        },
      },
      serializers: { err: serializeError },
    },
    destination,
  );
  accessLogs.set(logger, createAccessLog(logger, destination));
  return logger;
}

/** The one line per request: every field made by the server itself. */
export interface AccessLine {
  reqId: string;
  method: string;
  route: string;
  status: number;
  ms: number;
}

export type AccessLog = (line: AccessLine) => void;

const accessLogs = new WeakMap<Logger, AccessLog>();

/**
 * Writes access lines to the logger's output as pino would (the same fields, `"msg":"request"`, at info), but formats
 * them directly: the redaction, scrubbing and generic serialisation every other line goes through were a tenth of a
 * cart read's CPU. Only for lines whose every field the server itself produced (an HTTP method the parser accepted, a
 * route pattern, numbers, a generated id): none can carry a card number.
 */
function createAccessLog(logger: Logger, destination: DestinationStream): AccessLog {
  const bindings = `"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;
  const info = logger.levels.values.info as number;
  return (line) => {
    if (!logger.isLevelEnabled('info')) return;
    destination.write(
      `{"level":${info},"time":${Date.now()},${bindings},"reqId":${JSON.stringify(line.reqId)},` +
        `"method":${JSON.stringify(line.method)},"route":${JSON.stringify(line.route)},"status":${line.status},` +
        `"ms":${line.ms},"msg":"request"}\n`,
    );
  };
}

/** The access log of a logger made by createLogger; for any other, its info lines. */
export function accessLogOf(logger: Logger): AccessLog {
  return accessLogs.get(logger) ?? ((line) => logger.info(line, 'request'));
}

/**
 * A request's child logger, made when it is first used (most requests log nothing but their access line, and making
 * a pino child for each was a few percent of a cart read's CPU). Fastify's childLoggerFactory.
 */
export function lazyChildLogger(parent: Logger, bindings: Bindings, options: ChildLoggerOptions): Logger {
  let made: Logger | undefined;
  const child = () => (made ??= parent.child(bindings, options));
  const lazy = {
    get level() {
      return made ? made.level : parent.level;
    },
    set level(level: string) {
      child().level = level;
    },
    isLevelEnabled: (level: string) => (made ?? parent).isLevelEnabled(level),
    child: (more: Bindings, moreOptions?: ChildLoggerOptions) => child().child(more, moreOptions),
    silent: () => {},
  } as Record<string, unknown>;
  for (const method of ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const) {
    lazy[method] = (...args: Parameters<LogFn>) => child()[method](...args);
  }
  return lazy as unknown as Logger;
}

/**
 * An error as a plain object (type, message, stack, cause, the driver's code and query), card numbers masked.
 * SQL parameters are left out: they can carry a shopper's details.
 */
function serializeError(error: unknown): unknown {
  if (!(error instanceof Error)) return scrubCardData(error);
  const { params: _params, ...serialized } = pino.stdSerializers.err(error) as unknown as Record<
    string,
    unknown
  >;
  return scrubCardData(serialized);
}

function scrubLogObject(object: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) {
    if (isSensitiveCardKey(key)) out[key] = '[redacted]';
    // Before the copy below, which would keep only an error's enumerable fields and lose its message and stack.
    else if (value instanceof Error) out[key] = serializeError(value);
    else out[key] = scrubCardData(value);
  }
  return out;
}
