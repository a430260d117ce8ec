// The types every subgraph's schema has, for gql.tada. Written by `npm run supergraph`: do not edit.

export type common_types = {
    'Boolean': unknown;
    'String': unknown;
    '_Any': unknown;
    '_Service': { kind: 'OBJECT'; name: '_Service'; fields: { 'sdl': { name: 'sdl'; type: { kind: 'SCALAR'; name: 'String'; ofType: null; } }; }; };
    'federation__FieldSet': unknown;
    'federation__Policy': unknown;
    'federation__Scope': unknown;
    'link__Import': unknown;
    'link__Purpose': { name: 'link__Purpose'; enumValues: 'SECURITY' | 'EXECUTION'; };
};
