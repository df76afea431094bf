import { AssetMetadata } from '../../../../shared/api/assets';
import { apiErrorOf, ApiError, isApiError, type Client } from '../../../../shared/api/client';
import { assetBinaryHref } from '../../../../shared/api/paths';
import { assetTypeDef } from '../../../../shared/registry';
import { errorMessage } from '../../../lib/errors';
import { formatBytes } from '../../../lib/format';
import { uniqueName, uploadPlaceOf } from './upload-names';
import { isFinished, targetOf, type ClashChoice, type UploadItem, type UploadStatus } from './upload-item';
import type { UploadTransport } from './xhr-transport';

/** Why a file cannot be sent at all: empty, or over the server's limit (said with the limit). */
function problemOfSize(file: File, maxUploadBytes: number | undefined): string | undefined {
  if (file.size === 0) return 'The file is empty.';
  if (maxUploadBytes !== undefined && file.size > maxUploadBytes) {
    return `${formatBytes(file.size)} is over the upload limit of ${formatBytes(maxUploadBytes)}.`;
  }
  return undefined;
}

export interface UploadQueueOptions {
  /** Reads and deletes (is there an asset at the path, where is it used, restoring metadata). */
  client: Client;
  transport: UploadTransport;
  /** The session's CSRF token, sent on every upload. */
  csrfToken: () => string | undefined;
  /** An upload answered 401: the session ended. */
  onUnauthorized?: (error: ApiError) => void;
  /** An asset was made or changed in `folder` (`Assets/…`): listings of it are out of date. */
  onChanged?: (folder: string, asset: AssetMetadata) => void;
  /** Files in flight at once (checks included). */
  concurrency?: number;
  now?: () => number;
}

const DEFAULT_CONCURRENCY = 3;

/**
 * The app-wide upload queue. It lives as long as the page (not a screen), so uploads go on while the user moves
 * elsewhere in the app; each file lands in the folder it was dropped on. Per file: the size limit is checked
 * before anything is sent; the name is looked up first, and a taken one waits for the user (replace, keep both,
 * skip — for one file or its whole batch); then the file is sent with progress and speed, can be cancelled while
 * it is sent (nothing is created) and retried after a failure.
 */
export class UploadQueue {
  private items: readonly UploadItem[] = [];
  private readonly listeners = new Set<() => void>();
  private readonly controllers = new Map<string, AbortController>();
  private readonly policies = new Map<string, ClashChoice>();
  private readonly started = new Map<string, number>();
  private running = 0;
  private sequence = 0;
  private readonly options: Required<Pick<UploadQueueOptions, 'concurrency' | 'now'>> & UploadQueueOptions;

  constructor(options: UploadQueueOptions) {
    this.options = { concurrency: DEFAULT_CONCURRENCY, now: () => Date.now(), ...options };
  }

  /** For `useSyncExternalStore`. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Every item, oldest first (a new array after each change). */
  getSnapshot = (): readonly UploadItem[] => this.items;

  /**
   * Queues files for `folder` (`Assets/…`). Files over `maxUploadBytes`, empty files and invalid names are
   * refused at once, with the reason. Answers the batch id.
   */
  add(
    files: readonly { file: File; relativePath?: string }[],
    folder: string,
    { maxUploadBytes }: { maxUploadBytes?: number } = {},
  ): string {
    const batch = `b${++this.sequence}`;
    const added: UploadItem[] = files.map(({ file, relativePath }) => {
      const place = uploadPlaceOf(file.name, relativePath);
      const base: UploadItem = {
        id: `u${++this.sequence}`,
        file,
        folder,
        subfolders: 'problem' in place ? [] : place.subfolders,
        name: 'problem' in place ? file.name : place.name,
        batch,
        status: 'queued',
        mode: 'create',
        loaded: 0,
        total: file.size,
        speed: null,
      };
      const problem = 'problem' in place ? place.problem : problemOfSize(file, maxUploadBytes);
      return problem ? { ...base, status: 'refused', error: problem } : base;
    });
    this.items = [...this.items, ...added];
    this.emit();
    this.pump();
    return batch;
  }

  /**
   * Queues a new file for an existing binary asset (its details' "Replace file"): sent with the ETag the user
   * saw, so a change made meanwhile is not overwritten unseen. Answers the item id, to follow its progress.
   */
  replace(
    file: File,
    target: { meta: AssetMetadata; etag: string | null },
    { maxUploadBytes }: { maxUploadBytes?: number } = {},
  ): string {
    const id = `u${++this.sequence}`;
    const item: UploadItem = {
      id,
      file,
      folder: target.meta.folderPath,
      subfolders: [],
      name: target.meta.name,
      batch: `b${++this.sequence}`,
      status: 'queued',
      mode: 'replace',
      loaded: 0,
      total: file.size,
      speed: null,
      existing: target,
    };
    const problem = problemOfSize(file, maxUploadBytes);
    this.items = [...this.items, problem ? { ...item, status: 'refused', error: problem } : item];
    this.emit();
    this.pump();
    return id;
  }

  /** Stops a file that is waiting or being sent; nothing is created. Once the server has the whole file, too late. */
  cancel(id: string): void {
    const item = this.find(id);
    if (
      !item ||
      !(
        item.status === 'queued' ||
        item.status === 'checking' ||
        item.status === 'uploading' ||
        item.status === 'clash'
      )
    ) {
      return;
    }
    this.patch(id, { status: 'cancelled', speed: null });
    this.controllers.get(id)?.abort();
  }

  /** Starts a failed or cancelled file again from the beginning (its name is looked up again). */
  retry(id: string): void {
    const item = this.find(id);
    if (!item || !(item.status === 'failed' || item.status === 'cancelled')) return;
    this.patch(id, { status: 'queued', loaded: 0, speed: null, error: undefined, existing: undefined });
    this.pump();
  }

  /** The user's choice for a taken name; `forAll` applies it to every clash of the batch, now and later. */
  resolveClash(id: string, choice: ClashChoice, { forAll = false }: { forAll?: boolean } = {}): void {
    const item = this.find(id);
    if (!item || item.status !== 'clash') return;
    if (forAll) {
      this.policies.set(item.batch, choice);
      for (const other of this.items)
        if (other.batch === item.batch && other.status === 'clash') this.apply(other, choice);
    } else {
      this.apply(item, choice);
    }
    this.pump();
  }

  /** Clashes of a batch still waiting for a choice. */
  clashesOf(batch: string): UploadItem[] {
    return this.items.filter((i) => i.batch === batch && i.status === 'clash');
  }

  /** Removes finished items from the list. */
  clearFinished(): void {
    this.items = this.items.filter((i) => !isFinished(i));
    this.emit();
  }

  // ── Inside ───────────────────────────────────────────────────────────────────────────────────────────

  private emit() {
    for (const listener of [...this.listeners]) listener();
  }

  private find(id: string): UploadItem | undefined {
    return this.items.find((i) => i.id === id);
  }

  private patch(id: string, change: Partial<UploadItem>) {
    this.items = this.items.map((i) => (i.id === id ? { ...i, ...change } : i));
    this.emit();
  }

  private apply(item: UploadItem, choice: ClashChoice) {
    if (choice === 'skip') this.patch(item.id, { status: 'skipped' });
    else if (choice === 'replace') this.patch(item.id, { status: 'queued', mode: 'replace' });
    else this.patch(item.id, { status: 'queued', mode: 'create', existing: undefined, findFreeName: true });
  }

  private pump() {
    while (this.running < this.options.concurrency) {
      const next = this.items.find((i) => i.status === 'queued');
      if (!next) return;
      this.running++;
      this.patch(next.id, { status: 'checking' });
      void this.run(next.id).finally(() => {
        this.running--;
        this.controllers.delete(next.id);
        this.pump();
      });
    }
  }

  /** The asset at a path with its ETag, or null when nothing is there. */
  private async lookup(segments: string[], signal: AbortSignal) {
    try {
      const { data, etag } = await this.options.client.assets.get(segments, signal);
      return { meta: data, etag };
    } catch (err) {
      if (isApiError(err, 404)) return null;
      throw err;
    }
  }

  private async run(id: string) {
    const controller = new AbortController();
    this.controllers.set(id, controller);
    const { signal } = controller;
    const stillMine = () => this.find(id)?.status === 'checking' && !signal.aborted;
    try {
      let item = this.find(id)!;
      if (item.findFreeName) {
        const folder = targetOf(item).slice(0, -1);
        const name = await uniqueName(
          item.name,
          async (candidate) => (await this.lookup([...folder, candidate], signal)) !== null,
        );
        if (!stillMine()) return;
        this.patch(id, { name, findFreeName: false });
        item = this.find(id)!;
      }
      // A replace keeps the ETag of the version the user chose to replace (a retry reads it again).
      if (item.mode === 'create' || !item.existing) {
        const existing = await this.lookup(targetOf(item), signal);
        if (!stillMine()) return;
        if (item.mode === 'create' && existing) return this.clash(id, existing);
        if (item.mode === 'replace' && !existing) this.patch(id, { mode: 'create' });
        else if (item.mode === 'replace') this.patch(id, { existing: existing! });
      }
      await this.send(id, signal);
    } catch (err) {
      this.fail(id, err);
    }
  }

  /** A taken name: the batch's choice applies, or the item waits for the user. */
  private clash(id: string, existing: { meta: AssetMetadata; etag: string | null }) {
    const item = this.find(id)!;
    this.patch(id, { status: 'clash', existing });
    const policy = this.policies.get(item.batch);
    if (policy) this.apply(this.find(id)!, policy);
  }

  private fail(id: string, err: unknown) {
    const item = this.find(id);
    if (!item || item.status === 'cancelled') return;
    if (isApiError(err, 401)) this.options.onUnauthorized?.(err);
    const status: UploadStatus = isApiError(err, 413) ? 'refused' : 'failed';
    this.patch(id, { status, speed: null, error: errorMessage(err) });
  }

  /** Sends the file: POST to create, PUT to replace in place (with the ETag of what the user chose to replace). */
  private async send(id: string, signal: AbortSignal): Promise<void> {
    const item = this.find(id)!;
    const segments = targetOf(item);
    const form = new FormData();
    form.set('path', segments.join('/'));
    form.set('file', item.file, item.name);
    const headers: Record<string, string> = {
      accept: 'application/json, application/problem+json',
      'x-requested-with': 'XMLHttpRequest',
    };
    const csrf = this.options.csrfToken();
    if (csrf) headers['x-csrf-token'] = csrf;
    if (item.mode === 'replace' && item.existing?.etag) headers['if-match'] = item.existing.etag;
    this.started.set(id, this.options.now());
    this.patch(id, { status: 'uploading', loaded: 0 });
    const res = await this.options.transport.send(
      { method: item.mode === 'replace' ? 'PUT' : 'POST', url: assetBinaryHref(segments), body: form, headers },
      {
        signal,
        onProgress: (loaded, total) => {
          if (this.find(id)?.status !== 'uploading') return;
          const seconds = (this.options.now() - (this.started.get(id) ?? this.options.now())) / 1000;
          this.patch(id, { loaded, total, speed: seconds > 0 ? loaded / seconds : null });
        },
        onSent: () => {
          if (this.find(id)?.status === 'uploading') this.patch(id, { status: 'processing', speed: null });
        },
      },
    );
    if (res.status >= 200 && res.status < 300) {
      let meta = AssetMetadata.parse(JSON.parse(res.text));
      let etag = res.etag;
      if (item.restore && Object.keys(item.restore).length > 0) {
        ({ data: meta, etag } = await this.options.client.assets.put(segments, { fields: item.restore }));
      }
      this.patch(id, {
        status: 'done',
        result: meta,
        resultEtag: etag,
        speed: null,
        loaded: this.find(id)!.total,
        restore: undefined,
      });
      this.options.onChanged?.(meta.folderPath, meta);
      return;
    }
    const error = apiErrorOf(res.status, res.statusText, res.text);
    if (error.code === 'ASSET_ALREADY_EXISTS' && item.mode === 'create') {
      // Someone made an asset there since the name was looked up.
      const existing = await this.lookup(segments, signal);
      if (existing) return this.clash(id, existing);
    }
    if (error.code === 'TYPE_MISMATCH' && item.mode === 'replace' && item.existing) {
      return this.replaceByDeleting(id, signal);
    }
    throw error;
  }

  /**
   * A replace that changes the kind of file (an image by a PDF): the interface's way — delete the asset, upload
   * the new file at the same path, then restore the metadata the user had set. Refused for an asset that pages
   * use, because deleting it would take it off those pages.
   */
  private async replaceByDeleting(id: string, signal: AbortSignal): Promise<void> {
    const item = this.find(id)!;
    const segments = targetOf(item);
    const { client } = this.options;
    const usage = await client.assets.usage(segments, signal);
    if (usage.usedBy.length > 0) {
      const n = usage.usedBy.length;
      throw new ApiError({
        status: 409,
        code: 'TYPE_MISMATCH',
        title: 'Cannot replace',
        detail:
          `${item.existing!.meta.name} is used on ${n} page ${n === 1 ? 'region' : 'regions'}, and this file is of ` +
          `another kind. Choose “Keep both” to upload it beside it.`,
      });
    }
    // What the user set on the old asset, for the fields the new one has too (binary types share theirs).
    const before = item.existing!.meta;
    const restore: Record<string, string> = {};
    for (const def of assetTypeDef(before.type)?.fields ?? []) {
      const value = before.fields[def.key];
      if (value) restore[def.key] = value;
    }
    await client.assets.remove(segments, { ifMatch: item.existing!.etag ?? undefined });
    // From here a retry uploads the file again and still restores the fields.
    this.patch(id, { mode: 'create', restore });
    await this.send(id, signal);
  }
}
