import type { ReactNode } from 'react';
import { Tab, TabList, TabPanel, Tabs as AriaTabs, type Key } from 'react-aria-components';

export interface TabDef<K extends string> {
  id: K;
  label: ReactNode;
  isDisabled?: boolean;
  content: ReactNode;
}

/**
 * Tabs (react-aria: arrow keys move between tabs, Home/End, the panel follows). Controlled when `selected` is
 * given. Panels of tabs not shown are unmounted unless `keepMounted` (keep editors' state alive).
 */
export function Tabs<K extends string>({
  label,
  tabs,
  selected,
  onSelectedChange,
  keepMounted,
  className,
}: {
  /** Accessible name of the tab list. */
  label: string;
  tabs: readonly TabDef<K>[];
  selected?: K;
  onSelectedChange?: (key: K) => void;
  keepMounted?: boolean;
  className?: string;
}) {
  return (
    <AriaTabs
      className={['tabs', className ?? ''].filter(Boolean).join(' ')}
      selectedKey={selected}
      onSelectionChange={(key: Key) => onSelectedChange?.(String(key) as K)}
      disabledKeys={tabs.filter((t) => t.isDisabled).map((t) => t.id)}
    >
      <TabList aria-label={label} className="tabs__list">
        {tabs.map((t) => (
          <Tab key={t.id} id={t.id} className="tabs__tab">
            {t.label}
          </Tab>
        ))}
      </TabList>
      {tabs.map((t) => (
        <TabPanel key={t.id} id={t.id} className="tabs__panel" shouldForceMount={keepMounted}>
          {t.content}
        </TabPanel>
      ))}
    </AriaTabs>
  );
}
