/**
 * zod issues as the contract's 422 entries. The conversion is the domain's, so that the graph's
 * own checks (graphql/shared/inputRules.ts) and the facade's schemas answer with the same entries.
 */
export { toValidationIssues } from '../graphql/shared/validation.js';
