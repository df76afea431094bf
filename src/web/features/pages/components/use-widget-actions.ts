import { useCallback, useMemo, useRef } from 'react';
import type { AssetMetadata } from '../../../../shared/api/assets';
import { widgetTypeDef, type AssetType, type WidgetType } from '../../../../shared/registry';
import { toast } from '../../../components/ui/toast';
import { useKitServices } from '../../../kit/kit-services';
import {
  duplicateOf,
  insertWidget,
  isBinaryWidget,
  locateWidget,
  newWidgetKey,
  placeWidget,
  removeWidget,
  updateWidget,
  widgetLabel,
  type EditorDoc,
  type EditorWidget,
  type PageProps,
} from '../lib/editor-doc';
import { fieldsOfDuplicate } from '../lib/widget-copy';
import type { PageHistory } from './use-page-history';
import type { FocusTarget } from './use-widget-focus';
import type { WidgetActions } from './widget-card-body';

/** A widget of `type` holding the shared asset `asset` (linked when saved). */
function linkedTo(widget: EditorWidget, asset: AssetMetadata): EditorWidget {
  return {
    ...widget,
    shared: { name: asset.name, folderPath: asset.folderPath },
    share: 'link',
    fields: { ...(asset.fields as Record<string, string | null>) },
  };
}

/**
 * What a person does to the page's widgets and properties, each one step of the page's history, each leaving
 * the focus on something sensible and saying what happened.
 */
export function useWidgetActions({
  doc,
  history,
  focusLater,
  announce,
  openShare,
}: {
  doc: EditorDoc;
  history: PageHistory;
  /** Opens the dialog that makes a widget's content a shared asset. */
  openShare: (key: string) => void;
  focusLater: (target: FocusTarget) => void;
  announce: (message: string) => void;
}) {
  const services = useKitServices();
  const dragged = useRef<string | null>(null);
  const { record } = history;

  /** Opens the asset picker for a widget; a chosen asset is linked; focus returns to the widget either way. */
  const pickFor = useCallback(
    async (widget: EditorWidget, title: string) => {
      const assetType = widgetTypeDef(widget.type)?.assetType;
      if (!assetType) return;
      const asset = await services.pickAsset({ title, types: [assetType as AssetType] });
      const binary = isBinaryWidget(widget.type);
      focusLater({ key: widget.key, target: binary ? 'choose' : 'card' });
      if (!asset) return;
      record(`Linked the shared asset ${asset.name}`, (d) => updateWidget(d, widget.key, (w) => linkedTo(w, asset)), {
        undoFocus: { key: widget.key, target: binary ? 'choose' : 'card' },
        redoFocus: { key: widget.key, target: 'card' },
      });
      announce(`Linked the shared asset ${asset.name}.`);
    },
    [announce, focusLater, record, services],
  );

  /** Moves a widget as one step; focus follows it. */
  const moveStep = (key: string, region: string, index: number, label: string, focus: FocusTarget) => {
    record(label, (d) => placeWidget(d, key, region, index), { undoFocus: focus, redoFocus: focus });
    focusLater(focus);
    announce(`${label}.`);
  };

  const remove = (key: string) => {
    const at = locateWidget(doc, key);
    if (!at) return;
    const label = `Removed the ${widgetLabel(at.widget.type)} widget from ${at.region}`;
    const after: FocusTarget = { target: 'in-region', region: at.region, index: at.index };
    const step = record(label, (d) => removeWidget(d, key), {
      undoFocus: { key, target: 'card' },
      redoFocus: after,
    });
    focusLater(after);
    announce(`${label}.`);
    toast.success(`Removed the ${widgetLabel(at.widget.type)} widget`, `From ${at.region}. Save to make it final.`, {
      label: 'Undo',
      onAction: () => {
        // The page's own Undo when nothing was done since; otherwise the widget alone comes back, as a new step.
        if (history.undoIfLast(step)) return;
        record(
          `Brought back the ${widgetLabel(at.widget.type)} widget`,
          (d) => (locateWidget(d, key) ? d : insertWidget(d, at.region, at.index, at.widget)),
          { undoFocus: after, redoFocus: { key, target: 'card' } },
        );
        focusLater({ key, target: 'card' });
      },
    });
  };

  const current: WidgetActions = {
    changeFields: (key, fields) => {
      const at = locateWidget(doc, key);
      if (!at) return;
      record(
        `Edited the ${widgetLabel(at.widget.type)} widget in ${at.region}`,
        (d) => updateWidget(d, key, (w) => ({ ...w, fields })),
        { fieldsOf: key, undoFocus: { key, target: 'card' }, redoFocus: { key, target: 'card' } },
      );
    },
    move: (key, delta) => {
      const at = locateWidget(doc, key);
      if (!at) return;
      const to = at.index + delta;
      const count = doc.regions[at.region]!.length;
      if (to < 0 || to >= count) return;
      const label = `Moved the ${widgetLabel(at.widget.type)} widget to position ${to + 1} of ${count} in ${at.region}`;
      moveStep(key, at.region, to, label, { key, target: delta < 0 ? 'move-up' : 'move-down' });
    },
    moveTo: (key, region) => {
      const at = locateWidget(doc, key);
      if (!at) return;
      const label = `Moved the ${widgetLabel(at.widget.type)} widget to the end of ${region}`;
      moveStep(key, region, Number.MAX_SAFE_INTEGER, label, { key, target: 'card' });
    },
    duplicate: (key) => {
      const at = locateWidget(doc, key);
      if (!at) return;
      const copy = duplicateOf(at.widget, fieldsOfDuplicate(at.widget, doc));
      const label = `Duplicated the ${widgetLabel(at.widget.type)} widget`;
      record(label, (d) => insertWidget(d, at.region, at.index + 1, copy), {
        undoFocus: { key, target: 'card' },
        redoFocus: { key: copy.key, target: 'card' },
      });
      focusLater({ key: copy.key, target: 'field' });
      announce(`${label}.`);
    },
    remove,
    makeShared: openShare,
    linkShared: (key) => {
      const at = locateWidget(doc, key);
      if (at) void pickFor(at.widget, `Link a shared ${widgetLabel(at.widget.type).toLowerCase()}`);
    },
    detach: (key) => {
      const at = locateWidget(doc, key);
      if (!at) return;
      const copy: EditorWidget = { key: newWidgetKey(), type: at.widget.type, fields: { ...at.widget.fields } };
      record('Detached the widget from its shared asset', (d) => updateWidget(d, key, () => copy), {
        undoFocus: { key, target: 'card' },
        redoFocus: { key: copy.key, target: 'card' },
      });
      focusLater({ key: copy.key, target: 'field' });
      announce('Detached: the widget now holds a local copy you can edit here.');
    },
    chooseBinary: (key) => {
      const at = locateWidget(doc, key);
      if (at) void pickFor(at.widget, at.widget.type === 'cmsImage' ? 'Choose an image' : 'Choose a file');
    },
    dragStart: (key) => {
      dragged.current = key;
    },
    dropBefore: (targetKey) => {
      const key = dragged.current;
      dragged.current = null;
      const target = locateWidget(doc, targetKey);
      const at = key ? locateWidget(doc, key) : null;
      if (!key || !target || !at || key === targetKey) return;
      const index = at.region === target.region && at.index < target.index ? target.index - 1 : target.index;
      const label = `Moved the ${widgetLabel(at.widget.type)} widget to ${target.region}`;
      moveStep(key, target.region, index, label, { key, target: 'card' });
    },
  };

  // The cards get one object for the editor's life, whose methods call this render's: a keystroke in one widget
  // changes no prop of the others, so they do not draw again.
  const latest = useRef(current);
  latest.current = current;
  const actions = useMemo(
    () =>
      Object.fromEntries(
        Object.keys(latest.current).map((name) => [
          name,
          (...args: unknown[]) => (latest.current[name as keyof WidgetActions] as (...a: unknown[]) => void)(...args),
        ]),
      ) as unknown as WidgetActions,
    [],
  );

  const dropAtEnd = (region: string) => {
    const key = dragged.current;
    dragged.current = null;
    const at = key ? locateWidget(doc, key) : null;
    if (!key || !at) return;
    const label = `Moved the ${widgetLabel(at.widget.type)} widget to the end of ${region}`;
    moveStep(key, region, Number.MAX_SAFE_INTEGER, label, { key, target: 'card' });
  };

  /** Adds a widget of `type` at the end of `region` (linked to `asset` when given); an image or file asks for one. */
  const addWidget = (region: string, type: WidgetType, asset?: AssetMetadata) => {
    const empty: EditorWidget = { key: newWidgetKey(), type, fields: {} };
    const widget = asset ? linkedTo(empty, asset) : empty;
    const index = doc.regions[region]?.length ?? 0;
    const label = asset
      ? `Added the shared ${widgetLabel(type).toLowerCase()} ${asset.name} at the end of ${region}`
      : `Added a ${widgetLabel(type)} widget at the end of ${region}`;
    record(label, (d) => insertWidget(d, region, index, widget), {
      undoFocus: { target: 'in-region', region, index },
      redoFocus: { key: widget.key, target: 'card' },
    });
    focusLater({ key: widget.key, target: asset ? 'card' : 'field' });
    announce(`${label}.`);
    if (!asset && isBinaryWidget(type)) void pickFor(widget, type === 'cmsImage' ? 'Choose an image' : 'Choose a file');
  };

  /** Records an edit of the page's properties (a run of them is one step). */
  const changeProps = (props: PageProps) =>
    record('Edited the page properties', (d) => ({ ...d, props }), { fieldsOf: 'props' });

  /** Records that a widget becomes a new shared asset when saved. */
  const share = (key: string, ref: { name: string; folderPath: string }) => {
    record(`Made the widget the shared asset ${ref.name}`, (d) =>
      updateWidget(d, key, (w) => ({ ...w, shared: ref, share: 'create' })),
    );
    focusLater({ key, target: 'card' });
    announce(`The widget becomes the shared asset ${ref.name} when you save.`);
  };

  return { actions, dropAtEnd, addWidget, changeProps, share };
}
