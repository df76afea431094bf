import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { Modal } from '../../../components/ui/dialog';
import { WorkflowBadge } from '../../../components/ui/workflow-badge';

/** A shared asset the page links that is not Public yet. */
export interface PendingAsset {
  path: string;
  state: string;
  etag: string | null;
}

/**
 * Approving a page whose linked shared assets are still drafts: the page would go live showing content that is
 * not. Offers to approve them with the page (all ticked), or the page alone.
 */
export function ApproveAssetsDialog({
  assets,
  isPending,
  onApprove,
  onCancel,
}: {
  assets: readonly PendingAsset[];
  isPending: boolean;
  onApprove: (chosen: PendingAsset[]) => void;
  onCancel: () => void;
}) {
  const [chosen, setChosen] = useState(() => new Set(assets.map((a) => a.path)));
  const picked = assets.filter((a) => chosen.has(a.path));
  return (
    <Modal
      isOpen
      onOpenChange={(open) => {
        if (!open) onCancel();
      }}
      isBusy={isPending}
      size="md"
      title="Approve the shared assets too?"
      description={`This page links ${assets.length === 1 ? 'a shared asset that is' : `${assets.length} shared assets that are`} not approved yet. Approve ${assets.length === 1 ? 'it' : 'them'} with the page so the page shows everything it links.`}
      footer={
        <>
          <Button variant="quiet" onPress={onCancel} isDisabled={isPending}>
            Cancel
          </Button>
          <Button onPress={() => onApprove([])} isDisabled={isPending}>
            Approve the page only
          </Button>
          <Button
            variant="primary"
            onPress={() => onApprove(picked)}
            isPending={isPending}
            isDisabled={picked.length === 0}
          >
            Approve page and {picked.length} {picked.length === 1 ? 'asset' : 'assets'}
          </Button>
        </>
      }
    >
      <ul className="approve-assets">
        {assets.map((a) => (
          <li key={a.path}>
            <Checkbox
              isSelected={chosen.has(a.path)}
              onChange={(on) =>
                setChosen((s) => {
                  const next = new Set(s);
                  if (on) next.add(a.path);
                  else next.delete(a.path);
                  return next;
                })
              }
            >
              <code>{a.path}</code> <WorkflowBadge state={a.state} />
            </Checkbox>
          </li>
        ))}
      </ul>
    </Modal>
  );
}
