import type { ApiError } from '../../contract/errors.js';

/** An expected failure with a status, a stable code and a message written for the person who will read it. */
export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    status: number,
    code: string,
    message: string,
    options: { fields?: Record<string, string>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.status = status;
    this.code = code;
    this.fields = options.fields;
    this.headers = options.headers;
  }

  toBody(): ApiError {
    return {
      status: this.status,
      code: this.code,
      message: this.message,
      ...(this.fields ? { fields: this.fields } : {}),
    };
  }
}

export function validationError(fields: Record<string, string>, message?: string): AppError {
  const count = Object.keys(fields).length;
  return new AppError(
    422,
    'validation_failed',
    message ?? (count === 1 ? 'Check the highlighted field.' : `Check the ${count} highlighted fields.`),
    { fields },
  );
}

export function notFound(code: string, message: string): AppError {
  return new AppError(404, code, message);
}
