import { useCallback, useMemo } from 'react';
import type { AssetMetadata } from '../../../../shared/api/assets';
import type { WithEtag } from '../../../../shared/api/client';
import type { FieldDef } from '../../../../shared/registry';
import { toast } from '../../../components/ui/toast';
import { HistoryPanel } from '../../../kit/history/history-panel';
import type { HistorySource } from '../../../kit/history/use-revisions';
import { diffFields, fullValue, type ConflictRow } from '../../../kit/saving/conflict-diff';
import { useApi } from '../../../lib/api';
import { assetFactsOf } from '../../../lib/assets';
import { assetVersionQueryOptions } from '../../../lib/queries/revisions';
import { useRestoreAsset } from '../api/restore-asset';

const show = (value: unknown) => fullValue(value, true);

/** What changed from one version of an asset to another: each field, the workflow state, the file. */
function assetRevisionRows(defs: readonly FieldDef[], before: AssetMetadata, after: AssetMetadata): ConflictRow[] {
  const rows = diffFields(
    defs.map((d) => ({ key: d.key, label: d.label })),
    before.fields,
    after.fields,
    undefined,
    'Fields',
    show,
  );
  if (before.workflow.state !== after.workflow.state) {
    rows.push({
      key: 'workflow',
      group: 'Workflow',
      label: 'State',
      kind: 'changed',
      before: before.workflow.state,
      theirs: after.workflow.state,
    });
  }
  if (before.file && after.file && JSON.stringify(before.file) !== JSON.stringify(after.file)) {
    rows.push({
      key: 'file',
      group: 'File',
      label: 'File',
      kind: 'changed',
      before: assetFactsOf(before),
      theirs: assetFactsOf(after),
    });
  }
  return rows;
}

/** An asset as it was, read-only: its file's facts and each field. */
function AssetVersion({ asset, defs }: { asset: AssetMetadata; defs: readonly FieldDef[] }) {
  return (
    <dl className="asset-version">
      {asset.file && (
        <div>
          <dt>File</dt>
          <dd>{assetFactsOf(asset)}</dd>
        </div>
      )}
      <div>
        <dt>State</dt>
        <dd>{asset.workflow.state}</dd>
      </div>
      {defs.map((d) => (
        <div key={d.key}>
          <dt>{d.label}</dt>
          <dd>{show(asset.fields[d.key])}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The asset panel's History section: the asset's revisions (kit/history) with Restore. A restore's answer goes to
 * `onRestored` (the form shows it); with unsaved edits Restore waits until they are saved or discarded.
 */
export function AssetHistory({
  path,
  base,
  defs,
  canRestore,
  hasUnsavedChanges,
  onRestored,
}: {
  path: string;
  /** The asset as the form last read or saved it (its ETag goes with a restore). */
  base: WithEtag<AssetMetadata>;
  defs: readonly FieldDef[];
  canRestore: boolean;
  hasUnsavedChanges: boolean;
  onRestored: (restored: WithEtag<AssetMetadata>) => void;
}) {
  const client = useApi();
  const restore = useRestoreAsset(path);
  const name = base.data.name;
  const source = useMemo<HistorySource<AssetMetadata>>(
    () => ({
      kind: 'assets',
      path,
      itemLabel: `the asset “${name}”`,
      versionOptions: (v) => assetVersionQueryOptions(client, path, v),
      compare: (a, b) => assetRevisionRows(defs, a, b),
      render: (asset) => <AssetVersion asset={asset} defs={defs} />,
    }),
    [client, path, name, defs],
  );
  const onRestore = useCallback(
    async (revision: number) => {
      const restored = await restore.mutateAsync({ revision, ifMatch: base.etag ?? undefined });
      onRestored(restored);
      toast.success(`Restored revision ${revision}`, `${name} is as it was then; the history has a new revision.`);
    },
    [restore, base.etag, onRestored, name],
  );
  return (
    <div className="asset-section">
      <HistoryPanel
        source={source}
        headingLevel="h3"
        onRestore={canRestore ? onRestore : undefined}
        restoreBlocked={hasUnsavedChanges ? 'Save or discard your changes to restore a revision.' : null}
      />
    </div>
  );
}
