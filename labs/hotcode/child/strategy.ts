import type { StrategyBase } from '../../types';
import type { Report, SaleRow } from './rows';
import type { Role } from '../shared/roles';

/** One way to compute the report. Every file in strategies/ exports one. */
export interface Strategy extends StrategyBase {
  /** What it is there to show (shared/roles.ts): every strategy of this lab declares one. */
  role: Role;
  library: 'node';
  mode: null;
  /** The function a CPU profile should show on top (by self time) for this strategy, if one stands out. */
  hotFunction: string | null;
  /** Which part of the report it computes (the date ones count by day, the groupBy ones group by tax rate). */
  parts: { days: boolean; taxRates: boolean };
  expects: { outcome: 'completed'; growth: 'linear' | 'quadratic' };
  /**
   * Async like every lab's run, but its body is synchronous, like the write-up's endpoint: the event
   * loop is blocked until it returns.
   */
  run(rows: readonly SaleRow[]): Promise<Report>;
}
