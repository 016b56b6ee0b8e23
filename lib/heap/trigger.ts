/**
 * When a run's heap snapshot is taken (`--heap-snapshot` on the CLI, the form's "Heap snapshot"
 * field, `heapSnapshot` in params): `at=<s>` seconds after the strategy started (the runner's
 * timer, server/runner/heap-watch.ts), or `when=<figure>><value>` the first time a sample's figure
 * passes the value, e.g. `when=arrayBuffers>32MB` (`rss` also the runner's /proc readings).
 * Browser-safe: the form, the server and the CLI parse with this one.
 */

export type SnapshotTrigger = { kind: 'at'; seconds: number } | { kind: 'when'; figure: string; above: number };

/** The sample figures a `when=` trigger may name: memory first, then any of a lab's numeric readings. */
export const MEMORY_TRIGGER_FIGURES = ['rss', 'heapTotal', 'heapUsed', 'external', 'arrayBuffers'] as const;

const UNITS: Readonly<Record<string, number>> = { '': 1, b: 1, kb: 1024, mb: 1024 * 1024, gb: 1024 * 1024 * 1024 };
/** The longest a run may last (COMMON_LIMITS.timeoutS.max): a later `at=` could never happen. */
const MAX_AT_S = 3600;

export const TRIGGER_HELP = 'at=<seconds> (0–3600) or when=<figure>><value>, e.g. when=arrayBuffers>32MB';

/** Parses a trigger, or throws an Error whose message names the field and what is allowed. */
export function parseSnapshotTrigger(spec: string, field = 'heapSnapshot'): SnapshotTrigger {
  const text = spec.trim();
  const at = /^at=(\d+(?:\.\d+)?)s?$/i.exec(text);
  if (at) {
    const seconds = Number(at[1]);
    if (seconds > MAX_AT_S) throw new Error(`${field}: at= must be between 0 and ${MAX_AT_S} seconds, got ${at[1]}`);
    return { kind: 'at', seconds };
  }
  const when = /^when=([A-Za-z][A-Za-z0-9]*)>(\d+(?:\.\d+)?)\s*([KMG]?B)?$/i.exec(text);
  if (when) {
    const [, figure, value, unit = ''] = when;
    return { kind: 'when', figure, above: Number(value) * UNITS[unit.toLowerCase()] };
  }
  throw new Error(`${field} must be ${TRIGGER_HELP}; got "${spec.slice(0, 60)}"`);
}

/** Every lab's sample figures besides memory (lib/protocol/common.ts sampleSchema). */
const COMMON_TRIGGER_FIGURES = ['elMeanMs', 'elMaxMs', 'gcCount', 'gcMs', 'cpuPct', 'elu', 'longTaskMs'] as const;

/**
 * Why a run's trigger would never fire: a `when=` on a sample figure with the sampler off, or on a
 * figure its lab's samples never carry; null when it can. `readings`: the lab's own sample figures.
 */
export function triggerFigureProblem(spec: string | undefined, readings: readonly string[], field = 'heapSnapshot', sampleMs?: number | null): string | null {
  if (spec === undefined) return null;
  const trigger = parseSnapshotTrigger(spec, field);
  if (trigger.kind === 'at') return null; // timed by the runner, not by samples
  // when= is met by samples (rss also by the runner's /proc readings): with the sampler off no sample comes.
  if (sampleMs === null && trigger.figure !== 'rss') return `${field}: a when= trigger other than rss needs the sampler on (sampleMs); it is off`;
  const allowed = [...MEMORY_TRIGGER_FIGURES, ...COMMON_TRIGGER_FIGURES, ...readings];
  return allowed.includes(trigger.figure)
    ? null
    : `${field}: when= names "${trigger.figure}", which this lab's samples don't have; allowed: ${allowed.join(', ')}`;
}

/** True once a sample meets the trigger (`t` in ms since the strategy started). */
export function triggerMet(trigger: SnapshotTrigger, sample: Readonly<Record<string, number | undefined>> & { t: number }): boolean {
  if (trigger.kind === 'at') return sample.t >= trigger.seconds * 1000;
  const value = sample[trigger.figure];
  return typeof value === 'number' && value > trigger.above;
}

/** "at 2.5 s" or "when arrayBuffers > 32 MB": how the trigger reads beside its snapshot. */
export function describeTrigger(trigger: SnapshotTrigger): string {
  if (trigger.kind === 'at') return `at ${trigger.seconds} s`;
  const mb = trigger.above / (1024 * 1024);
  return `when ${trigger.figure} > ${mb >= 1 ? `${Math.round(mb * 10) / 10} MB` : trigger.above}`;
}
