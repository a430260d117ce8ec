import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config.js';
import { rolesOfClaims, staffPersonOf } from '../../server/staffSignIn/staffClaims.js';

const OIDC = {
  OIDC_ISSUER: 'https://login.example.org/realms/staff',
  OIDC_CLIENT_ID: 'back-office',
  OIDC_CLIENT_SECRET: 'secret',
  OIDC_ROLES_CLAIM: 'groups',
};

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('loadConfig accepted it');
}

describe('Staff sign-in configuration', () => {
  it('has no identity provider and no break-glass by default', () => {
    expect(loadConfig({})).toMatchObject({ oidc: null, backOfficeBreakGlass: false });
  });

  it('reads the identity provider, its domains, the roles claim and the role map', () => {
    const config = loadConfig({
      ...OIDC,
      OIDC_ALLOWED_EMAIL_DOMAIN: 'Example.org, staff.example.org',
      OIDC_ROLE_MAP: 'bo-admins=admin, Ada@Example.org=support,ada@example.org=reviewer',
    });
    expect(config.oidc).toEqual({
      issuer: OIDC.OIDC_ISSUER,
      clientId: 'back-office',
      clientSecret: 'secret',
      allowedEmailDomains: ['example.org', 'staff.example.org'],
      rolesClaim: 'groups',
      roleMap: { 'bo-admins': ['admin'], 'ada@example.org': ['support', 'reviewer'] },
      scopes: 'openid email profile',
      signOutAtIdp: true,
    });
    expect(loadConfig({ ...OIDC, OIDC_SIGN_OUT_AT_IDP: 'false' }).oidc?.signOutAtIdp).toBe(false);
  });

  it('refuses a partial client, no way to give roles, an unknown role and http:// in production', () => {
    expect(refusal({ OIDC_ISSUER: OIDC.OIDC_ISSUER, OIDC_ROLES_CLAIM: 'groups' })).toMatch(
      /OIDC_CLIENT_ID: is required[\s\S]*OIDC_CLIENT_SECRET: is required/,
    );
    expect(refusal({ ...OIDC, OIDC_ROLES_CLAIM: '' })).toContain('OIDC_ROLES_CLAIM: or OIDC_ROLE_MAP is required');
    expect(refusal({ ...OIDC, OIDC_ROLE_MAP: 'bo-admins=owner' })).toContain(
      '"bo-admins=owner" is not group-or-e-mail=role',
    );
    expect(refusal({ ...OIDC, OIDC_ISSUER: 'http://login.example.org', APP_ENV: 'production' })).toContain(
      'OIDC_ISSUER: must be an https:// address in production',
    );
  });

  it('lets in a person of the domain with a role, and says why it refuses the others', () => {
    const config = loadConfig({
      ...OIDC,
      OIDC_ALLOWED_EMAIL_DOMAIN: 'example.org',
      OIDC_ROLE_MAP: 'bo-support=support,eve@example.org=admin',
    }).oidc!;
    const claims = (extra: Record<string, unknown>) => ({ sub: 'u1', email: 'ann@example.org', ...extra });
    expect(staffPersonOf(claims({ name: 'Ann', groups: ['reviewer', 'bo-support', 'other'] }), config)).toEqual({
      ok: true,
      person: { subject: 'u1', email: 'ann@example.org', name: 'Ann', roles: ['reviewer', 'support'] },
    });
    expect(rolesOfClaims({ groups: 'bo-support reviewer' }, 'x@example.org', config)).toEqual(['reviewer', 'support']);
    expect(rolesOfClaims({}, 'Eve@Example.org', config)).toEqual(['admin']);
    expect(staffPersonOf(claims({ groups: ['admin'], email: 'ann@elsewhere.org' }), config)).toMatchObject({
      ok: false,
      refused: 'domain',
    });
    expect(staffPersonOf(claims({ groups: ['admin'], email_verified: false }), config)).toMatchObject({
      ok: false,
      refused: 'unverified-email',
    });
    expect(staffPersonOf(claims({ groups: ['other'] }), config)).toMatchObject({ ok: false, refused: 'no-role' });
    expect(staffPersonOf({ sub: 'u1', groups: ['admin'] }, config)).toMatchObject({ ok: false, refused: 'no-email' });
  });
});
