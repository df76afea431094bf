import { createContext, useContext, type ReactNode } from 'react';
import type { AssetMetadata } from '../../shared/api/assets';
import type { AssetType } from '../../shared/registry';

/** What the asset picker is asked for. */
export interface PickAssetOptions {
  /** The dialog's title ("Choose an image"). */
  title: string;
  /** Only assets of these types can be chosen (all types when left out). */
  types?: readonly AssetType[];
  /** The asset library folder to open first (`Assets/images`). */
  startFolder?: string;
}

/** What a site and folder picker is asked for. */
export interface PickSitePathOptions {
  title: string;
  /** The path chosen now (`demo/news`), opened and selected. */
  current?: string | null;
  /** A page is chosen instead of a place: the tree shows pages too, and only a page can be chosen. */
  pages?: boolean;
}

/**
 * Services the kit's controls need from outside a single field: choosing an asset from the library (image
 * widgets, images in rich text, asset folders) and a place in a site. The app provides them once
 * (`KitServicesProvider`); component tests provide their own.
 */
export interface KitServices {
  /** Opens the asset picker; resolves with the chosen asset, or null when the user cancels. */
  pickAsset(options: PickAssetOptions): Promise<AssetMetadata | null>;
  /** Opens the asset library folder picker; resolves with its path (`Assets/images`), or null. */
  pickAssetFolder(options: PickSitePathOptions): Promise<string | null>;
  /** Opens the site and folder (or page) picker; resolves with the chosen path (`demo/news`), or null. */
  pickSitePath(options: PickSitePathOptions): Promise<string | null>;
}

const KitServicesContext = createContext<KitServices | null>(null);

/** Makes `services` available to the kit's controls below. */
export function KitServicesContextProvider({ services, children }: { services: KitServices; children: ReactNode }) {
  return <KitServicesContext.Provider value={services}>{children}</KitServicesContext.Provider>;
}

/** The kit's services; throws outside a provider (a control used without the app's kit around it). */
export function useKitServices(): KitServices {
  const services = useContext(KitServicesContext);
  if (!services) throw new Error('useKitServices must be used inside <KitServicesContextProvider>.');
  return services;
}
