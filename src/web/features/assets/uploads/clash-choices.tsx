import { useQueries } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { AssetUsageEntry } from '../../../../shared/api/assets';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { useApi } from '../../../lib/api';
import { errorMessage } from '../../../lib/errors';
import { formatBytes } from '../../../lib/format';
import { assetUsageQueryOptions } from '../api/get-asset-usage';
import { targetOf, type ClashChoice, type UploadItem } from './upload-item';
import type { UploadQueue } from './upload-queue';

/** Where an item goes, for people: "images/2024". */
export const whereOf = (item: UploadItem) => targetOf(item).slice(1, -1).join('/') || 'the asset library';

/**
 * Replace, keep both or skip, for this file or every file of its drop whose name is taken. Replace first shows
 * the pages that use what would be replaced (with their workflow state; Public ones change for visitors at once)
 * and asks again; nothing is replaced unseen.
 */
export function ClashChoices({ item, queue }: { item: UploadItem; queue: UploadQueue }) {
  const others = queue.clashesOf(item.batch).length - 1;
  const [forAll, setForAll] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const choose = (choice: ClashChoice) => queue.resolveClash(item.id, choice, { forAll });
  if (confirming) {
    const replaced = forAll ? queue.clashesOf(item.batch) : [item];
    return (
      <ReplaceImpact
        item={item}
        replaced={replaced}
        onReplace={() => choose('replace')}
        onCancel={() => setConfirming(false)}
      />
    );
  }
  return (
    <div className="upload-clash" role="group" aria-label={`${item.name} exists already`}>
      <p className="upload-row__status">
        {whereOf(item)} already holds <strong>{item.name}</strong>
        {item.existing?.meta.image &&
          ` (${item.existing.meta.image.width} × ${item.existing.meta.image.height}, ${formatBytes(item.existing.meta.image.size)})`}
        .
      </p>
      <div className="upload-clash__buttons">
        <Button size="sm" onPress={() => setConfirming(true)}>
          Replace
        </Button>
        <Button size="sm" onPress={() => choose('keep-both')}>
          Keep both
        </Button>
        <Button size="sm" variant="quiet" onPress={() => choose('skip')}>
          Skip
        </Button>
      </div>
      {others > 0 && (
        <Checkbox isSelected={forAll} onChange={setForAll}>
          Do the same for the {others} other {others === 1 ? 'file' : 'files'} with taken names
        </Checkbox>
      )}
    </div>
  );
}

/** The pages that use the assets a replace would change, and the question; replaces at once when none does. */
function ReplaceImpact({
  item,
  replaced,
  onReplace,
  onCancel,
}: {
  item: UploadItem;
  replaced: readonly UploadItem[];
  onReplace: () => void;
  onCancel: () => void;
}) {
  const client = useApi();
  const usages = useQueries({
    queries: replaced.map((r) => assetUsageQueryOptions(client, targetOf(r).join('/'))),
  });
  const pending = usages.some((u) => u.isPending);
  const failed = usages.find((u) => u.isError);
  const used = replaced
    .map((r, i) => ({ name: r.name, usedBy: usages[i]?.data?.usedBy ?? [] }))
    .filter((u) => u.usedBy.length > 0);
  const nothingUsed = !pending && !failed && used.length === 0;
  const groupRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (nothingUsed) onReplace();
  }, [nothingUsed, onReplace]);
  // Keyboard users land on the question (the Replace button they pressed is gone).
  useEffect(() => {
    if (!pending) groupRef.current?.querySelector<HTMLElement>('button')?.focus();
  }, [pending]);

  const pages = new Set(used.flatMap((u) => u.usedBy.filter((p) => !p.kind).map((p) => p.path)));
  const publicPages = new Set(used.flatMap((u) => u.usedBy.filter((p) => p.state === 'Public').map((p) => p.path)));
  return (
    <div className="upload-clash" role="group" aria-label={`Replace ${item.name}?`} ref={groupRef}>
      {pending || nothingUsed ? (
        <p className="upload-row__status">Looking for pages that use {item.name}…</p>
      ) : failed ? (
        <p className="upload-row__status">Could not tell which pages use it: {errorMessage(failed.error)}</p>
      ) : (
        <>
          <p className="upload-clash__question">
            {used.length === 1 && replaced.length === 1
              ? `${item.name} is used on`
              : `${used.length} of these files are used on`}{' '}
            {pages.size} {pages.size === 1 ? 'page' : 'pages'}
            {publicPages.size > 0 && (
              <>
                , <strong>{publicPages.size} of them Public</strong>: visitors see the new file at once
              </>
            )}
            . Replace it there?
          </p>
          <ul className="upload-clash__pages">
            {used.flatMap((u) => u.usedBy.map((p) => <UsageRow key={`${u.name}|${p.path}|${p.region}`} entry={p} />))}
          </ul>
        </>
      )}
      {!pending && !nothingUsed && (
        <div className="upload-clash__buttons">
          <Button size="sm" variant={publicPages.size > 0 ? 'danger' : 'primary'} onPress={onReplace}>
            {pages.size > 0 ? `Replace on ${pages.size} ${pages.size === 1 ? 'page' : 'pages'}` : 'Replace'}
          </Button>
          <Button size="sm" variant="quiet" onPress={onCancel}>
            Cancel
          </Button>
        </div>
      )}
    </div>
  );
}

function UsageRow({ entry }: { entry: AssetUsageEntry }) {
  const isPublic = entry.state === 'Public';
  return (
    <li className="upload-clash__page" data-public={isPublic || undefined}>
      <span className="upload-clash__page-name">
        {entry.kind === 'template' ? 'Template ' : entry.kind === 'asset' ? 'Shared asset ' : ''}
        {entry.displayName}
      </span>{' '}
      <span className={isPublic ? 'badge badge--public' : 'badge'}>{entry.state}</span>{' '}
      <span className="upload-row__where">
        {entry.path} · {entry.region}
      </span>
    </li>
  );
}
