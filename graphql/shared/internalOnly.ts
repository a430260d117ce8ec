import type { Caller } from './caller.js';
import { ForbiddenError } from './errors.js';

/**
 * The operations of the platform's own staff (the back office, internal tools): a provider key
 * gets 403 on them, whatever it names, since they reach every provider.
 */
export function requireInternal(caller: Caller, what: string): void {
  if (caller.kind !== 'internal') throw new ForbiddenError(`Only internal tools ${what}`);
}
