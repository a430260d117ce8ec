import { type Collection, type EntityClass, type EntityManager, ReferenceKind } from '@mikro-orm/core';
import { asDateOrNull } from './rowValues.js';

type Row = Record<string, unknown>;
type Convert = (value: unknown) => unknown;

interface Column {
  property: string;
  column: string;
  convert: Convert;
}

const asIs: Convert = (value) => value ?? null;
const asBoolean: Convert = (value) => (value == null ? null : value === true || value === 1 || value === '1');
const asNumber: Convert = (value) => (value == null ? null : Number(value));
const asJson: Convert = (value) => (typeof value === 'string' ? (JSON.parse(value) as unknown) : (value ?? null));
const asReference: Convert = (value) => (value == null ? null : { id: Number(value) });
const asDate: Convert = (value) => asDateOrNull(value as string | number | Date | null);

function converterOf(type: string): Convert {
  switch (type.toLowerCase()) {
    case 'boolean':
    case 'booleantype':
      return asBoolean;
    case 'integer':
    case 'integertype':
    case 'smallint':
    case 'bigint':
    case 'float':
    case 'double':
    case 'number':
      return asNumber;
    case 'json':
    case 'jsontype':
      return asJson;
    case 'datetime':
    case 'datetimetype':
    case 'date':
      return asDate;
    default:
      return asIs;
  }
}

interface Plan {
  columns: Column[];
  prototype: object;
  /** One builder per column prefix, made on first use (see builderOf). */
  builders: Map<string, (row: Row) => object>;
}

const plans = new WeakMap<object, Plan>();

/** Marks the prototypes of views: a view's relations are what its reader joined, never loaded later. */
const VIEW = Symbol('entity view');

function planOf<T extends object>(em: EntityManager, entity: EntityClass<T>) {
  let plan = plans.get(entity);
  if (!plan) {
    const meta = em.getMetadata().get(entity.name);
    const columns: Column[] = [];
    for (const prop of meta.props) {
      if (prop.persist === false || !prop.fieldNames?.length) continue;
      if (prop.kind === ReferenceKind.SCALAR) {
        columns.push({ property: prop.name, column: prop.fieldNames[0], convert: converterOf(prop.type) });
      } else if (prop.kind === ReferenceKind.MANY_TO_ONE) {
        columns.push({ property: prop.name, column: prop.fieldNames[0], convert: asReference });
      }
    }
    // MikroORM puts accessors for some properties on the entity's prototype; a view's own values
    // must not go through them, so its prototype shadows each with a plain writable property.
    const prototype = Object.create(entity.prototype as object) as object;
    Object.defineProperty(prototype, VIEW, { value: true });
    for (const { property } of columns) {
      Object.defineProperty(prototype, property, {
        value: undefined,
        writable: true,
        enumerable: false,
        configurable: true,
      });
    }
    plan = { columns, prototype, builders: new Map() };
    plans.set(entity, plan);
  }
  return plan;
}

/**
 * Entities read for an answer only, built straight from their rows.
 *
 * A managed entity costs far more than its row: MikroORM's factory redefines each instance's
 * properties (relation propagation) and registers it with the unit of work, which for a page of
 * 50 offers measured more than the query and the rest of the request together (issue 19). A view
 * has the entity's prototype, so the graph's field resolvers take it as the entity (type-graphql
 * copies a root of another class into a new instance at every field), and its own scalar
 * properties; a many-to-one relation is only `{ id }`. It is not managed: never change or flush it.
 *
 * The row is one of the entity's table, every column of it (as `select *` reads), or of a join
 * that selects them under a prefix (viewColumns).
 */
export function viewOf<T extends object>(em: EntityManager, entity: EntityClass<T>, row: Row, prefix = ''): T {
  return builderOf(planOf(em, entity), prefix)(row) as T;
}

/**
 * The view builder of an entity for one column prefix, written out property by property. A loop
 * over the columns with computed names sent every view of every entity through the same
 * megamorphic property accesses: 12 venues with their offerer, address and link took 32 µs that
 * way, 7 µs written out (issue 19). Names come from the entity's metadata, quoted as JSON.
 */
function builderOf(plan: Plan, prefix: string): (row: Row) => object {
  let build = plan.builders.get(prefix);
  if (!build) {
    const assignments = plan.columns
      .map(
        ({ property, column }, index) =>
          `view[${JSON.stringify(property)}] = converters[${index}](row[${JSON.stringify(prefix + column)}]);`,
      )
      .join('\n');
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- written from metadata, as said above
    const make = new Function(
      'prototype',
      'converters',
      `return function view(row) {\nconst view = Object.create(prototype);\n${assignments}\nreturn view;\n};`,
    ) as (prototype: object, converters: Convert[]) => (row: Row) => object;
    build = make(
      plan.prototype,
      plan.columns.map((column) => column.convert),
    );
    plan.builders.set(prefix, build);
  }
  return build;
}

/** Whether an object is a view (viewOf) rather than a managed entity. */
export function isView(value: object): boolean {
  return VIEW in value;
}

/**
 * The columns of the entity's table under `alias`, each named `prefix` + its column: what a
 * query that joins several tables selects for `viewOf(..., prefix)`.
 */
export function viewColumns(em: EntityManager, entity: EntityClass<object>, alias: string, prefix: string): string {
  return planOf(em, entity)
    .columns.map(({ column }) => `${alias}.${column} as ${prefix}${column}`)
    .join(', ');
}

/**
 * A to-many relation of a view: the items its reader loaded, in order. Only what reading a
 * collection takes (`isInitialized`, `getItems`, `count`, iteration); a view is never changed.
 */
export function loadedCollection<T extends object>(items: T[]): Collection<T> {
  const loaded = {
    isInitialized: () => true,
    getItems: () => items,
    count: () => items.length,
    [Symbol.iterator]: () => items[Symbol.iterator](),
  };
  // The subset of Collection above is what the graph's resolvers read of a view's relation.
  return loaded as unknown as Collection<T>;
}
