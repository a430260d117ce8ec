import { Code } from './Prose.js';
import type { SampleRequest } from './samples.js';

/**
 * A group of code samples as tabs, in the markup of app/docs/codeTabs.server.ts (which renders the
 * docs' fenced blocks): the first sample shows, app/client/codeBlocks.ts wires the tabs and adds a
 * copy button to each `pre[data-copy]`; without JavaScript a style in the root layout hides the tab
 * list and shows every sample under its label. `id` must be unique on the page.
 *
 * A sample without code is written by the client when its tab is first shown, from `request` (a
 * JSON script element in the group)
 * (app/client/samples.ts): the reference repeats its samples for 55 operations, and writing the
 * JavaScript, Python and SDK ones in the browser spares every reader most of their bytes.
 * Without JavaScript such a panel is not shown (the root layout's noscript style).
 */
export function CodeTabs({
  id,
  label,
  samples,
  request,
}: {
  id: string;
  label: string;
  samples: { label: string; language: string; code: string | null }[];
  request?: SampleRequest;
}) {
  const panelId = (index: number) => `${id}-panel-${index + 1}`;
  return (
    <div className="code-tabs" id={id}>
      {request ? (
        // JSON in a script element needs no entity escaping (an attribute would triple its quotes);
        // `<` is escaped so that no `</script>` can end it early.
        <script
          type="application/json"
          data-sample-request=""
          dangerouslySetInnerHTML={{ __html: JSON.stringify(request).replaceAll('<', '\\u003c') }}
        />
      ) : null}
      <div className="code-tabs__tablist" role="tablist" aria-label={label}>
        {samples.map((sample, index) => (
          <button
            key={sample.label}
            type="button"
            className="code-tabs__tab"
            id={`${panelId(index)}-tab`}
            role="tab"
            aria-controls={panelId(index)}
            aria-selected={index === 0 ? 'true' : 'false'}
            tabIndex={index === 0 ? 0 : -1}
            data-tab-label={sample.label}
          >
            {sample.label}
          </button>
        ))}
      </div>
      {samples.map((sample, index) => (
        <div
          key={sample.label}
          className="code-tabs__panel"
          id={panelId(index)}
          data-tab-label={sample.label}
          role="tabpanel"
          aria-labelledby={`${panelId(index)}-tab`}
          hidden={index > 0}
          data-sample-pending={sample.code === null ? sample.language : undefined}
        >
          <p className="code-tabs__label" id={`${id}-label-${index + 1}`} hidden>
            {sample.label}
          </p>
          <pre data-copy="" tabIndex={0}>
            <Code className={`language-${sample.language}`} text={sample.code ?? ''} />
          </pre>
        </div>
      ))}
    </div>
  );
}
