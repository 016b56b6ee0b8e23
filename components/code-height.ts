'use client';

/** How tall the code panel will be once drawn, before it is (its placeholder while off screen). */
import { useSyncExternalStore } from 'react';

/** A code line's height (12.5 px type at line-height 1.45) and a block's heading, explanation, padding and button, in px. */
const LINE_PX = 18.2;
const BLOCK_PX = 150;
/** The grid's narrowest column plus its gap, and the page's padding around it (app/globals.css .code-blocks). */
const COLUMN_PX = 454;
const PAGE_PX = 72;

/** Columns the code grid has at this window's width (one before hydration, as on a phone). */
export function useColumns(): number {
  return useSyncExternalStore(
    (changed) => {
      window.addEventListener('resize', changed);
      return () => window.removeEventListener('resize', changed);
    },
    () => Math.max(1, Math.floor((window.innerWidth - PAGE_PX) / COLUMN_PX)),
    () => 1,
  );
}

/**
 * About how tall the panel is once drawn: the placeholder height while it is off screen
 * (content-visibility), so the page ends where its code does instead of a fixed 2,400 px below.
 * Blocks fill the grid row by row; each row is as tall as its longest block.
 */
export function codeHeightPx(lineCounts: readonly number[], columns: number): number {
  let total = 60;
  for (let i = 0; i < lineCounts.length; i += columns) total += Math.max(...lineCounts.slice(i, i + columns).map((n) => n * LINE_PX + BLOCK_PX)) + 14;
  return Math.round(total);
}
