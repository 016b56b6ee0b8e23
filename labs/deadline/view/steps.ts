/**
 * The deadlines walkthrough: two steps, each running a preset experiment of the deadlines lab and
 * concluding from its runs. A shorter schedule than the lab's default: a step's two runs took 28–34 s
 * (2026-11-24 03:54 UTC, `node scripts/lesson-walk.mjs deadline` and the e2e test, 2 vCPUs shared).
 * Client-safe, pure.
 */
import { DEFAULT_DEADLINE_PARAMS, type DeadlineParams } from '../shared/params';
import { concludeLateTimers, concludeLimitVsShed } from './conclusions';
import type { LessonStep } from '../../../lib/lessons/lesson';
import { LAB_ID } from '../shared/id';

export type DeadlineLessonStep = LessonStep<typeof LAB_ID>;

/**
 * 2 requests/s for 3 s, then 10/s for 7 s, then 2/s for 3 s, of 50 objects × 3 ms: the spike asks
 * 1.5 cores of one main thread, 10 × 50 × 3 ms. Not the default 8/s: the calibrated 3 ms measured
 * 1.4–4.4 ms an object on the main thread over twelve runs on this shared machine (2026-11-24), and
 * at 8/s a 2 ms object asks less than a core (two of three unbounded runs at 8/s did: no lesson).
 */
export const SPIKE_PARAMS: DeadlineParams = { ...DEFAULT_DEADLINE_PARAMS, durationS: 13, spikeStartS: 3, spikeS: 7, spikeRps: 10, timeoutS: 120 };

/** "1.5 cores": what a preset's spike asks of one thread at the work per object it asks for. */
export function presetDemandCores(p: DeadlineParams): number {
  return (p.spikeRps * p.objects * p.cpuMs) / 1000;
}

/** "2 → 10 req/s for 7 s, K 50, 3 ms per object, deadline 1200 ms": a preset's figures. */
export function describeDeadlineParams(p: DeadlineParams): string {
  return `${p.baselineRps} → ${p.spikeRps} req/s for ${p.spikeS} s, K ${p.objects}, ${p.cpuMs} ms per object, deadline ${p.deadlineMs} ms`;
}

export function buildDeadlineLessonSteps(p: DeadlineParams): readonly DeadlineLessonStep[] {
  return [
    {
      lab: LAB_ID,
      n: 1,
      title: 'Timers fire late when the loop has more work than a core',
      paragraphs: [
        `Each request fetches ${p.objects} objects from a mock store and parses each (${p.cpuMs} ms of CPU), with a ${p.deadlineMs} ms deadline ` +
          `timer. The spike brings ${p.spikeRps} requests a second: ${p.spikeRps} × ${p.objects} × ${p.cpuMs} ms = ${presetDemandCores(p).toFixed(1)} cores of work, more ` +
          'than one thread can do. unbounded does it on the main thread; worker-pool hands it to a pool of threads.',
      ],
      watch: 'Each run’s timer scatter: unbounded’s dots climb through the shaded spike and are still high after it; worker-pool’s stay near the floor.',
      presets: [{ strategies: ['unbounded', 'worker-pool'], params: p }],
      conclude: ([unbounded, pool]) => concludeLateTimers(unbounded, pool),
    },
    {
      lab: LAB_ID,
      n: 2,
      title: 'Limit the GETs, or refuse the excess',
      paragraphs: [
        `limited-concurrency lets ${p.concurrency} GETs run at once: it spares the store, but the work stays on the main thread. shed-load ` +
          `answers 503 to new requests while the loop is more than ${p.shedLagMs} ms late.`,
      ],
      watch: 'The answers under each run: timed out for the limiter, refused for shed-load; and each scatter’s lateness in the spike.',
      presets: [{ strategies: ['limited-concurrency', 'shed-load'], params: p }],
      conclude: ([limited, shed]) => concludeLimitVsShed(limited, shed),
    },
  ];
}

export const DEADLINE_LESSON_STEPS: readonly DeadlineLessonStep[] = buildDeadlineLessonSteps(SPIKE_PARAMS);
