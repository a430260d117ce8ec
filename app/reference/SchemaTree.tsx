import type { ReactNode } from 'react';
import { Fragment, createContext, useContext } from 'react';
import { Code, InlineText } from './Prose.js';
import {
  type JsonSchema,
  constraintsOf,
  formatValue,
  hasFields,
  isNullable,
  refName,
  resolveSchema,
  schemaAnchor,
  schemaPagePath,
  typesOf,
  variantsOf,
} from './schema.js';

/**
 * Levels of fields drawn inline; a named object deeper than this is loaded on demand. One level
 * keeps the page near 10,000 elements (two made 28,000): laying them out is what a phone's main
 * thread waits on (decision 010).
 */
export const INLINE_LEVELS = 1;
/** Enums longer than this show their first values and link to their schema. */
const ENUM_INLINE = 12;
/** A `oneOf` of more named variants than this draws the first inline and loads the others on demand. */
const LAZY_VARIANTS = 4;

type Schemas = Record<string, JsonSchema>;

/** `{ "type": "null" }` among variants: the field is nullable (its flags say so), not a variant to pick. */
function isNullVariant(variant: JsonSchema, schemas: Schemas): boolean {
  const types = typesOf(resolveSchema(variant, schemas).schema);
  return types.length === 1 && types[0] === 'null';
}

/**
 * Where a schema's name links: its section on /rest-api (`#schema/<Name>`), or, on a schema's own
 * page, that schema's page.
 */
export const SchemaLinks = createContext<(name: string) => string>((name) => `#${schemaAnchor(name)}`);

export function SchemaLink({ name }: { name: string }) {
  return <a href={useContext(SchemaLinks)(name)}>{name}</a>;
}

/** A type with each named schema linked to its section: `array of <a>AddressModel</a> | null`. */
export function TypeLabel({ schema, schemas }: { schema: JsonSchema; schemas: Schemas }) {
  const { schema: resolved, name } = resolveSchema(schema, schemas);
  const variants = variantsOf(resolved);
  const link = name ? <SchemaLink name={name} /> : null;
  const named = variants?.variants.filter((variant) => !isNullVariant(variant, schemas));
  if (variants && named && named.length > 3 && named.every((variant) => variant.$ref)) {
    // The variants are listed below the field (tree) or in the section (schemas): their count is enough here.
    return (
      <>{`${variants.keyword} (${named.length} schemas)${named.length < variants.variants.length ? ' | null' : ''}`}</>
    );
  }
  if (variants) {
    return (
      <>
        {variants.variants.map((variant, index) => (
          <Fragment key={index}>
            {index > 0 ? ' | ' : null}
            <TypeLabel schema={variant} schemas={schemas} />
          </Fragment>
        ))}
      </>
    );
  }
  const types = typesOf(resolved);
  if (types.length === 0) return link ?? <>any</>;
  const plain = types.every(
    (type) =>
      !(type === 'array' && resolved.items) && !(link && (type === 'object' || (type !== 'null' && resolved.enum))),
  );
  if (plain)
    return (
      <>
        {types.map((type) => (type === 'string' && resolved.format ? `string (${resolved.format})` : type)).join(' | ')}
      </>
    );
  return (
    <>
      {types.map((type, index) => (
        <Fragment key={type}>
          {index > 0 ? ' | ' : null}
          {type === 'array' && resolved.items ? (
            <>
              array of <TypeLabel schema={resolved.items} schemas={schemas} />
            </>
          ) : type === 'object' && link ? (
            link
          ) : type !== 'null' && link && resolved.enum ? (
            <>
              {type} ({link})
            </>
          ) : type === 'string' && resolved.format ? (
            `string (${resolved.format})`
          ) : (
            type
          )}
        </Fragment>
      ))}
    </>
  );
}

/** Enum values in one code span (a field with many values would otherwise cost an element each). */
function EnumValues({ values, name }: { values: unknown[]; name: string | null }) {
  const shown = values.length > ENUM_INLINE && name ? values.slice(0, 8) : values;
  return (
    <span className="schema__enum">
      {values.length === 1 ? 'Value: ' : 'One of: '}
      <Code text={shown.map(formatValue).join(', ')} />
      {shown.length < values.length ? (
        <>
          {' '}
          and {values.length - shown.length} more (<SchemaLink name={name!} />)
        </>
      ) : null}
    </span>
  );
}

/** What a schema says beside its type: description, flags, constraints, enum, default, discriminator. */
export function SchemaFacts({
  schema,
  schemas,
  required,
  inTree,
}: {
  schema: JsonSchema;
  schemas: Schemas;
  required?: boolean;
  inTree?: boolean;
}) {
  const { schema: resolved, name } = resolveSchema(schema, schemas);
  const flags = [
    isNullable(resolved) ? 'nullable' : null,
    resolved.readOnly ? 'read-only' : null,
    resolved.writeOnly ? 'write-only' : null,
    resolved.deprecated ? 'deprecated' : null,
  ].filter((flag): flag is string => flag !== null);
  const constraints = constraintsOf(resolved);
  const description = schema.description ?? resolved.description;
  const enumValues = resolved.enum?.filter((value) => value !== null);
  const variants = variantsOf(resolved);
  const scalarVariants =
    variants && !variants.variants.some((variant) => isComplex(variant, schemas)) ? variants.variants : null;
  return (
    <>
      {required ? (
        <>
          {' '}
          <span className="schema__required">required</span>
        </>
      ) : null}
      {flags.length > 0 ? (
        <>
          {' '}
          <span className="schema__flags">{flags.join(', ')}</span>
        </>
      ) : null}
      {description ? (
        <p className="schema__desc">
          <InlineText text={description} />
        </p>
      ) : null}
      {constraints.length > 0 ||
      enumValues?.length ||
      resolved.default !== undefined ||
      resolved.example !== undefined ||
      scalarVariants ? (
        <p className="schema__meta">
          {constraints.length > 0 ? constraints.join(', ') : null}
          {enumValues && enumValues.length > 0 ? <EnumValues values={enumValues} name={name} /> : null}
          {resolved.default !== undefined ? (
            <span>
              Default: <Code text={formatValue(resolved.default)} />
            </span>
          ) : null}
          {resolved.example !== undefined && !hasFields(resolved) && typesOf(resolved)[0] !== 'array' ? (
            <span>
              Example: <Code text={formatValue(resolved.example)} />
            </span>
          ) : null}
          {scalarVariants?.map((variant, index) => {
            const { schema: part, name: partName } = resolveSchema(variant, schemas);
            const facts = constraintsOf(part);
            const values = part.enum?.filter((value) => value !== null);
            return values?.length || facts.length > 0 ? (
              <span key={index}>
                <TypeLabel schema={variant} schemas={schemas} />
                {facts.length > 0 ? `: ${facts.join(', ')}` : null}
                {values?.length ? (
                  <>
                    {': '}
                    <EnumValues values={values} name={partName} />
                  </>
                ) : null}
              </span>
            ) : null;
          })}
        </p>
      ) : null}
      {resolved.discriminator && !inTree ? <Discriminator discriminator={resolved.discriminator} /> : null}
    </>
  );
}

function Discriminator({ discriminator }: { discriminator: NonNullable<JsonSchema['discriminator']> }) {
  const mapping = Object.entries(discriminator.mapping ?? {});
  return (
    <p className="schema__meta">
      <span>
        Discriminator: <code>{discriminator.propertyName}</code>
        {mapping.length > 0 ? ' — ' : null}
        {mapping.map(([value, ref], index) => {
          const target = refName(ref);
          return (
            <Fragment key={value}>
              {index > 0 ? ', ' : null}
              <code>{value}</code> → {target ? <SchemaLink name={target} /> : ref}
            </Fragment>
          );
        })}
      </span>
    </p>
  );
}

/** A schema with a level of its own: fields, array items with fields, or variants that have some. */
function isComplex(schema: JsonSchema, schemas: Schemas, depth = 0): boolean {
  if (depth > 4) return false;
  const { schema: resolved } = resolveSchema(schema, schemas);
  if (hasFields(resolved)) return true;
  if (resolved.items) return isComplex(resolved.items, schemas, depth + 1);
  return variantsOf(resolved)?.variants.some((variant) => isComplex(variant, schemas, depth + 1)) ?? false;
}

/**
 * The lazily loaded level: a folded `<details data-schema-ref>` whose body the client fetches from
 * /rest-api/schemas/<Name>/fragment on first opening (app/client/schemaTrees.ts); without JavaScript
 * its link leads to the schema's own page, /rest-api/schemas/<Name>.
 */
export function LazySchema({
  name,
  summary,
  variant,
  fallback = `See the ${name} schema`,
}: {
  name: string;
  summary: ReactNode;
  variant?: number;
  fallback?: string;
}) {
  return (
    <details
      className={variant === undefined ? 'schema__nested' : 'schema-variant'}
      data-schema-ref={name}
      data-variant={variant}
    >
      <summary>{summary}</summary>
      <a className="schema__slot" data-schema-slot="" href={schemaPagePath(name)}>
        {fallback}
      </a>
    </details>
  );
}

function variantLabel(
  variant: JsonSchema,
  schemas: Schemas,
  discriminator: JsonSchema['discriminator'],
  index: number,
): string {
  const { schema: resolved, name } = resolveSchema(variant, schemas);
  const key = Object.entries(discriminator?.mapping ?? {}).find(([, ref]) => refName(ref) === name)?.[0];
  const label = name ?? resolved.title ?? (typesOf(resolved).join(' | ') || `Variant ${index + 1}`);
  return key !== undefined && key !== name ? `${key} (${label})` : label;
}

/**
 * `oneOf`/`anyOf` with a level of their own. A few variants: each a `<details>` (the first open),
 * every one reachable without JavaScript. Many named variants (a category's fields): the first
 * inline and the others as links to their schema's page, so a 26-way choice costs 26 links, not 26
 * trees. With JavaScript the `<select>` shows one variant at a time (app/client/schemaTrees.ts),
 * loading a linked one when it is picked; the styles show the first variant until then. The picker
 * waits in a `<template>` until it nears the viewport: a page of built `<select>`s cost a long
 * style and layout task when parsing ended (decision 010). Without JavaScript, the root layout's
 * `<noscript>` style hides the picker's place and shows every variant and the links.
 * Beyond the inline levels a variant is lazy too.
 */
function Variants({ schema, schemas, level }: { schema: JsonSchema; schemas: Schemas; level: number }) {
  const { keyword, variants: all } = variantsOf(schema)!;
  const variants = all.filter((variant) => !isNullVariant(variant, schemas));
  const labels = variants.map((variant, index) => variantLabel(variant, schemas, schema.discriminator, index));
  const names = variants.map((variant) => resolveSchema(variant, schemas).name);
  const manyNamed = variants.length > LAZY_VARIANTS && names.every((name) => name !== null);
  return (
    <div className="schema-variants" data-variants="">
      <p className="schema-variants__intro">
        {keyword === 'oneOf' ? 'One of' : 'Any of'} {variants.length}
        {variants.length < all.length ? ' or null' : null}
        {schema.discriminator ? (
          <>
            , chosen by <code>{schema.discriminator.propertyName}</code>
          </>
        ) : null}
        :
      </p>
      <div className="schema-variants__picker" data-variant-picker="">
        <template>
          <label>
            <span>Variant</span>{' '}
            {/* The client shows the variant at the option's index; a variant drawn as a link names the schema it loads. */}
            <select data-variant-select="">
              {labels.map((label, index) => (
                <option key={index} data-schema-ref={manyNamed && index > 0 ? names[index] : undefined}>
                  {label}
                </option>
              ))}
            </select>
          </label>
        </template>
      </div>
      {variants.map((variant, index) => {
        const name = names[index];
        if (manyNamed && index > 0) return null;
        if (level > INLINE_LEVELS && name && isComplex(variant, schemas))
          return <LazySchema key={index} name={name} summary={labels[index]} variant={index} />;
        return (
          <details key={index} className="schema-variant" data-variant={index} open={index === 0}>
            <summary>{labels[index]}</summary>
            <SchemaBody schema={variant} schemas={schemas} level={level} />
          </details>
        );
      })}
      {manyNamed ? (
        <p className="schema-variants__links" data-variant-links="" hidden>
          {'The others: '}
          {names.slice(1).map((name, index) => (
            <Fragment key={name}>
              {index > 0 ? ', ' : null}
              <a href={schemaPagePath(name)}>{labels[index + 1]}</a>
            </Fragment>
          ))}
          .
        </p>
      ) : null}
    </div>
  );
}

/** One field: name, type, flags, facts, and the level below it. */
function SchemaField({
  name,
  schema,
  schemas,
  required,
  level,
  shallow,
}: {
  name: string;
  schema: JsonSchema;
  schemas: Schemas;
  required: boolean;
  level: number;
  shallow?: boolean;
}) {
  return (
    <li className="schema__field">
      <code className="schema__name">{name}</code>{' '}
      <span className="schema__type">
        <TypeLabel schema={schema} schemas={schemas} />
      </span>
      <SchemaFacts
        schema={schema}
        schemas={schemas}
        required={required}
        inTree={!shallow && isComplex(schema, schemas)}
      />
      {shallow ? null : <SchemaChildren schema={schema} schemas={schemas} level={level + 1} />}
    </li>
  );
}

/** The fields of an object; `shallow` draws one level (the Schemas part links the rest). */
export function SchemaFields({
  schema,
  schemas,
  level,
  shallow,
}: {
  schema: JsonSchema;
  schemas: Schemas;
  level: number;
  shallow?: boolean;
}) {
  const required = new Set(schema.required ?? []);
  return (
    <ul className="schema">
      {Object.entries(schema.properties ?? {}).map(([key, property]) => (
        <SchemaField
          key={key}
          name={key}
          schema={property}
          schemas={schemas}
          required={required.has(key)}
          level={level}
          shallow={shallow}
        />
      ))}
    </ul>
  );
}

/** What sits under a field whose children are at `level`: nothing, a folded level, a lazy one, or variants. */
function SchemaChildren({ schema, schemas, level }: { schema: JsonSchema; schemas: Schemas; level: number }) {
  if (!isComplex(schema, schemas)) return null;
  const { schema: resolved, name } = resolveSchema(schema, schemas);
  if (variantsOf(resolved)) return <Variants schema={resolved} schemas={schemas} level={level} />;
  if (!hasFields(resolved) && resolved.items)
    return <SchemaChildren schema={resolved.items} schemas={schemas} level={level} />;
  const count = Object.keys(resolved.properties ?? {}).length;
  const summary = `${name ?? 'Object'}: ${count} field${count === 1 ? '' : 's'}`;
  if (level > INLINE_LEVELS && name) return <LazySchema name={name} summary={summary} />;
  return (
    <details className="schema__nested">
      <summary>{summary}</summary>
      <SchemaFields schema={resolved} schemas={schemas} level={level} />
    </details>
  );
}

/**
 * A schema tree whose first fields are at `level`: an operation's body or response starts at 1, and
 * a fragment of /rest-api/schemas/<Name> starts at 1 again (the next levels of the page's tree).
 */
export function SchemaBody({ schema, schemas, level = 1 }: { schema: JsonSchema; schemas: Schemas; level?: number }) {
  const { schema: resolved } = resolveSchema(schema, schemas);
  if (variantsOf(resolved) && isComplex(resolved, schemas)) {
    return (
      <>
        <SchemaFacts schema={schema} schemas={schemas} inTree />
        <Variants schema={resolved} schemas={schemas} level={level} />
      </>
    );
  }
  if (hasFields(resolved)) return <SchemaFields schema={resolved} schemas={schemas} level={level} />;
  return (
    <div className="schema__scalar">
      <span className="schema__type">
        <TypeLabel schema={schema} schemas={schemas} />
      </span>
      <SchemaFacts schema={schema} schemas={schemas} />
      {resolved.items && isComplex(resolved.items, schemas) ? (
        <SchemaBody schema={resolved.items} schemas={schemas} level={level} />
      ) : null}
    </div>
  );
}
