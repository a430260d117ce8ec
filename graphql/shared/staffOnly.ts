import { Directive } from 'type-graphql';

/** The federation tag of what the platform's staff may see and providers may not (decision 033). */
export const STAFF_TAG = 'staff';

/**
 * Marks a query, mutation, field or argument as the staff's: the provider audience's schema
 * (graphql/audiences.ts) leaves it out, so a provider's key neither sees it in introspection nor
 * gets past validation with it. The resolver still checks the caller: the subgraphs serve both.
 */
export function StaffOnly(): ReturnType<typeof Directive> {
  return Directive(`@tag(name: "${STAFF_TAG}")`);
}
