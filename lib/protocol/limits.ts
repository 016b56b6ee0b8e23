/**
 * The ranges of the parameters every lab's runs share, as plain values: zod-free, so a run's child
 * checks its config against the very numbers the form and the server use (lib/protocol/params.ts
 * builds the schemas on them).
 */

/** A numeric parameter's allowed range (and default, when it has one). */
export interface Limit {
  min: number;
  max: number;
  default?: number;
}

export const COMMON_LIMITS = {
  sampleMs: { min: 10, max: 1000, default: 50 },
  budgetMb: { min: 32, max: 16_384, default: 1024 },
  maxOldSpaceMb: { min: 16, max: 16_384 },
  timeoutS: { min: 1, max: 3600, default: 600 },
  /** V8's CPU profiler samples the stack every this many µs (1000 is Chrome DevTools' default). */
  profileIntervalUs: { min: 50, max: 100_000, default: 1000 },
  /** V8's sampling heap profiler records one allocation per this many KB on average (512: what flame and Watt use). */
  // At least 16 KB: with collected objects kept, every sample stays in the profile (1 GB allocated at 1 KB is a million samples, read every 3 s).
  heapIntervalKb: { min: 16, max: 65_536, default: 512 },
  strategies: { min: 1, max: 16 },
} as const satisfies Record<string, Limit>;
