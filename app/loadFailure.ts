import { data } from '@remix-run/node';

/** What a failed loader sends to its error boundary: a message fit for the reader. */
export interface LoadFailure {
  kind: 'load-failure';
  message: string;
}

/**
 * Runs a loader's work; if it throws an Error (not a deliberate Response such as a 404), the
 * page answers 503 with the error box and its Retry button instead of a crash. The cause is logged on the server; the reader sees `message`.
 */
export async function loadOrFail<T>(message: string, load: () => T | Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    // Responses and data() are a loader's deliberate answers (a 404, a redirect): pass them on.
    if (!(error instanceof Error)) throw error;
    console.error(error);
    const failure: LoadFailure = { kind: 'load-failure', message };
    throw data(failure, { status: 503 });
  }
}
