// What type-graphql and MikroORM read from the decorators' metadata, as plain data: the composed
// graph and every entity property as the ORM sees it. Plain JavaScript, so that a process
// running another build of the server (tests/server/devServerBuild.test.ts) can import it too.

/**
 * @param {typeof import('../../graphql/graph.js').buildGraph} buildGraph
 * @param {typeof import('../../server/db/orm.js').openDatabase} openDatabase
 */
export async function decoratorMetadata(buildGraph, openDatabase) {
  const orm = await openDatabase({ kind: 'sqlite', path: ':memory:' });
  try {
    const entities = Object.values(orm.getMetadata().getAll())
      .map((meta) => ({
        entity: meta.className,
        table: meta.tableName,
        properties: Object.values(meta.properties).map((property) => ({
          name: property.name,
          kind: property.kind,
          type: property.type,
          runtimeType: property.runtimeType,
          columnTypes: property.columnTypes,
          nullable: property.nullable ?? false,
        })),
      }))
      .sort((a, b) => a.entity.localeCompare(b.entity));
    return { supergraphSdl: buildGraph().supergraphSdl, entities };
  } finally {
    await orm.close(true);
  }
}
