import { Fragment } from 'react';

/** A `code` span, or a link to a page of this site (`[Errors and retries](/docs/...)`). */
const INLINE_MARKUP = /`([^`]+)`|\[([^\]]+)\]\((\/[^)\s]*)\)/g;

/**
 * Inline Markdown of the document's descriptions: `code` spans, and links to the portal's own pages
 * (a description may send the reader to the docs); the rest stays text (React escapes it).
 */
export function InlineText({ text }: { text: string }) {
  const parts: JSX.Element[] = [];
  let end = 0;
  for (const match of text.matchAll(INLINE_MARKUP)) {
    const start = match.index ?? 0;
    if (start > end) parts.push(<Fragment key={end}>{text.slice(end, start)}</Fragment>);
    parts.push(
      match[1] !== undefined ? (
        <code key={start}>{match[1]}</code>
      ) : (
        <a key={start} href={match[3]}>
          {match[2]}
        </a>
      ),
    );
    end = start + match[0].length;
  }
  if (end < text.length) parts.push(<Fragment key={end}>{text.slice(end)}</Fragment>);
  return <>{parts}</>;
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
