/**
 * Checks a CI job holds a bench run to (issue 28): `--assert "<strategy>: <figure> <op> <value><unit>"`,
 * e.g. `pipeline-generator: arrayBuffers.peak < 16MB`, `rxjs-from: outcome == out-of-memory`,
 * `ndjson-cursor: heapUsed.peak < 0.2 * buffered-json` (a share of another strategy's same figure).
 * Parsed once, against the lab's figure names, before anything runs; judged on the summaries.
 */
import { z } from 'zod';
import { MEMORY_FIELDS, OUTCOMES, type RunSummary } from '../../lib/protocol';
import { peakRssOf } from '../../lib/readouts/outcome-text';
import { requireLab } from '../../labs/registry';

const OPS = ['<=', '>=', '==', '!=', '<', '>'] as const;
type Op = (typeof OPS)[number];

/** Units a value may carry, in the figure's own unit (bytes; ms). MB is MiB, as everywhere in the lab. */
const BYTE_UNITS: Record<string, number> = { B: 1, KB: 1024, KiB: 1024, MB: 1024 ** 2, MiB: 1024 ** 2, GB: 1024 ** 3, GiB: 1024 ** 3 };
const MS_UNITS: Record<string, number> = { ms: 1, s: 1000 };

export interface Check {
  /** As written. */
  text: string;
  strategy: string;
  figure: string;
  op: Op;
  /** A number in the figure's unit, an outcome name, or a share of another strategy's same figure. */
  limit: { kind: 'number'; value: number } | { kind: 'outcome'; value: string } | { kind: 'relative'; factor: number; strategy: string };
}

export interface CheckResult {
  check: string;
  strategy: string;
  figure: string;
  ok: boolean;
  /** The figure as measured (a number in its unit, or the outcome), null when the run has none. */
  measured: number | string | null;
  /** The limit it was held to, in the figure's unit (a relative one worked out). */
  limit: number | string | null;
  message: string;
}

/** What each figure of a summary is, by name: how to read it and its unit. */
export interface Figure {
  unit: 'bytes' | 'ms' | 'count' | 'outcome';
  read(s: RunSummary): number | string | null;
}

/** The figures a check may name for a lab: the outcome, time, memory, event loop, CPU, and the lab's own numeric figures. */
export function labFigures(labId: string): Map<string, Figure> {
  const figures = new Map<string, Figure>([
    ['outcome', { unit: 'outcome', read: (s) => s.outcome }],
    ['durationMs', { unit: 'ms', read: (s) => s.durationMs }],
  ]);
  for (const f of MEMORY_FIELDS) {
    // rss.peak is the card's: the higher of the child's samples and /proc's readings.
    figures.set(`${f}.peak`, { unit: 'bytes', read: (s) => (f === 'rss' ? peakRssOf(s) : (s.peak?.[f] ?? null)) });
    figures.set(`${f}.aboveIdle`, { unit: 'bytes', read: (s) => s.aboveIdle?.[f] ?? null });
  }
  for (const k of ['p50', 'p99', 'max'] as const) figures.set(`eventLoopDelay.${k}`, { unit: 'ms', read: (s) => s.eventLoopDelayMs[k] });
  figures.set('cpu.totalMs', { unit: 'ms', read: (s) => (s.cpu ? s.cpu.userMs + s.cpu.systemMs : null) });
  figures.set('gc.totalMs', { unit: 'ms', read: (s) => s.gc.totalMs });
  for (const [name, schema] of Object.entries(requireLab(labId).schema.figures)) {
    // A rate is null where it was not measured (a run that never started): still a figure to hold a run to.
    const inner = schema instanceof z.ZodNullable ? schema.unwrap() : schema;
    if (!(inner instanceof z.ZodNumber)) continue;
    // By name: bytesRead, peakWritableBytes, peakTreeRss are bytes; latencyP50Ms, reportMsMin are ms.
    const unit = /bytes|Bytes|Rss$/.test(name) ? 'bytes' : /Ms(?=[A-Z]|$)/.test(name) ? 'ms' : 'count';
    figures.set(name, { unit, read: (s) => ((s as unknown as Record<string, unknown>)[name] as number | undefined) ?? null });
  }
  return figures;
}

/** A number with an optional unit, in the figure's unit; throws naming what is wrong. */
function amount(raw: string, unit: Figure['unit'], where: string): number {
  const m = /^(-?\d+(?:\.\d+)?)\s*([A-Za-z]*)$/.exec(raw);
  if (!m) throw new RangeError(`${where}: "${raw}" is not a number with an optional unit`);
  const [, n, u] = m;
  if (!u) return Number(n);
  const table = unit === 'bytes' ? BYTE_UNITS : unit === 'ms' ? MS_UNITS : null;
  if (!table?.[u]) {
    const allowed = table ? Object.keys(table).join(', ') : 'none (a plain number)';
    throw new RangeError(`${where}: unit "${u}" does not fit this figure; allowed: ${allowed}`);
  }
  return Number(n) * table[u];
}

/** Parses one check against the lab's figures and the strategies that run; throws a RangeError naming what is wrong. */
export function parseCheck(text: string, labId: string, strategies: readonly string[]): Check {
  const m = /^\s*([A-Za-z0-9-]+)\s*:\s*([A-Za-z][\w.]*)\s*(<=|>=|==|!=|<|>)\s*(.+?)\s*$/.exec(text);
  if (!m) throw new RangeError(`"${text}" is not "<strategy>: <figure> <op> <value><unit>" (ops: ${OPS.join(' ')})`);
  const [, strategy, figure, op, rest] = m as unknown as [string, string, string, Op, string];
  if (!strategies.includes(strategy)) throw new RangeError(`"${text}": ${strategy} is not one of the strategies this run has (${strategies.join(', ')})`);
  const figures = labFigures(labId);
  const f = figures.get(figure);
  if (!f) throw new RangeError(`"${text}": unknown figure "${figure}"; the ${labId} lab's figures: ${[...figures.keys()].join(', ')}`);
  if (f.unit === 'outcome') {
    if (op !== '==' && op !== '!=') throw new RangeError(`"${text}": an outcome is compared with == or != only`);
    if (!(OUTCOMES as readonly string[]).includes(rest)) throw new RangeError(`"${text}": outcome must be one of ${OUTCOMES.join(', ')}`);
    return { text, strategy, figure, op, limit: { kind: 'outcome', value: rest } };
  }
  const rel = /^(\d+(?:\.\d+)?)\s*\*\s*([A-Za-z0-9-]+)$/.exec(rest);
  if (rel) {
    if (!strategies.includes(rel[2])) throw new RangeError(`"${text}": ${rel[2]} is not one of the strategies this run has (${strategies.join(', ')})`);
    return { text, strategy, figure, op, limit: { kind: 'relative', factor: Number(rel[1]), strategy: rel[2] } };
  }
  return { text, strategy, figure, op, limit: { kind: 'number', value: amount(rest, f.unit, `"${text}"`) } };
}

/** "17.2 MB", "830 ms", "3": a figure as a person reads it. */
export function shown(value: number | string | null, unit: Figure['unit']): string {
  if (value === null) return 'not measured';
  if (typeof value === 'string') return value;
  if (unit === 'bytes') return `${(value / 1024 ** 2).toFixed(1)} MB (${Math.round(value)} bytes)`;
  if (unit === 'ms') return `${value.toFixed(1)} ms`;
  return String(Math.round(value * 1000) / 1000);
}

function holds(measured: number | string, op: Op, limit: number | string): boolean {
  switch (op) {
    case '<':
      return measured < limit;
    case '<=':
      return measured <= limit;
    case '>':
      return measured > limit;
    case '>=':
      return measured >= limit;
    case '==':
      return measured === limit;
    case '!=':
      return measured !== limit;
    default: {
      const never: never = op;
      return never;
    }
  }
}

/** Judges a check on a run's summaries (the first of its strategy, per Node, judged each). */
export function judgeCheck(check: Check, labId: string, summaries: readonly RunSummary[]): CheckResult[] {
  const f = labFigures(labId).get(check.figure)!;
  const runs = summaries.filter((s) => s.strategy === check.strategy);
  return runs.map((s) => {
    const measured = f.read(s);
    const other =
      check.limit.kind === 'relative'
        ? summaries.find((o) => o.strategy === (check.limit as { strategy: string }).strategy && o.nodeVersion === s.nodeVersion)
        : undefined;
    const base = other ? f.read(other) : null;
    const limit = check.limit.kind === 'relative' ? (typeof base === 'number' ? check.limit.factor * base : null) : check.limit.value;
    const ok = measured !== null && limit !== null && holds(measured, check.op, limit);
    const limitText =
      check.limit.kind === 'relative'
        ? `${check.limit.factor} × ${check.limit.strategy}'s ${shown(base, f.unit)} = ${shown(limit, f.unit)}`
        : shown(limit, f.unit);
    const message = `${check.strategy}: ${check.figure} ${check.op} ${limitText}: ${ok ? 'held' : 'FAILED'}, measured ${shown(measured, f.unit)}${runs.length > 1 ? ` (Node ${s.nodeVersion})` : ''}`;
    return { check: check.text, strategy: check.strategy, figure: check.figure, ok, measured, limit, message };
  });
}

/** A checks file: a JSON array of check strings, or { "checks": [...] }; throws naming the file and what is wrong. */
export function readChecksFile(text: string, path: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new RangeError(`${path}: not JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  const list = Array.isArray(value) ? value : value && typeof value === 'object' ? (value as { checks?: unknown }).checks : undefined;
  if (!Array.isArray(list) || !list.every((c) => typeof c === 'string')) {
    throw new RangeError(`${path}: must be a JSON array of checks ("<strategy>: <figure> <op> <value><unit>"), or an object with such an array as "checks"`);
  }
  return list;
}
