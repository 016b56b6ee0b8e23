/**
 * The shape every lab and every strategy has. A lab is one folder (labs/<lab>/): a browser-safe
 * shared/ (params.ts, schema.ts), child/ (scenario.ts and strategies/*.ts, one each, found by the
 * registry: what runs inside the run's process), parent/ (index.ts, the `Lab` below: what to
 * prepare before a run and how to fold samples into figures) and view/ (the page's half).
 */
import type { DataStatus, Outcome, RunSummary, Sample } from '../lib/protocol';
import type { LabSchema } from './schemas';
import type { Route } from '../server/http/router';

/** Where the write-up published a figure for this strategy. */
export interface ArticleFigure {
  peakMb: string;
  note: string;
}

/** What every strategy file exports as `strategy`, whatever its lab. */
export interface StrategyBase {
  id: string;
  label: string;
  /** npm package name whose version is reported, or 'node' for built-ins. */
  library: string;
  /** Position in lists (lower first): the write-up's strategies come first. */
  order: number;
  /** Does the strategy wait for its consumer (pull) or not (push)? null where that does not apply. */
  mode: 'push' | 'pull' | null;
  /** The strategy's code keeps every result until the end (toArray): heap growth is then results, not garbage. */
  keepsResults: boolean;
  /**
   * What it is there to show: one of its lab's roles (labs/<lab>/shared/roles.ts), which the verdict
   * reads; required in a lab that has roles, refused in one that has none. A missing or unknown
   * role stops startup naming the file, so a new strategy is never judged as another kind.
   */
  role?: string;
  /** Strategy ids of its lab that a run of it is measured against when they ran too, first found first. */
  comparedWith?: readonly string[];
  explanation: string;
  article: ArticleFigure | null;
  /**
   * The oldest Node ("22" or "22.4") with every API the strategy uses, when that is newer than the
   * oldest runtime the lab accepts (20); a run on an older runtime is refused before it starts.
   */
  minNode?: string;
  /** What the tests hold it to; the lab's strategy type may add its own expectations. */
  expects: { outcome: Outcome };
}

/** What the parent prepared for one run: the scenario's part of the child's config, and the run's size. */
export interface Prepared {
  /** JSON-able; validated again by the scenario inside the child. */
  scenario: Record<string, unknown>;
  /** How much work the run has (the streams lab: file bytes), shown as progress; null if unknown. */
  total: number | null;
  /** Files or folders the run's child reads (the data file): all a fenced strategy of yours may read besides its code. */
  readPaths?: readonly string[];
}

/** Folds one run's samples into the lab's own figures, and judges whether the work all got done. */
export interface FigureRecorder {
  addSample(sample: Sample): void;
  /** Extra figures the child reported at the end (e.g. the peak of a counter). */
  addFinal(extras: Record<string, number>, note?: string | null, details?: Record<string, unknown>): void;
  /** The lab's figures (checked against its schema's `figures` when the summary is made). */
  figures(durationMs: number): Record<string, unknown>;
  /** For a run whose strategy finished: 'completed', or why not ('data-lost' with the reason). */
  judge(): { outcome: 'completed' | 'data-lost'; reason: string | null };
}

/** A lab's table in the bench CLI's output: column names and one row of cells per run. */
export interface BenchTable {
  header: string[];
  rows: string[][];
}

/** The parent side of a lab. */
export interface Lab<S extends StrategyBase = StrategyBase> {
  schema: LabSchema;
  /** Every strategy of the lab, in list order (found in its strategies/ folder). */
  strategies: readonly S[];
  /** Strategy id → its file name (no extension) in strategies/. */
  strategyFiles: ReadonlyMap<string, string>;
  /** Folder name of the lab (labs/<dir>). */
  dir: string;
  /** Other child-side modules of the lab compiled beside its scenario (file names, no extension), e.g. a load process. */
  childEntries?: readonly string[];
  /** HTTP routes of its own the server mounts (e.g. a lesson's measurements); paths under /api/lessons/ or /api/labs/<lab>/. */
  routes?: readonly Route[];
  /** Why this lab's runs can't run in parallel, if they can't (a parallel experiment is refused with it). */
  runsAlone?: string;
  /** Why runs with these params can't run in parallel (the streams lab's postgres consumer on its embedded cluster), or null. */
  parallelProblem?(params: Record<string, unknown>): string | null;
  /** Makes what a run needs (data file, database…), reporting progress; throws with a reason. */
  prepare(params: Record<string, unknown>, report: (status: DataStatus) => void): Promise<Prepared>;
  /** Checks params against this machine's limits (beyond the schema's), throwing RangeError naming the field. */
  checkLimits(params: Record<string, unknown>): void;
  newRecorder(prepared: Prepared, params: Record<string, unknown>): FigureRecorder;
  /** The run's size before anything is prepared (for a run stopped in the queue), or null. */
  expectedTotal(params: Record<string, unknown>): number | null;
  /** The bench CLI's table of this lab's summaries (all of this lab); `strategies`: the lab's, built-in and yours. */
  benchTable(summaries: readonly RunSummary[], strategies: readonly StrategyBase[]): BenchTable;
  /**
   * What this lab asks of a strategy of yours beyond the common shape (e.g. the streams lab: a mode,
   * push or pull), as a problem naming the field, or null (server/user-strategies/).
   */
  checkUserStrategy?(strategy: StrategyBase, fields: Readonly<Record<string, unknown>>): string | null;
  /** Fields beyond the common shape this lab's strategies declare (checked by checkUserStrategy): a copy of one keeps them. */
  declaredFields?: readonly string[];
  /**
   * Why this lab can't run strategies of yours yet, if it can't: its harness starts processes of its
   * own (a load generator, a database) that the fence (server/user-strategies/fence.ts) forbids.
   * A file in its folder is then listed with this reason and refused at Start.
   */
  refusesUserStrategies?: string;
  /**
   * What a run of a strategy of yours gets beyond the fence's default, because this lab's harness
   * needs it in the same process: starting processes (a database, a load generator), threads (a
   * watchdog), the
   * environment variables it reads, reading the project's node_modules (the packages it imports). The strategy's code gets the same (docs/strategies.md says so).
   */
  userFence?: {
    /** Starting processes: always, or only with these params (the streams lab: its http and postgres consumers start theirs). */
    childProcess?: boolean | ((params: Record<string, unknown>) => boolean);
    worker?: boolean;
    env?: readonly string[];
    packages?: boolean;
    /** The param that needs the inspector in the child with these params (its name), or null: allowed on Node 24+ only. */
    inspector?(params: Record<string, unknown>): string | null;
  };
  /** Roughly how long a run with these params works (ms), for the queue's wait estimate; null if unknown. */
  estimateMs(params: Record<string, unknown>): number | null;
}
