import {
  Button as AriaButton,
  Header,
  Menu,
  MenuItem,
  MenuSection,
  MenuTrigger,
  Popover,
  Separator,
  Text,
  type Key,
} from 'react-aria-components';
import type { AssetType } from '../../../../shared/registry';
import { ASSET_LIBRARY } from '../../../../shared/api/paths';
import { Button } from '../../../components/ui/button';
import { ChevronDownIcon, FolderIcon, MoreIcon, PlusIcon } from '../../../components/ui/icons';
import { AssetTypeIcon } from '../../../kit/type-icon';
import { NEW_ASSET_GROUPS } from './new-asset-dialog';

/** The asset folder dialogs, which the app provides (they keep the tree in step). */
export interface FolderCommands {
  /** A new folder inside this one. */
  create: () => void;
  rename: () => void;
  move: () => void;
  remove: () => void;
}

/**
 * The folder's actions: Upload files (the file chooser), New (a folder, or any of the 20 non-binary asset types,
 * grouped), and the folder's own menu (rename, move, delete; not for the library itself). Readers see none.
 */
export function LibraryActions({
  folderPath,
  canWrite,
  onUpload,
  onNewAsset,
  folderCommands,
}: {
  folderPath: string;
  canWrite: boolean;
  onUpload: () => void;
  onNewAsset: (type: AssetType) => void;
  folderCommands: FolderCommands;
}) {
  if (!canWrite) return null;
  const isLibrary = folderPath === ASSET_LIBRARY;
  return (
    <div className="library-actions" role="toolbar" aria-label="Folder actions">
      <Button variant="primary" onPress={onUpload}>
        <PlusIcon /> Upload files
      </Button>
      <MenuTrigger>
        <AriaButton className="btn btn--secondary btn--md">
          New <ChevronDownIcon />
        </AriaButton>
        <Popover className="popover" placement="bottom end" offset={4}>
          <Menu
            className="menu new-menu"
            aria-label="New"
            onAction={(key: Key) => {
              if (key === 'folder') folderCommands.create();
              else onNewAsset(String(key) as AssetType);
            }}
          >
            <MenuItem id="folder" className="menu__item" textValue="Folder">
              <FolderIcon aria-hidden="true" /> Folder…
            </MenuItem>
            {NEW_ASSET_GROUPS.map((group) => (
              <MenuSection key={group.label} className="menu__section">
                <Separator className="menu__separator" />
                <Header className="menu__header">{group.label}</Header>
                {group.types.map((t) => (
                  <MenuItem key={t.type} id={t.type} className="menu__item" textValue={t.label}>
                    <AssetTypeIcon type={t.type} />
                    <Text slot="label">{t.label}…</Text>
                  </MenuItem>
                ))}
              </MenuSection>
            ))}
          </Menu>
        </Popover>
      </MenuTrigger>
      {!isLibrary && (
        <MenuTrigger>
          <AriaButton className="btn btn--quiet btn--md btn--icon" aria-label="More actions for this folder">
            <MoreIcon />
          </AriaButton>
          <Popover className="popover" placement="bottom end" offset={4}>
            <Menu
              className="menu"
              aria-label="Folder"
              onAction={(key: Key) => {
                if (key === 'rename') folderCommands.rename();
                else if (key === 'move') folderCommands.move();
                else if (key === 'delete') folderCommands.remove();
              }}
            >
              <MenuItem id="rename" className="menu__item">
                Rename folder…
              </MenuItem>
              <MenuItem id="move" className="menu__item">
                Move folder to…
              </MenuItem>
              <MenuItem id="delete" className="menu__item menu__item--danger">
                Delete folder…
              </MenuItem>
            </Menu>
          </Popover>
        </MenuTrigger>
      )}
    </div>
  );
}
