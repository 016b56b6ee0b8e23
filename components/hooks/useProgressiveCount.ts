'use client';

/**
 * How many of `total` items to render now: a few more each animation frame until all are there,
 * starting over when `key` changes (a new experiment). Mounting twelve run cards at once was one
 * main-thread task of 145–208 ms (docs/results.md §7); two per frame keeps each task short while
 * the page still fills within a few frames.
 */
import { useEffect, useState } from 'react';

export function useProgressiveCount(total: number, key: string | null, perFrame = 2): number {
  const [progress, setProgress] = useState({ key, shown: perFrame });
  const shown = progress.key === key ? progress.shown : perFrame;
  useEffect(() => {
    if (shown >= total) return;
    // The state changes in the frame callback, not in the effect itself.
    const frame = requestAnimationFrame(() => setProgress({ key, shown: shown + perFrame }));
    return () => cancelAnimationFrame(frame);
  }, [shown, total, key, perFrame]);
  return Math.min(shown, total);
}
