// The store's members as the merchant API answers them (docs/dashboard.md, "Staff"): owner only.
import { StaffMemberListSchema, StaffMemberSchema } from '../../../contract/staff.js';
import { request } from '../admin-api.js';

const STAFF_URL = '/checkout/api/merchant/staff';

export const STAFF_KEY = ['staff'] as const;

export const readStaff = () => request(StaffMemberListSchema, 'GET', STAFF_URL);

export const inviteMember = (body: { email: string; name?: string; role: string }) =>
  request(StaffMemberSchema, 'POST', STAFF_URL, body);

export const removeMember = (id: number) => request(null, 'DELETE', `${STAFF_URL}/${id}`);
