import type { Role } from '../../../../shared/api/auth';
import type { SelectOption } from '../../../components/ui/select';

/** What each role may do, in the words the Users screen uses (see workflow.ts and tree/access.ts on the server). */
export const ROLE_OPTIONS: readonly SelectOption<Role>[] = [
  { id: 'Viewer', label: 'Viewer', description: 'Reads sites, pages and assets.' },
  { id: 'Contributor', label: 'Contributor', description: 'Also creates and edits content and submits it for review.' },
  { id: 'Editor', label: 'Editor', description: 'Also approves, rejects and archives content.' },
  { id: 'Admin', label: 'Admin', description: 'Everything, including managing users.' },
];

/** New users start with the least privilege; the admin raises it on purpose. */
export const DEFAULT_ROLE: Role = 'Viewer';

/** "an Editor", "a Viewer". */
export function withArticle(role: Role): string {
  return /^[AEIOU]/.test(role) ? `an ${role}` : `a ${role}`;
}

/** What `role` may do, one sentence. */
export function roleDescription(role: Role): string | undefined {
  return ROLE_OPTIONS.find((o) => o.id === role)?.description;
}
