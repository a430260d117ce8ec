/**
 * The demo provider's URLs are placeholders at ticketing.example.com and the docs set others at
 * example.com: the platform's messages to them must fail at once, as an unreachable host, rather
 * than leave the test machine. Calls to 127.0.0.1 (the server itself) go through.
 */
export function refuseOutsideCalls(): () => void {
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.hostname === '127.0.0.1' || url.hostname === 'localhost') return realFetch(input, init);
    return Promise.reject(new TypeError('fetch failed', { cause: new Error(`the docs test calls no outside host (${url.host})`) }));
  };
  return () => {
    globalThis.fetch = realFetch;
  };
}
