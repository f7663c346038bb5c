import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiError } from '../../../contract/errors.js';
import type { Language } from '../../../i18n/languages.js';
import { translatorFor } from '../../i18n/translator.js';
import { AppError } from '../errors.js';
import { answerLanguage } from './answer-language.js';
import type { SecurityHeaders } from './security-headers.js';

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
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return { status, code: 'bad_request', message: 'The request could not be understood.' };
  }
  return null;
}

/** `languageOf`: which language a refusal is said in; the shopper's API's Accept-Language by default. */
export function installErrorHandling(
  app: FastifyInstance,
  bodyLimit: number,
  languageOf: (request: FastifyRequest) => Language = answerLanguage,
): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      if (error.status >= 500) request.log.error({ err: error }, 'request failed');
      return reply.code(error.status).send(error.toBody(languageOf(request)));
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
      message: translatorFor(languageOf(request))('errors.internal_error'),
    };
    return reply.code(500).send(body);
  });

  app.setNotFoundHandler((request, reply) => {
    const body: ApiError = {
      status: 404,
      code: 'not_found',
      message: translatorFor(languageOf(request))('errors.not_found'),
    };
    return reply.code(404).send(body);
  });
}

/**
 * Errors Fastify meets before routing (an address it cannot decode, a path segment over the length limit), in the
 * one error shape and with the security headers; Fastify's own answer would echo the address back.
 */
export function createFrameworkErrorHandler(securityHeaders: SecurityHeaders) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    let body: ApiError;
    if (error.code === 'FST_ERR_BAD_URL') {
      body = {
        status: 400,
        code: 'invalid_url',
        message: 'The address is not valid: it has a broken %-escape.',
      };
    } else if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
      body = { status: 414, code: 'url_too_long', message: 'A part of the address is too long.' };
    } else {
      request.log.error({ err: error }, 'routing error');
      body = {
        status: 500,
        code: 'internal_error',
        message: 'Something went wrong on our side. Nothing was charged; please try again.',
      };
    }
    request.log.info({ code: body.code, status: body.status }, 'request refused before routing');
    securityHeaders(request, reply);
    void reply.code(body.status).header('content-type', 'application/json; charset=utf-8').send(body);
  };
}
