import {
  type Folder,
  type FolderPutBody,
  type SectionInfoInput,
  type TargetWindow,
} from '../../../../shared/api/folders';
import { folderHref, segmentsOfHref } from '../../../../shared/api/paths';
import type { SelectOption } from '../../../components/ui/select';
import type { ExplorerItem } from '../../../lib/tree/items';

// The values of the properties form: read from an item, and what changed turned into a PUT body.

/** What an admin may do with the access level (an admin's GET always says ADMIN, so "keep" is the default). */
export type AccessChoice = 'keep' | 'READ' | 'WRITE';
export const ACCESS_OPTIONS: readonly SelectOption<AccessChoice>[] = [
  { id: 'keep', label: 'Keep as it is', description: 'Leaves any restriction set here unchanged.' },
  { id: 'READ', label: 'Read-only for non-admins', description: 'Editors and contributors cannot change it.' },
  { id: 'WRITE', label: 'Writable', description: 'Lifts a read-only setting made here.' },
];

/** What the properties form edits, as strings and choices. */
export interface Values {
  displayTitle: string;
  targetWindow: TargetWindow;
  navClass: string;
  templateName: string;
  url: string;
  linkTarget: string;
  workflow: string;
  access: AccessChoice;
}

/** The form's values of an item as the server holds it. */
export function valuesOf(folder: Folder): Values {
  const si = folder.sectionInfo;
  return {
    displayTitle: si?.displayTitle ?? '',
    targetWindow: si?.targetWindow ?? '_self',
    navClass: si?.navClass ?? '',
    templateName: si?.templateName ?? '',
    url: si?.externalLinkUrl ?? '',
    linkTarget: si?.linkTarget ? segmentsOfHref(si.linkTarget.href).join('/') : '',
    workflow: folder.workflow,
    access: 'keep',
  };
}

/** The PUT body of what changed between `from` and `to` (fields not sent stay as they are). */
export function changesOf(item: ExplorerItem, from: Values, to: Values): FolderPutBody {
  const body: FolderPutBody = {};
  const si: SectionInfoInput = {};
  const navigation =
    item.kind === 'site' || item.kind === 'section' || item.kind === 'sectionlink' || item.kind === 'externallink';
  if (navigation) {
    if (to.displayTitle !== from.displayTitle) si.displayTitle = to.displayTitle;
    if (to.targetWindow !== from.targetWindow) si.targetWindow = to.targetWindow;
    if (to.navClass !== from.navClass) si.navClass = to.navClass;
  }
  if ((item.kind === 'site' || item.kind === 'section') && to.templateName !== from.templateName) {
    si.templateName = to.templateName;
  }
  if (item.kind === 'externallink' && to.url !== from.url) si.externalLinkUrl = to.url.trim();
  if (item.kind === 'sectionlink' && to.linkTarget !== from.linkTarget) {
    si.linkTarget = { href: folderHref(to.linkTarget.split('/')) };
  }
  if (Object.keys(si).length) body.sectionInfo = si;
  if (to.workflow !== from.workflow) body.workflow = to.workflow;
  if (to.access !== 'keep') body.accessLevel = to.access;
  return body;
}

/** The form's field of each body path a 400 may name. */
export const FIELDS = {
  'body.sectionInfo.displayTitle': 'displayTitle',
  'body.sectionInfo.navClass': 'navClass',
  'body.sectionInfo.externalLinkUrl': 'url',
  'body.sectionInfo.templateName': 'templateName',
  'body.workflow': 'workflow',
};
