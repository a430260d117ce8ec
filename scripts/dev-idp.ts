// `npm run dev-idp`: the local identity provider of the tests (tests/support/identityProvider.ts),
// for signing in to the back office of `npm run dev` or `npm start` on this machine. It prints
// the variables that point the platform at it; its accounts exist on 127.0.0.1 only.
import { STAFF_ACCOUNTS, STAFF_PASSWORD, startIdentityProvider } from '../tests/support/identityProvider.js';

const port = Number(process.env.DEV_IDP_PORT ?? 4100);
const platform = (process.env.PUBLIC_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/+$/, '');
const idp = await startIdentityProvider({
  port,
  redirectUris: [`${platform}/backoffice/oidc/callback`],
  postLogoutRedirectUris: [`${platform}/backoffice/sign-in`],
  clientSecret: 'local-dev-idp-secret',
});

console.log(`Local identity provider: ${idp.issuer} (for the platform at ${platform})`);
console.log('Start the platform with:');
console.log(
  Object.entries(idp.env)
    .map(([name, value]) => `  ${name}=${value.includes(' ') ? `'${value}'` : value}`)
    .join(' \\\n'),
);
console.log(`  npm run dev\nAccounts (password ${STAFF_PASSWORD}):`);
for (const [name, account] of Object.entries(STAFF_ACCOUNTS)) {
  console.log(
    `  ${account.email.padEnd(36)} ${name}${account.groups.length ? ` (groups: ${account.groups.join(', ')})` : ''}`,
  );
}
