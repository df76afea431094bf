import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-aria-components';
import type { AssetMetadata } from '../../../../shared/api/assets';
import { Button } from '../../../components/ui/button';
import {
  AlertIcon,
  CheckIcon,
  ChevronDownIcon,
  CloseIcon,
  FileIcon,
  ImageIcon,
  RefreshIcon,
} from '../../../components/ui/icons';
import { ProgressBar } from '../../../components/ui/progress-bar';
import { formatBytes } from '../../../lib/format';
import { REVIEW_ALT_TEXT, REVIEW_PARAM } from '../components/library-query';
import { ClashChoices, whereOf } from './clash-choices';
import { isActive, isFinished, type UploadItem } from './upload-item';
import type { UploadQueue } from './upload-queue';
import { useUploadItems } from './use-upload-queue';
import './upload-tray.css';

/** "1.2 MB/s". */
const speedOf = (bytesPerSecond: number) => `${formatBytes(Math.round(bytesPerSecond))}/s`;

/** The asset's details with its alt text field focused and a word that the file changed under it. */
function reviewHrefOf(assetHref: string): string {
  const url = new URL(assetHref, window.location.origin);
  url.searchParams.set(REVIEW_PARAM, REVIEW_ALT_TEXT);
  return `${url.pathname}${url.search}`;
}

/** The tray's title: what is going on, in one line. */
function summaryOf(items: readonly UploadItem[]): string {
  const active = items.filter(isActive);
  const count = (status: UploadItem['status']) => items.filter((i) => i.status === status).length;
  const clashes = count('clash');
  if (active.length > 0) {
    const speed = active.reduce((sum, i) => sum + (i.status === 'uploading' ? (i.speed ?? 0) : 0), 0);
    return `Uploading ${active.length} ${active.length === 1 ? 'file' : 'files'}${speed > 0 ? ` · ${speedOf(speed)}` : ''}`;
  }
  if (clashes > 0) return `${clashes} ${clashes === 1 ? 'file needs' : 'files need'} your choice`;
  const parts = [`${count('done')} uploaded`];
  const failed = count('failed') + count('refused');
  if (failed) parts.push(`${failed} failed`);
  if (count('cancelled')) parts.push(`${count('cancelled')} cancelled`);
  if (count('skipped')) parts.push(`${count('skipped')} skipped`);
  return parts.join(', ');
}

/**
 * The upload tray: every file of the app's upload queue with its own progress bar, speed and outcome, cancel
 * and retry, and the choice for a name that is taken. It stays on screen while the user moves around the app;
 * it can be folded to its title line, and finished files cleared.
 */
export function UploadTray({
  queue,
  hrefOfAsset,
}: {
  queue: UploadQueue;
  /** The app URL that opens an asset in the library. */
  hrefOfAsset: (asset: AssetMetadata) => string;
}) {
  const items = useUploadItems(queue);
  const [folded, setFolded] = useState(false);
  const headingId = useId();
  const listId = useId();
  const announcement = useAnnouncement(items);
  if (items.length === 0) return null;
  const finished = items.filter(isFinished).length;
  const busy = items.some((i) => isActive(i) || i.status === 'clash');
  return (
    <section
      ref={reserveTrayHeight}
      className="upload-tray"
      aria-labelledby={headingId}
      data-folded={folded || undefined}
    >
      <header className="upload-tray__header">
        <h2 id={headingId} className="upload-tray__title">
          {summaryOf(items)}
        </h2>
        {busy && (
          <ProgressBar className="upload-tray__overall" label="All uploads" value={finished} maxValue={items.length} />
        )}
        <div className="upload-tray__actions">
          {finished > 0 && (
            <Button size="sm" variant="quiet" onPress={() => queue.clearFinished()}>
              Clear finished
            </Button>
          )}
          <Button
            size="sm"
            variant="quiet"
            iconOnly
            aria-label={folded ? 'Show the uploads' : 'Fold the uploads'}
            aria-expanded={!folded}
            aria-controls={listId}
            onPress={() => setFolded((f) => !f)}
          >
            <ChevronDownIcon className={folded ? 'upload-tray__chevron--folded' : undefined} />
          </Button>
        </div>
      </header>
      <ul id={listId} className="upload-tray__list" hidden={folded}>
        {items.map((item) => (
          <UploadRow key={item.id} item={item} queue={queue} hrefOfAsset={hrefOfAsset} />
        ))}
      </ul>
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
    </section>
  );
}

/**
 * Keeps `--upload-tray-height` on the document at the tray's height while it shows, so that what scrolls under
 * it (the library's grid) can leave that much room at its end and nothing stays hidden behind the tray.
 */
function reserveTrayHeight(tray: HTMLElement | null) {
  if (!tray) return;
  const root = document.documentElement;
  const observer = new ResizeObserver(() => {
    root.style.setProperty('--upload-tray-height', `${tray.getBoundingClientRect().height}px`);
  });
  observer.observe(tray);
  return () => {
    observer.disconnect();
    root.style.removeProperty('--upload-tray-height');
  };
}

/** A sentence for screen readers each time files finish (not on every progress tick). */
function useAnnouncement(items: readonly UploadItem[]): string {
  const [text, setText] = useState('');
  const seen = useRef(new Set<string>());
  useEffect(() => {
    const fresh = items.filter(
      (i) => (isFinished(i) || i.status === 'clash') && !seen.current.has(`${i.id}:${i.status}`),
    );
    if (fresh.length === 0) return;
    for (const i of fresh) seen.current.add(`${i.id}:${i.status}`);
    setText(fresh.map((i) => `${i.name}: ${statusWord(i)}`).join('. '));
  }, [items]);
  return text;
}

function statusWord(item: UploadItem): string {
  switch (item.status) {
    case 'queued':
      return 'Waiting';
    case 'checking':
      return 'Checking the name…';
    case 'clash':
      return 'The name is taken';
    case 'uploading':
      return 'Uploading';
    case 'processing':
      return 'Processing…';
    case 'done':
      return item.mode === 'replace' ? 'Replaced' : 'Uploaded';
    case 'failed':
      return 'Failed';
    case 'cancelled':
      return 'Cancelled — nothing was created';
    case 'skipped':
      return 'Skipped';
    case 'refused':
      return 'Not sent';
  }
}

function UploadRow({
  item,
  queue,
  hrefOfAsset,
}: {
  item: UploadItem;
  queue: UploadQueue;
  hrefOfAsset: (asset: AssetMetadata) => string;
}) {
  const Icon = item.file.type.startsWith('image/') ? ImageIcon : FileIcon;
  const canCancel = ['queued', 'checking', 'uploading'].includes(item.status);
  const failed = item.status === 'failed' || item.status === 'refused';
  return (
    <li className="upload-row" data-status={item.status} aria-label={`${item.name}, ${statusWord(item)}`}>
      <span className="upload-row__icon" aria-hidden="true">
        {item.status === 'done' ? <CheckIcon /> : failed ? <AlertIcon /> : <Icon />}
      </span>
      <div className="upload-row__main">
        <p className="upload-row__name">
          {item.status === 'done' && item.result ? (
            <Link href={hrefOfAsset(item.result)} className="upload-row__link">
              {item.name}
            </Link>
          ) : (
            item.name
          )}
          <span className="upload-row__where"> to {whereOf(item)}</span>
        </p>
        {item.status === 'uploading' || item.status === 'processing' ? (
          <UploadProgress item={item} />
        ) : item.status === 'clash' ? (
          <ClashChoices item={item} queue={queue} />
        ) : (
          <p className="upload-row__status">
            {statusWord(item)}
            {item.status === 'done' && ` · ${formatBytes(item.file.size)}`}
            {item.error && <span className="upload-row__error">{` — ${item.error}`}</span>}
          </p>
        )}
        {item.status === 'done' && item.mode === 'replace' && item.result?.image && (
          <p className="upload-row__status upload-row__review">
            {item.result.fields.alttext
              ? `Its alt text, “${item.result.fields.alttext}”, was written for the old image. `
              : 'It has no alt text. '}
            <Link href={reviewHrefOf(hrefOfAsset(item.result))} className="upload-row__link">
              Review the alt text of {item.name}
            </Link>
          </p>
        )}
      </div>
      <div className="upload-row__actions">
        {canCancel && (
          <Button
            size="sm"
            variant="quiet"
            iconOnly
            aria-label={`Cancel ${item.name}`}
            onPress={() => queue.cancel(item.id)}
          >
            <CloseIcon />
          </Button>
        )}
        {(item.status === 'failed' || item.status === 'cancelled') && (
          <Button size="sm" variant="quiet" onPress={() => queue.retry(item.id)} aria-label={`Retry ${item.name}`}>
            <RefreshIcon /> Retry
          </Button>
        )}
      </div>
    </li>
  );
}

/** A file's progress bar, with how much is sent and how fast (or that the server is making its thumbnail). */
function UploadProgress({ item }: { item: UploadItem }) {
  const processing = item.status === 'processing';
  return (
    <ProgressBar
      label={`Uploading ${item.name}`}
      value={item.total ? (item.loaded / item.total) * 100 : 0}
      isIndeterminate={processing}
      valueLabel={
        processing
          ? 'Processing on the server'
          : `${formatBytes(Math.min(item.loaded, item.file.size))} of ${formatBytes(item.file.size)}`
      }
      detail={!processing && item.speed ? ` · ${speedOf(item.speed)}` : undefined}
    />
  );
}
