import type { EntityManager } from '@mikro-orm/core';

/**
 * Events that one subgraph publishes and another handles, so that an effect can run
 * against the direction of dependencies (offers -> bookings) without an import.
 * Subgraphs add their events to this map by declaration merging:
 *
 *   declare module '../shared/domainEvents.js' {
 *     interface DomainEventMap { 'offers.stockDeleted': { stockId: number } }
 *   }
 */

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the subgraphs' declaration merging
export interface DomainEventMap {}

export type DomainEventName = keyof DomainEventMap;

export type DomainEventHandler<Name extends DomainEventName> = (
  em: EntityManager,
  payload: DomainEventMap[Name],
) => Promise<void> | void;

/**
 * Handlers run one after the other inside the publisher's unit of work (the `em` it
 * passes, usually a transaction), so the cause and its effects commit or fail together.
 */
export class DomainEventBus {
  private readonly handlers = new Map<string, DomainEventHandler<never>[]>();

  on<Name extends DomainEventName>(name: Name, handler: DomainEventHandler<Name>): void {
    const list = this.handlers.get(name) ?? [];
    list.push(handler);
    this.handlers.set(name, list);
  }

  async publish<Name extends DomainEventName>(
    em: EntityManager,
    name: Name,
    payload: DomainEventMap[Name],
  ): Promise<void> {
    for (const handler of this.handlers.get(name) ?? []) {
      await (handler as DomainEventHandler<Name>)(em, payload);
    }
  }

  handlerCount(name: DomainEventName): number {
    return this.handlers.get(name)?.length ?? 0;
  }
}

/**
 * The bus as a subgraph's work registration receives it (shared/work.ts): the process may hand a
 * subscription of a subgraph hosted elsewhere to that subgraph's process (server/work).
 */
export type DomainEventPort = Pick<DomainEventBus, 'on' | 'publish'>;

/** What publishing code needs of the bus, whichever of the two it was given. */
export type DomainEventPublisher = Pick<DomainEventBus, 'publish'>;
