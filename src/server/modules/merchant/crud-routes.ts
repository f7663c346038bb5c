import { IdParamsSchema, ListQuerySchema, type ListQuery } from '../../../contract/common.js';
import type { z } from '../../../contract/zod.js';
import type { OrganizationRow } from '../organizations/organizations-repository.js';
import { merchantOf } from '../organizations/request-context.js';
import type { Router } from '../../platform/http/router.js';

type Schema = z.ZodMiniType;

export interface CrudResource<C extends Schema, U extends Schema> {
  /** URL segment under /checkout/api/merchant, e.g. "offers" */
  path: string;
  /** singular noun for summaries, e.g. "offer" */
  noun: string;
  tag: string;
  createSchema: C;
  updateSchema: U;
  itemSchema: Schema;
  listSchema: Schema;
  create(organization: OrganizationRow, input: z.output<C>): Promise<unknown>;
  update(organization: OrganizationRow, id: number, input: z.output<U>): Promise<unknown>;
  get(organization: OrganizationRow, id: number): Promise<unknown>;
  list(organization: OrganizationRow, query: ListQuery): Promise<unknown>;
}

/** POST/GET list, GET one, PATCH one for a merchant resource; every route scoped to the key's organization. */
export function registerCrudRoutes<C extends Schema, U extends Schema>(
  router: Router,
  resource: CrudResource<C, U>,
): void {
  const base = `/checkout/api/merchant/${resource.path}`;
  const notFound = { description: `No such ${resource.noun} in this organization` };
  const unauthorized = { description: 'Missing or invalid merchant key' };

  router.add({
    method: 'POST',
    url: base,
    summary: `Create a ${resource.noun}`,
    tags: [resource.tag],
    guard: 'merchant',
    body: resource.createSchema,
    responses: {
      201: { description: `The new ${resource.noun}`, schema: resource.itemSchema },
      401: unauthorized,
      422: { description: 'Invalid fields' },
    },
    async handler({ body, request, reply }) {
      reply.code(201);
      return resource.create(merchantOf(request), body as z.output<C>);
    },
  });

  router.add({
    method: 'GET',
    url: base,
    summary: `List ${resource.noun}s, newest first`,
    tags: [resource.tag],
    guard: 'merchant',
    query: ListQuerySchema,
    responses: { 200: { description: 'A page', schema: resource.listSchema }, 401: unauthorized },
    handler: ({ query, request }) => resource.list(merchantOf(request), query),
  });

  router.add({
    method: 'GET',
    url: `${base}/:id`,
    summary: `Read a ${resource.noun}`,
    tags: [resource.tag],
    guard: 'merchant',
    params: IdParamsSchema,
    responses: {
      200: { description: `The ${resource.noun}`, schema: resource.itemSchema },
      401: unauthorized,
      404: notFound,
    },
    handler: ({ params, request }) => resource.get(merchantOf(request), params.id),
  });

  router.add({
    method: 'PATCH',
    url: `${base}/:id`,
    summary: `Update a ${resource.noun} (only the fields sent)`,
    tags: [resource.tag],
    guard: 'merchant',
    params: IdParamsSchema,
    body: resource.updateSchema,
    responses: {
      200: { description: `The updated ${resource.noun}`, schema: resource.itemSchema },
      401: unauthorized,
      404: notFound,
      422: { description: 'Invalid fields' },
    },
    handler: ({ params, body, request }) =>
      resource.update(merchantOf(request), params.id, body as z.output<U>),
  });
}
