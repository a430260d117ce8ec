/**
 * The sandbox's clock (sandboxRunScheduledJobs): the bookings subgraph, which answers the
 * mutation, publishes `sandbox.scheduledJobsDue` in its transaction; the subgraphs that own
 * the offers run, for the caller's offers only, the work due by `at`, and add what they did
 * to `done`.
 */
export interface SandboxRunTally {
  /** Individual offers approved. */
  approved: number;
  /** Collective offers approved. */
  collectiveApproved: number;
  /** Individual offers published because their publication time had come. */
  published: number;
  /** Bulk upserts by EAN applied to the end. */
  productImports: number;
}

export function emptySandboxRunTally(): SandboxRunTally {
  return { approved: 0, collectiveApproved: 0, published: 0, productImports: 0 };
}

declare module './domainEvents.js' {
  interface DomainEventMap {
    'sandbox.scheduledJobsDue': { providerId: number; at: Date; done: SandboxRunTally };
  }
}
