import { STAFF_ACCOUNTS, STAFF_PASSWORD, type StaffAccountName } from './identityProvider.js';

/** The cookies a test's browser holds (one host: the app and the IdP both on 127.0.0.1), by name. */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      if (value === '' || /max-age=0\b/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** A GET or a form's POST as a browser sends it, without following redirects. */
export async function browse(jar: CookieJar, url: string, form?: Record<string, string>): Promise<Response> {
  const response = await fetch(url, {
    method: form ? 'POST' : 'GET',
    redirect: 'manual',
    headers: {
      cookie: jar.header(),
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    body: form ? new URLSearchParams(form).toString() : undefined,
  });
  jar.take(response);
  return response;
}

export interface SignInTrip {
  jar: CookieJar;
  /** The platform's answer on the callback: a redirect with the session, or the page that says why not. */
  callback: Response;
}

/**
 * Signs in to the back office through the local IdP as a browser would: the start page, the IdP's
 * authorization endpoint, its sign-in form, then back to the platform's callback.
 */
export async function signInThroughIdp(
  baseUrl: string,
  account: StaffAccountName,
  next = '/backoffice',
): Promise<SignInTrip> {
  const jar = new CookieJar();
  let response = await browse(jar, `${baseUrl}/backoffice/oidc/start?next=${encodeURIComponent(next)}`);
  if (response.status !== 302) throw new Error(`start answered ${response.status}: ${await response.text()}`);
  let location = response.headers.get('location')!;
  for (let hop = 0; hop < 10 && !location.startsWith(`${baseUrl}/backoffice/oidc/callback`); hop += 1) {
    const target = new URL(location, location.startsWith('http') ? undefined : response.url);
    response = /\/interaction\//.test(target.pathname)
      ? await browse(jar, target.href, { email: STAFF_ACCOUNTS[account].email, password: STAFF_PASSWORD })
      : await browse(jar, target.href);
    const found = response.headers.get('location');
    if (!found) throw new Error(`the IdP answered ${response.status} at ${target.href}: ${await response.text()}`);
    location = new URL(found, target).href;
  }
  return { jar, callback: await browse(jar, location) };
}
