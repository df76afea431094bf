import { useState } from 'react';
import type { Page, RegionInput } from '../../../../shared/api/pages';
import type { TemplateSummary } from '../../../../shared/api/templates';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { Select } from '../../../components/ui/select';
import { defaultMoves, DROP, switchBody, type RegionMove } from '../lib/template-switch';
import './template-switch-dialog.css';

const widgetCount = (n: number) => `${n} ${n === 1 ? 'widget' : 'widgets'}`;

/**
 * Switching a page's template: each region of the page that holds content goes to a region of the new template
 * that pages fill (the one of the same name to start with) or is dropped; the dialog says what will be dropped
 * before anything is.
 */
export function TemplateSwitchDialog({
  page,
  templateName,
  target,
  isPending,
  onSwitch,
  onClose,
}: {
  page: Page;
  templateName: string;
  /** The new template as listed (undefined while the list loads: everything can only be dropped then). */
  target: TemplateSummary | undefined;
  isPending: boolean;
  onSwitch: (templateName: string, body: RegionInput[] | undefined) => void;
  onClose: () => void;
}) {
  const regions = (target?.regions ?? []).filter((r) => r.editable).map((r) => r.name);
  const [moves, setMoves] = useState<RegionMove[]>(() => defaultMoves(page, regions));
  const dropped = moves.filter((m) => m.to === DROP);
  const options = [
    ...regions.map((r) => ({ id: r, label: `“${r}”` })),
    { id: DROP, label: 'Drop it (delete its widgets)' },
  ];
  return (
    <ConfirmDialog
      isOpen
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={`Switch to the template “${target?.label ?? templateName}”?`}
      confirmLabel={
        dropped.length
          ? `Switch and drop ${dropped.length === 1 ? '1 region' : `${dropped.length} regions`}`
          : 'Switch template'
      }
      isPending={isPending}
      onConfirm={() => onSwitch(templateName, moves.length ? switchBody(page, moves, regions) : undefined)}
    >
      {moves.length === 0 ? (
        <p>The page holds no content yet: nothing is dropped.</p>
      ) : (
        <>
          <p>Say where the content of each region goes in the new template.</p>
          <div className="template-switch__moves">
            {moves.map((m, i) => (
              <Select
                key={m.from}
                label={`Content of “${m.from}” (${widgetCount(m.count)})`}
                options={options}
                value={m.to}
                onChange={(to) => setMoves(moves.map((x, j) => (j === i ? { ...x, to } : x)))}
                isDisabled={isPending}
              />
            ))}
          </div>
          {dropped.length ? (
            <>
              <InlineAlert title="Content will be dropped">
                Deleted when you switch, with the widgets’ own content:
              </InlineAlert>
              <ul className="properties-panel__dropped">
                {dropped.map((d) => (
                  <li key={d.from}>
                    <strong>{d.from}</strong> — {widgetCount(d.count)}
                  </li>
                ))}
              </ul>
            </>
          ) : (
            <p>All the page’s content has a place in the new template: nothing is dropped.</p>
          )}
        </>
      )}
    </ConfirmDialog>
  );
}
