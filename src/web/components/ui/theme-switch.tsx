import { THEME_PREFERENCES, useThemePreference, type ThemePreference } from '../../lib/theme';
import { MonitorIcon, MoonIcon, SunIcon } from './icons';
import { SegmentedControl } from './segmented-control';

const OPTIONS: Record<ThemePreference, { label: string; Icon: typeof SunIcon }> = {
  system: { label: 'System theme', Icon: MonitorIcon },
  light: { label: 'Light theme', Icon: SunIcon },
  dark: { label: 'Dark theme', Icon: MoonIcon },
};

/** Three-way theme choice (system, light, dark), persisted; a radio group for assistive technology. */
export function ThemeSwitch() {
  const [preference, setPreference] = useThemePreference();
  return (
    <SegmentedControl
      label="Colour theme"
      value={preference}
      onChange={setPreference}
      options={THEME_PREFERENCES.map((id) => {
        const { label, Icon } = OPTIONS[id];
        return { id, label, icon: <Icon />, iconOnly: true };
      })}
    />
  );
}
