// negotiator 1.x has no types of its own, and @types/negotiator describes 0.6 (no preference order).
declare module 'negotiator' {
  import type { IncomingMessage } from 'node:http';

  export default class Negotiator {
    constructor(request: Pick<IncomingMessage, 'headers'>);
    /** The best of `available` the request accepts; ties go to the earlier in `preferred`. */
    encoding(available: string[], options?: { preferred?: string[] }): string | undefined;
  }
}
