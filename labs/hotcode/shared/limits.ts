/**
 * The hotcode lab's knobs' ranges as plain values: zod-free, so its child checks its config against
 * the same numbers the form, the CLI and the server validate with (params.ts builds the schema on them).
 */
import type { Limit } from '../../../lib/protocol/limits';

export const HOTCODE_LIMITS = {
  /** Rows per report (and the sweep's largest step). 2e4 rows: the spread groupBy alone takes ~2 s here (docs/results.md §11). */
  rows: { min: 1000, max: 1_000_000, default: 20_000 },
  /** Reports the load asks for, one after another. */
  requests: { min: 1, max: 100, default: 3 },
  /** A GET /health every this many ms while the run lasts (0 = none): what a frozen server makes it wait. */
  probeMs: { min: 0, max: 1000, default: 100 },
} as const satisfies Record<string, Limit>;
