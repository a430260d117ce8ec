import type { MikroORM } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Beneficiary } from '../../graphql/bookings/Beneficiary.js';
import { Booking } from '../../graphql/bookings/Booking.js';
import { SEND_MESSAGE_JOB } from '../../graphql/bookings/messages.js';
import { AUTO_USE_TASK } from '../../graphql/bookings/work.js';
import { AUTO_APPROVAL_JOB } from '../../graphql/offers/offerReview.js';
import { Offer } from '../../graphql/offers/Offer.js';
import { Stock } from '../../graphql/offers/Stock.js';
import { PUBLICATION_TASK } from '../../graphql/offers/work.js';
import { Venue } from '../../graphql/providers/Venue.js';
import { VenueProvider } from '../../graphql/providers/VenueProvider.js';
import { SettableClock } from '../../platform/time/clock.js';
import { DomainEventBus, type DomainEventName } from '../../graphql/shared/domainEvents.js';
import { Job } from '../../platform/jobs/Job.js';
import { enqueue } from '../../platform/jobs/outbox.js';
import { createOutbound, type Outbound } from '../../platform/outbound/index.js';
import { emptySandboxRunTally } from '../../graphql/shared/sandboxRun.js';
import type { SubgraphName } from '../../graphql/subgraphNames.js';
import { openDatabase } from '../../server/db/orm.js';
import { JobRegistry } from '../../platform/jobs/registry.js';
import { JobWorker } from '../../platform/jobs/worker.js';
import { Scheduler } from '../../platform/jobs/scheduler.js';
import { deliveryOf } from '../../server/work/eventDelivery.js';
import { registerWork } from '../../server/work/index.js';
import { aBookableDate } from '../support/builders.js';
import { createTestDatabase, isPostgresTestRun, type TestDatabase } from '../support/database.js';
import { anEvent, aProvider } from '../support/fixtures.js';

const STOCK_DELETED_JOB = 'domainEvent.bookings.offers.stockDeleted';
const DATE_RESCHEDULED_JOB = 'domainEvent.bookings.offers.dateRescheduled';
const HOUR = 3_600_000;

/** What createCore builds for the background work of a process hosting `hosted`, on its own ORM. */
interface Process {
  orm: MikroORM;
  events: DomainEventBus;
  jobs: JobRegistry;
  scheduler: Scheduler;
  worker: JobWorker;
}

describe(`subgraph work split over processes on one database (${isPostgresTestRun() ? 'PostgreSQL' : 'SQLite'})`, () => {
  const clock = new SettableClock(new Date('2030-03-02T10:00:00Z'));
  let database: TestDatabase;
  /** The bookings process's own connections to the same database. */
  let secondOrm: MikroORM;
  let outbound: Outbound;
  let owner: { providerId: number; venueId: number };
  let tokenCounter = 0;

  function aProcess(orm: MikroORM, hosted: readonly SubgraphName[]): Process {
    const events = new DomainEventBus();
    const jobs = new JobRegistry();
    const scheduler = new Scheduler({ orm, clock });
    registerWork({ jobs, scheduler, events, clock }, { hosted, outbound, autoApprovalDelayMs: null });
    return { orm, events, jobs, scheduler, worker: new JobWorker({ orm, registry: jobs, clock }) };
  }

  beforeAll(async () => {
    database = await createTestDatabase({ sqlite: 'file' });
    secondOrm = await openDatabase(database.databaseConfig);
    outbound = createOutbound({ appEnv: 'development', allowPrivate: true });
    const em = database.orm.em.fork();
    const { provider, offerer } = await aProvider(em, clock);
    const venue = em.create(Venue, {
      offerer,
      legalName: 'Split Hall',
      activityDomain: 'PERFORMING_ARTS',
      siret: null,
      siretComment: 'Association without SIRET',
      isVirtual: false,
      createdDatetime: clock.now(),
    });
    em.create(VenueProvider, { venue, provider, isActive: true, createdAt: clock.now() });
    await em.flush();
    owner = { providerId: provider.id, venueId: venue.id };
  });
  afterAll(async () => {
    await outbound?.close();
    await secondOrm?.close(true);
    await database?.destroy();
  });

  /** A date ten days ahead with one confirmed booking of it. */
  async function aBookedDate(): Promise<{ stockId: number; offerId: number; bookingId: number }> {
    const em = database.orm.em.fork();
    const { stock, offerId } = await aBookableDate(em, clock, owner, { bookedQuantity: 1 });
    const beneficiary = em.create(Beneficiary, {
      provider: owner.providerId,
      email: `split${(tokenCounter += 1)}@example.com`,
      firstName: 'Split',
      lastName: 'Processes',
      birthDate: '2008-01-01',
      credit: 10_000,
    });
    const booking = em.create(Booking, {
      offer: offerId,
      stock,
      provider: owner.providerId,
      beneficiary,
      token: `SPL${String(tokenCounter).padStart(3, '0')}`,
      quantity: 1,
      amount: stock.price,
      status: 'CONFIRMED',
      creationDate: clock.now(),
    });
    await em.flush();
    return { stockId: stock.id, offerId, bookingId: booking.id };
  }

  const readBooking = (id: number) => database.orm.em.fork().findOneOrFail(Booking, id);
  const jobsOfType = (type: string) => database.orm.em.fork().find(Job, { type }, { orderBy: { id: 'asc' } });

  /** The offers' side of a deletion: the stock soft-deleted and the event published in one transaction. */
  async function deleteStock(process: Process, stockId: number, offerId: number, afterwards?: () => void) {
    await process.orm.em.fork().transactional(async (em) => {
      await em.nativeUpdate(Stock, { id: stockId }, { isDeleted: true });
      await process.events.publish(em, 'offers.stockDeleted', { stockId, offerId, at: clock.now() });
      afterwards?.();
    });
  }

  describe('one process hosting offers, another hosting bookings', () => {
    let offers: Process;
    let bookings: Process;

    beforeAll(() => {
      offers = aProcess(database.orm, ['offers']);
      bookings = aProcess(secondOrm, ['bookings']);
    });

    it("queues the bookings' effect of a deleted stock in the deletion's transaction; the bookings worker applies it", async () => {
      const { stockId, offerId, bookingId } = await aBookedDate();

      await deleteStock(offers, stockId, offerId);

      expect((await readBooking(bookingId)).status).toBe('CONFIRMED');
      const [queued] = await jobsOfType(STOCK_DELETED_JOB);
      expect(queued).toMatchObject({ status: 'pending', payload: { stockId, offerId } });
      // The offers process does not host bookings: it leaves the job alone.
      expect((await offers.worker.runDueJobs()).claimed).toBe(0);

      expect(await bookings.worker.runDueJobs()).toEqual({ claimed: 1, succeeded: 1, retried: 0, failed: 0 });
      expect(await readBooking(bookingId)).toMatchObject({
        status: 'CANCELLED',
        cancellationReason: 'STOCK_DELETED',
        cancellationDate: clock.now(),
      });
      expect((await database.orm.em.fork().findOneOrFail(Job, queued.id)).status).toBe('done');
    });

    it('queues nothing when the deletion rolls back: the cause and its job commit together', async () => {
      const { stockId, offerId, bookingId } = await aBookedDate();
      const before = (await jobsOfType(STOCK_DELETED_JOB)).length;

      await expect(
        deleteStock(offers, stockId, offerId, () => {
          throw new Error('the deletion fails after publishing');
        }),
      ).rejects.toThrow('the deletion fails after publishing');

      expect(await jobsOfType(STOCK_DELETED_JOB)).toHaveLength(before);
      expect((await database.orm.em.fork().findOneOrFail(Stock, stockId)).isDeleted).toBe(false);
      expect((await bookings.worker.runDueJobs()).claimed).toBe(0);
      expect((await readBooking(bookingId)).status).toBe('CONFIRMED');
    });

    it("hands a rescheduled date's beginning over as a Date: the bookings' cancellation limit moves to it", async () => {
      const { stockId, offerId, bookingId } = await aBookedDate();
      // Sooner than the 48-hour window: the new cancellation limit is the beginning itself.
      const beginningDatetime = new Date(clock.now().getTime() + 5 * HOUR);

      await offers.orm.em.fork().transactional(async (em) => {
        await offers.events.publish(em, 'offers.dateRescheduled', {
          stockId,
          offerId,
          beginningDatetime,
          at: clock.now(),
        });
      });
      const [queued] = await jobsOfType(DATE_RESCHEDULED_JOB);
      expect(queued.payload).toEqual({
        stockId,
        offerId,
        beginningDatetime: { $date: beginningDatetime.toISOString() },
        at: { $date: clock.now().toISOString() },
      });

      expect(await bookings.worker.runDueJobs()).toEqual({ claimed: 1, succeeded: 1, retried: 0, failed: 0 });
      expect((await readBooking(bookingId)).cancellationLimitDate).toEqual(beginningDatetime);
    });

    it("keeps the handlers that answer the publisher in its transaction: the sandbox clock runs the offers' approvals", async () => {
      const offer = await anEvent(database.orm.em.fork(), clock, owner, { validation: 'PENDING', isActive: true });
      const fork = database.orm.em.fork();
      const approval = enqueue(fork, clock, AUTO_APPROVAL_JOB, { offerIds: [offer.id] }, { runAt: clock.now() });
      await fork.flush();
      const jobsBefore = await database.orm.em.fork().count(Job, {});

      const done = emptySandboxRunTally();
      await bookings.orm.em.fork().transactional(async (em) => {
        await bookings.events.publish(em, 'sandbox.scheduledJobsDue', {
          providerId: owner.providerId,
          at: clock.now(),
          done,
        });
      });

      expect(done.approved).toBe(1);
      expect((await database.orm.em.fork().findOneOrFail(Offer, offer.id)).validation).toBe('APPROVED');
      expect((await database.orm.em.fork().findOneOrFail(Job, approval.id)).status).toBe('done');
      expect(await database.orm.em.fork().count(Job, {})).toBe(jobsBefore);
    });

    it("registers only the hosted subgraph's jobs and periodic tasks", () => {
      expect(bookings.jobs.has(SEND_MESSAGE_JOB)).toBe(true);
      expect(bookings.jobs.has(STOCK_DELETED_JOB)).toBe(true);
      expect(bookings.jobs.has(AUTO_APPROVAL_JOB)).toBe(false);
      expect(bookings.scheduler.names()).toContain(AUTO_USE_TASK);
      expect(bookings.scheduler.names()).not.toContain(PUBLICATION_TASK);

      expect(offers.jobs.has(AUTO_APPROVAL_JOB)).toBe(true);
      expect(offers.jobs.has(SEND_MESSAGE_JOB)).toBe(false);
      expect(offers.jobs.has(STOCK_DELETED_JOB)).toBe(false);
      expect(offers.scheduler.names()).toEqual([PUBLICATION_TASK]);
    });
  });

  describe('one process hosting every subgraph (the default)', () => {
    it('runs the effect inline in the publisher transaction, with no job', async () => {
      const whole = aProcess(database.orm, ['providers', 'offers', 'bookings', 'collective']);
      const { stockId, offerId, bookingId } = await aBookedDate();
      const before = (await jobsOfType(STOCK_DELETED_JOB)).length;

      await deleteStock(whole, stockId, offerId);

      expect((await readBooking(bookingId)).status).toBe('CANCELLED');
      expect(await jobsOfType(STOCK_DELETED_JOB)).toHaveLength(before);
      expect(whole.events.handlerCount('offers.stockDeleted')).toBe(1);
      expect(whole.events.handlerCount('sandbox.scheduledJobsDue')).toBe(2);
    });
  });

  it('has no delivery for an event nobody classified, and says where to classify it', () => {
    expect(() => deliveryOf('nobody.declared' as DomainEventName)).toThrow(
      'Domain event "nobody.declared" has no delivery: classify it in server/work/eventDelivery.ts',
    );
  });
});
