import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import type { AssetMetadata } from '../../shared/api/assets';
import {
  KitServicesContextProvider,
  type KitServices,
  type PickAssetOptions,
  type PickSitePathOptions,
} from './kit-services';
import { AssetPickerDialog } from './pickers/asset-picker-dialog';
import { SitePathDialog } from './pickers/site-path-dialog';

type Open =
  | { kind: 'asset'; options: PickAssetOptions; resolve: (a: AssetMetadata | null) => void }
  | { kind: 'asset-folder'; options: PickSitePathOptions; resolve: (p: string | null) => void }
  | { kind: 'site-path'; options: PickSitePathOptions; resolve: (p: string | null) => void };

/**
 * The kit's services for the app: the asset picker and the site picker as dialogs, one at a time (asking again
 * while one is open answers the first with null).
 */
export function KitServicesProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState<Open | null>(null);
  const current = useRef<Open | null>(null);

  const show = useCallback((next: Open) => {
    current.current?.resolve(null);
    current.current = next;
    setOpen(next);
  }, []);
  const finish = useCallback((answer: AssetMetadata | string | null) => {
    const o = current.current;
    current.current = null;
    setOpen(null);
    (o?.resolve as ((v: typeof answer) => void) | undefined)?.(answer);
  }, []);

  const services = useMemo<KitServices>(
    () => ({
      pickAsset: (options) => new Promise((resolve) => show({ kind: 'asset', options, resolve })),
      pickAssetFolder: (options) => new Promise((resolve) => show({ kind: 'asset-folder', options, resolve })),
      pickSitePath: (options) => new Promise((resolve) => show({ kind: 'site-path', options, resolve })),
    }),
    [show],
  );

  return (
    <KitServicesContextProvider services={services}>
      {children}
      {open?.kind === 'asset' && (
        <AssetPickerDialog
          mode="asset"
          title={open.options.title}
          types={open.options.types}
          startFolder={open.options.startFolder}
          onChoose={({ asset }) => finish(asset)}
          onCancel={() => finish(null)}
        />
      )}
      {open?.kind === 'asset-folder' && (
        <AssetPickerDialog
          mode="folder"
          title={open.options.title}
          startFolder={open.options.current ?? undefined}
          onChoose={({ folder }) => finish(folder)}
          onCancel={() => finish(null)}
        />
      )}
      {open?.kind === 'site-path' && (
        <SitePathDialog
          title={open.options.title}
          current={open.options.current}
          pages={open.options.pages}
          onChoose={(path) => finish(path)}
          onCancel={() => finish(null)}
        />
      )}
    </KitServicesContextProvider>
  );
}
