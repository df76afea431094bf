import type { AssetMetadata } from '../../../../shared/api/assets';
import { AssetTypeIcon } from '../../../kit/type-icon';
import { needsAltText } from '../../../kit/pickers/asset-card';
import { assetThumbnailUrl } from '../../../lib/assets';
import { formatBytes, formatDateTime } from '../../../lib/format';
import { AlertIcon } from '../../../components/ui/icons';
import { typeLabelOf } from './asset-facts';

/**
 * What the asset looks like and its facts: an image's thumbnail (its alt text read out), or its type's icon;
 * type, file type, size, dimensions, created and changed.
 */
export function AssetPreview({ asset }: { asset: AssetMetadata }) {
  const thumb = assetThumbnailUrl(asset);
  const file = asset.image ?? asset.file;
  const facts: [string, string][] = [['Type', typeLabelOf(asset.type)]];
  if (file) facts.push(['File', `${file.type} · ${formatBytes(file.size)}`]);
  if (asset.image) facts.push(['Dimensions', `${asset.image.width} × ${asset.image.height} px`]);
  facts.push(['Changed', formatDateTime(asset.lastModifiedDate)], ['Created', formatDateTime(asset.createdDate)]);
  return (
    <section className={file ? 'asset-preview' : 'asset-preview asset-preview--facts'} aria-label="Preview and facts">
      {file && (
        <div className="asset-preview__frame">
          {thumb ? (
            <img src={thumb} alt={asset.fields.alttext ?? ''} className="asset-preview__image" />
          ) : (
            <span className="asset-preview__icon" aria-hidden="true">
              <AssetTypeIcon type={asset.type} />
              {asset.file?.extension && <span>{asset.file.extension.replace(/^\./, '')}</span>}
            </span>
          )}
        </div>
      )}
      <dl className="asset-facts">
        {facts.map(([term, value]) => (
          <div key={term} className="asset-facts__row">
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {needsAltText(asset) && (
        <p className="asset-preview__warn">
          <AlertIcon aria-hidden="true" /> This image has no alt text: people who cannot see it learn nothing from it.
          Describe it below.
        </p>
      )}
    </section>
  );
}
