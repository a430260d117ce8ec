import type { EntityClass, FilterQuery } from '@mikro-orm/core';
import type { Caller } from './caller.js';
import type { GraphContext } from './context.js';
import { NotFoundError } from './errors.js';

/**
 * The filter that keeps a provider key on its own rows (internal keys see all).
 * Rows owned by another provider are then simply not found.
 */
export function ownedByCaller(caller: Caller): { provider?: number } {
  return caller.kind === 'provider' ? { provider: caller.providerId } : {};
}

/** A row of the caller's provider by id, or a 404 that does not tell whether it exists elsewhere. */
export async function findOwnedOrFail<Entity extends object>(
  context: GraphContext,
  entity: EntityClass<Entity>,
  id: number,
  notFoundMessage: string,
): Promise<Entity> {
  const row = await context.em.findOne(entity, { id, ...ownedByCaller(context.caller) } as FilterQuery<Entity>);
  if (!row) throw new NotFoundError(notFoundMessage);
  return row;
}
