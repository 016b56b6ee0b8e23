/**
 * Strategies of yours: files in the operator's strategies folder (STREAM_LAB_STRATEGIES_DIR,
 * default strategies/ in the folder the server starts from; one sub-folder per lab id) or given to
 * the CLI with --strategy-file. Each is compiled to a bundle (compile.ts), loaded once in a fenced
 * process to read what it declares (probe.ts), checked like a built-in, and handed to the lab
 * registry, where it runs like a built-in: from its bundle, fenced (fence.ts). A file that fails
 * is listed with its problem and refused at Start; the others are unaffected.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, resolve } from 'node:path';
import { STRATEGY_ID_PATTERN, type CodeProblem } from '../../lib/protocol';
import { roleProblem } from '../../labs/load-strategies';
import { LABS, requireLab, setUserStrategies, userStrategyEntries, type UserStrategyEntry } from '../../labs/registry';
import type { StrategyBase } from '../../labs/types';
import { compileStrategy, inputsSignature } from './compile';
import { compareVersions } from '../../lib/runtimes';
import { probeBundle } from './probe';
import { packageReads } from './run-fence';

/** The file kinds a strategy of yours may be. */
export const USER_EXTENSIONS = ['.ts', '.mts', '.js', '.mjs'] as const;
/** The oldest Node a strategy of yours runs on (the project's own minimum, where the fence's flags were checked). */
const FENCE_MIN_NODE = '20.19';
/** Longest declared texts (characters). */
const FIELD_MAX = { label: 120, explanation: 2000, library: 214, role: 64, minNode: 20 } as const;
/** A source bigger than this is refused unread (a strategy is a page or two of code). */
const MAX_SOURCE_BYTES = 256 * 1024;

/** The operator's strategies folder (absolute). */
export function userStrategiesDir(env: Record<string, string | undefined> = process.env): string {
  return resolve(env.STREAM_LAB_STRATEGIES_DIR || 'strategies');
}

interface Scanned {
  entry: UserStrategyEntry;
  /** What the file was when read: a change of either re-reads it. */
  mtimeMs: number;
  size: number;
  /** The other files of yours it imports and their sizes and mtimes when compiled (inputsSignature). */
  inputs: string[];
  signature: string;
}

/** Per file (absolute path): the last scan's result. */
const scanned = new Map<string, Scanned>();
/** Files given with --strategy-file, per lab: scanned like the folder's, wherever they are. */
const extraFiles = new Map<string, Set<string>>();

/** The strategy files of one lab's sub-folder (absolute, sorted), or none when it does not exist. */
function folderFiles(dir: string, labId: string): string[] {
  const sub = join(dir, labId);
  let names: string[];
  try {
    names = readdirSync(sub);
  } catch {
    return [];
  }
  return names
    .filter(
      // A name starting with _ is a helper the strategies import (listed as a strategy it would be refused).
      (n) => (USER_EXTENSIONS as readonly string[]).includes(extname(n)) && !n.startsWith('_') && !n.endsWith('.d.ts') && !/\.test\.[mc]?[jt]s$/.test(n),
    )
    .sort()
    .map((n) => join(sub, n));
}

/** A file as messages and the page name it: relative to the folder the server started in, when inside it. */
function shownPath(abs: string): string {
  const rel = relative(process.cwd(), abs);
  return rel.startsWith('..') ? abs : rel;
}

/** The id a file stands for until it declares one (its name, made a strategy id). */
function fileId(abs: string): string {
  const base = abs
    .split('/')
    .at(-1)!
    .replace(/\.[^.]+$/, '');
  return (base.replace(/[^A-Za-z0-9-]+/g, '-').replace(/^-+/, '') || 'file').slice(0, 64);
}

const problemAt = (file: string, message: string, line: number | null = null, column: number | null = null): CodeProblem => ({ file, line, column, message });

/** A declared field of the expected type, else the fallback. */
function field<T>(fields: Record<string, unknown>, key: string, ok: (v: unknown) => boolean, fallback: T): T {
  return ok(fields[key]) ? (fields[key] as T) : fallback;
}

/** The declared fields as a StrategyBase (defaults for what a file of yours may leave out), or the first problem with them. */
function strategyOf(labId: string, fields: Record<string, unknown>, file: string): StrategyBase | string {
  const lab = requireLab(labId);
  const id = fields.id;
  if (typeof id !== 'string' || !STRATEGY_ID_PATTERN.test(id)) return `strategy.id must be letters, digits and dashes (at most 64), got ${JSON.stringify(id)}`;
  if (lab.strategies.some((s) => s.id === id)) return `strategy.id "${id}" is a built-in strategy's id; give yours another`;
  const mode = fields.mode ?? null;
  if (mode !== null && mode !== 'push' && mode !== 'pull') return `strategy.mode must be 'push' or 'pull' (or left out), got ${JSON.stringify(mode)}`;
  const str = (v: unknown) => typeof v === 'string';
  // Every page gets these in every catalog: a few lines each, at most.
  const long = (['label', 'explanation', 'library', 'role', 'minNode'] as const).find(
    (k) => typeof fields[k] === 'string' && (fields[k] as string).length > FIELD_MAX[k],
  );
  if (long) return `strategy.${long} may have at most ${FIELD_MAX[long]} characters`;
  const strategy: StrategyBase = {
    id,
    label: field(fields, 'label', str, id),
    library: field(fields, 'library', (v) => str(v) && /^(@[a-z0-9-._~]+\/)?[a-z0-9-._~]+$/.test(v as string), 'node'),
    order: field(fields, 'order', (v) => typeof v === 'number' && Number.isFinite(v), 1000),
    mode,
    keepsResults: field(fields, 'keepsResults', (v) => typeof v === 'boolean', false),
    ...(str(fields.role) && { role: fields.role as string }),
    // Measured against what the lab's built-ins of the same role are measured against, unless it says.
    comparedWith: field(fields, 'comparedWith', (v) => Array.isArray(v) && v.every(str), [
      ...(lab.strategies.find((b) => str(fields.role) && b.role === fields.role)?.comparedWith ?? []),
    ]),
    explanation: field(fields, 'explanation', str, `Your strategy, from ${file}.`),
    article: null,
    // The fence's flags (several --allow-fs-read, --disable-warning) need a recent Node 20 at least.
    minNode: str(fields.minNode) && compareVersions(fields.minNode as string, FENCE_MIN_NODE) > 0 ? (fields.minNode as string) : FENCE_MIN_NODE,
    expects: { outcome: 'completed' },
  };
  return lab.checkUserStrategy?.(strategy, fields) ?? roleProblem(strategy, 'strategy', lab.schema.roles ?? null) ?? unknownComparisons(labId, strategy);
}

/** comparedWith may name the lab's built-ins only (yours come and go). */
function unknownComparisons(labId: string, s: StrategyBase): StrategyBase | string {
  const lab = requireLab(labId);
  const unknown = (s.comparedWith ?? []).filter((id) => !lab.strategies.some((b) => b.id === id));
  return unknown.length ? `strategy.comparedWith names no built-in strategy of this lab: ${unknown.join(', ')}` : s;
}

/** What reading one file gave: its entry, the files it imports, and whether to try again at the next look. */
interface Read {
  entry: UserStrategyEntry;
  inputs: string[];
  transient: boolean;
}

/** Reads, compiles and probes one file into an entry (its problem, if any, inside); never throws. */
async function readEntry(labId: string, abs: string, size: number): Promise<Read> {
  const file = shownPath(abs);
  const base = { lab: labId, id: fileId(abs), file, source: '', bundle: null, strategy: null };
  const done = (entry: UserStrategyEntry, inputs: string[] = [], transient = false): Read => ({ entry, inputs, transient });
  try {
    const refused = requireLab(labId).refusesUserStrategies;
    if (refused) return done({ ...base, problem: problemAt(file, refused) });
    if (size > MAX_SOURCE_BYTES)
      return done({ ...base, problem: problemAt(file, `the file is ${size} bytes; a strategy file may have at most ${MAX_SOURCE_BYTES}`) });
    const source = readFileSync(abs, 'utf8');
    const compiled = await compileStrategy(abs, file, { externalPackages: packageReads(labId).length > 0 });
    if (!compiled.ok) return done({ ...base, source, problem: compiled.problem }, [], true);
    const entry = await probedEntry(labId, base, source, compiled.hash, compiled.probePath);
    return done(entry.entry, compiled.inputs, entry.transient);
  } catch (err) {
    // Unreadable (a folder named like a file, no permission): listed with why, tried again next time.
    return done({ ...base, problem: problemAt(file, `could not read it: ${err instanceof Error ? err.message : String(err)}`) }, [], true);
  }
}

/** The compiled bundle's strategy, as its fenced probe found it and strategyOf checked it. */
async function probedEntry(
  labId: string,
  base: Omit<UserStrategyEntry, 'problem'>,
  source: string,
  hash: string,
  probePath: string,
): Promise<{ entry: UserStrategyEntry; transient: boolean }> {
  const { file } = base;
  const probed = await probeBundle(probePath, packageReads(labId));
  if (!probed.ok)
    return {
      entry: { ...base, source, bundle: hash, problem: problemAt(file, probed.message, probed.line, probed.column) },
      transient: probed.transient === true,
    };
  const entry = (e: UserStrategyEntry) => ({ entry: e, transient: false });
  if (!probed.hasRun) return entry({ ...base, source, bundle: hash, problem: problemAt(file, 'strategy.run must be a function') });
  const strategy = strategyOf(labId, probed.fields, file);
  if (typeof strategy === 'string') return entry({ ...base, source, bundle: hash, problem: problemAt(file, strategy) });
  return entry({ ...base, id: strategy.id, source, bundle: hash, strategy, problem: null });
}

/**
 * Two files declaring one id: the later (by path) is refused, naming the first. Then every entry
 * has an id of its own in the lab, built-ins included: one that can't run is listed under its
 * file's name (made unique with -2, -3…), so the page never shows two entries under one id.
 */
function uniqueEntries(labId: string, entries: UserStrategyEntry[]): UserStrategyEntry[] {
  const first = new Map<string, string>();
  const checked = entries.map((e) => {
    if (e.problem) return e;
    const owner = first.get(e.id);
    if (owner === undefined) {
      first.set(e.id, e.file);
      return e;
    }
    return { ...e, id: fileId(e.file), strategy: null, problem: problemAt(e.file, `strategy.id "${e.id}" is already used by ${owner}`) };
  });
  const taken = new Set([...requireLab(labId).strategies.map((s) => s.id), ...first.keys()]);
  return checked.map((e) => {
    if (!e.problem) return e;
    let id = e.id;
    for (let n = 2; taken.has(id); n++) id = `${e.id.slice(0, 60)}-${n}`;
    taken.add(id);
    return { ...e, id };
  });
}

let scanning: Promise<boolean> | null = null;
let again: Promise<boolean> | null = null;

/**
 * Reads the strategies folder (and any --strategy-file) again: files new or changed since the last
 * scan are compiled and probed, the others kept. Resolves true when what the labs list changed.
 * Called while a scan runs, it scans once more after it (that scan may have listed the folder
 * before the caller's file was written); callers meanwhile share that one.
 */
export function scanUserStrategies(dir: string = userStrategiesDir()): Promise<boolean> {
  if (!scanning) {
    scanning = scanOnce(dir).finally(() => (scanning = null));
    return scanning;
  }
  again ??= scanning.then(
    () => ((again = null), scanUserStrategies(dir)),
    () => ((again = null), scanUserStrategies(dir)),
  );
  return again;
}

async function scanOnce(dir: string): Promise<boolean> {
  const before = JSON.stringify(userStrategyEntries());
  const seen = new Set<string>();
  for (const lab of LABS) {
    const labId = lab.schema.id;
    // A --strategy-file inside the folder is read once.
    const files = [...new Set([...folderFiles(dir, labId), ...(extraFiles.get(labId) ?? [])])];
    const entries: UserStrategyEntry[] = [];
    for (const abs of files) {
      seen.add(abs);
      let stat;
      try {
        stat = statSync(abs);
      } catch {
        continue; // removed between the listing and now: the next scan forgets it
      }
      const last = scanned.get(abs);
      if (last && last.mtimeMs === stat.mtimeMs && last.size === stat.size && last.entry.lab === labId && inputsSignature(last.inputs) === last.signature) {
        entries.push(last.entry);
        continue;
      }
      const read = await readEntry(labId, abs, stat.size);
      // A file that failed for a passing reason (a slow probe, a file half written) is read again next time.
      if (read.transient) scanned.delete(abs);
      else scanned.set(abs, { entry: read.entry, mtimeMs: stat.mtimeMs, size: stat.size, inputs: read.inputs, signature: inputsSignature(read.inputs) });
      entries.push(read.entry);
    }
    setUserStrategies(labId, uniqueEntries(labId, entries));
  }
  for (const abs of scanned.keys()) if (!seen.has(abs)) scanned.delete(abs);
  return JSON.stringify(userStrategyEntries()) !== before;
}

/** Adds files from anywhere to a lab's strategies of yours (the CLI's --strategy-file); scan again to read them. */
export function addStrategyFiles(labId: string, paths: readonly string[]): void {
  const set = extraFiles.get(labId) ?? new Set<string>();
  for (const p of paths) set.add(resolve(p));
  extraFiles.set(labId, set);
}

/** How often the folder is looked at again: a saved file shows up within about this long, no restart. */
export const RESCAN_MS = 1000;

/**
 * Scans now and then every RESCAN_MS (a stat per file; only changed files are compiled), calling
 * `onChange` when the lists changed. Polling, not fs.watch: it sees a folder made later, works
 * the same on every file system, and holds no watcher. Returns the disposer.
 */
export function watchUserStrategies(onChange: () => void, dir: string = userStrategiesDir()): () => void {
  let stopped = false;
  const tick = () =>
    scanUserStrategies(dir).then(
      (changed) => {
        if (changed && !stopped) onChange();
      },
      (err: unknown) => console.error(`strategies of yours: scanning ${dir} failed: ${err instanceof Error ? err.message : String(err)}`),
    );
  void tick();
  const timer = setInterval(() => void tick(), RESCAN_MS);
  timer.unref();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
