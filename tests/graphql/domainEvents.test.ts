import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Provider } from '../../graphql/providers/Provider.js';
import { DomainEventBus } from '../../graphql/shared/domainEvents.js';
import { Job } from '../../platform/jobs/Job.js';
import { enqueue } from '../../platform/jobs/outbox.js';
import { SettableClock } from '../../platform/time/clock.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { aProvider } from '../support/fixtures.js';

declare module '../../graphql/shared/domainEvents.js' {
  interface DomainEventMap {
    'test.providerRenamed': { providerId: number; name: string };
  }
}

describe('domain events', () => {
  let database: TestDatabase;
  const clock = new SettableClock(new Date('2026-11-22T10:00:00Z'));
  let providerId: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    providerId = (await aProvider(database.orm.em.fork(), clock)).provider.id;
  });
  afterAll(() => database.destroy());

  function busThatEnqueuesANotification(): DomainEventBus {
    const bus = new DomainEventBus();
    bus.on('test.providerRenamed', (em, payload) => {
      enqueue(em, clock, 'test.notifyRename', { providerId: payload.providerId });
    });
    return bus;
  }

  it("run their handlers inside the publisher's transaction: both commit together", async () => {
    const bus = busThatEnqueuesANotification();
    await database.orm.em.fork().transactional(async (em) => {
      const provider = await em.findOneOrFail(Provider, providerId);
      provider.name = 'Renamed Ticketing';
      await bus.publish(em, 'test.providerRenamed', { providerId, name: provider.name });
    });
    const em = database.orm.em.fork();
    expect((await em.findOneOrFail(Provider, providerId)).name).toBe('Renamed Ticketing');
    expect(await em.count(Job, { type: 'test.notifyRename' })).toBe(1);
  });

  it('roll back with the publisher: a failed change leaves neither the change nor the effect', async () => {
    const bus = busThatEnqueuesANotification();
    bus.on('test.providerRenamed', () => {
      throw new Error('a later handler refuses');
    });
    await expect(
      database.orm.em.fork().transactional(async (em) => {
        const provider = await em.findOneOrFail(Provider, providerId);
        provider.name = 'Never Saved';
        await bus.publish(em, 'test.providerRenamed', { providerId, name: provider.name });
      }),
    ).rejects.toThrow('a later handler refuses');
    const em = database.orm.em.fork();
    expect((await em.findOneOrFail(Provider, providerId)).name).toBe('Renamed Ticketing');
    expect(await em.count(Job, { type: 'test.notifyRename' })).toBe(1);
  });

  it('call handlers in registration order and count them', async () => {
    const bus = new DomainEventBus();
    const calls: string[] = [];
    bus.on('test.providerRenamed', () => void calls.push('first'));
    bus.on('test.providerRenamed', async () => void calls.push('second'));
    await bus.publish(database.orm.em.fork(), 'test.providerRenamed', { providerId, name: 'x' });
    expect(calls).toEqual(['first', 'second']);
    expect(bus.handlerCount('test.providerRenamed')).toBe(2);
  });
});
