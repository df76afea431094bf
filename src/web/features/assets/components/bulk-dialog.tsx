import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { AssetMetadata } from '../../../../shared/api/assets';
import { ContainerPicker } from '../../../components/tree/container-picker';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/dialog';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { useApi } from '../../../lib/api';
import { errorMessage } from '../../../lib/errors';
import { UsageLinks } from './asset-usage-list';
import { refreshAfterBulk, runBulk, type BulkAction, type BulkResult } from '../api/bulk-actions';

/** The bulk actions the bar offers. */
export type BulkKind = BulkAction['kind'];

const VERB: Record<BulkKind, { doing: string; done: string; button: string }> = {
  publish: { doing: 'Publishing', done: 'Published', button: 'Publish' },
  submit: { doing: 'Submitting', done: 'Submitted for review', button: 'Submit for review' },
  delete: { doing: 'Deleting', done: 'Deleted', button: 'Delete' },
  move: { doing: 'Moving', done: 'Moved', button: 'Move' },
};

const count = (n: number) => `${n.toLocaleString()} ${n === 1 ? 'asset' : 'assets'}`;

type Phase =
  | { step: 'loading' }
  | { step: 'confirm' }
  | { step: 'choose-folder' }
  | { step: 'running'; action: BulkAction; finished: number; total: number }
  | { step: 'summary'; action: BulkAction; result: BulkResult }
  | { step: 'error'; error: unknown };

/**
 * One bulk action on the selected assets, from start to summary: a confirmation for deleting, a folder for
 * moving, then progress while each asset is done, then what succeeded and what failed and why (with the pages
 * using an asset that could not be deleted, and the choice to delete those anyway).
 */
export function BulkDialog({
  kind,
  load,
  folderPath,
  hrefOfPage,
  onClose,
}: {
  kind: BulkKind;
  /** The selected assets (a selection of "all" is read from the server page by page). */
  load: (signal: AbortSignal) => Promise<AssetMetadata[]>;
  folderPath: string;
  hrefOfPage: (path: string) => string;
  /** `changed`: something was done (the selection should be cleared). */
  onClose: (changed: boolean) => void;
}) {
  const client = useApi();
  const queryClient = useQueryClient();
  const [assets, setAssets] = useState<AssetMetadata[] | null>(null);
  const [phase, setPhase] = useState<Phase>({ step: 'loading' });
  const [target, setTarget] = useState<string | null>(null);
  const changed = useRef(false);

  const start = async (action: BulkAction, list: readonly AssetMetadata[]) => {
    setPhase({ step: 'running', action, finished: 0, total: list.length });
    const result = await runBulk(client, action, list, (finished) =>
      setPhase((p) => (p.step === 'running' ? { ...p, finished } : p)),
    );
    if (result.done.length) changed.current = true;
    refreshAfterBulk(queryClient, action, result.done);
    setPhase({ step: 'summary', action, result });
  };

  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal)
      .then((list) => {
        setAssets(list);
        if (kind === 'delete') setPhase({ step: 'confirm' });
        else if (kind === 'move') setPhase({ step: 'choose-folder' });
        else void start({ kind }, list);
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setPhase({ step: 'error', error });
      });
    return () => controller.abort();
    // Runs once per dialog: the selection it acts on is the one it opened with.
  }, []);

  const close = () => onClose(changed.current);
  const busy = phase.step === 'running' || phase.step === 'loading';
  const verb = VERB[kind];

  if (phase.step === 'choose-folder' && assets) {
    return (
      <Modal
        isOpen
        onOpenChange={(open) => !open && close()}
        title={`Move ${count(assets.length)} to…`}
        description="Choose a folder of the asset library."
        size="md"
        footer={
          <>
            <Button variant="quiet" onPress={close}>
              Cancel
            </Button>
            <Button
              variant="primary"
              isDisabled={target === null || target === folderPath}
              onPress={() => target && void start({ kind: 'move', targetFolder: target }, assets)}
            >
              Move here
            </Button>
          </>
        }
      >
        <div className="bulk-dialog__picker">
          <ContainerPicker
            label="Folders of the asset library"
            realm="library"
            keep={(item) => item.kind === 'library' || item.kind === 'assetfolder'}
            selectedPath={target}
            initiallyExpanded={folderPath}
            onSelect={(item) => setTarget(item.path)}
          />
        </div>
        {target === folderPath && <p className="bulk-dialog__note">They are in this folder already.</p>}
      </Modal>
    );
  }

  if (phase.step === 'confirm' && assets) {
    return (
      <Modal
        isOpen
        onOpenChange={(open) => !open && close()}
        title={`Delete ${count(assets.length)}?`}
        size="sm"
        footer={
          <>
            <Button variant="quiet" onPress={close} autoFocus>
              Cancel
            </Button>
            <Button variant="danger" onPress={() => void start({ kind: 'delete' }, assets)}>
              Delete {count(assets.length)}
            </Button>
          </>
        }
      >
        <p>
          Their files go too; this cannot be undone. Assets that pages use are not deleted: you will see which pages use
          them and can decide then.
        </p>
      </Modal>
    );
  }

  if (phase.step === 'summary') {
    const { result, action } = phase;
    const inUse = result.failed.filter((f) => f.usedBy);
    return (
      <Modal
        isOpen
        onOpenChange={(open) => !open && close()}
        title={`${VERB[action.kind].done} ${result.done.length.toLocaleString()} of ${count(result.done.length + result.failed.length)}`}
        size="md"
        footer={
          <>
            {action.kind === 'delete' && !action.force && inUse.length > 0 && (
              <Button
                variant="danger"
                onPress={() =>
                  void start(
                    { kind: 'delete', force: true },
                    inUse.map((f) => f.asset),
                  )
                }
              >
                Delete the {count(inUse.length)} in use too
              </Button>
            )}
            <Button variant="primary" onPress={close} autoFocus>
              Close
            </Button>
          </>
        }
      >
        {result.failed.length === 0 ? (
          <p role="status">Every selected asset was {VERB[action.kind].done.toLowerCase()}.</p>
        ) : (
          <>
            <p role="status">
              {count(result.failed.length)} could not be {VERB[action.kind].done.toLowerCase()}:
            </p>
            <ul className="bulk-dialog__failures">
              {result.failed.map((f) => (
                <li key={`${f.asset.folderPath}/${f.asset.name}`}>
                  <strong>{f.asset.name}</strong> — {f.usedBy ? 'used on these pages:' : f.message}
                  {f.usedBy && <UsageLinks usedBy={f.usedBy} hrefOfPage={hrefOfPage} />}
                </li>
              ))}
            </ul>
            {action.kind === 'delete' && inUse.length > 0 && !action.force && (
              <p className="bulk-dialog__note">Deleting an asset in use takes it off those pages.</p>
            )}
          </>
        )}
      </Modal>
    );
  }

  return (
    <Modal
      isOpen
      onOpenChange={(open) => !open && close()}
      isBusy={busy}
      title={phase.step === 'running' ? `${VERB[phase.action.kind].doing} ${count(phase.total)}…` : `${verb.button}…`}
      size="sm"
      footer={
        phase.step === 'error' ? (
          <Button variant="primary" onPress={close}>
            Close
          </Button>
        ) : undefined
      }
    >
      {phase.step === 'error' ? (
        <InlineAlert title="Could not read the selection">{errorMessage(phase.error)}</InlineAlert>
      ) : phase.step === 'running' ? (
        <ProgressBar
          label={`${VERB[phase.action.kind].doing} the selected assets`}
          value={phase.finished}
          maxValue={Math.max(phase.total, 1)}
          valueLabel={`${phase.finished.toLocaleString()} of ${phase.total.toLocaleString()}`}
        />
      ) : (
        <p className="bulk-dialog__muted">Reading the selection…</p>
      )}
    </Modal>
  );
}
