import type { AssetMetadata } from '../../../../shared/api/assets';

const WHEN = '2026-01-01T00:00:00.000+0000';

/** Metadata of an uploaded image as the server answers it (fields of the binary types, Draft, checked out). */
export function imageAsset(path: string, overrides: Partial<AssetMetadata> = {}): AssetMetadata {
  const segments = path.split('/');
  const name = segments.pop()!;
  return {
    fields: { displaytitle: name, filename: name, alttext: null, resource_link_title: null },
    id: `1-401-${path.length}`,
    name,
    type: 'cmsImageAsset',
    folderPath: segments.join('/'),
    workflow: { name: 'Default Workflow', state: 'Draft', checkedOut: true, checkedOutUser: 'admin' },
    lastModifiedDate: WHEN,
    createdDate: WHEN,
    image: { filename: name, extension: 'png', size: 1000, type: 'image/png', width: 640, height: 480 },
    thumbnail: { filename: `thumb_${name}`, extension: 'png', size: 200, type: 'image/png', width: 300, height: 225 },
    ...overrides,
  };
}

/** Metadata of a non-binary asset of `type`. */
export function textAsset(path: string, type = 'cmsRichTextAsset', fields: AssetMetadata['fields'] = {}) {
  const segments = path.split('/');
  const name = segments.pop()!;
  return {
    fields: { text: '<p>Hello</p>', ...fields },
    id: `1-401-${path.length + 1000}`,
    name,
    type,
    folderPath: segments.join('/'),
    workflow: { name: 'Default Workflow', state: 'Draft', checkedOut: true, checkedOutUser: 'admin' },
    lastModifiedDate: WHEN,
    createdDate: WHEN,
  } satisfies AssetMetadata;
}
