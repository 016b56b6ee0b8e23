/** Small display helpers shared by the history and embed views. Pure. */
import type { StrategyInfo } from '@/lib/protocol';

/** Local date and time, e.g. "2025-03-01 14:03". */
export function formatDateTime(epochMs: number): string {
  const d = new Date(epochMs);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The catalog's entry for a lab's strategy. By lab and id: ids repeat across labs (cpu and deadline both have worker-pool). */
export function strategyInfo(strategies: readonly StrategyInfo[], lab: string, id: string): StrategyInfo | undefined {
  return strategies.find((s) => s.lab === lab && s.id === id);
}

/** A lab's strategy's label, or its id when the catalog lacks it. */
export function strategyLabel(strategies: readonly StrategyInfo[], lab: string, id: string): string {
  return strategyInfo(strategies, lab, id)?.label ?? id;
}
