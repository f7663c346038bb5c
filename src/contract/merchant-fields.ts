// Field shapes the merchant contract's schemas share.
import { z } from './zod.js';

export const text = (max: number) => z.string().check(z.maxLength(max));
export const requiredText = (max: number) =>
  z.string().check(z.trim(), z.minLength(1, 'This field is required.'), z.maxLength(max));
export const ImageUrlSchema = z.url({
  protocol: /^https?$/,
  error: 'Enter a full http(s) URL of the image.',
});
