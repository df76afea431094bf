import { useEffect, useId, useRef } from 'react';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/dialog';
import { InlineAlert } from '../../components/ui/inline-alert';
import { errorMessage, errorTitle } from '../../lib/errors';
import { formatDateTime } from '../../lib/format';
import type { ConflictRow } from './conflict-diff';
import { DiffText } from './diff-text';
import './saving.css';

const KIND_WORD: Record<ConflictRow['kind'], string> = {
  changed: 'Changed',
  added: 'Added',
  removed: 'Removed',
  moved: 'Moved',
};

/**
 * A save answered 412: someone else saved the item after it was opened. Shows what their save changed, grouped
 * (field by field, and whatever rows the editor adds: widget by widget), marking what I changed too. Nothing is
 * overwritten unless the user chooses "Overwrite with mine", offered only where both changed the same thing;
 * otherwise "Keep both" (the default) saves my changes on top of theirs. "Reload their version" drops my edits;
 * Cancel goes back to editing with nothing saved. `savedBy` names who saved and when (from the lease route).
 */
export function ConflictDialog({
  isOpen,
  itemLabel,
  rows,
  isLoading,
  error,
  busy,
  savedBy,
  onReload,
  onOverwrite,
  onCancel,
}: {
  isOpen: boolean;
  /** The item, as in a sentence: "the page “Welcome”". */
  itemLabel: string;
  /** What the other save changed (empty while loading, or when only things I did not touch changed). */
  rows: readonly ConflictRow[];
  /** Their version is still being read. */
  isLoading?: boolean;
  error?: unknown;
  /** Which choice is running. */
  busy?: 'reload' | 'overwrite' | null;
  /** Who saved last and when (`by` null when the item does not keep who). */
  savedBy?: { by: string | null; at: string } | null;
  onReload: () => void;
  onOverwrite: () => void;
  onCancel: () => void;
}) {
  const groups = [...new Set(rows.map((r) => r.group))];
  const collisions = rows.filter((r) => r.yours !== undefined).length;
  const headingBase = useId();
  // "Keep both" is the default: focused once their version is read (a disabled button cannot take focus before).
  const keepBoth = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (isOpen && !isLoading && collisions === 0) keepBoth.current?.focus();
  }, [isOpen, isLoading, collisions]);
  return (
    <Modal
      isOpen={isOpen}
      onOpenChange={(open) => {
        if (!open) onCancel();
      }}
      isBusy={Boolean(busy)}
      size="lg"
      title={
        savedBy?.by
          ? `${savedBy.by} saved this at ${formatDateTime(savedBy.at)}`
          : savedBy
            ? `Someone else saved this at ${formatDateTime(savedBy.at)}`
            : 'Someone else saved this meanwhile'
      }
      description={
        <>
          Your changes to {itemLabel} were <strong>not saved</strong>: it was saved by {savedBy?.by ?? 'someone else'}{' '}
          after you opened it. Here is what their save changed, the changed words marked.{' '}
          {collisions > 0 ? 'Choose whose version to keep.' : 'You changed other things: keep both.'}
        </>
      }
      footer={
        <>
          <Button variant="quiet" onPress={onCancel} isDisabled={Boolean(busy)} autoFocus={collisions > 0}>
            Cancel (keep editing)
          </Button>
          <Button onPress={onReload} isPending={busy === 'reload'} isDisabled={Boolean(busy) || isLoading}>
            Reload their version (keep nothing of mine)
          </Button>
          {collisions > 0 ? (
            <Button
              variant="danger"
              onPress={onOverwrite}
              isPending={busy === 'overwrite'}
              isDisabled={Boolean(busy) || isLoading}
            >
              Overwrite with mine
            </Button>
          ) : (
            <Button
              ref={keepBoth}
              variant="primary"
              onPress={onOverwrite}
              isPending={busy === 'overwrite'}
              isDisabled={Boolean(busy) || isLoading}
              autoFocus
            >
              Keep both
            </Button>
          )}
        </>
      }
    >
      {isLoading ? (
        <p role="status">Reading their version…</p>
      ) : rows.length === 0 ? (
        <p className="saving__note">
          Their save changed nothing you can see here (only settings this editor does not show). Overwriting keeps their
          other changes and puts yours on top.
        </p>
      ) : (
        <>
          {collisions > 0 && (
            <InlineAlert title={`You changed ${collisions === 1 ? 'one of these' : `${collisions} of these`} too`}>
              Overwriting replaces their value with yours where you both changed the same thing; reloading drops yours.
            </InlineAlert>
          )}
          <div className="conflict">
            {groups.map((group, gi) => (
              <section key={group} className="conflict__group" aria-labelledby={`${headingBase}-${gi}`}>
                <h3 id={`${headingBase}-${gi}`} className="conflict__group-title">
                  {group}
                </h3>
                <ul className="conflict__rows">
                  {rows
                    .filter((r) => r.group === group)
                    .map((r) => (
                      <li
                        key={r.key}
                        className={r.yours !== undefined ? 'conflict__row conflict__row--both' : 'conflict__row'}
                      >
                        <p className="conflict__label">
                          <span className="badge">{KIND_WORD[r.kind]}</span> {r.label}
                        </p>
                        <dl className="conflict__values">
                          {r.before !== undefined && r.kind === 'changed' && (
                            <div>
                              <dt>Before</dt>
                              <dd>{r.before}</dd>
                            </div>
                          )}
                          <div>
                            <dt>Theirs</dt>
                            <dd>
                              <DiffText before={r.kind === 'changed' ? r.before : undefined} after={r.theirs} />
                            </dd>
                          </div>
                          {r.yours !== undefined && (
                            <div>
                              <dt>Yours</dt>
                              <dd>
                                <DiffText before={r.kind === 'changed' ? r.before : undefined} after={r.yours} />
                              </dd>
                            </div>
                          )}
                        </dl>
                      </li>
                    ))}
                </ul>
              </section>
            ))}
          </div>
        </>
      )}
      {error !== undefined && error !== null && (
        <InlineAlert title={errorTitle(error)}>{errorMessage(error)}</InlineAlert>
      )}
    </Modal>
  );
}
