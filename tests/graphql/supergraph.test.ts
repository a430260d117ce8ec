import { readFileSync } from 'node:fs';
import { buildASTSchema, parse, print, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildGraph, subgraphNames } from '../../graphql/graph.js';
import { supergraphPath } from '../../graphql/supergraphFile.js';
import { routes } from '../../rest-facade/index.js';
import {
  commonIntrospectionSource,
  introspectionPath,
  introspectionSource,
} from '../../rest-facade/subgraphs/introspection.js';
import { createGateway } from '../../graphql/gateway.js';

describe('the composed supergraph', () => {
  it('matches the committed graphql/supergraph.graphql (run `npm run supergraph` after a schema change)', () => {
    expect(buildGraph().supergraphSdl).toBe(readFileSync(supergraphPath, 'utf8'));
  });

  it('types the facade documents with the subgraphs of the code (run `npm run supergraph` after a schema change)', () => {
    const graph = buildGraph();
    for (const name of subgraphNames) {
      expect(introspectionSource(name, graph.subgraphs[name].schema), introspectionPath(name)).toBe(
        readFileSync(introspectionPath(name), 'utf8'),
      );
      expect(commonIntrospectionSource(name, graph.subgraphs[name].schema), `${name}: the types shared by all`).toBe(
        readFileSync(introspectionPath('common'), 'utf8'),
      );
    }
  });

  // The facade serves provider keys: its documents hold to the provider audience (decision 033).
  it("validates every facade document against the API schema of the providers' supergraph", async () => {
    const gateway = createGateway(buildGraph(), {}, 'provider');
    const { schema } = await gateway.load();
    try {
      for (const route of routes) {
        const errors = validate(schema, parse(print(route.document)));
        expect(errors.map(String), route.operationId).toEqual([]);
      }
    } finally {
      await gateway.stop();
    }
  });

  it('is made of the four subgraphs', () => {
    const sdl = buildGraph().supergraphSdl;
    for (const name of ['providers', 'offers', 'bookings', 'collective']) {
      expect(sdl).toContain(`@join__graph(name: "${name}"`);
    }
    expect(() => buildASTSchema(parse(sdl), { assumeValidSDL: true })).not.toThrow();
  });

  it('has the sandbox mutations outside production only, and every facade document still valid in production', async () => {
    const sandboxFields = ['sandboxCreateBeneficiary', 'sandboxBook', 'sandboxRunScheduledJobs'];
    const mutationFields = (appEnv: 'integration' | 'production') =>
      Object.keys(buildGraph(appEnv).subgraphs.bookings.schema.getMutationType()?.getFields() ?? {});
    expect(mutationFields('integration')).toEqual(expect.arrayContaining(sandboxFields));
    expect(mutationFields('production').filter((field) => sandboxFields.includes(field))).toEqual([]);
    expect(mutationFields('production')).toEqual(
      expect.arrayContaining(['useBooking', 'keepBooking', 'cancelBooking']),
    );

    const gateway = createGateway(buildGraph('production'), {}, 'provider');
    const { schema } = await gateway.load();
    try {
      expect(
        Object.keys(schema.getMutationType()?.getFields() ?? {}).filter((field) => sandboxFields.includes(field)),
      ).toEqual([]);
      for (const route of routes.filter((candidate) => !candidate.sandboxOnly)) {
        expect(validate(schema, parse(print(route.document))).map(String), route.operationId).toEqual([]);
      }
    } finally {
      await gateway.stop();
    }
  });
});
