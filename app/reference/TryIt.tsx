import type { TryItOperation } from './tryItModel.js';

/** Where a reader learns to send what the console cannot (a file, as a multipart form). */
const SENDING_DOC = '/docs/understanding-our-api/authentication-authorization#sending-your-api-key';

/**
 * The try-it console of one operation, rendered on the server and folded. It is repeated for
 * every operation of the reference, so it is kept short: the texts a reader needs once (what
 * the console does with the key) are in the labels, not in paragraphs.
 *
 * The contract with app/client/tryIt.ts: the form sits in a `<template data-try-it-form>` that the
 * client instantiates when the console opens, removing the `data-try-it-note` that says sending
 * needs JavaScript. The form carries the method, the path template and the body's media type in
 * data attributes; each parameter input its `name` and `data-in`; the key input `data-try-it-key`
 * (no `name`: a form submission never carries it). The form's method is `dialog`: outside a
 * dialog, submitting it navigates nowhere.
 */
export function TryIt({ operation }: { operation: TryItOperation }) {
  const { body } = operation;
  const json = body !== undefined && /\bjson\b/i.test(body.mediaType);
  if (body && !json) {
    return (
      <details className="try-it" data-try-it="">
        <summary className="try-it__toggle">Try it</summary>
        <p className="try-it__note">
          A {body.mediaType} body (a file) cannot be sent from here: send it with the curl sample and your key (
          <a href={SENDING_DOC}>sending your API key</a>).
        </p>
      </details>
    );
  }
  // The form waits in a <template> until the console is first opened: 55 forms are a thousand
  // elements the browser would otherwise style and lay out before the reader sees the page.
  return (
    <details className="try-it" data-try-it="">
      <summary className="try-it__toggle">Try it</summary>
      <p className="try-it__note" data-try-it-note="">
        Sending needs JavaScript.
      </p>
      <template data-try-it-form="">
        <form
          className="try-it__form"
          method="dialog"
          noValidate
          data-method={operation.method.toUpperCase()}
          data-path={operation.path}
          data-media-type={body?.mediaType}
        >
          <label className="try-it__field">
            <span>
              API key <small>(kept in this tab)</small>
            </span>
            <input type="password" autoComplete="off" spellCheck={false} data-try-it-key="" />
          </label>
          {operation.parameters.map((parameter) => (
            <label key={`${parameter.in}:${parameter.name}`} className="try-it__field">
              <span>
                <code>{parameter.name}</code>{' '}
                <small>
                  {parameter.required || parameter.in === 'path' ? `${parameter.in}, required` : parameter.in}
                </small>
              </span>
              <input
                name={parameter.name}
                data-in={parameter.in}
                defaultValue={parameter.example}
                required={parameter.required || parameter.in === 'path'}
                autoComplete="off"
              />
            </label>
          ))}
          {body ? (
            <label className="try-it__field">
              <span>
                Body <small>({body.mediaType})</small>
              </span>
              <textarea
                name="body"
                rows={Math.min(Math.max(body.example.split('\n').length, 4), 16)}
                spellCheck={false}
                defaultValue={body.example}
              />
            </label>
          ) : null}
          <p className="try-it__actions">
            <button type="submit" className="button try-it__send">
              Send
            </button>
          </p>
          <div className="try-it__output" aria-live="polite" data-try-it-output="" />
        </form>
      </template>
    </details>
  );
}
