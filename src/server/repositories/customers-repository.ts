import type { Queryable } from '../db/database.js';

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

export async function updateCustomer(
  db: Queryable,
  organizationId: number,
  id: number,
  values: Partial<Omit<CustomerRow, 'id' | 'organization_id'>>,
  now: Date,
): Promise<void> {
  await db.query(
    `UPDATE customers SET
       email = coalesce($3, email), phone = coalesce($4, phone), first_name = coalesce($5, first_name),
       last_name = coalesce($6, last_name), same_address = coalesce($7, same_address),
       email_opt_in = coalesce($8, email_opt_in), updated_at = $9
     WHERE organization_id = $1 AND id = $2`,
    [
      organizationId,
      id,
      values.email ?? null,
      values.phone ?? null,
      values.first_name ?? null,
      values.last_name ?? null,
      values.same_address ?? null,
      values.email_opt_in ?? null,
      now,
    ],
  );
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
