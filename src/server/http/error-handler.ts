import type { FastifyError, FastifyInstance } from 'fastify';
import type { ApiError } from '../../contract/errors.js';
import { AppError } from '../errors.js';

/** Fastify's own client errors, in the one error shape and in words. */
function fromFastifyError(error: FastifyError, bodyLimit: number): ApiError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, code: 'unsupported_media_type', message: 'Send the body as application/json.' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        status: 413,
        code: 'body_too_large',
        message: `The request body is larger than ${Math.floor(bodyLimit / 1024)} KB.`,
      };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return {
        status: 400,
        code: 'empty_body',
        message: 'The request says it sends JSON but the body is empty.',
      };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return {
        status: 400,
        code: 'invalid_content_length',
        message: 'The Content-Length header does not match the body.',
      };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, code: 'invalid_json', message: 'The request body is not valid JSON.' };
    default:
      break;
  }
  if (error instanceof SyntaxError || error.name === 'SyntaxError') {
    return { status: 400, code: 'invalid_json', message: 'The request body is not valid JSON.' };
  }
  // secure-json-parse refuses __proto__ and constructor.prototype keys.
  if (/prototype/i.test(error.message) && error.statusCode === 400) {
    return { status: 400, code: 'invalid_json', message: 'The request body contains a forbidden key.' };
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return { status, code: 'bad_request', message: 'The request could not be understood.' };
  }
  return null;
}

export function installErrorHandling(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      if (error.status >= 500) request.log.error({ err: error }, 'request failed');
      return reply.code(error.status).send(error.toBody());
    }
    const known = fromFastifyError(error, bodyLimit);
    if (known) {
      request.log.info({ code: known.code }, known.message);
      return reply.code(known.status).send(known);
    }
    // Unexpected: log it (scrubbed), answer without internals.
    request.log.error({ err: error }, 'unhandled error');
    const body: ApiError = {
      status: 500,
      code: 'internal_error',
      message: 'Something went wrong on our side. Nothing was charged; please try again.',
    };
    return reply.code(500).send(body);
  });

  app.setNotFoundHandler((_request, reply) => {
    const body: ApiError = {
      status: 404,
      code: 'not_found',
      message: 'Nothing was found at this address.',
    };
    return reply.code(404).send(body);
  });
}
