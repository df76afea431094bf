import type { ReactNode } from 'react';
import { Heading } from 'react-aria-components';
import type { AssetMetadata } from '../../../../shared/api/assets';
import { assetTypeDef } from '../../../../shared/registry';
import { assetFactsOf } from '../../../lib/assets';
import { Button } from '../../../components/ui/button';
import { CloseIcon } from '../../../components/ui/icons';
import { typeLabelOf } from './asset-facts';

/** The panel's title and its close button. */
export function DrawerHeading({
  title,
  children,
  onClose,
}: {
  title: string;
  children?: ReactNode;
  onClose: () => void;
}) {
  return (
    <header className="drawer__header">
      <div className="drawer__title-block">
        <Heading slot="title" className="drawer__title">
          {title}
        </Heading>
        {children}
      </div>
      <Button variant="quiet" iconOnly aria-label="Close the details" onPress={onClose}>
        <CloseIcon />
      </Button>
    </header>
  );
}

/** An asset's panel title: its name, its type and (a file) its file's facts. */
export function AssetHeading({ asset, onClose }: { asset: AssetMetadata; onClose: () => void }) {
  return (
    <DrawerHeading title={asset.name} onClose={onClose}>
      <p className="drawer__subtitle">
        {assetTypeDef(asset.type)?.binary
          ? `${typeLabelOf(asset.type)} · ${assetFactsOf(asset)}`
          : typeLabelOf(asset.type)}
      </p>
    </DrawerHeading>
  );
}
