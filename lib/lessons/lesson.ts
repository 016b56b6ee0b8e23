/**
 * What every guided lesson is made of, whatever its lab: steps that each send one or more preset
 * experiments and conclude from the runs' summaries, and how a step finds the experiments it
 * created. Client-safe and pure.
 */
import type { LabId, ParamsOfLab } from '../labs';
import type { Experiment, LabParams, LabSummary, Measured } from '../protocol';
import type { Conclusion } from './unfinished';

/** One experiment.start a step sends. */
export interface LessonPreset<P = LabParams> {
  strategies: string[];
  params: P;
}

export interface LessonStep<L extends LabId> {
  /** The lab whose experiments the step starts. */
  lab: L;
  n: number;
  title: string;
  paragraphs: string[];
  /** What to look at on the charts once the run has drawn them. */
  watch: string;
  /** Sent in order; the server's queue runs them one after another. */
  presets: LessonPreset<ParamsOfLab[L]>[];
  /** From the summaries of every run of every preset, in preset then strategy order; each took samples (stepProgress sees to it). */
  conclude(summaries: readonly Measured<LabSummary<L>>[]): Conclusion;
}

function sameParams(a: object, b: object): boolean {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  return Object.keys(x).every((k) => x[k] === y[k]) && Object.keys(x).length === Object.keys(y).length;
}

/**
 * The experiments a step created: for each preset in order, the first experiment of the lab not
 * known before the click (nor already matched) with the same strategies and parameters. Another
 * browser starting an identical experiment at the same instant could be mistaken for ours;
 * nothing else can.
 */
export function matchStepExperiments(
  experiments: readonly Experiment[],
  knownBefore: ReadonlySet<string>,
  presets: readonly LessonPreset<object>[],
  lab: LabId,
): Array<Experiment | null> {
  const taken = new Set<string>();
  return presets.map((preset) => {
    const found = experiments.find(
      (e) =>
        e.lab === lab &&
        !knownBefore.has(e.id) &&
        !taken.has(e.id) &&
        e.strategies.length === preset.strategies.length &&
        e.strategies.every((s, i) => s === preset.strategies[i]) &&
        sameParams(e.params, preset.params),
    );
    if (found) taken.add(found.id);
    return found ?? null;
  });
}
