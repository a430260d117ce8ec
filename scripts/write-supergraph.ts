import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { buildGraph } from '../graphql/graph.js';
import { supergraphPath } from '../graphql/supergraphFile.js';

writeFileSync(supergraphPath, buildGraph().supergraphSdl);
console.log(`wrote ${supergraphPath}`);
