import type { Queryable } from '../../platform/db/database.js';

export interface CustomerRow {
  id: number;
  organization_id: number;
  email: string;
  phone: string;
  first_name: string;
  last_name: string;
  same_address: boolean;
  email_opt_in: boolean;
}

export interface AddressValues {
  first_name: string;
  last_name: string;
  address1: string;
  address2: string;
  city: string;
  state: string;
  zipcode: string;
  country: string;
  phone: string;
}

export interface AddressRow extends AddressValues {
  kind: 'shipping' | 'billing';
}

export async function findCustomer(
  db: Queryable,
  organizationId: number,
  id: number,
): Promise<CustomerRow | null> {
  const { rows } = await db.query<CustomerRow>(
    'SELECT * FROM customers WHERE organization_id = $1 AND id = $2',
    [organizationId, id],
  );
  return rows[0] ?? null;
}

export async function insertCustomer(
  db: Queryable,
  organizationId: number,
  values: Partial<Omit<CustomerRow, 'id' | 'organization_id'>>,
): Promise<CustomerRow> {
  const { rows } = await db.query<CustomerRow>(
    `INSERT INTO customers (organization_id, email, phone, first_name, last_name, same_address, email_opt_in)
     VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
    [
      organizationId,
      values.email ?? '',
      values.phone ?? '',
      values.first_name ?? '',
      values.last_name ?? '',
      values.same_address ?? true,
      values.email_opt_in ?? false,
    ],
  );
  return rows[0] as CustomerRow;
}

export async function upsertAddress(
  db: Queryable,
  organizationId: number,
  customerId: number,
  kind: 'shipping' | 'billing',
  values: AddressValues,
  now: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO addresses (organization_id, customer_id, kind, first_name, last_name, address1, address2, city, state,
                            zipcode, country, phone, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
     ON CONFLICT (organization_id, customer_id, kind) DO UPDATE SET
       first_name = excluded.first_name, last_name = excluded.last_name, address1 = excluded.address1,
       address2 = excluded.address2, city = excluded.city, state = excluded.state, zipcode = excluded.zipcode,
       country = excluded.country, phone = excluded.phone, updated_at = excluded.updated_at`,
    [
      organizationId,
      customerId,
      kind,
      values.first_name,
      values.last_name,
      values.address1,
      values.address2,
      values.city,
      values.state,
      values.zipcode,
      values.country,
      values.phone,
      now,
    ],
  );
}

/** An order's customer as it saves it on its cart (see saveCartCustomer). */
export interface CartCustomer {
  cartId: number;
  /** the cart's customer, or null for a new one */
  customerId: number | null;
  values: Omit<CustomerRow, 'id' | 'organization_id'>;
  addresses: readonly (AddressValues & { kind: 'shipping' | 'billing' })[];
}

/**
 * The common table expressions that save an order's customer (saveCartCustomer), for a statement that goes on to use
 * its id (`cart_customer`): $1 is the organization, $2 the cart, $3 to $20 cartCustomerParams.
 */
export const CART_CUSTOMER_CTES = `new_customer AS (
       INSERT INTO customers (organization_id, email, phone, first_name, last_name, same_address, email_opt_in)
       SELECT $1, $4::text, $5::text, $6::text, $7::text, $8::boolean, $9::boolean WHERE $3::bigint IS NULL
       RETURNING id
     ), updated_customer AS (
       UPDATE customers SET email = $4::text, phone = $5::text, first_name = $6::text, last_name = $7::text,
              same_address = $8::boolean, email_opt_in = $9::boolean, updated_at = $10::timestamptz
        WHERE $3::bigint IS NOT NULL AND organization_id = $1 AND id = $3::bigint
       RETURNING id
     ), cart_customer AS (
       SELECT id FROM new_customer UNION ALL SELECT id FROM updated_customer
     ), customer_on_cart AS (
       UPDATE carts SET customer_id = new_customer.id, updated_at = $10::timestamptz FROM new_customer
        WHERE carts.organization_id = $1 AND carts.id = $2
     ), customer_addresses AS (
       INSERT INTO addresses (organization_id, customer_id, kind, first_name, last_name, address1, address2, city,
                              state, zipcode, country, phone, updated_at)
       SELECT $1, cart_customer.id, a.kind, a.first_name, a.last_name, a.address1, a.address2, a.city, a.state,
              a.zipcode, a.country, a.phone, $10::timestamptz
         FROM cart_customer
        CROSS JOIN unnest($11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[],
                          $18::text[], $19::text[], $20::text[])
                AS a(kind, first_name, last_name, address1, address2, city, state, zipcode, country, phone)
       ON CONFLICT (organization_id, customer_id, kind) DO UPDATE SET
         first_name = excluded.first_name, last_name = excluded.last_name, address1 = excluded.address1,
         address2 = excluded.address2, city = excluded.city, state = excluded.state, zipcode = excluded.zipcode,
         country = excluded.country, phone = excluded.phone, updated_at = excluded.updated_at
     )`;

/** The parameters of CART_CUSTOMER_CTES, $1 to $20. */
export function cartCustomerParams(organizationId: number, input: CartCustomer, now: Date): unknown[] {
  const { values, addresses } = input;
  const column = <K extends keyof AddressValues | 'kind'>(key: K) => addresses.map((address) => address[key]);
  return [
    organizationId,
    input.cartId,
    input.customerId,
    values.email,
    values.phone,
    values.first_name,
    values.last_name,
    values.same_address,
    values.email_opt_in,
    now,
    column('kind'),
    column('first_name'),
    column('last_name'),
    column('address1'),
    column('address2'),
    column('city'),
    column('state'),
    column('zipcode'),
    column('country'),
    column('phone'),
  ];
}

/**
 * An order's customer in one statement: a new one (customerId null) is created and set on the cart, an existing one
 * is updated; then each address given is inserted or replaced. Answers the customer's id.
 */
export async function saveCartCustomer(
  db: Queryable,
  organizationId: number,
  input: CartCustomer,
  now: Date,
): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `WITH ${CART_CUSTOMER_CTES}
     SELECT id FROM cart_customer`,
    cartCustomerParams(organizationId, input, now),
  );
  const id = rows[0]?.id ?? input.customerId;
  if (id === null) throw new Error('the customer was not saved');
  return id;
}
