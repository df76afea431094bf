import type { AssetPutBody } from '../../../shared/api/assets.js';
import type { FieldError } from '../../../shared/api/errors.js';
import { ASSET_LIBRARY, splitPath } from '../../../shared/api/paths.js';
import type { WorkflowState } from '../../../shared/api/workflow.js';
import { assetTypeDef, validateFields } from '../../../shared/registry/index.js';
import {
  isoTime,
  settleClaim,
  type Actor,
  type ActorClaim,
  type AppContext,
  type WriteScope,
} from '../../lib/context.js';
import { badRequest, conflict } from '../../lib/errors.js';
import { assertPreconditions, headerNamesEtag, type Preconditions } from '../../lib/etag.js';
import { requireAccess } from '../tree/access.js';
import { foldersUnchanged, treeRepository, type NodeRow } from '../tree/tree.repository.js';
import { ensureAssetFolder, insertAssetRecord } from './asset-records.js';
import { writeAssetRevision, writeTime } from './asset-writes.js';
import {
  assertCreatable,
  assetNotFound,
  findAsset,
  retryingTransaction,
  sameSegments,
  targetOf,
} from './assets.common.js';
import { assetIfMatchEtag, representAsset, type AssetRepresentation } from './assets.presenter.js';
import { assetsRepository as repo, type AssetRow, type StoredAssetDoc } from './assets.repository.js';
import { allOf, andThen } from '../../db/prepared.js';
import { createGuardedWrites, type Guarded } from '../../lib/guarded-write.js';
import { nextSeq } from '../../lib/remembered.js';
import type { SerialisedJson } from '../../lib/respond.js';
import { workflowAfterWrite } from '../../lib/workflow.js';
import { assertLeaseFree, writeLeaseOfWrite } from '../leases/lease-records.js';
import { contentRefsOf, sameRefs } from '../../lib/asset-refs.js';
import { assetRefs } from '../pages/widget-refs.js';

/** How many assets a process remembers after writing them (each a row, under a kB). */
const REMEMBERED_ASSETS = 1000;

/** What a write of an asset's metadata needs of it: its row and path as read (writeViewByPath) or last written. */
type AssetWriteView = NonNullable<Awaited<ReturnType<typeof repo.writeViewByPath>>>;

/** What a PUT of an asset answers. */
type AssetPutAnswer = AssetRepresentation & { created: boolean };

/** The stored value of a fields map: keys sent as `null` dropped (unset); `""` is kept as a value. */
function mergeFields(stored: Record<string, unknown>, changes: Record<string, unknown>): Record<string, unknown> {
  const next: Record<string, unknown> = { ...stored };
  for (const [k, v] of Object.entries(changes)) {
    if (v === null || v === undefined) delete next[k];
    else next[k] = v;
  }
  return next;
}

function parseFields(text: string): Record<string, unknown> {
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Metadata of any asset (GET, PUT) and the non-binary assets that a PUT creates. */
export function createAssetMetadata(ctx: AppContext) {
  const { readNow } = ctx.database;

  /**
   * GET: the metadata of the asset at `segments` as sent: its stored doc when it was made at this path (one
   * statement with the path's lookups, migration 0100), else presented from the row (the path and the row in one
   * statement) and stored for the next read; anything else (a deep path, no asset there) takes findAsset's way,
   * which answers the precise 404. The first read proves a `claim` (or it is confirmed). Without a claim on
   * SQLite, a stored doc is answered now (no promise).
   */
  function get(
    actor: Actor,
    segments: readonly string[],
    claim?: ActorClaim,
  ): SerialisedJson | Promise<SerialisedJson> {
    if (segments[0] !== ASSET_LIBRARY) return andThen(settleClaim(actor, claim, false), (who) => general(who));
    const stored = repo.docByPath(ctx.db, segments, claim ? { proof: claim.proof } : { now: readNow });
    return andThen(stored, (doc) =>
      andThen(
        settleClaim(actor, claim, doc?.proven),
        (who) => (doc && storedAnswer(who, segments, doc)) || fromRow(who),
      ),
    );

    function fromRow(who: Actor) {
      return andThen(repo.findByPath(ctx.db, segments, { now: readNow }), async (found) => {
        if (!found) return general(who);
        const rep = readable(who, found, segments);
        // Made from the row as read with its doc_seq: stored only if the row has not changed since.
        const path = segments.join('/');
        await repo.storeDoc(ctx.db, { id: found.node_id, doc: rep.json, etag: rep.etag, path, seq: found.doc_seq });
        return rep;
      });
    }

    async function general(who: Actor) {
      const { chain, row } = await findAsset(ctx.db, segments);
      requireAccess(who, chain, 'READ', segments.join('/'));
      return representAsset(row, segments.slice(0, -1));
    }
  }

  /**
   * The stored doc, when there is one and it was made at this very path: the path's lookups, in the statement
   * that read it, lead to this asset now, so its `name` and `folderPath` are right, and any write of the asset's
   * row or node since would have cleared it.
   */
  function storedAnswer(actor: Actor, segments: readonly string[], stored: StoredAssetDoc): SerialisedJson | undefined {
    if (stored.doc === null || stored.doc_etag === null || stored.doc_path !== segments.join('/')) return undefined;
    requireAccess(actor, [], 'READ', segments.join('/'));
    return { json: stored.doc, etag: stored.doc_etag };
  }

  /** Every role may read every asset (access levels only ever take writing away): no ancestors needed. */
  function readable(actor: Actor, row: AssetRow, segments: readonly string[]): AssetRepresentation {
    requireAccess(actor, [], 'READ', segments.join('/'));
    return representAsset(row, segments.slice(0, -1));
  }

  /** 400 listing each invalid field (unknown keys, formats, required ones missing or unset). */
  function assertFields(type: string, fields: Record<string, unknown>, creating: boolean): void {
    const def = assetTypeDef(type)!;
    const errors: FieldError[] = validateFields(def.fields, fields, creating).map((p) => ({
      path: `fields.${p.key}`,
      message: p.message,
    }));
    if (!creating) {
      for (const f of def.fields) {
        const v = fields[f.key];
        if (f.required && f.key in fields && (v === null || v === '')) {
          errors.push({ path: `fields.${f.key}`, message: 'is required and cannot be unset' });
        }
      }
    }
    if (errors.length) throw badRequest(`The fields are not valid for ${type}.`, errors);
  }

  /**
   * An update of the asset at a path as one statement when this process wrote it last, else as one read and one
   * write, no transaction (guarded-write.ts): the path (with each level's access level), the row, its stored ETag
   * and the folder-doc epoch in one statement (writeViewByPath), then the write (writeFrom).
   */
  const guardedWrite = createGuardedWrites<AssetWriteView>(REMEMBERED_ASSETS);

  /**
   * Checks an update of the asset as `view` shows it (access, preconditions, fields), then writes it with its new
   * metadata in one `UPDATE`, on condition that the row's `doc_seq` and the folder-doc epoch are still the ones in
   * `view` (any write of the row, its rename or move, a container renamed or moved above it or an access level set
   * advances one of them), and with a `claim`'s proof. Undefined when that condition failed; `wrote: false` when
   * there was nothing to write. What it wrote is remembered for the next update.
   */
  async function writeFrom(
    view: AssetWriteView,
    actor: Actor,
    target: ReturnType<typeof targetOf>,
    body: AssetPutBody,
    pre: Preconditions,
    claim: ActorClaim | undefined,
  ): Promise<Guarded<AssetWriteView, AssetPutAnswer> | undefined> {
    const { row } = view;
    const where = target.segments.join('/');
    // Checked out by someone else, or a check-out or in: the transactional way checks and writes the lease.
    if ((row.checked_out_user && row.checked_out_user !== actor.username) || body.workflow?.checkedOut !== undefined) {
      return undefined;
    }
    requireAccess(actor, view.chain as NodeRow[], 'WRITE', where);
    if (pre.ifMatch !== undefined || pre.ifNoneMatch !== undefined) {
      // The ETag stored with the doc at this path is the asset's ETag here (migration 0100 keeps them together).
      const etag =
        view.docPath === where && view.docEtag !== null ? view.docEtag : representAsset(row, target.folder).etag;
      // The holder's If-Match from before they took the lease: the transactional way accepts it.
      if (row.checked_out !== 0 && pre.ifMatch !== undefined && !headerNamesEtag(pre.ifMatch, etag)) return undefined;
      assertPreconditions(pre, etag, where);
    }
    const planned = planUpdate(actor, row, body);
    const answered = { created: false as const };
    if (!planned) return { wrote: false, answer: { ...representAsset(row, target.folder), ...answered } };
    // References in the fields changed: their rows are written with them, in the transactional way.
    if (!sameRefs(contentRefsOf(row.fields), contentRefsOf(planned.fields))) return undefined;
    const at = writeTime(ctx.now(), row.updated_at);
    // The write is the asset's next revision: its number with the new doc (migration 0280).
    const written: AssetRow = { ...row, ...planned, updated_at: at, revision: Number(row.revision) + 1 };
    const rep = representAsset(written, target.folder);
    const proof = allOf(foldersUnchanged(view.folderEpoch), claim?.proof);
    const stored = { doc: rep.json, etag: rep.etag, path: where };
    const patch = { ...planned, revision: written.revision };
    if (!(await repo.writeWithDoc(ctx.db, row.id, patch, at, row.doc_seq, stored, proof))) return undefined;
    const remember = {
      chain: view.chain,
      row: { ...written, doc_seq: nextSeq(row.doc_seq) },
      docEtag: rep.etag,
      docPath: where,
      folderEpoch: view.folderEpoch,
    };
    return { wrote: true, answer: { ...rep, ...answered }, remember };
  }

  /**
   * The patch of an update of `row` by `body` (the fields sent merged in, the workflow after it), or null when
   * nothing changes; 409 and 400 for what cannot be.
   */
  function planUpdate(actor: Actor, row: AssetRow, body: AssetPutBody) {
    if (body.id !== undefined && body.id !== row.id) {
      throw conflict('ID_MISMATCH', `id "${body.id}" is not the id of the asset at the URL (${row.id}).`);
    }
    if (body.type !== undefined && body.type !== row.type) {
      throw conflict('TYPE_MISMATCH', `The asset is a ${row.type}; its type cannot change to ${body.type}.`);
    }
    const fields = body.fields ?? {};
    assertFields(row.type, fields, false);
    const before = parseFields(row.fields);
    const stored = mergeFields(before, fields);
    const contentChanged = JSON.stringify(stored) !== JSON.stringify(before);
    const workflow = workflowAfterWrite(
      row,
      {
        contentChanged,
        target: body.workflow?.state as WorkflowState | undefined,
        checkedOut: body.workflow?.checkedOut,
        comment: body.workflow?.comment,
        now: isoTime(ctx.now()),
        schedule: body.workflow,
      },
      actor,
    );
    // `rejection` and the schedule are there only when they change.
    const workflowChanged =
      workflow.rejection !== undefined ||
      workflow.publish_at !== undefined ||
      workflow.unpublish_at !== undefined ||
      workflow.workflow_state !== row.workflow_state ||
      workflow.checked_out !== row.checked_out ||
      workflow.checked_out_user !== row.checked_out_user;
    if (!contentChanged && !workflowChanged) return null;
    return {
      fields: JSON.stringify(stored),
      ...workflow,
      updated_by: actor.username,
    };
  }

  /**
   * PUT on an asset path: updates the asset there (only the fields sent; `workflow.state` walks the Default
   * Workflow), or creates a non-binary asset when nothing is there (folders created on the way). An update is one
   * read and one write when nothing else writes the asset meanwhile (guardedWrite). With a `claim`, the actor is
   * taken on trust: that write proves it, any other way confirms it first; the put answers only once it was
   * proven or confirmed, and an error it throws leaves that to the caller.
   */
  async function put(
    actor: Actor,
    segments: readonly string[],
    body: AssetPutBody,
    pre: Preconditions = {},
    scope?: WriteScope,
  ): Promise<AssetPutAnswer> {
    const claim = scope?.claim;
    const target = targetOf(segments);
    if (body.name !== undefined && body.name !== target.name) {
      throw conflict('LOCATION_MISMATCH', `name "${body.name}" is not the URL's "${target.name}".`);
    }
    if (body.folderPath !== undefined && !sameSegments(splitPath(body.folderPath), target.folder)) {
      throw conflict(
        'LOCATION_MISMATCH',
        `folderPath "${body.folderPath}" is not the URL's "${target.folder.join('/')}".`,
      );
    }
    if (body.type !== undefined && !assetTypeDef(body.type)) {
      throw badRequest(`Unknown asset type "${body.type}".`, [{ path: 'type', message: 'is not an asset type' }]);
    }
    const fields = body.fields ?? {};
    const targetState = body.workflow?.state as WorkflowState | undefined;
    const { checkedOut } = body.workflow ?? {};
    const { leaseMs } = ctx.config;
    const lease = (id: string) => ({ kind: 'asset' as const, id, segments: target.segments });

    const quick = await guardedWrite(
      target.segments.join('/'),
      scope,
      () => repo.writeViewByPath(ctx.db, target.segments),
      (view) => writeFrom(view, actor, target, body, pre, claim),
    );
    if (quick) return quick;
    // The write did not prove a claimed actor (another way, a lost race, or the claim failed): confirm it.
    if (claim) actor = await claim.confirm();

    return retryingTransaction(
      ctx,
      async (trx) => {
        const now = ctx.now();
        const { chain } = await treeRepository.resolve(trx, target.segments);
        const last = chain[chain.length - 1];
        if (chain.length === target.segments.length && last?.kind !== 'asset') {
          throw conflict('NAME_TAKEN', `${target.segments.join('/')} is a folder, not an asset.`);
        }

        if (chain.length === target.segments.length) {
          // Update.
          const row =
            (await repo.find(trx, last!.id, true)) ??
            (() => {
              throw assetNotFound(segments);
            })();
          requireAccess(actor, chain, 'WRITE', target.segments.join('/'));
          await assertLeaseFree(trx, 'asset', row.id, row.checked_out_user, actor, now);
          assertPreconditions(pre, assetIfMatchEtag(pre.ifMatch, row, target.folder, actor), target.segments.join('/'));
          const planned = planUpdate(actor, row, body);
          if (!planned) return { ...representAsset(row, target.folder), created: false };
          const rep = await writeAssetRevision(trx, row, planned, writeTime(now, row.updated_at), target.folder);
          await writeLeaseOfWrite(trx, lease(row.id), actor.username, checkedOut, now, leaseMs);
          await assetRefs.changed(trx, row.id, row.fields, planned.fields);
          return { ...rep, created: false };
        }

        // Create.
        assertPreconditions(pre, null);
        assertCreatable(actor, chain, target.segments);
        if (body.id !== undefined) {
          throw conflict('ID_MISMATCH', `Nothing is at ${target.segments.join('/')}, so an id cannot be sent.`);
        }
        if (body.type === undefined) {
          throw badRequest('A new asset needs its type.', [
            { path: 'type', message: 'is required to create an asset' },
          ]);
        }
        const def = assetTypeDef(body.type)!;
        if (def.binary) {
          throw badRequest(`${body.type} assets are created by uploading their file.`, [
            { path: 'type', message: `upload the file with POST /cms/rest/assets/binary/${target.segments.join('/')}` },
          ]);
        }
        assertFields(body.type, fields, true);
        const workflow = workflowAfterWrite(
          { workflow_state: 'Draft', checked_out: 0, checked_out_user: '' },
          {
            contentChanged: false,
            target: targetState,
            checkedOut: body.workflow?.checkedOut,
            schedule: body.workflow,
          },
          actor,
        );
        const folderChain = await ensureAssetFolder(trx, target.folder, now);
        requireAccess(actor, folderChain, 'WRITE', `the asset folder ${target.folder.join('/')}`);
        const id = await insertAssetRecord(trx, {
          folderId: folderChain[folderChain.length - 1]!.id,
          name: target.name,
          type: body.type,
          fields: mergeFields({}, fields),
          actor,
          now,
          folder: target.folder,
          workflow,
        });
        await writeLeaseOfWrite(trx, lease(id), actor.username, checkedOut, now, leaseMs);
        return { ...representAsset((await repo.find(trx, id))!, target.folder), created: true };
      },
      // A concurrent creator of the folder or of the asset itself: the next attempt finds it and goes on.
      ['NAME_TAKEN', 'ASSET_ALREADY_EXISTS'],
    );
  }

  return { get, put };
}
