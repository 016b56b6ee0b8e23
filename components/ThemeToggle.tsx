'use client';

/** Light / dark / the system's choice, in every page's header. */
import { useSyncExternalStore } from 'react';
import { applyTheme, readTheme, type ThemeChoice } from '@/components/theme';

const listeners = new Set<() => void>();
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

export function ThemeToggle() {
  const choice = useSyncExternalStore(subscribe, readTheme, () => 'system' as ThemeChoice);
  return (
    <label className="theme-toggle">
      <span className="visually-hidden">Colour theme</span>
      <select
        data-testid="theme-toggle"
        value={choice}
        onChange={(e) => {
          applyTheme(e.target.value as ThemeChoice);
          for (const l of listeners) l();
        }}
      >
        <option value="system">Theme: system</option>
        <option value="light">Theme: light</option>
        <option value="dark">Theme: dark</option>
      </select>
    </label>
  );
}
