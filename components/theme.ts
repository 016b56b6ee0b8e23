/**
 * Light, dark, or the system's choice: kept in local storage, applied as html[data-theme] (the
 * stylesheet's light-dark() colours follow it). THEME_SCRIPT runs before the first paint so a page
 * never flashes the other theme.
 */
export type ThemeChoice = 'system' | 'light' | 'dark';

export const THEME_KEY = 'stream-lab.theme';

export const THEME_SCRIPT = `try{var t=localStorage.getItem('${THEME_KEY}');if(t==='light'||t==='dark')document.documentElement.dataset.theme=t}catch(e){}`;

export function readTheme(): ThemeChoice {
  try {
    const t = localStorage.getItem(THEME_KEY);
    return t === 'light' || t === 'dark' ? t : 'system';
  } catch {
    return 'system';
  }
}

export function applyTheme(choice: ThemeChoice): void {
  if (choice === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = choice;
  try {
    if (choice === 'system') localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, choice);
  } catch {
    // Storage refused: the choice holds for this page only.
  }
}
