import { z } from '../zod.js';

export const ValidationErrorElement = z
  .object({
    loc: z.array(z.string()).describe('Path of the field inside its part of the request.'),
    msg: z.string(),
    type: z.string().describe('Machine-readable error type, such as `missing` or `string_too_long`.'),
    ctx: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi('ValidationErrorElement');

export const ValidationError = z.array(ValidationErrorElement).openapi('ValidationError');

export const AuthenticationError = z
  .object({ auth: z.string() })
  .openapi('AuthenticationError', { example: { auth: 'API key required' } });

export const GlobalError = z
  .object({ global: z.array(z.string()) })
  .openapi('GlobalError', { example: { global: ['Offer not found'] } });

export const BadRequestError = z.record(z.string(), z.array(z.string())).openapi('BadRequestError', {
  description: 'Field path (dotted) or `global`, mapped to the messages about it.',
  example: { 'stock.price': ['The price must not exceed 30000 cents'] },
});
