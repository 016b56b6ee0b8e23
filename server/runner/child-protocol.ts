/**
 * Messages between the runner (parent) and one run's child process, over IPC with advanced
 * serialization. The parent validates what it receives (isChildMessage) before trusting it.
 */
import type { Memory, Sample } from '../../lib/protocol';

/** Passed to the child as its single argv argument (JSON). */
export interface ChildConfig {
  strategyModule: string;
  filePath: string;
  fileBytes: number;
  highWaterMark: number;
  delayMs: number;
  cpuUs: number;
  /** null: sampler off, only the final reading is sent. */
  sampleMs: number | null;
  retained: boolean;
}

export type ChildMessage =
  | { type: 'ready'; idle: Memory; at: number }
  | { type: 'sample'; sample: Sample }
  | { type: 'done'; final: Sample; elP50Ms: number; elP99Ms: number; elMaxMs: number; peakInFlight: number }
  | { type: 'error'; message: string };

const TYPES = new Set(['ready', 'sample', 'done', 'error']);

/** Shape check for messages arriving from a child: a malformed one is ignored, never trusted. */
export function isChildMessage(value: unknown): value is ChildMessage {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  if (typeof m.type !== 'string' || !TYPES.has(m.type)) return false;
  switch (m.type) {
    case 'ready':
      return typeof m.idle === 'object' && m.idle !== null;
    case 'sample':
      return typeof m.sample === 'object' && m.sample !== null;
    case 'done':
      return typeof m.final === 'object' && m.final !== null;
    case 'error':
      return typeof m.message === 'string';
    default:
      return false;
  }
}
