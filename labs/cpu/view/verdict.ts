/**
 * The CPU lab's verdict: what a finished run showed about spreading CPU-bound requests, from its
 * figures, measured against the same experiment's single-thread run when there is one. When the
 * figures contradict what the strategy is there to show (no faster than one thread, a leaky pool
 * that did not leak), the sentence says so instead of reciting the lesson. Pure.
 */
import type { CpuSummary } from '../shared/schema';
import type { Role } from '../shared/roles';
import type { Verdict } from '../../../lib/protocol';
import type { LabVerdict, StrategyTraits } from '../../../components/lab-view';
import { counterpartOf } from '../../../lib/readouts/counterpart';
import { formatCount, formatMb, formatMs, formatDuration, formatTimes } from '../../../lib/readouts/format';
import { busyText, contentionOf } from './contention';
import { completedExpected, memoryLimitText, outcomeExpected, peakRssFigures, peakRssOf, reasonSuffix, refusedText } from '../../../lib/readouts/outcome-text';

type Figures = Verdict['figures'];

/** The figures the load reports once it has timed every request; a completed run has them all. */
type TimedFigures = 'makespanMs' | 'latencyP50Ms' | 'latencyMaxMs' | 'computeMsAlone' | 'computeMsMin' | 'servers' | 'cores';
/** A run whose requests were timed: what the comparisons below quote. Ping and worker start may still be null (nothing timed them). */
export type Timed = CpuSummary & { [K in TimedFigures]: number };

/** The load reported its timings: a run that never started, or ended before the load's report, has none (null). */
export function isTimed(s: CpuSummary): s is Timed {
  return [s.makespanMs, s.latencyP50Ms, s.latencyMaxMs, s.computeMsAlone, s.computeMsMin, s.servers, s.cores].every((v) => v !== null);
}

/** Figures of the one-thread run it is measured against, under that run's strategy id ("single-thread.makespanMs"). */
function theirs(o: CpuSummary, figures: Figures): Figures {
  return Object.fromEntries(Object.entries(figures).map(([k, v]) => [`${o.strategy}.${k}`, v]));
}

/** The strategy's declared role, if the catalog knew it. */
function roleOf(traits: StrategyTraits | undefined): Role | undefined {
  return (traits?.role ?? undefined) as Role | undefined;
}
/** Faster than one thread by less than this reads "no faster". */
export const NO_GAIN = 1.2;

/** Typed as a role, so a misspelt one does not compile. */
const BASELINE_ROLE: Role = 'one-thread';

/**
 * The speed-up as a card or a run page shows it: "baseline" for the one-thread strategy, the
 * yardstick of the others (its own ratio, well under 1× when requests wait for one another, would
 * read as a loss); the ratio and the ceiling for every other.
 */
export function speedupFigureText(s: Pick<CpuSummary, 'speedup' | 'cores'>, role: string | null | undefined): string {
  return role === BASELINE_ROLE && s.speedup !== null ? 'baseline' : speedupText(s);
}

/** "1.9× (ceiling 2 cores)": the run's own speed-up against fib(n) alone, and the machine's limit; a dash when no request was timed. */
export function speedupText(s: Pick<CpuSummary, 'speedup' | 'cores'>): string {
  if (s.speedup === null) return '–';
  if (s.cores === null) return formatTimes(s.speedup);
  return `${formatTimes(s.speedup)} (ceiling ${s.cores} core${s.cores === 1 ? '' : 's'})`;
}

/** Worker processes or threads the strategy keeps (the workers param, or one per core). */
function workersOf(s: CpuSummary): number {
  return s.params.workers ?? s.cores ?? Infinity;
}

/** More 'message' listeners than worker processes: the leaky pool's one-per-request leak. */
export function listenersLeaked(s: Pick<CpuSummary, 'peakMessageListeners' | 'peakProcesses'>): boolean {
  return s.peakMessageListeners > Math.max(1, s.peakProcesses - 1);
}

/** How many computations can run at once here: cores, requests sent at once, and the workers of strategies that keep some. */
export function ceilingOf(s: CpuSummary, traits: StrategyTraits | undefined): number {
  const role = roleOf(traits);
  const kept = role === 'processes' || role === 'pool' || role === 'leaky-pool' ? workersOf(s) : Infinity;
  return Math.max(1, Math.min(s.cores ?? Infinity, s.params.concurrency, s.requestsPlanned, kept));
}

/** "4 requests of fib(40)". */
function requestsPart(s: CpuSummary): string {
  return `${formatCount(s.requestsOk)} request${s.requestsOk === 1 ? '' : 's'} of fib(${s.params.n})`;
}

/**
 * "; /ping waited up to 1.2 s (one thread: 2.3 s)", "; no /ping was answered while the requests ran"
 * (a run shorter than pingMs: not measured, not 0 ms), or "" when the run pinged nothing.
 */
function pingPart(s: CpuSummary, base: CpuSummary | undefined): string {
  if (s.params.pingMs === 0) return '';
  if (s.pingMaxMs === null) return `; no /ping was answered while the requests ran (one every ${formatMs(s.params.pingMs)}), so its wait was not measured`;
  const then = base && base.pingMaxMs !== null ? ` (one thread: ${formatMs(base.pingMaxMs)})` : '';
  return `; /ping waited up to ${formatMs(s.pingMaxMs)}${then}`;
}

/** The figures pingPart quotes. */
function pingFigures(s: CpuSummary, base: CpuSummary | undefined): Figures {
  if (s.params.pingMs === 0) return {};
  if (s.pingMaxMs === null) return { 'params.pingMs': s.params.pingMs };
  return { pingMaxMs: s.pingMaxMs, ...(base && base.pingMaxMs !== null && theirs(base, { pingMaxMs: base.pingMaxMs })) };
}

/** The figures memoryPart quotes. */
function memoryFigures(s: CpuSummary, base: CpuSummary | undefined): Figures {
  const own = { peakTreeRss: s.peakTreeRss, peakProcesses: s.peakProcesses, peakThreads: s.peakThreads };
  return base ? { ...own, ...theirs(base, { peakTreeRss: base.peakTreeRss, peakProcesses: base.peakProcesses }) } : own;
}

/** "; the tree's RSS peaked at 180 MB, about 50 MB more per extra process": what the workers cost in memory. */
function memoryPart(s: CpuSummary, base: CpuSummary | undefined): string {
  const head = `; the tree's RSS peaked at ${formatMb(s.peakTreeRss)} with ${s.peakProcesses} process${s.peakProcesses === 1 ? '' : 'es'} and ${s.peakThreads} threads`;
  if (!base) return head;
  const extraProcesses = s.peakProcesses - base.peakProcesses;
  const extraBytes = s.peakTreeRss - base.peakTreeRss;
  if (extraProcesses > 0 && extraBytes > 0) return `${head}: each worker process added about ${formatMb(extraBytes / extraProcesses)}`;
  if (extraBytes > 0) return `${head}: ${formatMb(extraBytes)} more than one thread`;
  return head;
}

/** fib(n)'s cost as the run page shows it ("fib(n) alone"); the shortest seen for runs that lack it. */
export function fibMs(s: Pick<Timed, 'computeMsAlone' | 'computeMsMin'>): number {
  return s.computeMsAlone > 0 ? s.computeMsAlone : s.computeMsMin;
}

/** A worker start was timed (per-request strategies): null when none was, 0 in records from before. */
function spawnOf(s: CpuSummary): number | null {
  return s.spawnP50Ms !== null && s.spawnP50Ms > 0 ? s.spawnP50Ms : null;
}

/** Why a strategy that should spread the work did not, from what the figures show. */
function noGainCause(s: Timed, ceiling: number): string {
  if (s.params.concurrency === 1) return 'one request at a time leaves nothing to spread';
  if (s.servers < 2) return `only one process or thread answered${s.params.keepAlive ? ' (keep-alive kept every request on one connection’s process)' : ''}`;
  const busy = contentionOf(s, ceiling);
  if (busy) return busyText(s, busy);
  const spawn = spawnOf(s);
  if (spawn !== null && spawn > fibMs(s)) return `starting a worker (${formatMs(spawn)}) cost more than fib(${s.params.n}) alone (${formatMs(fibMs(s))})`;
  return `fib(${s.params.n}) alone takes ${formatMs(fibMs(s))} here, too little to outweigh the hand-over; try a larger n`;
}

/** How the run compares with one thread (or, without one, with fib(n) alone), and the ceiling. */
function gainPart(s: Timed, base: Timed | undefined, traits: StrategyTraits | undefined): { text: string; gained: boolean; figures: Figures } {
  const ceiling = ceilingOf(s, traits);
  const limit = ceiling < s.cores ? `the ceiling is ${ceiling}× (${formatCount(ceiling)} at once)` : `the ceiling is ${s.cores}×`;
  const ceilingFigures = { ceiling, cores: s.cores };
  if (base && base.makespanMs > 0 && s.makespanMs > 0) {
    const ratio = base.makespanMs / s.makespanMs;
    const times = `(${formatDuration(s.makespanMs)} vs ${formatDuration(base.makespanMs)})`;
    const figures = { ...ceilingFigures, makespanMs: s.makespanMs, ...theirs(base, { makespanMs: base.makespanMs }), gainRatio: ratio };
    if (ratio >= NO_GAIN) return { text: `${formatTimes(ratio)} faster than one thread ${times}, ${limit}`, gained: true, figures };
    const how = ratio <= 1 / NO_GAIN ? `${formatTimes(1 / ratio)} slower than one thread` : 'no faster than one thread';
    return { text: `${how} ${times}, where ${limit}`, gained: false, figures };
  }
  // A completed run timed its requests; one that has no speed-up says so rather than claim 0×.
  if (s.speedup === null) return { text: `no speed-up measured (no request was timed), ${limit}`, gained: false, figures: ceilingFigures };
  const gained = s.speedup >= NO_GAIN;
  return {
    text: `${formatTimes(s.speedup)} the work of one thread in ${formatDuration(s.makespanMs)}, ${limit}`,
    gained,
    figures: { ...ceilingFigures, speedup: s.speedup, makespanMs: s.makespanMs },
  };
}

function oneThreadVerdict(s: Timed): Verdict {
  const facts = `${requestsPart(s)} on one thread took ${formatDuration(s.makespanMs)}, p50 latency ${formatMs(s.latencyP50Ms)}${pingPart(s, undefined)}`;
  const figures = { requestsOk: s.requestsOk, 'params.n': s.params.n, makespanMs: s.makespanMs, latencyP50Ms: s.latencyP50Ms, ...pingFigures(s, undefined) };
  // A thread can compute only one fib at a time; overlapping requests would mean the figures are off.
  if (s.speedupMeasured !== null && s.speedupMeasured >= NO_GAIN) {
    return {
      text: `Not what one thread should show: the requests overlapped (${formatTimes(s.speedupMeasured)} the work of one thread). ${facts}.`,
      figures: { ...figures, speedupMeasured: s.speedupMeasured },
      expected: false,
    };
  }
  return {
    text: `${facts}: the requests queued behind each other, each waiting for the whole computation of those before it (fib(${s.params.n}) alone: ${formatMs(fibMs(s))}).`,
    figures: { ...figures, computeMsAlone: fibMs(s) },
    expected: true,
  };
}

function leakPart(s: CpuSummary): string {
  const workers = Math.max(1, s.peakProcesses - 1);
  if (!listenersLeaked(s)) return `; only ${s.peakMessageListeners} 'message' listeners on ${workers} workers: not the leak it should show`;
  return `; ${s.peakMessageListeners} 'message' listeners after ${formatCount(s.requestsPlanned)} requests on ${workers} workers, one added per request and never removed`;
}

/** The figures noGainCause quotes. */
function noGainFigures(s: Timed, ceiling: number): Figures {
  if (s.params.concurrency === 1) return { 'params.concurrency': 1 };
  if (s.servers < 2) return { servers: s.servers };
  const busy = contentionOf(s, ceiling);
  if (busy) return { perThreadCpuMs: busy.perThreadMs, makespanMs: s.makespanMs, otherCpuMs: s.otherCpuMs!, cpuWindowMs: s.cpuWindowMs!, cores: s.cores };
  const spawn = spawnOf(s);
  if (spawn !== null && spawn > fibMs(s)) return { spawnP50Ms: spawn, computeMsAlone: fibMs(s) };
  return { computeMsAlone: fibMs(s) };
}

/**
 * Does a completed run show what its role is there to show: faster than one thread where more than
 * one computation can run at once, and for the leaky pool the leak. null without a role (no lesson
 * to hold it to) or with a ceiling of one (nothing could be spread).
 */
function spreadExpected(s: CpuSummary, role: Role | undefined, gained: boolean, ceiling: number): boolean | null {
  if (role === undefined) return null;
  if (role === 'leaky-pool' && !listenersLeaked(s)) return false;
  if (ceiling < 2) return null;
  return gained;
}

function completedVerdict(s: Timed, base: Timed | undefined, traits: StrategyTraits | undefined): Verdict {
  const role = roleOf(traits);
  if (role === 'one-thread') return oneThreadVerdict(s);
  const gain = gainPart(s, base, traits);
  const ceiling = ceilingOf(s, traits);
  const head = `${requestsPart(s)} on ${s.cores} cores: ${gain.text}`;
  const spawnMs = role === 'per-request' ? spawnOf(s) : null;
  const spawns = spawnMs !== null;
  const spawn = spawns ? `; ${s.strategy} paid ${formatMs(spawnMs)} to start a ${s.strategy.startsWith('fork') ? 'process' : 'thread'} per request` : '';
  const leak = role === 'leaky-pool' ? `${leakPart(s)}, yet every answer reached its own request this time (each worker had one request at a time)` : '';
  // A gain short of the ceiling on a busy machine says why it fell short (a run with no gain says it first).
  const busy = gain.gained ? contentionOf(s, ceiling) : null;
  const busyPart = busy ? `; ${busyText(s, busy)}, which kept it from the ceiling` : '';
  const body = `${head}${spawn}${memoryPart(s, base)}${pingPart(s, base)}${leak}${busyPart}.`;
  const figures: Figures = {
    requestsOk: s.requestsOk,
    'params.n': s.params.n,
    ...gain.figures,
    ...(spawns && { spawnP50Ms: spawnMs }),
    ...memoryFigures(s, base),
    ...pingFigures(s, base),
    ...(role === 'leaky-pool' && { peakMessageListeners: s.peakMessageListeners, requestsPlanned: s.requestsPlanned }),
    ...(busy && { perThreadCpuMs: busy.perThreadMs, otherCpuMs: s.otherCpuMs!, cpuWindowMs: s.cpuWindowMs! }),
  };
  const expected = spreadExpected(s, role, gain.gained, ceiling);
  // Without its declared role there is no lesson to hold the figures to.
  if (gain.gained || ceiling < 2 || role === undefined) return { text: body, figures, expected };
  return {
    text: `Not what ${s.cores} cores should show: ${noGainCause(s, ceiling)}. ${body}`,
    figures: { ...figures, ...noGainFigures(s, ceiling) },
    expected,
  };
}

/**
 * The verdict for a finished CPU run. `others` are the experiment's other finished CPU runs:
 * every strategy is measured against its single-thread run when there is one.
 */
export function cpuVerdict(s: CpuSummary, others: readonly CpuSummary[], traits: StrategyTraits | undefined): Verdict {
  const part = `${formatCount(s.requestsOk)} of ${formatCount(s.requestsPlanned)} requests`;
  const partFigures = { requestsOk: s.requestsOk, requestsPlanned: s.requestsPlanned };
  const ended = (text: string, figures: Figures): Verdict => ({ text, figures, expected: outcomeExpected(s.outcome, traits) });
  switch (s.outcome) {
    case 'completed': {
      // Every request was answered, so the load timed them; a completed run without its report is left unjudged.
      if (!isTimed(s)) return ended(`${part} came back right, but the load reported no timings: nothing to judge.`, partFigures);
      const judged = completedVerdict(s, counterpartOf(s, others, traits, isTimed) as Timed | undefined, traits);
      return { ...judged, expected: completedExpected(traits, judged.expected) };
    }
    case 'data-lost': {
      const lost = s.requestsPlanned - s.requestsOk;
      if (roleOf(traits) === 'leaky-pool') {
        // Answers reaching the wrong request are what the leak does: with the listeners piled up, the
        // run showed what it is there to show, whatever outcome the strategy declares.
        const shown = (v: Verdict): Verdict => ({ ...v, expected: listenersLeaked(s) ? true : v.expected });
        return shown(
          ended(
            `${s.strategy}: ${s.peakMessageListeners} 'message' listeners after ${formatCount(s.requestsPlanned)} requests, and ${lost} of ${formatCount(s.requestsPlanned)} requests got another request's answer${reasonSuffix(s.reason)}.`,
            { peakMessageListeners: s.peakMessageListeners, requestsPlanned: s.requestsPlanned, lostRequests: lost },
          ),
        );
      }
      return ended(`Only ${part} came back right (${formatCount(s.badRequests)} wrong)${reasonSuffix(s.reason)}.`, {
        ...partFigures,
        badRequests: s.badRequests,
      });
    }
    case 'out-of-memory':
      return ended(
        `Out of memory: RSS reached ${formatMb(peakRssOf(s))} and ${memoryLimitText(s)} after ${part} with ${s.peakProcesses} processes; the tree's RSS peaked at ${formatMb(s.peakTreeRss)}.`,
        { ...peakRssFigures(s), ...partFigures, peakProcesses: s.peakProcesses, peakTreeRss: s.peakTreeRss },
      );
    case 'crashed':
      return ended(`Crashed after ${part}${reasonSuffix(s.reason)}.`, partFigures);
    case 'stopped':
      if (s.sampleCount === 0 && s.requestsOk === 0) return ended('Stopped before it started: nothing was measured.', {});
      return ended(`Stopped after ${formatDuration(s.durationMs)} with ${part} answered; the tree's RSS peaked at ${formatMb(s.peakTreeRss)}.`, {
        durationMs: s.durationMs,
        ...partFigures,
        peakTreeRss: s.peakTreeRss,
      });
    case 'timed-out':
      // The load times fib(n) alone first; one that never reported (stuck before it) leaves that part out.
      if (s.computeMsAlone === null)
        return ended(`Timed out after ${s.params.timeoutS} s with ${part} answered; try a smaller n or fewer requests.`, {
          'params.timeoutS': s.params.timeoutS,
          ...partFigures,
        });
      return ended(
        `Timed out after ${s.params.timeoutS} s with ${part} answered: fib(${s.params.n}) takes ${formatMs(s.computeMsAlone)} alone here; try a smaller n or fewer requests.`,
        { 'params.timeoutS': s.params.timeoutS, ...partFigures, 'params.n': s.params.n, computeMsAlone: s.computeMsAlone },
      );
    case 'interrupted':
      return ended(
        `Interrupted after ${formatDuration(s.durationMs)}: ${s.reason ?? 'the server shut down'}, so the run has no result; ${part} were answered by then.`,
        { durationMs: s.durationMs, ...partFigures },
      );
    case 'refused':
      return ended(refusedText(s), { durationMs: s.durationMs });
    default: {
      const never: never = s.outcome;
      return ended(String(never), {});
    }
  }
}

/** What the lab registry picks up from this folder (scripts/lab-index.mjs). */
export const verdict: LabVerdict = (s, siblings, traits) => cpuVerdict(s as CpuSummary, siblings as readonly CpuSummary[], traits);
