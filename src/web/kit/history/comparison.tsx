import { useId } from 'react';
import type { ConflictRow } from '../saving/conflict-diff';
import { DiffText } from '../saving/diff-text';
import './history.css';

const KIND_WORD: Record<ConflictRow['kind'], string> = {
  changed: 'Changed',
  added: 'Added',
  removed: 'Removed',
  moved: 'Moved',
};

/**
 * Two versions side by side, thing by thing (rows of `conflict-diff`: `before` is the earlier version's text,
 * `theirs` the later's): the earlier's column strikes through the words that went, the later's marks the words
 * that came. Added, removed and moved things are named with their content. Text only, never HTML.
 */
export function Comparison({
  rows,
  beforeLabel,
  afterLabel,
  states,
}: {
  rows: readonly ConflictRow[];
  /** "Revision 3". */
  beforeLabel: string;
  afterLabel: string;
  /** Each version's workflow state, when known: with the same content, a different state is the change. */
  states?: { before: string; after: string };
}) {
  const base = useId();
  if (rows.length === 0) {
    return (
      <p className="history__note">
        {states && states.before !== states.after
          ? `The content is the same; only the workflow state differs: ${states.before} → ${states.after}.`
          : 'No differences: both versions hold the same content.'}
      </p>
    );
  }
  const groups = [...new Set(rows.map((r) => r.group))];
  return (
    <div className="comparison">
      {groups.map((group, gi) => (
        <section key={group} className="comparison__group" aria-labelledby={`${base}-${gi}`}>
          <h3 id={`${base}-${gi}`} className="comparison__group-title">
            {group}
          </h3>
          <ul className="comparison__rows">
            {rows
              .filter((r) => r.group === group)
              .map((r) => (
                <li key={`${r.key}-${r.kind}`} className={`comparison__row comparison__row--${r.kind}`}>
                  <p className="comparison__label">
                    <span className="badge">{KIND_WORD[r.kind]}</span> {r.label}
                  </p>
                  <div className="comparison__sides">
                    <div className="comparison__side">
                      <p className="comparison__side-label">{beforeLabel}</p>
                      <p className="comparison__text">
                        {r.kind === 'added' ? (
                          <span className="history__note">(not there)</span>
                        ) : r.kind === 'changed' ? (
                          <DiffText before={r.before} after={r.theirs} side="before" />
                        ) : (
                          r.before
                        )}
                      </p>
                    </div>
                    <div className="comparison__side">
                      <p className="comparison__side-label">{afterLabel}</p>
                      <p className="comparison__text">
                        {r.kind === 'removed' ? (
                          <span className="history__note">(removed)</span>
                        ) : r.kind === 'changed' ? (
                          <DiffText before={r.before} after={r.theirs} side="after" />
                        ) : (
                          r.theirs
                        )}
                      </p>
                    </div>
                  </div>
                </li>
              ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
