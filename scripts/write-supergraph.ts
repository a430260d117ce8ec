import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { buildGraph, subgraphNames } from '../graphql/graph.js';
import { supergraphPath } from '../graphql/supergraphFile.js';
import {
  commonIntrospectionSource,
  introspectionPath,
  introspectionSource,
} from '../rest-facade/subgraphs/introspection.js';

// The development graph: the superset, with the sandbox mutations that some facade routes run.
const graph = buildGraph('development');
writeFileSync(supergraphPath, graph.supergraphSdl);
console.log(`wrote ${supergraphPath}`);

// The types every subgraph has are written once: each subgraph must have them alike.
const [common, ...others] = subgraphNames.map((name) => commonIntrospectionSource(name, graph.subgraphs[name].schema));
if (others.some((source) => source !== common)) throw new Error('The subgraphs differ in the types they share');
writeFileSync(introspectionPath('common'), common);
console.log(`wrote ${introspectionPath('common')}`);
for (const name of subgraphNames) {
  const path = introspectionPath(name);
  writeFileSync(path, introspectionSource(name, graph.subgraphs[name].schema));
  console.log(`wrote ${path}`);
}
