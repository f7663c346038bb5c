import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { issuesToFields, type JoinList } from '../../../contract/errors.js';
import type { z } from '../../../contract/zod.js';
import { CARD_NUMBER_IN_TEXT_MESSAGE, scrubCardNumbers } from '../../../domain/card.js';
import type { FieldMessages } from '../../../domain/field-errors.js';
import { AppError, refusal } from '../errors.js';
import { answerLanguage } from './answer-language.js';
import { findCardNumbers } from '../../../domain/card-numbers-in-input.js';

type Schema = z.ZodMiniType;
type Output<S> = S extends Schema ? z.output<S> : undefined;

export type Guard = 'none' | 'merchant' | 'shopper' | 'csrf';

export interface RouteResponse {
  description: string;
  schema?: Schema;
}

export interface RouteDefinition<
  B extends Schema | undefined,
  Q extends Schema | undefined,
  P extends Schema | undefined,
> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  summary: string;
  description?: string;
  tags: string[];
  guard: Guard;
  body?: B;
  query?: Q;
  params?: P;
  /** Turns a body that fails its schema into this route's own error (default: 422 with fields). */
  invalidBody?: (issues: readonly z.core.$ZodIssue[], input: unknown) => AppError;
  /**
   * Body paths where this route takes a card number on purpose: the payment's number, which goes to the gateway
   * only, or an error report, which is scrubbed before it is logged. Anywhere else a card number is refused.
   */
  cardNumberFields?: readonly string[];
  /** A refusal of the whole body that comes before its schema's field problems, with a code and words of its own. */
  refuseBody?: (input: unknown) => AppError | null;
  /** Documented answers; errors share the ApiError shape. */
  responses: Record<number, RouteResponse>;
  handler(input: {
    body: Output<B>;
    query: Output<Q>;
    params: Output<P>;
    request: FastifyRequest;
    reply: FastifyReply;
  }): Promise<unknown>;
}

export interface Router {
  add<
    B extends Schema | undefined = undefined,
    Q extends Schema | undefined = undefined,
    P extends Schema | undefined = undefined,
  >(
    definition: RouteDefinition<B, Q, P>,
  ): void;
  readonly routes: readonly RouteDefinition<Schema | undefined, Schema | undefined, Schema | undefined>[];
}

/**
 * Registers routes whose input is parsed with the contract's schemas (one schema: the route validates with it, the
 * page parses with it, the OpenAPI document is generated from it) behind the guard each route names.
 */
export function createRouter(
  app: FastifyInstance,
  guards: Record<Exclude<Guard, 'none'>, preHandlerAsyncHookHandler>,
): Router {
  const routes: RouteDefinition<Schema | undefined, Schema | undefined, Schema | undefined>[] = [];
  return {
    routes,
    add(definition) {
      routes.push(
        definition as unknown as RouteDefinition<Schema | undefined, Schema | undefined, Schema | undefined>,
      );
      app.route({
        method: definition.method,
        url: definition.url,
        ...(definition.guard === 'none' ? {} : { preHandler: guards[definition.guard] }),
        handler: async (request, reply) => {
          // Shoppers type into these routes' fields, which are stored or answered: a card number typed into one
          // is refused before anything is (docs/security.md, "Input"). The merchant API's fields are the merchant's.
          const cardNumbers = definition.guard !== 'merchant';
          // Allowed values and unexpected names are listed as the answer's language lists them (docs/languages.md).
          const language = answerLanguage(request);
          const join: JoinList = (items, type) => new Intl.ListFormat(language, { type }).format(items);
          const params = parse(definition.params, request.params, 'path');
          const refusal = definition.refuseBody?.(request.body);
          if (refusal) throw refusal;
          const query = parse(definition.query, request.query, 'query', {
            refuseCardNumbers: cardNumbers,
            join,
          });
          const body = parse(definition.body, request.body ?? {}, 'body', {
            refuseCardNumbers: cardNumbers,
            cardNumberFields: definition.cardNumberFields,
            invalid: definition.invalidBody,
            join,
          });
          const result = await definition.handler({
            body: body as never,
            query: query as never,
            params: params as never,
            request,
            reply,
          });
          if (reply.sent) return reply;
          return reply.send(result);
        },
      });
    },
  };
}

function parse(
  schema: Schema | undefined,
  input: unknown,
  where: 'path' | 'query' | 'body',
  options: {
    refuseCardNumbers?: boolean;
    cardNumberFields?: readonly string[];
    invalid?: (issues: readonly z.core.$ZodIssue[], input: unknown) => AppError;
    join?: JoinList;
  } = {},
): unknown {
  if (!schema) return undefined;
  const cardNumbers = options.refuseCardNumbers ? findCardNumbers(input, options.cardNumberFields) : {};
  const holdsCardNumber = Object.keys(cardNumbers).length > 0;
  const result = schema.safeParse(input);
  if (result.success && !holdsCardNumber) return result.data;
  if (where === 'path') {
    throw new AppError(404, 'not_found', 'Nothing was found at this address.');
  }
  if (!result.success && !holdsCardNumber && options.invalid)
    throw options.invalid(result.error.issues, input);
  // Every problem at once; a field's card number is the one to tell. Field names are masked like the values (those
  // findCardNumbers names are already). The messages are the catalogue's, said in the request's language.
  const fields: FieldMessages = {
    ...(result.success ? {} : maskedNames(issuesToFields(result.error.issues, input, options.join))),
    ...cardNumbers,
  };
  const count = Object.keys(fields).length;
  // A page that shows only the message (the preview's) still tells the shopper what to do.
  const onlyCardNumbers = Object.values(fields).every(
    (message) => typeof message !== 'string' && message.key === CARD_NUMBER_IN_TEXT_MESSAGE.key,
  );
  if (onlyCardNumbers) throw refusal(422, 'validation_failed', CARD_NUMBER_IN_TEXT_MESSAGE, { fields });
  throw refusal(
    422,
    'validation_failed',
    {
      key: where === 'query' ? 'errors.validation_failed_query' : 'errors.validation_failed',
      values: { count },
    },
    { fields },
  );
}

function maskedNames(fields: FieldMessages): FieldMessages {
  const masked: FieldMessages = {};
  for (const [name, message] of Object.entries(fields)) {
    // Own properties only, as issuesToFields makes them: a field named "__proto__" is reported like any other.
    Object.defineProperty(masked, scrubCardNumbers(name), {
      value: message,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return masked;
}
