import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { BadRequestError } from '../shared/errors.js';

/**
 * Runs a change whose uniqueness rules were checked beforehand, and answers a 400 when a
 * concurrent request won the race anyway: the database's unique index is the last word,
 * and its refusal is the same answer the check gives, never a 500.
 */
export async function answeringUniquenessRaces<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) {
      if (/id_at_provider/.test(error.message)) {
        throw BadRequestError.on('idAtProvider', 'Another offer of this venue already has this idAtProvider');
      }
      if (/\bean\b|_ean_/.test(error.message)) {
        throw BadRequestError.on('categoryRelatedFields.ean', 'You already sell this EAN at this venue');
      }
    }
    throw error;
  }
}
