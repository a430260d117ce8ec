import { Fragment } from 'react';

/** Inline Markdown of the document's descriptions: `code` spans; the rest stays text (React escapes it). */
export function InlineText({ text }: { text: string }) {
  const parts = text.split(/`([^`]+)`/);
  return (
    <>
      {parts.map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : <Fragment key={index}>{part}</Fragment>))}
    </>
  );
}

/** A description as paragraphs (blank lines separate them), with inline `code`. */
export function Prose({ text, className }: { text: string; className?: string }) {
  const paragraphs = text.split(/\n\s*\n/).map((paragraph) => paragraph.trim()).filter((paragraph) => paragraph !== '');
  return (
    <>
      {paragraphs.map((paragraph, index) => (
        <p key={index} className={className}>
          <InlineText text={paragraph} />
        </p>
      ))}
    </>
  );
}
