/** The limits a run is held to from outside its process: the memory budget and the watchdog. */
import { MIB } from '../../lib/protocol/params';

/** Why an RSS reading breaks the budget (null: within it, or no budget). Like a container's limit: no grace. */
export function budgetBreach(rss: number, budgetMb: number | null): string | null {
  if (budgetMb === null || rss <= budgetMb * MIB) return null;
  return `RSS ${(rss / MIB).toFixed(0)} MB passed the ${budgetMb} MB memory budget`;
}

/** Calls `onTimeout` once the run has had `timeoutS` seconds; returns the function that cancels it. */
export function startWatchdog(timeoutS: number, onTimeout: (reason: string) => void): () => void {
  const timer = setTimeout(() => onTimeout(`watchdog: no result after ${timeoutS} s`), timeoutS * 1000);
  return () => clearTimeout(timer);
}
