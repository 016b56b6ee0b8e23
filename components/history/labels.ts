/** Small display helpers shared by the history and embed views. Pure. */
import type { StrategyInfo } from '@/lib/protocol';

/** Local date and time, e.g. "2025-03-01 14:03". */
export function formatDateTime(epochMs: number): string {
  const d = new Date(epochMs);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function strategyLabel(strategies: readonly StrategyInfo[], id: string): string {
  return strategies.find((s) => s.id === id)?.label ?? id;
}
