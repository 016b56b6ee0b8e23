/**
 * What the page asks of a lab: the view half of its folder (labs/<lab>/view/index.ts exports one
 * `view` of this shape, found by labs/views.ts). Shared components render a run, a results table
 * or a verdict through it and never name a lab.
 */
import type { ComponentType, ReactNode } from 'react';
import type { Experiment, LiveState, ProcSample, RunState, Measured, RunSummary, Sample, StrategyInfo, Verdict } from '@/lib/protocol';
import type { SampleSource } from '@/components/charts/sample-source';
import type { ScaleGroups } from '@/components/charts/scale-group';
import type { CardLab } from '@/components/run-card/figures';
import type { SeriesSpec } from '@/components/charts/chart-lines';
import type { RunRecord } from '@/lib/history';

/** What a lab's run charts get: the run, its samples so far and the card's shared chart settings. */
export interface RunChartsProps {
  run: RunState;
  samples: readonly Sample[];
  /** The strategy's label, for the charts' accessible names. */
  label: string;
  source: SampleSource<Sample>;
  /** The runner's /proc readings of the run's process (they go on while its main thread is blocked): chart-lines' viewLines draws them. */
  outside: SampleSource<ProcSample>;
  /** Still changing: no drag-to-zoom yet. */
  active: boolean;
  /** The experiment's shared y-scales; null for each chart's own. */
  scaleGroups: ScaleGroups | null;
  /** What the run shows live beyond its samples (the CPU lab's request bars), if anything. */
  live?: LiveState;
}

/** What a lab's results table gets. */
export interface ResultsTableProps {
  /** The lab's finished runs (with a summary), in display order. */
  runs: readonly RunState[];
  strategies: readonly StrategyInfo[];
  experiments: readonly Experiment[];
  showExperiment: boolean;
}

/** What a recorded run's own panels get. */
export interface RecordPanelsProps {
  summary: RunSummary;
  /** The strategy's label, for accessible names. */
  label: string;
}

/** Figures of a recorded run as term/description pairs. */
export type Items = Array<[string, string]>;

/** What a verdict may know about the strategy, from the catalog; unknown when the catalog lacks it. */
export type StrategyTraits = Pick<StrategyInfo, 'mode' | 'keepsResults'> & Partial<Pick<StrategyInfo, 'role' | 'comparedWith' | 'expectedOutcome'>>;

/**
 * A lab's verdict (labs/<lab>/view/verdict.ts exports one as `verdict`, found by scripts/lab-index.mjs):
 * a finished run of that lab, the experiment's other finished runs of that lab, and the strategy's
 * traits when the catalog has them. Browser- and server-safe: no React on its import chain.
 */
/** Handed only runs that took samples (labs/verdict-of.ts answers for the others). */
export type LabVerdict = (summary: Measured<RunSummary>, siblings: readonly Measured<RunSummary>[], traits: StrategyTraits | undefined) => Verdict;

/** One guided lesson of a lab, served at /lessons/<slug> (labs/<lab>/view/lessons.tsx). */
export interface LessonInfo {
  /** The lab it belongs to. */
  lab: string;
  /** Its URL's last part; unique over every lab. */
  slug: string;
  /** Its link in the lessons' header. */
  nav: string;
  /** Its link on the lessons' index and the dashboard. */
  heading: string;
  /** The page's title. */
  title: string;
  /** What it teaches, under its link on the index. */
  blurb: ReactNode;
  /** The lesson the dashboard links for its lab (default: the lab's first). */
  onDashboard?: boolean;
}

/** The view half of a lab. */
export interface LabView {
  /** The lab's id, as its shared schema has it. */
  id: string;
  /** What the lab is about, under the dashboard's title. */
  tagline: ReactNode;
  /** Its lessons, in the order the index lists them; the first is the one the dashboard links. */
  lessons: readonly LessonInfo[];
  /** Each lesson's page, by slug. */
  lessonPages: Readonly<Record<string, ComponentType>>;
  /** How the strategy picker groups its strategies: by mode (push/pull: who waits for whom) or one group (mode null). */
  pickerGroups: ReadonlyArray<{ mode: 'push' | 'pull' | null; title: string; blurb: string }>;
  /** The card's progress, figures and "preparing" text. */
  card: CardLab;
  /** Everything a run card draws between its header and its progress bar, live. */
  RunCharts: ComponentType<RunChartsProps>;
  /** The table of finished runs, and what its figures are (shown above it where the page explains). */
  ResultsTable: ComponentType<ResultsTableProps>;
  resultsNote: string | null;
  /** A chart of the same finished runs, under the table (the streams lab's frontier of records/s against peak memory); null for none. */
  ResultsChart: ComponentType<ResultsTableProps> | null;
  /** The verdict (labs/<lab>/view/verdict.ts) compares a run with the others of its experiment (the history page fetches them first). */
  comparesSiblings: boolean;
  /** A recorded run's main chart: what it shows ("process-tree memory") and its lines; null: the five memory fields. */
  recordChart: { what: string; series: readonly SeriesSpec<Sample>[] } | null;
  /** What a recorded (finished) run shows under its main chart beyond the samples, if anything. */
  RecordPanels: ComponentType<RecordPanelsProps> | null;
  /** A recorded run's own figures (`figures`, after its duration) and what it adds to the memory figures; its summary is null when it was interrupted. */
  /** `role`: the strategy's declared role in its lab (the catalog's), when known. */
  recordItems(summary: RunSummary | null, observed: RunRecord['observed'], role?: string | null): { figures: Items; memory: Items };
}
