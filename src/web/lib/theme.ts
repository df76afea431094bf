import { useSyncExternalStore } from 'react';

/** What the user chose: follow the system setting, or a fixed theme. */
export type ThemePreference = 'system' | 'light' | 'dark';
export const THEME_PREFERENCES: readonly ThemePreference[] = ['system', 'light', 'dark'];

const STORAGE_KEY = 'folio.theme';
const listeners = new Set<() => void>();

function isPreference(value: unknown): value is ThemePreference {
  return typeof value === 'string' && (THEME_PREFERENCES as readonly string[]).includes(value);
}

/** The stored preference; 'system' when none (or storage is unavailable, e.g. blocked cookies). */
export function readThemePreference(): ThemePreference {
  try {
    const stored = globalThis.localStorage?.getItem(STORAGE_KEY);
    return isPreference(stored) ? stored : 'system';
  } catch {
    return 'system';
  }
}

let current: ThemePreference = readThemePreference();

/** Puts the preference on <html>: tokens.css switches `color-scheme` on `data-theme`. */
export function applyThemePreference(preference: ThemePreference) {
  const root = document.documentElement;
  if (preference === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', preference);
}

/** Chooses, applies and persists a theme. */
export function setThemePreference(preference: ThemePreference) {
  current = preference;
  try {
    if (preference === 'system') globalThis.localStorage?.removeItem(STORAGE_KEY);
    else globalThis.localStorage?.setItem(STORAGE_KEY, preference);
  } catch {
    // Storage can be unavailable (private mode, policies); the choice then lasts for this page only.
  }
  applyThemePreference(preference);
  for (const listener of listeners) listener();
}

/** Applies the stored theme before the first render and follows changes made in other tabs. */
export function initTheme() {
  applyThemePreference(current);
  window.addEventListener('storage', (event) => {
    if (event.key !== STORAGE_KEY) return;
    current = isPreference(event.newValue) ? event.newValue : 'system';
    applyThemePreference(current);
    for (const listener of listeners) listener();
  });
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current theme preference and its setter. */
export function useThemePreference(): [ThemePreference, (preference: ThemePreference) => void] {
  const preference = useSyncExternalStore(
    subscribe,
    () => current,
    () => current,
  );
  return [preference, setThemePreference];
}
