/** The domain's NUL refusal (neither database stores NUL), for the facade's text parameters. */
export { withoutNul } from '../../graphql/shared/fieldRules.js';
export { hasNul, NUL_MESSAGE } from '../../graphql/shared/text.js';
