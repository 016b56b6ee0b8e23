/**
 * Flag parsing for the bench CLI, for every lab: the flags are the lab's parameters in kebab case
 * with their unit (sizeMb → --size-mb), numbers for numbers ("off" where a parameter may be null),
 * bare switches for true/false ones. Every value is validated by the schema the server uses.
 */
import { z } from 'zod';
import { LAB_IDS, DEFAULT_LAB } from '../../labs/schemas';
import { findLab, findStrategy, findUserEntry, userStrategyEntries, type LABS } from '../../labs/registry';
import { NODE_SPEC_PATTERN } from '../../lib/runtimes';
import { codeProblemText, OUTCOMES, type Outcome } from '../../lib/protocol';
import { labFigures, parseCheck, readChecksFile, type Check } from './checks';
import { triggerFigureProblem } from '../../lib/heap/trigger';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export class UsageError extends Error {}

export interface BenchArgs {
  lab: string;
  strategies: string[];
  params: Record<string, unknown>;
  json: boolean;
  /** --expect id=outcome: an outcome other than the strategy's own expectation that counts as a pass. */
  expect: Record<string, Outcome>;
  /** --assert and --checks: what the summaries are held to (server/cli/checks.ts). */
  checks: Check[];
  /** --node 20,22,24: every strategy runs on each, in this order; [null] = the Node running the bench. */
  nodes: Array<string | null>;
  /** --repeat N: runs of each strategy (and Node), interleaved round by round. */
  repeat: number;
  /** --baseline old.json: an earlier --json output the runs are compared with (server/cli/baseline.ts). */
  baseline: string | null;
  /** --compare a,b: the figures compared with the baseline; null = every figure both sides measured. */
  compare: string[] | null;
  /** --tolerance P: a change smaller than P % of the baseline's median is no change (a share: 0.1). */
  tolerance: number;
  /** --junit out.xml, --markdown out.md: reports written at the end (server/cli/reports.ts). */
  junit: string | null;
  markdown: string | null;
  /** --files dir: each run's profiles and heap snapshots are written there (.cpuprofile, .heapprofile, .heapsnapshot). */
  files: string | null;
  /** --sweep concurrency=1,2,4: every strategy runs once per value of that numeric param (a lab without a sweep of its own). */
  sweep: { field: string; values: number[] } | null;
}

/** Most values one --sweep may take: each is a run of every strategy. */
export const MAX_SWEEP_VALUES = 20;

export const REPEAT_LIMITS = { min: 1, max: 100 };
// 25 %: a baseline taken on a quieter runner made the same code 26–34 % slower in 2 of 10 comparisons at 10 % (docs/results.md §16).
export const TOLERANCE_LIMITS = { min: 0, max: 1000, default: 25 };

type Lab = (typeof LABS)[number];
type Kind = { type: 'number'; nullable: boolean; min: number; max: number } | { type: 'switch' } | { type: 'text' };

/** sizeMb → --size-mb */
export function flagOf(field: string): string {
  return `--${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** The flags a lab's parameters give, in the schema's order. */
function labFlags(lab: Lab): Map<string, { field: string; kind: Kind }> {
  const flags = new Map<string, { field: string; kind: Kind }>();
  for (const [field, schema] of Object.entries(lab.schema.params.shape)) {
    // An optional param (profile, profileIntervalUs) is a flag like any other: leaving it out is its default.
    const present = schema instanceof z.ZodOptional ? (schema as z.ZodOptional<z.ZodType>).unwrap() : schema;
    const nullable = present instanceof z.ZodNullable;
    const inner = nullable ? (present as z.ZodNullable<z.ZodType>).unwrap() : present;
    if (inner instanceof z.ZodNumber)
      flags.set(flagOf(field), { field, kind: { type: 'number', nullable, min: inner.minValue ?? -Infinity, max: inner.maxValue ?? Infinity } });
    else if (inner instanceof z.ZodBoolean) flags.set(flagOf(field), { field, kind: { type: 'switch' } });
    // A common text param (heapSnapshot's trigger) or a named value (the streams lab's consumer): the schema checks it.
    else if (inner instanceof z.ZodString || inner instanceof z.ZodEnum) flags.set(flagOf(field), { field, kind: { type: 'text' } });
  }
  return flags;
}

/** Splits "--flag=value" and "--flag value"; `value()` takes the next argument when needed. */
function* flagsOf(argv: string[]): Generator<{ flag: string; inline: string | undefined; value: () => string }> {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const eq = arg.indexOf('=');
    const [flag, inline] = eq >= 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
    yield {
      flag,
      inline,
      value: () => {
        const v = inline ?? argv[++i];
        if (v === undefined || (inline === undefined && v.startsWith('--'))) throw new UsageError(`${flag} needs a value`);
        return v;
      },
    };
  }
}

/** The lab a command line is for: --lab, or the default lab (the streams lab, as before labs existed). */
function labOf(argv: string[]): Lab {
  let id: string = DEFAULT_LAB;
  for (const { flag, value } of flagsOf(argv)) if (flag === '--lab') id = value();
  const lab = findLab(id);
  if (!lab) throw new UsageError(`--lab: unknown lab "${id}"; allowed: ${LAB_IDS.join(', ')}`);
  return lab;
}

/** The lab id and the --strategy-file paths of a command line (read before the files are scanned). */
export function strategyFileArgs(argv: string[]): { lab: string; files: string[] } {
  const files: string[] = [];
  for (const { flag, value } of flagsOf(argv)) if (flag === '--strategy-file') files.push(value());
  return { lab: labOf(argv).schema.id, files };
}

/**
 * Parses bench flags; throws UsageError naming the flag and the allowed values. `fileIds`: the ids of
 * the --strategy-file strategies (scanned first): run alone, or beside those --strategies names.
 */
export function parseBenchArgs(argv: string[], defaults: Record<string, unknown> = {}, fileIds: readonly string[] = []): BenchArgs {
  const lab = labOf(argv);
  const labId = lab.schema.id;
  // Strategies of yours in the strategies folder that compiled and loaded run like built-ins.
  const ids = [
    ...lab.strategies.map((s) => s.id),
    ...userStrategyEntries(labId)
      .filter((e) => !e.problem)
      .map((e) => e.id),
  ];
  const flags = labFlags(lab);
  const raw: Record<string, unknown> = { ...lab.schema.defaults, ...defaults };
  let strategies = fileIds.length ? [...fileIds] : lab.strategies.map((s) => s.id);
  let json = false;
  let nodes: Array<string | null> = [null];
  const expectPairs: string[] = [];
  const checkTexts: string[] = [];
  let repeat = 1;
  let tolerance = TOLERANCE_LIMITS.default / 100;
  let baseline: string | null = null;
  let compare: string[] | null = null;
  let junit: string | null = null;
  let markdown: string | null = null;
  let files: string | null = null;
  let sweepText: string | null = null;
  for (const { flag, inline, value } of flagsOf(argv)) {
    const known = flags.get(flag);
    if ((flag === '--json' || known?.kind.type === 'switch') && inline !== undefined) {
      throw new UsageError(`${flag} takes no value (got "${inline}"); leave it out to turn it off`);
    }
    if (flag === '--lab' || flag === '--strategy-file') value();
    else if (flag === '--json') json = true;
    else if (flag === '--expect') expectPairs.push(...value().split(','));
    else if (flag === '--assert') checkTexts.push(value());
    else if (flag === '--checks') checkTexts.push(...checksFrom(value()));
    else if (flag === '--node') nodes = parseNodes(value());
    else if (flag === '--repeat') repeat = integerFlag(flag, value(), REPEAT_LIMITS);
    else if (flag === '--tolerance') tolerance = numberFlag(flag, value(), TOLERANCE_LIMITS) / 100;
    else if (flag === '--baseline') baseline = pathFlag(flag, value(), true);
    else if (flag === '--compare') compare = parseFigureList(value(), labId);
    else if (flag === '--junit') junit = pathFlag(flag, value(), false);
    else if (flag === '--markdown') markdown = pathFlag(flag, value(), false);
    else if (flag === '--files') files = dirFlag(flag, value());
    // The hot-code lab's --sweep is its own switch (a param); elsewhere it sweeps a param's values.
    else if (flag === '--sweep' && !known) sweepText = value();
    else if (flag === '--strategies') {
      const v = value();
      strategies =
        v === 'all'
          ? [...ids]
          : v
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean);
      const broken = strategies.map((id) => (findStrategy(labId, id) ? null : findUserEntry(labId, id)?.problem)).find(Boolean);
      if (broken) throw new UsageError(`--strategies: ${codeProblemText(broken)}`);
      const unknown = strategies.filter((s) => !ids.includes(s));
      if (unknown.length || strategies.length === 0) {
        throw new UsageError(`--strategies: unknown strategy "${unknown.join(',')}"; allowed: all or a comma-separated list of ${ids.join(', ')}`);
      }
      strategies = [...new Set([...strategies, ...fileIds])];
    } else if (known?.kind.type === 'switch') raw[known.field] = true;
    else if (known?.kind.type === 'text') raw[known.field] = value();
    else if (known?.kind.type === 'number') {
      const { nullable, min, max } = known.kind;
      const v = value();
      if (v === 'off' && nullable) raw[known.field] = null;
      else {
        const n = Number(v);
        if (v.trim() === '' || !Number.isFinite(n)) throw new UsageError(`${flag} must be a number (${min}–${max}${nullable ? ' or off' : ''}), got "${v}"`);
        raw[known.field] = n;
      }
    } else {
      throw new UsageError(
        `unknown flag ${flag}; allowed: --lab, --strategies, --strategy-file, --expect, --assert, --checks, --repeat, --baseline, --compare, --tolerance, --junit, --markdown, --files, ${flags.has('--sweep') ? '' : '--sweep, '}${[...flags.keys()].filter((f) => flags.get(f)!.kind.type !== 'switch').join(', ')}, ${[...flags.keys()].filter((f) => flags.get(f)!.kind.type === 'switch').join(', ')}, --node, --json`,
      );
    }
  }
  const parsed = lab.schema.params.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`${flagOf(String(issue.path[0]))}: ${issue.message}`);
  }
  const { heapSnapshot, sampleMs } = parsed.data as { heapSnapshot?: string; sampleMs: number | null };
  const figure = triggerFigureProblem(heapSnapshot, lab.schema.readings, 'heapSnapshot', sampleMs);
  if (figure) throw new UsageError(`--heap-snapshot: ${figure}`);
  try {
    lab.checkLimits(parsed.data);
  } catch (err) {
    // The schema allows up to the product's ceiling; this machine may be configured lower.
    const message = err instanceof Error ? err.message : String(err);
    const field = /^(\w+) must/.exec(message)?.[1];
    throw new UsageError(field ? `${flagOf(field)}: ${message}` : message);
  }
  return {
    lab: labId,
    strategies,
    params: parsed.data,
    json,
    nodes,
    expect: parseExpect(expectPairs, strategies),
    checks: parseChecks(checkTexts, labId, strategies),
    repeat,
    baseline,
    compare,
    tolerance,
    junit,
    markdown,
    files,
    sweep: sweepText === null ? null : sweepWith(parseSweep(sweepText, flags, parsed.data, lab), repeat, baseline),
  };
}

/** Repeats and baselines sum a strategy's runs up by strategy: a sweep's values would be mixed into one median. */
function sweepWith(sweep: { field: string; values: number[] }, repeat: number, baseline: string | null): { field: string; values: number[] } {
  if (repeat > 1 || baseline !== null)
    throw new UsageError(
      `--sweep can't go with ${repeat > 1 ? '--repeat' : '--baseline'}: their figures are summed up by strategy, and the swept values would be mixed`,
    );
  return sweep;
}

/** "concurrency=1,2,4,8": a numeric param of the lab and its values, each checked as the param itself would be. */
function parseSweep(text: string, flags: ReturnType<typeof labFlags>, params: Record<string, unknown>, lab: Lab): { field: string; values: number[] } {
  const numeric = [...flags.values()].filter((f) => f.kind.type === 'number').map((f) => f.field);
  const m = /^(\w+)=(.+)$/.exec(text.trim());
  if (!m || !numeric.includes(m[1])) {
    throw new UsageError(
      `--sweep must be <param>=<value>,<value>… with one of the ${lab.schema.id} lab's numeric params (${numeric.join(', ')}), got "${text}"`,
    );
  }
  const values = m[2].split(',').map((v) => v.trim());
  if (values.length > MAX_SWEEP_VALUES) throw new UsageError(`--sweep takes at most ${MAX_SWEEP_VALUES} values, got ${values.length}`);
  return {
    field: m[1],
    values: values.map((v) => {
      const checked = lab.schema.params.safeParse({ ...params, [m[1]]: v === '' ? NaN : Number(v) });
      if (!checked.success) throw new UsageError(`--sweep: ${m[1]}=${v}: ${checked.error.issues[0].message}`);
      return Number(v);
    }),
  };
}

/** --compare's figure names: each one of the lab's numeric figures (checks.ts), each once. */
function parseFigureList(v: string, labId: string): string[] {
  const names = labFigures(labId);
  const numeric = [...names].filter(([, f]) => f.unit !== 'outcome').map(([n]) => n);
  const list = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = list.filter((n) => !numeric.includes(n));
  if (list.length === 0 || unknown.length) {
    throw new UsageError(`--compare: unknown figure "${unknown.join(',')}"; the ${labId} lab's figures: ${numeric.join(', ')}`);
  }
  return [...new Set(list)];
}

function numberFlag(flag: string, v: string, { min, max }: { min: number; max: number }): number {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n < min || n > max) throw new UsageError(`${flag} must be a number from ${min} to ${max}, got "${v}"`);
  return n;
}

function integerFlag(flag: string, v: string, limits: { min: number; max: number }): number {
  const n = numberFlag(flag, v, limits);
  if (!Number.isInteger(n)) throw new UsageError(`${flag} must be a whole number from ${limits.min} to ${limits.max}, got "${v}"`);
  return n;
}

/** A file the bench reads (must exist) or writes (its folder must exist), checked before any run starts. */
/** A folder to write into: made if missing, refused when a file is in the way. */
function dirFlag(flag: string, v: string): string {
  if (existsSync(v) && !statSync(v).isDirectory()) throw new UsageError(`${flag}: "${v}" is a file, not a folder`);
  if (!existsSync(dirname(resolve(v)))) throw new UsageError(`${flag}: no folder for "${v}"`);
  return v;
}

function pathFlag(flag: string, v: string, reads: boolean): string {
  if (reads ? !existsSync(v) : !existsSync(dirname(resolve(v)))) throw new UsageError(`${flag}: ${reads ? `no such file "${v}"` : `no folder for "${v}"`}`);
  return v;
}

/** --expect's "id=outcome" pairs, each naming a strategy of the run and an outcome. */
function parseExpect(pairs: readonly string[], strategies: readonly string[]): Record<string, Outcome> {
  const expected: Record<string, Outcome> = {};
  for (const pair of pairs.map((p) => p.trim()).filter(Boolean)) {
    const [id, outcome] = pair.split('=');
    if (!id || !strategies.includes(id)) throw new UsageError(`--expect: "${pair}" must name a strategy of this run (${strategies.join(', ')}), as id=outcome`);
    if (!(OUTCOMES as readonly string[]).includes(outcome)) throw new UsageError(`--expect: "${pair}": the outcome must be one of ${OUTCOMES.join(', ')}`);
    expected[id] = outcome as Outcome;
  }
  return expected;
}

/** The checks, parsed against the lab's figures and this run's strategies (checks.ts). */
function parseChecks(texts: readonly string[], labId: string, strategies: readonly string[]): Check[] {
  return texts.map((t) => {
    try {
      return parseCheck(t, labId, strategies);
    } catch (err) {
      throw new UsageError(`--assert: ${(err as Error).message}`);
    }
  });
}

/** A --checks file's checks; a missing or malformed file is a usage error naming it. */
function checksFrom(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UsageError(`--checks: can't read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  try {
    return readChecksFile(text, path);
  } catch (err) {
    throw new UsageError(`--checks: ${(err as Error).message}`);
  }
}

/** "20,22,24" → ["20", "22", "24"]; each a version of digits and dots, each once. */
function parseNodes(v: string): string[] {
  const specs = v.split(',').map((s) => s.trim());
  const bad = specs.find((s) => !NODE_SPEC_PATTERN.test(s));
  if (bad !== undefined)
    throw new UsageError(
      `--node must be a Node version or a comma-separated list of them, such as 22 or 20,22,24 (digits and dots), got "${bad.slice(0, 40)}"`,
    );
  if (new Set(specs).size !== specs.length) throw new UsageError('--node: each version may appear once');
  return specs;
}
