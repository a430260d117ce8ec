// The category catalogue and reference-data enums of the offers subgraph: plain data transcribed
// from the reference contract, read by validation rules, resolvers and the REST facade.
export * from './enums.js';
export * from './labels.js';
export * from './categories.js';
