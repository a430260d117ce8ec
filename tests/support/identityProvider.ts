import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

/**
 * A local OpenID Connect identity provider (the oidc-provider package) for the tests and for
 * `npm run dev-idp`: the organisation's IdP as the back office meets it, on 127.0.0.1, with a few
 * staff accounts and a sign-in form of its own (no external fonts, unlike the package's demo pages).
 */

export interface StaffAccount {
  subject: string;
  email: string;
  name: string;
  /** What the IdP says in the `groups` claim: role names here, as OIDC_ROLES_CLAIM=groups reads them. */
  groups: string[];
}

/** The e-mail domain of the organisation: OIDC_ALLOWED_EMAIL_DOMAIN of the environments below. */
export const STAFF_DOMAIN = 'staff.example';

/** Every account signs in with this password: they exist on 127.0.0.1 only. */
export const STAFF_PASSWORD = 'local-staff-password';

/** One account per role, one of the organisation without a role, one outside its domain (an admin there). */
export const STAFF_ACCOUNTS = {
  reviewer: {
    subject: 'staff-reviewer',
    email: `rita.reviewer@${STAFF_DOMAIN}`,
    name: 'Rita Reviewer',
    groups: ['reviewer'],
  },
  support: { subject: 'staff-support', email: `sam.support@${STAFF_DOMAIN}`, name: 'Sam Support', groups: ['support'] },
  admin: { subject: 'staff-admin', email: `ada.admin@${STAFF_DOMAIN}`, name: 'Ada Admin', groups: ['admin'] },
  noRole: { subject: 'staff-no-role', email: `nora.norole@${STAFF_DOMAIN}`, name: 'Nora Norole', groups: [] },
  outsider: {
    subject: 'outsider',
    email: 'oscar.outsider@elsewhere.example',
    name: 'Oscar Outsider',
    groups: ['admin'],
  },
} satisfies Record<string, StaffAccount>;

export type StaffAccountName = keyof typeof STAFF_ACCOUNTS;

export interface LocalIdentityProvider {
  /** `http://127.0.0.1:<port>`: OIDC_ISSUER. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The platform's variables that point at this IdP. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export interface IdentityProviderOptions {
  /** Where the platform's callback is: `<PUBLIC_URL>/backoffice/oidc/callback`. */
  redirectUris: string[];
  /** Where the IdP may send the browser back after ending its session (RP-initiated logout). */
  postLogoutRedirectUris?: string[];
  port?: number;
  host?: string;
  /** The client's secret (OIDC_CLIENT_SECRET); a random one unless given. */
  clientSecret?: string;
}

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>` +
  `<body><main><h1>${title}</h1>${body}</main></body></html>`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function signInForm(uid: string, error?: string): string {
  return page(
    'Organisation sign-in',
    `${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}` +
      `<form method="post" action="/interaction/${uid}">` +
      '<label for="email">E-mail</label> <input id="email" name="email" type="email" autocomplete="username" required>' +
      '<label for="password">Password</label> <input id="password" name="password" type="password" required>' +
      '<button type="submit">Sign in</button></form>',
  );
}

async function formOf(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function accountOf(subject: string): StaffAccount | undefined {
  return Object.values(STAFF_ACCOUNTS).find((account) => account.subject === subject);
}

/** The first-party client needs no consent screen: the grant covers what it asks. */
async function grantWithoutConsent(ctx: KoaContextWithOIDC) {
  const { oidc } = ctx;
  const existing = oidc.session?.grantIdFor(oidc.client!.clientId);
  if (existing) return oidc.provider.Grant.find(existing);
  const grant = new oidc.provider.Grant({ clientId: oidc.client!.clientId, accountId: oidc.session!.accountId });
  grant.addOIDCScope('openid email profile groups');
  await grant.save();
  return grant;
}

export async function startIdentityProvider(options: IdentityProviderOptions): Promise<LocalIdentityProvider> {
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end();
  const server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'back-office';
  const clientSecret = options.clientSecret ?? randomBytes(24).toString('hex');
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        post_logout_redirect_uris: options.postLogoutRedirectUris ?? [],
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    jwks: { keys: [{ ...signingKey, use: 'sig', alg: 'RS256' }] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    scopes: ['openid', 'email', 'profile', 'groups'],
    // The claims go in the ID token, as most organisations' IdPs put them.
    conformIdTokenClaims: false,
    features: {
      devInteractions: { enabled: false },
      // The default page loads a web font from the internet: this one is plain, and asks as the default does.
      rpInitiatedLogout: {
        logoutSource: (ctx, form) => {
          ctx.body =
            '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Sign out</title></head><body>' +
            `<h1>Sign out of the identity provider?</h1>${form}` +
            '<button type="submit" form="op.logoutForm" name="logout" value="yes">Yes, sign me out</button> ' +
            '<button type="submit" form="op.logoutForm">No, stay signed in</button></body></html>';
        },
      },
    },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    loadExistingGrant: grantWithoutConsent,
    findAccount: (_ctx, subject) => {
      const account = accountOf(subject);
      if (!account) return undefined;
      return {
        accountId: subject,
        claims: () => ({
          sub: subject,
          email: account.email,
          email_verified: true,
          name: account.name,
          groups: account.groups,
        }),
      };
    },
  });
  const oidc = provider.callback();
  handle = (req, res) => {
    const interaction = /^\/interaction\/([\w-]+)$/.exec(new URL(req.url ?? '/', issuer).pathname);
    if (!interaction) {
      void oidc(req, res);
      return;
    }
    void (async () => {
      try {
        await provider.interactionDetails(req, res);
        const html = { 'content-type': 'text/html; charset=utf-8' };
        if (req.method !== 'POST') return res.writeHead(200, html).end(signInForm(interaction[1]));
        const form = await formOf(req);
        const account = Object.values(STAFF_ACCOUNTS).find((one) => one.email === form.get('email'));
        if (!account || form.get('password') !== STAFF_PASSWORD) {
          return res.writeHead(401, html).end(signInForm(interaction[1], 'Unknown e-mail or wrong password.'));
        }
        await provider.interactionFinished(req, res, { login: { accountId: account.subject } });
      } catch (error) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end((error as Error).message);
      }
    })();
  };
  return {
    issuer,
    clientId,
    clientSecret,
    env: {
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: clientId,
      OIDC_CLIENT_SECRET: clientSecret,
      OIDC_ALLOWED_EMAIL_DOMAIN: STAFF_DOMAIN,
      OIDC_ROLES_CLAIM: 'groups',
      OIDC_SCOPES: 'openid email profile groups',
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
