import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { hashSecret } from '../../../graphql/providers/apiKeys.js';
import { withClient } from '../../support/pgClient.js';
import { tokenOf } from '../countermarks.js';
import { type ScaleShape, seededRandom, zipfDraw } from './scaleShape.js';

const DAY_MS = 86_400_000;
/** Rows per chunk handed to COPY: large enough that the stream's overhead vanishes. */
const ROWS_PER_CHUNK = 2_000;

/** A value in COPY's text format: `\N` is null; the generated text holds no tab, newline or backslash. */
type Cell = string | number | boolean | null;
function line(cells: Cell[]): string {
  let text = '';
  for (let index = 0; index < cells.length; index += 1) {
    const cell = cells[index];
    if (index > 0) text += '\t';
    text += cell === null ? '\\N' : cell === true ? 't' : cell === false ? 'f' : String(cell);
  }
  return `${text}\n`;
}

function* chunked(rows: Iterable<string>): Generator<string> {
  let chunk = '';
  let count = 0;
  for (const row of rows) {
    chunk += row;
    count += 1;
    if (count === ROWS_PER_CHUNK) {
      yield chunk;
      chunk = '';
      count = 0;
    }
  }
  if (chunk) yield chunk;
}

/**
 * COPY into `table`. Its unique and foreign-key constraints and its indexes but the primary key
 * are dropped first and made again after: ten million rows inserted into five B-trees in random
 * order, each row checked against four other tables, took over fifteen minutes here, where
 * building each index once, sorted, and checking each key in one join take seconds. The
 * definitions are the migrated ones, read back from the catalogue.
 */
async function copyRows(client: pg.Client, table: string, columns: string[], rows: Iterable<string>): Promise<void> {
  const { rows: constraints } = await client.query<{ name: string; definition: string }>(
    `SELECT conname AS name, pg_get_constraintdef(oid) AS definition FROM pg_constraint
     WHERE conrelid = $1::regclass AND contype IN ('u', 'f')`,
    [table],
  );
  for (const constraint of constraints) await client.query(`ALTER TABLE ${table} DROP CONSTRAINT "${constraint.name}"`);
  const { rows: indexes } = await client.query<{ name: string; definition: string }>(
    `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS definition
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
     WHERE x.indrelid = $1::regclass AND NOT x.indisprimary`,
    [table],
  );
  for (const index of indexes) await client.query(`DROP INDEX "${index.name}"`);
  const target = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
  await pipeline(Readable.from(chunked(rows)), target);
  for (const index of indexes) await client.query(index.definition);
  for (const constraint of constraints) {
    await client.query(`ALTER TABLE ${table} ADD CONSTRAINT "${constraint.name}" ${constraint.definition}`);
  }
  // The rows came with their ids: what the platform inserts next takes the following one.
  await client.query(`SELECT setval('${table}_id_seq', (SELECT max(id) FROM ${table}))`);
}

/** The providers measured: ids are ranks, so the largest is 1; the typical one is the median of those with bookings. */
export interface ScaleProviders {
  largest: number;
  typical: number;
}

/** Every row of the programme's size, one COPY per table, each table's sequence past its ids. */
export function fillScaleDatabase(
  url: string,
  shape: ScaleShape,
  log: (line: string) => void,
): Promise<ScaleProviders> {
  return withClient(url, async (client) => {
    await client.query('SET synchronous_commit = off');
    // Index builds sort in memory rather than in temporary files.
    await client.query("SET maintenance_work_mem = '512MB'");
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const created = iso(now - 400 * DAY_MS);
    const random = seededRandom(41);
    const drawProvider = zipfDraw(shape.providers, random);
    const step = async (label: string, run: () => Promise<void>) => {
      const started = performance.now();
      await run();
      log(`  ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    };

    const P = shape.providers;
    await step(`${P} providers, offerers, venues and links`, async () => {
      const ids = Array.from({ length: P }, (_, index) => index + 1);
      await copyRows(
        client,
        'provider',
        ['id', 'name', 'is_active', 'messaging_secret', 'created_at', 'can_manage_individual_offers'],
        ids.map((id) => line([id, `Provider ${id}`, true, `secret-${id}`, created, true])),
      );
      await copyRows(
        client,
        'offerer',
        ['id', 'name', 'siren', 'allowed_on_adage', 'created_datetime'],
        ids.map((id) => line([id, `Offerer ${id}`, String(100_000_000 + id), true, created])),
      );
      await copyRows(
        client,
        'venue',
        ['id', 'offerer_id', 'siret', 'legal_name', 'public_name', 'activity_domain', 'is_virtual', 'created_datetime'],
        ids.map((id) =>
          line([id, id, `${100_000_000 + id}00001`, `Venue ${id}`, `Venue ${id}`, 'PERFORMING_ARTS', false, created]),
        ),
      );
      await copyRows(
        client,
        'venue_provider',
        ['id', 'venue_id', 'provider_id', 'is_active', 'created_at'],
        ids.map((id) => line([id, id, id, true, created])),
      );
    });

    // Offers fall on providers by the Zipf law, interleaved as they would be created over time.
    const offerProvider = new Int32Array(shape.offers + 1);
    const offerIsEvent = new Uint8Array(shape.offers + 1);
    const offersPerProvider = new Int32Array(P + 1);
    for (let id = 1; id <= shape.offers; id += 1) {
      const provider = drawProvider();
      offerProvider[id] = provider;
      offerIsEvent[id] = random() < shape.eventShare ? 1 : 0;
      offersPerProvider[provider] += 1;
    }
    const published = iso(now - 200 * DAY_MS);
    await step(`${shape.offers} offers`, () =>
      copyRows(
        client,
        'offer',
        [
          'id',
          'name',
          'venue_id',
          'provider_id',
          'id_at_provider',
          'is_active',
          'created_at',
          'updated_at',
          'category',
          'is_event',
          'category_related_fields',
          'enable_double_bookings',
          'has_ticket',
          'event_duration',
          'location_type',
          'publication_datetime',
          'published_at',
          'booking_opened_at',
          'validation',
          'validated_at',
        ],
        (function* () {
          for (let id = 1; id <= shape.offers; id += 1) {
            const provider = offerProvider[id];
            const event = offerIsEvent[id] === 1;
            yield line([
              id,
              event ? `Concert ${id}` : `Book ${id}`,
              provider,
              provider,
              `offer-${id}`,
              true,
              published,
              published,
              event ? 'CONCERT' : 'LIVRE_PAPIER',
              event,
              event ? '{"musicType":"ROCK"}' : '{}',
              false,
              false,
              event ? 90 : null,
              'physical',
              published,
              published,
              published,
              'APPROVED',
              published,
            ]);
          }
        })(),
      ),
    );

    // One price category per event, numbered as the events come.
    const priceCategoryOf = new Int32Array(shape.offers + 1);
    let priceCategories = 0;
    for (let id = 1; id <= shape.offers; id += 1) if (offerIsEvent[id] === 1) priceCategoryOf[id] = ++priceCategories;
    await step(`${priceCategories} price categories`, () =>
      copyRows(
        client,
        'price_category',
        ['id', 'offer_id', 'label', 'price', 'created_at'],
        (function* () {
          for (let id = 1; id <= shape.offers; id += 1)
            if (offerIsEvent[id] === 1) yield line([priceCategoryOf[id], id, 'Tarif plein', 2500, published]);
        })(),
      ),
    );

    // Stocks: an event's dates a week apart, half of them past; a product's one stock.
    let stocks = 0;
    for (let id = 1; id <= shape.offers; id += 1) stocks += offerIsEvent[id] === 1 ? shape.datesPerEvent : 1;
    const stockOffer = new Int32Array(stocks + 1);
    const stockBeginning = new Float64Array(stocks + 1);
    {
      let stock = 0;
      for (let id = 1; id <= shape.offers; id += 1) {
        if (offerIsEvent[id] === 1) {
          for (let date = 0; date < shape.datesPerEvent; date += 1) {
            stock += 1;
            stockOffer[stock] = id;
            stockBeginning[stock] = now + (date - shape.datesPerEvent / 2) * 7 * DAY_MS + (id % 24) * 3_600_000;
          }
        } else {
          stock += 1;
          stockOffer[stock] = id;
          stockBeginning[stock] = Number.NaN;
        }
      }
    }
    await step(`${stocks} stocks`, () =>
      copyRows(
        client,
        'stock',
        [
          'id',
          'offer_id',
          'price_category_id',
          'beginning_datetime',
          'booking_limit_datetime',
          'price',
          'quantity',
          'booked_quantity',
          'is_deleted',
          'created_at',
          'updated_at',
        ],
        (function* () {
          for (let stock = 1; stock <= stocks; stock += 1) {
            const offer = stockOffer[stock];
            const beginning = stockBeginning[stock];
            const event = !Number.isNaN(beginning);
            yield line([
              stock,
              offer,
              event ? priceCategoryOf[offer] : null,
              event ? iso(beginning) : null,
              event ? iso(beginning - 3_600_000) : null,
              2500,
              1000,
              0,
              false,
              published,
              published,
            ]);
          }
        })(),
      ),
    );

    // Bookings spread at random over the stocks; each provider's beneficiaries in one id range.
    const bookingStock = new Int32Array(shape.bookings + 1);
    const bookingsPerProvider = new Int32Array(P + 1);
    for (let id = 1; id <= shape.bookings; id += 1) {
      const stock = 1 + Math.floor(random() * stocks);
      bookingStock[id] = stock;
      bookingsPerProvider[offerProvider[stockOffer[stock]]] += 1;
    }
    const firstBeneficiary = new Int32Array(P + 2);
    firstBeneficiary[1] = 1;
    for (let provider = 1; provider <= P; provider += 1) {
      const count = Math.max(1, Math.ceil(bookingsPerProvider[provider] / shape.bookingsPerBeneficiary));
      firstBeneficiary[provider + 1] = firstBeneficiary[provider] + count;
    }
    const beneficiaries = firstBeneficiary[P + 1] - 1;
    await step(`${beneficiaries} beneficiaries`, () =>
      copyRows(
        client,
        'beneficiary',
        ['id', 'provider_id', 'email', 'first_name', 'last_name', 'birth_date', 'credit', 'created_at'],
        (function* () {
          for (let provider = 1; provider <= P; provider += 1)
            for (let id = firstBeneficiary[provider]; id < firstBeneficiary[provider + 1]; id += 1)
              yield line([
                id,
                provider,
                `young${id}@example.com`,
                'Camille',
                `Young ${id}`,
                '2007-05-01',
                15000,
                created,
              ]);
        })(),
      ),
    );
    await step(`${shape.bookings} bookings`, () =>
      copyRows(
        client,
        'booking',
        [
          'id',
          'offer_id',
          'stock_id',
          'provider_id',
          'beneficiary_id',
          'token',
          'quantity',
          'amount',
          'status',
          'creation_date',
          'cancellation_limit_date',
          'date_used',
          'cancellation_date',
          'reimbursement_date',
        ],
        (function* () {
          for (let id = 1; id <= shape.bookings; id += 1) {
            const stock = bookingStock[id];
            const offer = stockOffer[stock];
            const provider = offerProvider[offer];
            const span = firstBeneficiary[provider + 1] - firstBeneficiary[provider];
            const beneficiary = firstBeneficiary[provider] + (id % span);
            const beginning = stockBeginning[stock];
            const event = !Number.isNaN(beginning);
            // Nothing is due: past events were used and paid, products were picked up and paid or
            // booked in the last week; one booking in 20 was cancelled.
            const bookedAt = event ? Math.min(now - 60_000, beginning - 10 * DAY_MS) : now - (id % 120) * DAY_MS;
            const past = event ? beginning < now - 2 * DAY_MS : bookedAt < now - 7 * DAY_MS;
            const cancelled = id % 20 === 0;
            const status = cancelled ? 'CANCELLED' : past ? 'REIMBURSED' : 'CONFIRMED';
            yield line([
              id,
              offer,
              stock,
              provider,
              beneficiary,
              tokenOf(id),
              1,
              2500,
              status,
              iso(bookedAt),
              event ? iso(beginning - 2 * DAY_MS) : null,
              status === 'REIMBURSED' ? iso(event ? beginning + DAY_MS : bookedAt + DAY_MS) : null,
              cancelled ? iso(bookedAt + 3_600_000) : null,
              status === 'REIMBURSED' ? iso(event ? beginning + 8 * DAY_MS : bookedAt + 8 * DAY_MS) : null,
            ]);
          }
        })(),
      ),
    );

    await step(`${shape.collectiveOffers} collective offers`, () =>
      copyRows(
        client,
        'collective_offer',
        [
          'id',
          'provider_id',
          'venue_id',
          'name',
          'description',
          'formats',
          'booking_emails',
          'contact_email',
          'contact_phone',
          'domains',
          'students',
          'intervention_area',
          'location_type',
          'at_venue_address',
          'start_datetime',
          'end_datetime',
          'booking_limit_datetime',
          'total_price_cents',
          'number_of_tickets',
          'duration_minutes',
          'audio_disability_compliant',
          'mental_disability_compliant',
          'motor_disability_compliant',
          'visual_disability_compliant',
          'is_active',
          'validation',
          'validated_at',
          'date_created',
          'date_updated',
        ],
        (function* () {
          for (let id = 1; id <= shape.collectiveOffers; id += 1) {
            const provider = drawProvider();
            const start = now + ((id % 180) - 60) * DAY_MS;
            yield line([
              id,
              provider,
              provider,
              `Atelier ${id}`,
              'Un atelier pour une classe.',
              '["Atelier de pratique"]',
              '["scolaires@example.com"]',
              'mediation@example.com',
              '+33 1 23 45 67 89',
              '[1]',
              '["COLLEGE4"]',
              '[]',
              'TO_BE_DEFINED',
              false,
              iso(start),
              iso(start + 2 * 3_600_000),
              iso(start - 7 * DAY_MS),
              15_000,
              30,
              120,
              false,
              false,
              true,
              false,
              true,
              'APPROVED',
              created,
              created,
              created,
            ]);
          }
        })(),
      ),
    );

    await step('statistics', async () => {
      await client.query('ANALYZE');
    });

    const withBookings = [];
    for (let provider = 1; provider <= P; provider += 1)
      if (bookingsPerProvider[provider] > 0) withBookings.push(provider);
    return { largest: 1, typical: withBookings[Math.floor(withBookings.length / 2)] };
  });
}

/** Issues a key for `providerId` with a known secret, as issueApiKey would store it. */
export async function keyFor(url: string, providerId: number): Promise<string> {
  // The keys' format: `{env}_{12 hex}_{64 hex}`.
  const prefix = `scale_${providerId.toString(16).padStart(12, '0')}`;
  const secret = createHash('sha256').update(`scale bench ${providerId}`).digest('hex');
  await withClient(url, (client) =>
    client.query(
      `INSERT INTO api_key (prefix, secret_hash, provider_id, is_internal, label, created_at)
       VALUES ($1, $2, $3, false, 'scale bench', now()) ON CONFLICT (prefix) DO NOTHING`,
      [prefix, hashSecret(secret), providerId],
    ),
  );
  return `${prefix}_${secret}`;
}
