import './saving.css';
import { diffWords } from './word-diff';

/**
 * `after` with the words it changed from `before` marked: inserted ones in `<ins>`, dropped ones struck through in
 * `<del>`. `side` shows one side of a side-by-side comparison: `before` (what stays and what went) or `after` (what
 * stays and what came); `both` shows the two in one text. Without `before`, `after` as it is. Text only, never HTML.
 */
export function DiffText({
  before,
  after,
  side = 'both',
}: {
  before: string | undefined;
  after: string;
  side?: 'both' | 'before' | 'after';
}) {
  if (before === undefined) return <>{after}</>;
  return (
    <>
      {diffWords(before, after).map((part, i) =>
        part.op === 'same' ? (
          <span key={i}>{part.text}</span>
        ) : part.op === 'add' ? (
          side === 'before' ? null : (
            <ins key={i} className="diff-text__added">
              {part.text}
            </ins>
          )
        ) : side === 'after' ? null : (
          <del key={i} className="diff-text__removed">
            {part.text}
          </del>
        ),
      )}
    </>
  );
}
