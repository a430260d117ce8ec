import { fileURLToPath } from 'node:url';

/**
 * The composed SDL, committed so that schema changes show up in review; a test fails on
 * drift. Resolved from the source folder whether this runs from source or from dist/.
 */
export const supergraphPath = fileURLToPath(new URL('./supergraph.graphql', import.meta.url)).replace(
  /[\\/]dist[\\/]graphql[\\/]supergraph\.graphql$/,
  '/graphql/supergraph.graphql',
);
