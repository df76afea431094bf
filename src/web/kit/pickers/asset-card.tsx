import type { ReactNode } from 'react';
import { GridListItem } from 'react-aria-components';
import type { AssetMetadata } from '../../../shared/api/assets';
import { assetTypeDef, BINARY_ASSET_TYPE_BY_UPLOAD } from '../../../shared/registry';
import { AlertIcon } from '../../components/ui/icons';
import { SelectionCheckbox } from '../../components/ui/selection-checkbox';
import { WorkflowBadge } from '../../components/ui/workflow-badge';
import { assetPathOf, assetThumbnailUrl } from '../../lib/assets';
import { AssetTypeIcon } from '../type-icon';
import { scheduleLine } from '../workflow/schedule';
import { ScheduleMark } from '../workflow/schedule-control';
import { CheckedOutMark } from '../workflow/workflow-status';
import './asset-card.css';

/** True for an image whose alt text is empty: people who cannot see it learn nothing from it. */
export function needsAltText(asset: Pick<AssetMetadata, 'type' | 'fields'>): boolean {
  return asset.type === BINARY_ASSET_TYPE_BY_UPLOAD.image && !asset.fields.alttext?.trim();
}

/** What a reader hears for a card: name, type, state, who holds it, its schedule, a missing alt text. */
export function assetCardLabel(asset: AssetMetadata, isAllowed = true): string {
  const holder = asset.workflow.checkedOut ? asset.workflow.checkedOutUser : '';
  return [
    asset.name,
    assetTypeDef(asset.type)?.label ?? asset.type,
    asset.workflow.state,
    holder ? `checked out by ${holder}` : '',
    scheduleLine(asset.workflow)?.replace(/^S/, 's') ?? '',
    needsAltText(asset) ? 'no alt text' : '',
    isAllowed ? '' : 'cannot be chosen here',
  ]
    .filter(Boolean)
    .join(', ');
}

/**
 * What a card shows: the thumbnail of an image — never the original — or its type's icon and extension, the
 * name, the display title or type, the workflow state, a mark when it is scheduled, and a warning for an image
 * without alt text. `check` goes over the preview's corner (the card's selection checkbox).
 */
export function AssetCardBody({ asset, check }: { asset: AssetMetadata; check?: ReactNode }) {
  const thumb = assetThumbnailUrl(asset);
  const label = assetTypeDef(asset.type)?.label ?? asset.type;
  const title =
    asset.fields.displaytitle && asset.fields.displaytitle !== asset.name ? asset.fields.displaytitle : null;
  const holder = asset.workflow.checkedOut ? asset.workflow.checkedOutUser : '';
  return (
    <>
      <div className="asset-card__preview">
        {thumb ? (
          <img src={thumb} alt="" loading="lazy" decoding="async" draggable={false} />
        ) : (
          <span className="asset-card__icon">
            <AssetTypeIcon type={asset.type} />
            {asset.file && <span className="asset-card__ext">{asset.file.extension.replace(/^\./, '')}</span>}
          </span>
        )}
        {check}
      </div>
      <span className="asset-card__name" title={asset.name}>
        {asset.name}
      </span>
      <span className="asset-card__sub" title={title ?? undefined}>
        {title ?? label}
      </span>
      <span className="asset-card__meta">
        <WorkflowBadge state={asset.workflow.state} />
        {holder && <CheckedOutMark user={holder} />}
        <ScheduleMark schedule={asset.workflow} compact />
        {needsAltText(asset) && (
          <span className="asset-card__warn">
            <AlertIcon aria-hidden="true" /> No alt text
          </span>
        )}
      </span>
    </>
  );
}

/**
 * One asset in a react-aria GridList with `layout="grid"` (the asset picker): the card's body, and in a grid
 * that selects many, a checkbox that selects it.
 */
export function AssetCard({ asset, isAllowed = true }: { asset: AssetMetadata; isAllowed?: boolean }) {
  return (
    <GridListItem
      id={assetPathOf(asset)}
      textValue={asset.name}
      className="asset-card"
      data-path={assetPathOf(asset)}
      aria-label={assetCardLabel(asset, isAllowed)}
    >
      {({ selectionMode, selectionBehavior }) => (
        <AssetCardBody
          asset={asset}
          check={
            selectionMode === 'multiple' &&
            selectionBehavior === 'toggle' && <SelectionCheckbox className="asset-card__check" />
          }
        />
      )}
    </GridListItem>
  );
}
