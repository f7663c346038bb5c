// The schemas the page checks the server's answers with. Loaded on demand (loadResponseSchemas), so zod and the
// contract stay out of the page's first chunk; the download starts with the page and runs beside the handshake.
// The page's config block has its own (read-page-boot.ts), in a smaller chunk built first.
export { AuthorizeResponseSchema, CsrfResponseSchema } from '../../contract/handshake.js';
export { CartSchema, GiftResponseSchema, PreviewResponseSchema } from '../../contract/cart.js';
export { OrderResponseSchema, PaymentTokenSchema } from '../../contract/order.js';
