import { parseSnippet } from '../lib/snippet';

/**
 * A search snippet with its matched words highlighted. The server's snippet is escaped text with `<mark>` around
 * the matches; it is split into text runs and rendered as text nodes, never as HTML.
 */
export function Snippet({ snippet, className }: { snippet: string; className?: string }) {
  return (
    <span className={className}>
      {parseSnippet(snippet).map((part, i) => (part.marked ? <mark key={i}>{part.text}</mark> : part.text))}
    </span>
  );
}
