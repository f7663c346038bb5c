import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { issuesToFields } from '../../contract/errors.js';
import type { z } from '../../contract/zod.js';
import { AppError } from '../errors.js';

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
          const params = parse(definition.params, request.params, 'path');
          const query = parse(definition.query, request.query, 'query');
          const body = parse(definition.body, request.body ?? {}, 'body', definition.invalidBody);
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
  invalid?: (issues: readonly z.core.$ZodIssue[], input: unknown) => AppError,
): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  if (invalid) throw invalid(result.error.issues, input);
  const fields = issuesToFields(result.error.issues, input);
  if (where === 'path') {
    throw new AppError(404, 'not_found', 'Nothing was found at this address.');
  }
  const count = Object.keys(fields).length;
  const what = where === 'query' ? 'query parameter' : 'field';
  throw new AppError(
    422,
    'validation_failed',
    count === 1 ? `Check the highlighted ${what}.` : `Check the ${count} highlighted ${what}s.`,
    { fields },
  );
}
