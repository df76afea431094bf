import type { FastifyReply, FastifyRequest, RouteHandlerMethod, RouteOptions } from 'fastify';
import type { LeaseKind } from '../../../shared/api/leases.js';
import { actorOf } from '../../lib/http.js';
import { itemPathOf } from '../tree/paths.js';
import { leaseHeld, type LeasesService } from './leases.service.js';

/** The routes of items that have leases: their kind, and whether a method reads or writes the item. */
const ITEM_ROUTES: Record<string, { kind: LeaseKind; reads: string[]; writes: string[] }> = {
  '/cms/rest/pages/by-path/*': { kind: 'page', reads: ['GET'], writes: ['PUT', 'DELETE'] },
  '/cms/rest/assets/by-path/*': { kind: 'asset', reads: ['GET'], writes: ['PUT', 'DELETE'] },
  '/cms/rest/assets/binary/*': { kind: 'asset', reads: [], writes: ['PUT', 'POST'] },
};

interface Workflow {
  checkedOut?: unknown;
  checkedOutUser?: unknown;
}

/**
 * Makes a page or asset route honour check-out leases (docs/decisions.md → check-out leases), by wrapping its
 * handler: a write by anyone but the holder of a live lease is refused first (409 LEASE_HELD, nothing written);
 * after a write with `workflow.checkedOut` in its body, the caller's lease is taken (true) or released (false); and every JSON answer's
 * `workflow.checkedOut` / `checkedOutUser` show the live lease. The ETag stays the one of the content: a lease never
 * makes its holder's If-Match stale.
 */
export function withLeases(route: RouteOptions, leases: LeasesService): void {
  const spec = ITEM_ROUTES[route.url];
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  const method = methods.find((m) => spec?.reads.includes(m) || spec?.writes.includes(m));
  if (!spec || !method || methods.length !== 1) return;
  const writes = spec.writes.includes(method);
  const inner = route.handler as (this: unknown, request: FastifyRequest, reply: FastifyReply) => unknown;
  const { kind } = spec;

  route.handler = async function (this: unknown, request: FastifyRequest, reply: FastifyReply) {
    const actor = actorOf(request);
    const path = itemPathOf(request).join('/');
    if (writes) {
      const held = await leases.live(kind, path);
      if (held && held.username !== actor.username) throw leaseHeld(held, kind);
    }
    const answer = await inner.call(this, request, reply);
    if (typeof answer !== 'string' || reply.statusCode >= 300 || method === 'DELETE') {
      // The item is gone: so is its lease (the caller's, or nobody's: another holder's refused the delete).
      if (method === 'DELETE' && reply.statusCode < 300) await leases.checkIn(kind, path, actor.username);
      return answer;
    }
    let doc: { id?: unknown; workflow?: Workflow };
    try {
      doc = JSON.parse(answer) as typeof doc;
    } catch {
      return answer;
    }
    const wf = doc.workflow;
    if (!wf || typeof wf !== 'object') return answer;
    // The spec's own way to check out or in: `workflow.checkedOut` in a PUT body takes or ends the caller's lease.
    const asked = (request.body as { workflow?: Workflow } | undefined)?.workflow?.checkedOut;
    if (writes && typeof doc.id === 'string' && typeof asked === 'boolean') {
      if (asked) await leases.checkOut(kind, path, doc.id, actor.username);
      else await leases.checkIn(kind, path, actor.username);
      // The lease is written after the write's own statement: the generation moves after it too.
      request.changeGenerationBumped = false;
    }
    const lease = await leases.live(kind, path);
    const live = lease && lease.item_id === doc.id ? lease : undefined;
    const checkedOut = live !== undefined;
    const user = live?.username ?? '';
    if (wf.checkedOut === checkedOut && wf.checkedOutUser === user) return answer;
    wf.checkedOut = checkedOut;
    wf.checkedOutUser = user;
    return JSON.stringify(doc);
  } as RouteHandlerMethod;
}
