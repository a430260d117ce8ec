import type { ReactNode } from 'react';
import type { SignInRefusal } from './signIn.server.js';

/**
 * The sign-in page of the back office and of the console: a key for a session, posted to the
 * route's action (signIn.server.ts); a refusal is said above the form, a forbidden key as a 403.
 */
export function SignInPage({
  title,
  intro,
  keyLabel,
  next,
  refusal,
  refusalText,
  keyForm = true,
  before,
  children,
}: {
  title: string;
  intro: ReactNode;
  keyLabel: string;
  /** Where the session goes once opened. */
  next: string;
  refusal: SignInRefusal | undefined;
  refusalText: (refusal: SignInRefusal) => string;
  /** Whether a key opens a session here (the back office: only with its break-glass setting). */
  keyForm?: boolean;
  /** Said above the key's form (the back office: its identity provider's sign-in). */
  before?: ReactNode;
  /** Said below the form. */
  children?: ReactNode;
}) {
  return (
    <main id="main" className="bo-main bo-sign-in">
      {refusal?.refused === 'forbidden' ? <p className="bo-code">403 Forbidden</p> : null}
      <h1>{title}</h1>
      <p>{intro}</p>
      {refusal ? (
        <p role="alert" className="bo-alert">
          {refusalText(refusal)}
        </p>
      ) : null}
      {before}
      {keyForm ? (
        <form method="post" className="bo-form">
          <input type="hidden" name="next" value={next} />
          <label htmlFor="key">{keyLabel}</label>
          <input id="key" name="key" type="password" autoComplete="off" required spellCheck={false} />
          <button type="submit" className="bo-button">
            Sign in
          </button>
        </form>
      ) : null}
      {children}
    </main>
  );
}
