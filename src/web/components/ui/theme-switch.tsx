import { ToggleButton, ToggleButtonGroup, type Key } from 'react-aria-components';
import { THEME_PREFERENCES, useThemePreference, type ThemePreference } from '../../lib/theme';
import { MonitorIcon, MoonIcon, SunIcon } from './icons';

const OPTIONS: Record<ThemePreference, { label: string; Icon: typeof SunIcon }> = {
  system: { label: 'System theme', Icon: MonitorIcon },
  light: { label: 'Light theme', Icon: SunIcon },
  dark: { label: 'Dark theme', Icon: MoonIcon },
};

/** Three-way theme choice (system, light, dark), persisted; a radio group for assistive technology. */
export function ThemeSwitch() {
  const [preference, setPreference] = useThemePreference();
  return (
    <ToggleButtonGroup
      aria-label="Colour theme"
      selectionMode="single"
      disallowEmptySelection
      selectedKeys={[preference]}
      onSelectionChange={(keys: Set<Key>) => {
        const [next] = [...keys];
        if (next) setPreference(String(next) as ThemePreference);
      }}
      className="theme-switch"
    >
      {THEME_PREFERENCES.map((id) => {
        const { label, Icon } = OPTIONS[id];
        return (
          <ToggleButton key={id} id={id} aria-label={label} className="theme-switch__option">
            <Icon />
          </ToggleButton>
        );
      })}
    </ToggleButtonGroup>
  );
}
