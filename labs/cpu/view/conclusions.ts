/**
 * What each step of the CPU walkthrough concludes from the runs that just happened. Every number
 * comes from a summary and the thresholds are the CPU verdict's (labs/cpu/view/verdict.ts), so a
 * step and a run card never disagree; when the figures contradict the lesson, the text says so. Pure.
 */
import type { CpuSummary } from '../shared/schema';
import { isTimed, listenersLeaked, NO_GAIN, type Timed } from './verdict';
import { formatMb, formatMs, formatDuration, formatTimes } from '../../../lib/readouts/format';
import type { Conclusion } from '../../../lib/lessons/unfinished';
import { unfinished } from '../../../lib/lessons/unfinished';

const answered = (s: CpuSummary) => `${s.requestsOk} of ${s.requestsPlanned} requests`;

/** A completed run whose load never reported its timings (null) has nothing to conclude from; a step says so, never quotes 0 ms. */
function untimed(runs: readonly CpuSummary[]): Conclusion | null {
  const bad = runs.find((s) => !isTimed(s));
  return bad
    ? { asExpected: false, text: `${bad.strategy} has no timings from its load (not measured), so it shows nothing about the lesson. Run the step again.` }
    : null;
}
/** One thread counts as queueing when its makespan is at least this share of every computation back to back. */
export const SERIAL_SHARE = 0.8;

/** Step 1: one thread computes one request at a time, so the last waits for all the others. */
export function concludeOneThread(s: CpuSummary): Conclusion {
  const stop = unfinished([[s, ['completed']]], answered) ?? untimed([s]);
  if (stop || !isTimed(s)) return stop!;
  const serialMs = s.requestsOk * s.computeMsMin;
  const facts = `${s.requestsOk} requests of fib(${s.params.n}) (${formatMs(s.computeMsMin)} each) took ${formatDuration(s.makespanMs)} on one thread; the slowest waited ${formatMs(s.latencyMaxMs)}`;
  const ping = s.params.pingMs > 0 && s.pingMaxMs !== null ? ` and /ping, which computes nothing, waited up to ${formatMs(s.pingMaxMs)}` : '';
  if (s.makespanMs >= SERIAL_SHARE * serialMs) {
    return {
      asExpected: true,
      text: `${facts}${ping}. ${formatDuration(s.makespanMs)} is every computation one after another (${formatDuration(serialMs)}): the requests queued on the one event loop.`,
    };
  }
  return { asExpected: false, text: `${facts}. Not what this lesson expects: that is less than the computations back to back (${formatDuration(serialMs)}).` };
}

/** Step 2: cluster spreads the requests over processes, up to the cores. */
export function concludeProcesses(one: CpuSummary, cluster: CpuSummary): Conclusion {
  const stop =
    unfinished(
      [
        [one, ['completed']],
        [cluster, ['completed']],
      ],
      answered,
    ) ?? untimed([one, cluster]);
  if (stop || !isTimed(one) || !isTimed(cluster)) return stop!;
  const ratio = cluster.makespanMs > 0 ? one.makespanMs / cluster.makespanMs : 0;
  const extra = cluster.peakProcesses - one.peakProcesses;
  const facts =
    `${cluster.strategy} answered in ${formatDuration(cluster.makespanMs)} what one thread took ${formatDuration(one.makespanMs)} for: ` +
    `${formatTimes(ratio)} faster on ${cluster.cores} cores, with ${cluster.peakProcesses} processes whose tree peaked at ${formatMb(cluster.peakTreeRss)}` +
    (extra > 0 ? ` (${formatMb(Math.max(0, cluster.peakTreeRss - one.peakTreeRss) / extra)} a process)` : '');
  if (ratio >= NO_GAIN)
    return { asExpected: true, text: `${facts}. More processes than cores would not help: ${cluster.cores} computations at once is all this machine does.` };
  return { asExpected: false, text: `${facts}. Not what this lesson expects: more processes should have come close to ${cluster.cores}× here.` };
}

/** Step 3: starting a process per request costs more than a small computation; a pool pays it once. */
export function concludeSpawn(fork: CpuSummary, pool: CpuSummary): Conclusion {
  const stop =
    unfinished(
      [
        [fork, ['completed']],
        [pool, ['completed']],
      ],
      answered,
    ) ?? untimed([fork, pool]);
  if (stop || !isTimed(fork) || !isTimed(pool)) return stop!;
  return spawnConclusion(fork, pool);
}

function spawnConclusion(fork: Timed, pool: Timed): Conclusion {
  // No start timed (null): the fork run started no process per request, which the lesson needs.
  if (fork.spawnP50Ms === null)
    return {
      asExpected: false,
      text: `${fork.strategy} timed no process start (not measured), so it cannot show what starting one per request costs. Not what this lesson expects.`,
    };
  const facts =
    `${fork.strategy} paid ${formatMs(fork.spawnP50Ms)} (p50) to start a process per request, for fib(${fork.params.n}) that takes ${formatMs(fork.computeMsMin)}: ` +
    `${formatMs(fork.makespanMs)} for ${fork.requestsOk} requests against ${formatMs(pool.makespanMs)} for ${pool.strategy}, whose threads started once`;
  if (fork.spawnP50Ms > fork.computeMsMin && fork.makespanMs > pool.makespanMs)
    return { asExpected: true, text: `${facts}. For small work the start is the cost; a pool keeps it out of every request.` };
  return { asExpected: false, text: `${facts}. Not what this lesson expects: starting a process per request should have cost more than the pool.` };
}

/** Step 4: the leaky pool adds a listener per request and answers requests with each other's results. */
export function concludeLeakyPool(leaky: CpuSummary, fixed: CpuSummary): Conclusion {
  const stop = unfinished(
    [
      [leaky, ['completed', 'data-lost']],
      [fixed, ['completed']],
    ],
    answered,
  );
  if (stop) return stop;
  const wrong = leaky.requestsPlanned - leaky.requestsOk;
  const facts =
    `${leaky.strategy} ended with ${leaky.peakMessageListeners} 'message' listeners after ${leaky.requestsPlanned} requests and ${wrong} requests without their own answer; ` +
    `${fixed.strategy} kept ${fixed.peakMessageListeners} listeners and answered ${fixed.requestsOk} of ${fixed.requestsPlanned} right`;
  if (listenersLeaked(leaky) && !listenersLeaked(fixed)) {
    const mixed =
      wrong > 0
        ? ' Every listener sees every reply, so a process with two requests answers the first with whichever finishes first.'
        : ' This time no process had two requests at once, so no answer went astray.';
    return {
      asExpected: true,
      text: `${facts}: one listener added per request, never removed.${mixed} One listener per process and a request id in each message fix both.`,
    };
  }
  return { asExpected: false, text: `${facts}. Not what this lesson expects: only the leaky pool's listeners should outnumber its workers.` };
}
