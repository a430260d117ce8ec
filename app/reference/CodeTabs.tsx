/**
 * A group of code samples as tabs, in the markup of app/docs/codeTabs.server.ts (which renders the
 * docs' fenced blocks): the first sample shows, app/client/codeBlocks.ts wires the tabs and adds a
 * copy button to each `pre[data-copy]`; without JavaScript a style in the root layout hides the tab
 * list and shows every sample under its label. `id` must be unique on the page.
 */
export function CodeTabs({ id, label, samples }: { id: string; label: string; samples: { label: string; language: string; code: string }[] }) {
  const panelId = (index: number) => `${id}-panel-${index + 1}`;
  return (
    <div className="code-tabs" id={id}>
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
        >
          <p className="code-tabs__label" id={`${id}-label-${index + 1}`} hidden>
            {sample.label}
          </p>
          <pre data-copy="" tabIndex={0}>
            <code className={`language-${sample.language}`}>{sample.code}</code>
          </pre>
        </div>
      ))}
    </div>
  );
}
