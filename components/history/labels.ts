/** Small display helpers shared by the history and embed views. Pure. */
import type { RunParams } from '@/lib/params';
import type { StrategyInfo } from '@/lib/protocol';

/** "32 MB · 2 ms/chunk · 64 KB chunks": the parameters a reader needs to tell runs apart. */
export function paramsText(p: RunParams): string {
  const parts = [`${p.sizeMb} MB`, `${p.delayMs} ms/chunk`, `${p.chunkKb} KB chunks`];
  if (p.cpuUs > 0) parts.push(`${p.cpuUs} µs CPU`);
  if (p.retained) parts.push('retained');
  return parts.join(' · ');
}

/** Local date and time, e.g. "2025-03-01 14:03". */
export function formatDateTime(epochMs: number): string {
  const d = new Date(epochMs);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function strategyLabel(strategies: readonly StrategyInfo[], id: string): string {
  return strategies.find((s) => s.id === id)?.label ?? id;
}
