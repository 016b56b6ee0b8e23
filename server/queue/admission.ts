/**
 * Whether an experiment may join the queue: a known lab and strategies, params its lab's schema
 * accepts and this machine allows, and room in the queue (in all, and for the browser asking).
 * Every refusal is a RangeError whose message names the field or the limit.
 */
import { triggerFigureProblem } from '../../lib/heap/trigger';
import { describeZodError } from '../../lib/protocol/params';
import { codeProblemText, type RunState } from '../../lib/protocol';
import { findStrategy, findUserEntry, isUserStrategy, requireLab } from '../../labs/registry';
import { databaseRefusalFor, inspectorRefusalFor } from '../user-strategies/run-fence';
import { runtimeForRun } from '../runtimes/for-run';

/** Runs waiting to start; past this an experiment is refused, so a flood of requests can't grow memory or disk. */
export const MAX_QUEUED_RUNS = 64;
/** Runs one browser may have waiting, so one person can't fill the room's queue. */
export const MAX_QUEUED_PER_OWNER = 16;

/** The experiment's params as its lab's schema reads them; throws a RangeError when it may not start. */
export function admit(ask: { labId: string; strategies: string[]; rawParams: Record<string, unknown>; queued: number; mine: number }): RunState['params'] {
  const { labId, strategies } = ask;
  const lab = requireLab(labId);
  if (ask.queued + strategies.length > MAX_QUEUED_RUNS) {
    throw new RangeError(`queue is full: ${ask.queued} runs waiting, at most ${MAX_QUEUED_RUNS}; stop some or wait`);
  }
  if (ask.mine + strategies.length > MAX_QUEUED_PER_OWNER) {
    throw new RangeError(
      `you have ${ask.mine} runs waiting; at most ${MAX_QUEUED_PER_OWNER} per browser may wait, so this experiment's ${strategies.length} would pass it: wait for some to finish or stop them`,
    );
  }
  for (const id of strategies) {
    // A file of yours that fails to compile or load is listed with its problem, and refused here.
    const problem = findStrategy(labId, id) ? null : findUserEntry(labId, id)?.problem;
    if (problem) throw new RangeError(`strategies: ${id} can't run: ${codeProblemText(problem)}`);
  }
  const unknown = strategies.filter((s) => !findStrategy(labId, s));
  if (unknown.length) throw new RangeError(`strategies: unknown strategy "${unknown.join(', ')}"`);
  if (new Set(strategies).size !== strategies.length) throw new RangeError('strategies: each strategy may appear once');
  const parsed = lab.schema.params.strict().safeParse(ask.rawParams);
  if (!parsed.success) throw new RangeError(describeZodError(parsed.error));
  const params = parsed.data as RunState['params'];
  lab.checkLimits(params);
  const figure = triggerFigureProblem(params.heapSnapshot, lab.schema.readings, 'heapSnapshot', params.sampleMs);
  if (figure) throw new RangeError(figure);
  // A runtime that is not installed, broken or too old for a strategy: refused here, nothing queued.
  const runtime = runtimeForRun(labId, strategies, params.node);
  const refusal = inspectorRefusalFor(labId, strategies, params as Record<string, unknown>, runtime.version) ?? databaseRefusalFor(labId, strategies);
  if (refusal) throw new RangeError(refusal);
  return params;
}
