import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { buildGraph, subgraphNames } from '../graphql/graph.js';
import { supergraphPath } from '../graphql/supergraphFile.js';
import { introspectionPath, introspectionSource } from '../rest-facade/subgraphs/introspection.js';

// The development graph: the superset, with the sandbox mutations that some facade routes run.
const graph = buildGraph('development');
writeFileSync(supergraphPath, graph.supergraphSdl);
console.log(`wrote ${supergraphPath}`);
for (const name of subgraphNames) {
  const path = introspectionPath(name);
  writeFileSync(path, introspectionSource(name, graph.subgraphs[name].schema));
  console.log(`wrote ${path}`);
}
