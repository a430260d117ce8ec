import type { CSSProperties } from 'react';
import { Prose } from './Prose.js';
import { type JsonSchema, formatValue, hasFields, resolveSchema, schemaAnchor, typesOf, variantsOf } from './schema.js';
import { LazySchema, TypeLabel } from './SchemaTree.js';

/** What a schema is, in a few words: `4 fields`, `One of 26 schemas`, `string`. */
function shapeOf(schema: JsonSchema, schemas: Record<string, JsonSchema>): string | null {
  const { schema: resolved } = resolveSchema(schema, schemas);
  if (hasFields(resolved)) {
    const count = Object.keys(resolved.properties ?? {}).length;
    return `${count} field${count === 1 ? '' : 's'}`;
  }
  const variants = variantsOf(resolved);
  if (variants) return `${variants.keyword === 'oneOf' ? 'One of' : 'Any of'} ${variants.variants.length} schemas`;
  return null;
}

/**
 * One schema's section, at its `#schema/<Name>` anchor: its description and, folded, its fields,
 * which the client loads when the section is opened or targeted (app/client/schemaTrees.ts); a
 * reader without JavaScript follows the link to the schema's own page. A scalar (an enum, a
 * string) is short enough to say in full here.
 */
function SchemaSection({ name, schemas }: { name: string; schemas: Record<string, JsonSchema> }) {
  const schema = schemas[name];
  const { schema: resolved } = resolveSchema(schema, schemas);
  const id = schemaAnchor(name);
  const shape = shapeOf(schema, schemas);
  return (
    // A <div>, not a named <section>: 282 region landmarks would bury the page's real ones.
    <div id={id} className="schema-section">
      <h3 className="schema-section__title">{name}</h3>
      {resolved.description ? <Prose text={resolved.description} className="schema__desc" /> : null}
      {shape ? (
        <LazySchema name={name} summary={shape} fallback="Fields" />
      ) : (
        <p className="schema__scalar">
          <span className="schema__type">
            <TypeLabel schema={{ ...resolved }} schemas={schemas} />
          </span>
          {resolved.enum
            ? `: ${resolved.enum
                .filter((value) => value !== null)
                .map(formatValue)
                .join(', ')}`
            : null}
          {typesOf(resolved).includes('null') && !resolved.enum ? ' (nullable)' : null}
        </p>
      )}
    </div>
  );
}

/** The "Schemas" part at the end of the page: every component schema, with its `#schema/<Name>` anchor. */
export function SchemaSections({ schemas }: { schemas: Record<string, JsonSchema> }) {
  return (
    <section
      id="schemas"
      className="reference__schemas"
      aria-labelledby="schemas/title"
      style={{ '--schemas': Object.keys(schemas).length } as CSSProperties}
    >
      <h2 id="schemas/title">Schemas</h2>
      {Object.keys(schemas).map((name) => (
        <SchemaSection key={name} name={name} schemas={schemas} />
      ))}
    </section>
  );
}
