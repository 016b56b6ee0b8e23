/**
 * What a lab's experiment form is made of (each lab's own is labs/<lab>/shared/form.ts): numeric
 * fields with label, unit and what an empty field means, switches, link order, and the fields every
 * lab's form has after its own. Pure data, lab-neutral.
 */
import type { z } from 'zod';
import type { LabParams, StrategyInfo } from '../protocol';
import type { Limit } from '../protocol/params';
import { triggerFigureProblem } from '../heap/trigger';

export interface FieldSpec {
  field: string;
  label: string;
  unit?: string;
  /** Shown after the range, e.g. what an empty field means. */
  hint?: string;
  /** Only whole numbers. The schema lets sizeMb be fractional, but data files are made in whole MiB, so the form asks for one. */
  integer: boolean;
  /** What an empty field means; absent when the field is required. */
  empty?: string;
  /**
   * Whether the field changes anything for the form as it is now (the streams lab's API knobs only
   * for its http consumer); absent: always. A field that does not apply is hidden but still sent.
   */
  appliesWhen?: (form: FieldContext) => boolean;
}

/** What decides whether a field applies: the form's values as they are, and the strategies picked. */
export interface FieldContext {
  choices: Readonly<Record<string, string>>;
  /** The lab's switches (e.g. the hot-code lab's sweep), on or off. */
  switches: Readonly<Record<string, boolean>>;
  /** The numeric fields' text as typed (e.g. the HTTP lab's slow clients). */
  numbers: Readonly<Record<string, string>>;
  /** The picked strategies as the catalog describes them (their `declares`). */
  strategies: readonly StrategyInfo[];
}

/**
 * The experiment the lab's seed write-up ran, as this lab reproduces it (docs/results.md has the
 * figures): the dashboard's one-click "Run the write-up's experiment".
 */
export interface WriteUpExperiment {
  /** What it is, in a few words, beside the button. */
  what: string;
  /** The params that differ from the lab's defaults. */
  params: Readonly<Record<string, unknown>>;
  /** The strategies it compares, in the lab's catalog order. */
  strategies: readonly string[];
}

/** A lab's own on/off param (the CPU lab's keep-alive), shown as a checkbox after the numbers. */
export interface SwitchSpec {
  field: string;
  label: string;
  /** Why a person would tick it: what changes. */
  note: string;
  /** An optional param (the common `profile`): sent only when on, so runs without it keep the params they always had. */
  optional?: boolean;
}

/** A lab's param with a few named values (the streams lab's consumer), shown as a select after the numbers. */
export interface ChoiceSpec {
  field: string;
  label: string;
  options: readonly { value: string; label: string }[];
  /** What the choice changes. */
  note: string;
}

export interface LabForm {
  lab: string;
  /** The numeric fields, in the order the form shows them. */
  fields: readonly FieldSpec[];
  /** The lab's boolean params besides `retained` (common to every lab), in the order shown and linked. */
  switches: readonly SwitchSpec[];
  /** The lab's params with named values (absent: none), in the order shown and linked; a link writes one only when not its default. */
  choices?: readonly ChoiceSpec[];
  /** The same fields in the order links write them and errors list them (the streams lab's predates its form's order). */
  linkOrder: readonly string[];
  limits: Readonly<Record<string, Limit>>;
  /** The field the server may cap lower than its schema (the streams lab's file size, by STREAM_LAB_MAX_SIZE_MB). */
  cappedField: string | null;
  /** The lab's params schema: what a Start sends is checked with it, strictly. */
  schema: z.ZodObject;
  /** The params a new form starts with. */
  defaults: LabParams;
  /** Picked when the form opens. */
  defaultStrategies: readonly string[];
  /**
   * Written into every link, default or not (the streams lab's URL has always shown them); the
   * other fields only when they differ from the default, so everyday links stay short.
   */
  alwaysWritten: ReadonlySet<string>;
  /**
   * Why the lab runs its strategies one at a time (the server refuses a parallel experiment of it,
   * labs/<lab>/parent/index.ts `runsAlone`); null when they may run in parallel.
   */
  runsAlone: string | null;
  /**
   * Rules across fields (the deadlines lab's spike must end within its schedule), checked once every
   * field is valid on its own: the field to mark and the message, in the fields' labels; null when met.
   */
  crossCheck?: (values: Readonly<Record<string, number>>) => { field: string; message: string } | null;
  /** How long one run of these params takes, roughly, in ms (the queue's wait uses the same, labs/<lab>/parent). */
  estimateMs?: (params: Readonly<Record<string, unknown>>) => number;
  /** The seed write-up's experiment; absent for a lab without one. */
  writeUp?: WriteUpExperiment;
}

/**
 * Fields whose empty input means null, with the word a link spells that null with (an empty value
 * in a URL reads like a mistake). Keyed by param name: the common params', and the CPU lab's
 * workers (null = one per core of the server).
 */
export const NULL_WORDS: Readonly<Record<string, string>> = { sampleMs: 'off', budgetMb: 'none', maxOldSpaceMb: 'none', workers: 'cores' };

/** Every lab's switch to profile its runs (the common param `profile`), after the lab's own switches. */
export const PROFILE_SWITCH: SwitchSpec = {
  field: 'profile',
  label: 'CPU profile',
  note: 'Profile each run with V8’s CPU profiler from outside (over the inspector, on 127.0.0.1): a flame graph and the functions by self time when it ends, and a .cpuprofile download.',
  optional: true,
};

/** Every lab's switch to sample its runs' allocations (the common param `heapProfile`); it also allows Snapshot now. */
export const HEAP_PROFILE_SWITCH: SwitchSpec = {
  field: 'heapProfile',
  label: 'Heap profile',
  note: 'Sample each run’s allocations with V8’s sampling heap profiler from outside (every 512 KB on average): the functions that allocate most, live, and a .heapprofile download; and take heap snapshots of the running run (Snapshot now) to see what holds the memory.',
  optional: true,
};

/** The profiling switches every lab's form ends with. */
export const PROFILE_SWITCHES: readonly SwitchSpec[] = [PROFILE_SWITCH, HEAP_PROFILE_SWITCH];

/**
 * A param typed as text (the common `heapSnapshot` trigger): empty means absent, so it is neither
 * sent nor linked and runs without it keep the params they always had.
 */
export interface TextFieldSpec {
  field: string;
  label: string;
  /** What a value looks like, shown in the empty input. */
  placeholder: string;
  note: string;
  /** Null when the (trimmed, non-empty) text is a valid value, else the message, naming the field by its label. `readings`: the lab's sample figures. */
  check(text: string, readings: readonly string[]): string | null;
}

const HEAP_SNAPSHOT_LABEL = 'Heap snapshot';
/** Every lab's field for when to take a heap snapshot of each run (the common param `heapSnapshot`, lib/heap/trigger.ts). */
export const HEAP_SNAPSHOT_FIELD: TextFieldSpec = {
  field: 'heapSnapshot',
  label: HEAP_SNAPSHOT_LABEL,
  placeholder: 'at=5 or when=arrayBuffers>32MB',
  note: 'Takes one heap snapshot of each run: at=<s> seconds after it starts, or when=<figure>><value> the first time a sample passes the value. The run stands still while V8 writes it; empty = none.',
  check(text, readings) {
    // A bad syntax throws; a figure the lab's samples never carry would never fire.
    try {
      return triggerFigureProblem(text, readings, HEAP_SNAPSHOT_LABEL);
    } catch (err) {
      return (err as Error).message;
    }
  },
};

/** The text fields of the common params, on every lab's form after its switches. */
export const COMMON_TEXT_FIELDS: readonly TextFieldSpec[] = [HEAP_SNAPSHOT_FIELD];

/** The fields of the common params, in the order every lab's form shows them after its own. */
export const COMMON_FIELDS: readonly FieldSpec[] = [
  { field: 'sampleMs', label: 'Sample every', unit: 'ms', integer: true, empty: 'sampler off' },
  { field: 'budgetMb', label: 'RSS budget', unit: 'MB', integer: true, empty: 'no budget' },
  { field: 'maxOldSpaceMb', label: 'V8 heap limit', unit: 'MB', integer: true, empty: 'Node’s default (--max-old-space-size)' },
  { field: 'timeoutS', label: 'Timeout per run', unit: 's', integer: true },
];
