import { useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import {
  ASSET_TYPES,
  assetTypeDef,
  WIDGET_CATEGORY_LABEL,
  WIDGET_TYPES,
  widgetContentFields,
  widgetTypeDef,
  type FieldDef,
  type WidgetCategory,
} from '../../../shared/registry';
import { Button } from '../../components/ui/button';
import { PageHeader } from '../../components/ui/page-header';
import { toast } from '../../components/ui/toast';
import { FieldsForm, useFieldsForm, type FieldValues } from '../fields-form';
import { ASSET_SAMPLES, LOCAL_WIDGET_SAMPLES } from '../samples';
import { AssetTypeIcon, WidgetTypeIcon } from '../type-icon';
import './kit-gallery.css';

/** Which form the gallery shows: a widget type's content or an asset type's fields. */
export type GallerySelection = { kind: 'widgets' | 'assets'; type: string };

interface Entry {
  selection: GallerySelection;
  label: string;
  description: string;
  defs: readonly FieldDef[];
  samples: FieldValues;
  icon: ReactNode;
}

function entryOf(selection: GallerySelection): Entry | null {
  if (selection.kind === 'widgets') {
    const w = widgetTypeDef(selection.type);
    if (!w) return null;
    return {
      selection,
      label: w.label,
      description: w.description,
      defs: widgetContentFields(w.type),
      samples: w.assetType ? ASSET_SAMPLES[w.assetType] : (LOCAL_WIDGET_SAMPLES[w.type] ?? {}),
      icon: <WidgetTypeIcon type={w.type} />,
    };
  }
  const a = assetTypeDef(selection.type);
  if (!a) return null;
  return {
    selection,
    label: a.label,
    description: a.description,
    defs: a.fields,
    samples: ASSET_SAMPLES[a.type as keyof typeof ASSET_SAMPLES] ?? {},
    icon: <AssetTypeIcon type={a.type} />,
  };
}

/**
 * The editing kit's gallery (/kit): the form of every widget and asset type, filled with sample values, with
 * what the form would send. For people checking a form, and for tests that exercise every control in one place.
 */
export function KitGallery({
  selection,
  hrefOf,
}: {
  /** The type shown; the first widget type when none. */
  selection: GallerySelection | null;
  /** The app URL that shows a type. */
  hrefOf: (selection: GallerySelection) => string;
}) {
  const current = entryOf(selection ?? { kind: 'widgets', type: WIDGET_TYPES[0]!.type });
  const navId = useId();
  const categories = Object.keys(WIDGET_CATEGORY_LABEL) as WidgetCategory[];
  const isCurrent = (s: GallerySelection) => current?.selection.kind === s.kind && current.selection.type === s.type;

  const link = (s: GallerySelection, label: string, icon: ReactNode) => (
    <li key={`${s.kind}/${s.type}`}>
      <Link
        to={hrefOf(s)}
        className="kit-gallery__link"
        aria-current={isCurrent(s) ? 'page' : undefined}
        data-type={s.type}
      >
        {icon}
        <span>{label}</span>
      </Link>
    </li>
  );

  return (
    <div className="kit-gallery">
      <PageHeader
        title="Editing kit"
        description="The form of every widget and asset type, filled with sample values — what editors see in the page editor and the asset library."
      />
      <div className="kit-gallery__layout">
        <nav className="kit-gallery__nav" aria-labelledby={navId}>
          <h2 id={navId} className="visually-hidden">
            Types
          </h2>
          <h3 className="kit-gallery__group">Widgets</h3>
          {categories.map((category) => (
            <div key={category}>
              <h4 className="kit-gallery__category">{WIDGET_CATEGORY_LABEL[category]}</h4>
              <ul className="kit-gallery__list">
                {WIDGET_TYPES.filter((w) => w.category === category).map((w) =>
                  link({ kind: 'widgets', type: w.type }, w.label, <WidgetTypeIcon type={w.type} />),
                )}
              </ul>
            </div>
          ))}
          <h3 className="kit-gallery__group">Assets</h3>
          <ul className="kit-gallery__list">
            {ASSET_TYPES.map((a) => link({ kind: 'assets', type: a.type }, a.label, <AssetTypeIcon type={a.type} />))}
          </ul>
        </nav>
        {current ? (
          <GalleryForm key={`${current.selection.kind}/${current.selection.type}`} entry={current} />
        ) : (
          <section className="card">
            <h2 className="card__title">No such type</h2>
            <p>
              “{selection?.type}” is not {selection?.kind === 'assets' ? 'an asset' : 'a widget'} type.{' '}
              <Link to={hrefOf({ kind: 'widgets', type: WIDGET_TYPES[0]!.type })}>Show the first widget type</Link>.
            </p>
          </section>
        )}
      </div>
    </div>
  );
}

/** One type's form with its samples (or empty, as a new asset), and what the form would send. */
function GalleryForm({ entry }: { entry: Entry }) {
  const [mode, setMode] = useState<'samples' | 'empty'>('samples');
  return <GalleryFormBody key={mode} entry={entry} mode={mode} onModeChange={setMode} />;
}

function GalleryFormBody({
  entry,
  mode,
  onModeChange,
}: {
  entry: Entry;
  mode: 'samples' | 'empty';
  onModeChange: (mode: 'samples' | 'empty') => void;
}) {
  const headingId = useId();
  const sentId = useId();
  const controller = useFieldsForm({
    defs: entry.defs,
    initial: mode === 'samples' ? entry.samples : {},
    creating: mode === 'empty',
  });
  const [, rerender] = useState(0);
  const changes = controller.changes();
  const values = controller.values();

  return (
    <div className="kit-gallery__main">
      <section className="card" aria-labelledby={headingId}>
        <header className="kit-gallery__head">
          <span className="kit-gallery__icon">{entry.icon}</span>
          <div>
            <h2 id={headingId} className="card__title" data-screen-heading tabIndex={-1}>
              {entry.label}
            </h2>
            <p className="card__muted">
              {entry.description} <code>{entry.selection.type}</code>
            </p>
          </div>
        </header>
        <FieldsForm controller={controller} onValuesChange={() => rerender((n) => n + 1)} />
        <div className="kit-gallery__actions">
          <Button
            onPress={() => {
              void controller.validate().then((ok) => {
                if (ok) toast.success('Every field is valid', 'The server would accept these values.');
              });
            }}
          >
            Check
          </Button>
          <Button variant="quiet" onPress={() => onModeChange(mode === 'samples' ? 'empty' : 'samples')}>
            {mode === 'samples' ? 'Start empty (as a new asset)' : 'Fill with samples'}
          </Button>
        </div>
      </section>
      <section className="card" aria-labelledby={sentId}>
        <h2 id={sentId} className="card__title">
          What the form sends
        </h2>
        <p className="card__muted">An update sends the changed fields; creating sends every field that is set.</p>
        <details className="kit-gallery__sent">
          <summary>Show JSON</summary>
          <h3 className="kit-gallery__sent-title">Changed fields</h3>
          <pre className="kit-gallery__json" data-testid="kit-changes">
            {JSON.stringify(changes, null, 2)}
          </pre>
          <h3 className="kit-gallery__sent-title">All fields that are set</h3>
          <pre className="kit-gallery__json" data-testid="kit-values">
            {JSON.stringify(values, null, 2)}
          </pre>
        </details>
      </section>
    </div>
  );
}
