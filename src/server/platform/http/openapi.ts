import { ApiErrorSchema } from '../../../contract/errors.js';
import { z } from '../../../contract/zod.js';
import type { Router } from './router.js';

type JsonSchema = Record<string, unknown>;

function toSchema(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

function parametersOf(schema: z.ZodMiniType | undefined, location: 'query' | 'path'): JsonSchema[] {
  if (!schema) return [];
  const json = toSchema(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || required.has(name),
    schema: property,
  }));
}

/** An OpenAPI 3.1 document generated from the routes' own contract schemas. */
export function buildOpenApi(router: Router, info: { version: string; serverUrl: string }): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of router.routes) {
    const path = route.url.replace(/:([A-Za-z_]+)/g, '{$1}');
    const operation: JsonSchema = {
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: route.tags,
      parameters: [...parametersOf(route.params, 'path'), ...parametersOf(route.query, 'query')],
      responses: Object.fromEntries(
        Object.entries(route.responses).map(([status, response]) => [
          status,
          {
            description: response.description,
            ...(response.schema || Number(status) >= 400
              ? {
                  content: {
                    'application/json': {
                      schema: response.schema
                        ? toSchema(response.schema, 'output')
                        : { $ref: '#/components/schemas/ApiError' },
                    },
                  },
                }
              : {}),
          },
        ]),
      ),
    };
    if (route.body) {
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: toSchema(route.body, 'input') } },
      };
    }
    if (route.guard === 'merchant') operation.security = [{ merchantKey: [] }];
    if (route.guard === 'shopper') operation.security = [{ shopperToken: [], csrfToken: [] }];
    if (route.guard === 'csrf') operation.security = [{ csrfToken: [] }];
    (paths[path] ??= {})[route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Secure Checkout API',
      version: info.version,
      description:
        'Merchant API (Bearer merchant key), shopper API (access token + CSRF token from the handshake) and the ' +
        'handshake itself. Amounts are JSON numbers in major units of the organization currency (49.99).',
    },
    servers: [{ url: info.serverUrl }],
    paths,
    components: {
      schemas: { ApiError: toSchema(ApiErrorSchema, 'output') },
      securitySchemes: {
        merchantKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'A merchant API key of the organization.',
        },
        shopperToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'access_token from POST /checkout/api/authorize.',
        },
        csrfToken: {
          type: 'apiKey',
          in: 'header',
          name: 'CSRF-Token',
          description: 'csrfToken from POST /checkout/api/csrf.',
        },
      },
    },
  };
}
