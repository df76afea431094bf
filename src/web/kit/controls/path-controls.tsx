import { isApiError } from '../../../shared/api/client';
import { ASSET_LIBRARY, splitPath } from '../../../shared/api/paths';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/text-field';
import { useFolder } from '../../lib/queries/folders';
import type { FieldControlProps } from '../field-control';
import { useKitServices } from '../kit-services';
import { useDebounced } from '../../lib/use-debounced';
import './path-controls.css';

/** Quiet time after typing a path before it is checked. */
const PATH_SETTLE_MS = 400;

/** What the server says of the folder at `path`: a sentence under the field, or an error message. */
function useFolderCheck(path: string, realm: 'assets' | 'sites'): { note?: string; problem?: string } {
  // A typed path, settled for a moment before it is checked against the server.
  const settled = useDebounced(path.trim(), PATH_SETTLE_MS);
  const wrongRealm =
    settled !== '' &&
    (realm === 'assets' ? splitPath(settled)[0] !== ASSET_LIBRARY : splitPath(settled)[0] === ASSET_LIBRARY);
  const folder = useFolder(settled, { enabled: settled !== '' && !wrongRealm });
  if (settled === '') return {};
  if (wrongRealm) {
    return {
      problem:
        realm === 'assets'
          ? 'An asset folder path starts with “Assets/”.'
          : 'This is a path in the asset library; choose a place in a site.',
    };
  }
  if (folder.isError) {
    return isApiError(folder.error, 404)
      ? { problem: `There is no ${realm === 'assets' ? 'asset folder' : 'site, section or folder'} “${settled}”.` }
      : {};
  }
  if (!folder.data) return {};
  const f = folder.data.data;
  if (realm === 'assets') {
    const n = f.assets?.length ?? 0;
    const subs = f.subfolders?.length ?? 0;
    return {
      note: `Holds ${n} ${n === 1 ? 'asset' : 'assets'}${subs ? ` and ${subs} ${subs === 1 ? 'folder' : 'folders'}` : ''}.`,
    };
  }
  const kind = f.sectionInfo?.type ? f.sectionInfo.type : f.name === '' ? 'site' : f.sectionInfo ? 'section' : 'folder';
  return {
    note: `A ${kind === 'externallink' ? 'link' : kind}${f.sectionInfo?.displayTitle ? `: ${f.sectionInfo.displayTitle}` : ''}.`,
  };
}

function PathControl({ props, realm }: { props: FieldControlProps; realm: 'assets' | 'sites' }) {
  const { def, value, onChange, onBlur, errorMessage, isReadOnly, focusRef } = props;
  const services = useKitServices();
  const path = value ?? '';
  const check = useFolderCheck(path, realm);

  const choose = async () => {
    const chosen =
      realm === 'assets'
        ? await services.pickAssetFolder({ title: `${def.label}: choose an asset folder`, current: path || undefined })
        : await services.pickSitePath({ title: `${def.label}: choose a place`, current: path || undefined });
    if (chosen !== null && chosen !== path) onChange(chosen);
  };

  const description = [check.note, def.help].filter(Boolean).join(' ') || undefined;
  return (
    <div className="path-control">
      <TextField
        label={def.label}
        name={def.key}
        value={path}
        onChange={onChange}
        onBlur={onBlur}
        isRequired={def.required}
        isReadOnly={isReadOnly}
        placeholder={realm === 'assets' ? 'Assets/…' : 'site/section/…'}
        description={description}
        errorMessage={errorMessage ?? check.problem}
        inputRef={(el) => focusRef?.(el)}
        className="path-control__field"
      />
      {!isReadOnly && (
        <div className="path-control__actions">
          <Button onPress={() => void choose()} aria-label={`Choose ${def.label.toLowerCase()}`}>
            {realm === 'assets' ? 'Choose folder…' : 'Choose…'}
          </Button>
          {path !== '' && !def.required && (
            <Button variant="quiet" onPress={() => onChange(null)} aria-label={`Clear ${def.label.toLowerCase()}`}>
              Clear
            </Button>
          )}
        </div>
      )}
    </div>
  );
}

/** `asset-path`: a folder of the asset library (`Assets/images`), typed or chosen in the asset picker. */
export function AssetPathControl(props: FieldControlProps) {
  return <PathControl props={props} realm="assets" />;
}

/** `site-path`: a site, section or folder (`demo/news`), typed or chosen in the site picker. */
export function SitePathControl(props: FieldControlProps) {
  return <PathControl props={props} realm="sites" />;
}
