import { Prose } from './Prose.js';
import { type JsonSchema, hasFields, resolveSchema, schemaAnchor, typesOf, variantsOf } from './schema.js';
import { SchemaFacts, SchemaFields, TypeLabel } from './SchemaTree.js';

/** One schema's section: its description, type and one level of fields (nested ones link to theirs). */
function SchemaSection({ name, schemas }: { name: string; schemas: Record<string, JsonSchema> }) {
  const schema = schemas[name];
  const { schema: resolved } = resolveSchema(schema, schemas);
  const id = schemaAnchor(name);
  const variants = variantsOf(resolved);
  return (
    <section id={id} className="schema-section" aria-labelledby={`${id}/title`}>
      <h3 id={`${id}/title`} className="schema-section__title">
        {name}
      </h3>
      {resolved.description ? <Prose text={resolved.description} className="schema__desc" /> : null}
      {hasFields(resolved) ? (
        <>
          {resolved.discriminator || typesOf(resolved).includes('null') ? <SchemaFacts schema={{ ...resolved, description: undefined }} schemas={schemas} /> : null}
          <SchemaFields schema={resolved} schemas={schemas} level={1} shallow />
        </>
      ) : (
        <div className="schema__scalar">
          <span className="schema__type">
            {variants ? (variants.keyword === 'oneOf' ? 'One of: ' : 'Any of: ') : null}
            <TypeLabel schema={{ ...resolved }} schemas={schemas} />
          </span>{' '}
          <SchemaFacts schema={{ ...resolved, description: undefined }} schemas={schemas} />
        </div>
      )}
    </section>
  );
}

/** The "Schemas" part at the end of the page: every component schema, with its `#schema/<Name>` anchor. */
export function SchemaSections({ schemas }: { schemas: Record<string, JsonSchema> }) {
  return (
    <section id="schemas" className="reference__schemas" aria-labelledby="schemas/title">
      <h2 id="schemas/title">Schemas</h2>
      {Object.keys(schemas).map((name) => (
        <SchemaSection key={name} name={name} schemas={schemas} />
      ))}
    </section>
  );
}
