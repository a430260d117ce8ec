import { Fragment } from 'react';

/** Inline Markdown of the document's descriptions: `code` spans; the rest stays text (React escapes it). */
export function InlineText({ text }: { text: string }) {
  const parts = text.split(/`([^`]+)`/);
  return (
    <>
      {parts.map((part, index) =>
        index % 2 === 1 ? <code key={index}>{part}</code> : <Fragment key={index}>{part}</Fragment>,
      )}
    </>
  );
}

/** A description as paragraphs (blank lines separate them), with inline `code`. */
export function Prose({ text, className }: { text: string; className?: string }) {
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '');
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

/** Text for HTML: `&`, `<` and `>` are all that text content needs escaped. */
export function escapeText(text: string): string {
  return text.replace(/[&<>]/g, (character) => (character === '&' ? '&amp;' : character === '<' ? '&lt;' : '&gt;'));
}

/**
 * A code span whose quotes stay quotes. React writes each `"` of a text as `&quot;` (six bytes for
 * one): the reference's JSON examples and enum values hold about 4,000 of them.
 */
export function Code({ text, className }: { text: string; className?: string }) {
  return <code className={className} dangerouslySetInnerHTML={{ __html: escapeText(text) }} />;
}
