import { z } from '../../../contract/zod.js';

// The parts of PayPal's answers the adapter reads. Loose objects: PayPal adds fields freely, and anything unread is
// dropped at parse time, so nothing else from an answer travels further.

const text = z.optional(z.string());

export const PaypalTokenSchema = z.object({ access_token: z.string(), expires_in: z.number() });

const NameSchema = z.object({ given_name: text, surname: text });

const AddressSchema = z.object({
  address_line_1: text,
  address_line_2: text,
  admin_area_2: text,
  admin_area_1: text,
  postal_code: text,
  country_code: text,
});

const VaultAttributesSchema = z.optional(
  z.object({ vault: z.optional(z.object({ id: text, status: text })) }),
);

const CaptureSchema = z.object({
  id: z.string(),
  status: z.string(),
  processor_response: z.optional(z.object({ response_code: text })),
});

export const PaypalOrderSchema = z.object({
  id: z.string(),
  status: text,
  links: z.optional(z.array(z.object({ href: z.string(), rel: z.string() }))),
  payer: z.optional(z.object({ email_address: text, name: z.optional(NameSchema) })),
  payment_source: z.optional(
    z.object({
      paypal: z.optional(
        z.object({ email_address: text, name: z.optional(NameSchema), attributes: VaultAttributesSchema }),
      ),
      card: z.optional(z.object({ attributes: VaultAttributesSchema })),
    }),
  ),
  purchase_units: z.optional(
    z.array(
      z.object({
        shipping: z.optional(
          z.object({ name: z.optional(z.object({ full_name: text })), address: z.optional(AddressSchema) }),
        ),
        payments: z.optional(z.object({ captures: z.optional(z.array(CaptureSchema)) })),
      }),
    ),
  ),
});
export type PaypalOrder = z.infer<typeof PaypalOrderSchema>;

export const PaypalRefundSchema = z.object({ id: z.string(), status: z.string() });

/**
 * PayPal's error envelope. Only the name, the issue codes and the field paths are kept: `description`, `message` and
 * `value` can echo what was sent (a card number), so they are never parsed, logged or shown.
 */
export const PaypalErrorSchema = z.object({
  name: text,
  debug_id: text,
  details: z.optional(z.array(z.object({ issue: text, field: text }))),
});
export type PaypalError = z.infer<typeof PaypalErrorSchema>;
