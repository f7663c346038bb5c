import pino, { type DestinationStream, type Logger } from 'pino';
import { isSensitiveCardKey, luhnValid, scrubCardData, scrubCardNumbers } from '../domain/card.js';

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
 * key name, and every string (messages, URLs, error messages and stacks) has Luhn-valid card numbers masked.
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
  accessLogs.set(logger, pino({ level: options.level }, destination));
  return logger;
}

const accessLogs = new WeakMap<Logger, Logger>();

/**
 * The logger for the one line per request (method, route pattern, status, duration, request id): the same output
 * and level as `logger`, without the redaction and scrubbing every other line goes through, which cost a tenth of a
 * cart read's CPU. Only for lines whose every field the server itself produced (an HTTP method the parser accepted,
 * a route pattern, numbers, a generated id): none can carry a card number. `logger` itself when it was not made by
 * createLogger.
 */
export function accessLogOf(logger: Logger): Logger {
  return accessLogs.get(logger) ?? logger;
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
    else if (
      typeof value === 'number' &&
      Number.isSafeInteger(value) &&
      value >= 1e12 &&
      luhnValid(String(value))
    ) {
      out[key] = '[redacted]';
    } else out[key] = scrubCardData(value);
  }
  return out;
}
