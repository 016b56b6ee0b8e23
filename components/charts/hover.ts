/**
 * Where the pointer is over a chart, outside React state: the plot writes it on every mouse move,
 * only the small readout re-renders. `left` is in CSS px from the plot area's left edge.
 */
import { useSyncExternalStore } from 'react';

export interface Hover {
  /** ms since the run started. */
  t: number;
  left: number;
  /** Width of the plot area, to flip the readout to the other side past the middle. */
  width: number;
  /** Top of the y axis, raw units: the readout writes values in the axis's unit. */
  yMax: number;
}

export class HoverStore {
  private value: Hover | null = null;
  private readonly listeners = new Set<() => void>();

  set(next: Hover | null): void {
    if (next === null && this.value === null) return;
    this.value = next;
    for (const l of this.listeners) l();
  }

  get = (): Hover | null => this.value;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
}

const serverSnapshot = () => null;

/** The hovered point of a chart, re-rendering the caller when it moves. */
export function useHover(store: HoverStore): Hover | null {
  return useSyncExternalStore(store.subscribe, store.get, serverSnapshot);
}
