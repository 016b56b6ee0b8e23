/**
 * The deadlines walkthrough: two steps, each running a preset experiment of the deadlines lab and
 * concluding from its runs. A shorter schedule than the lab's default (a run takes about 25 s).
 * Client-safe, pure.
 */
import { DEFAULT_DEADLINE_PARAMS, type DeadlineParams } from '../../server/labs/deadline/params';
import { concludeLateTimers, concludeLimitVsShed } from './deadline-conclusions';
import type { LessonStep } from './lesson';

export type DeadlineLessonStep = LessonStep<'deadline'>;

/** 2 requests/s, then 8/s for 8 s, of 50 objects × 3 ms: the spike asks about 1.2 cores of one main thread. */
export const SPIKE_PARAMS: DeadlineParams = { ...DEFAULT_DEADLINE_PARAMS, durationS: 22, spikeStartS: 5, spikeS: 8, timeoutS: 120 };

/** "2 → 8 req/s for 8 s, K 50, 3 ms per object, deadline 1200 ms": a preset's figures. */
export function describeDeadlineParams(p: DeadlineParams): string {
  return `${p.baselineRps} → ${p.spikeRps} req/s for ${p.spikeS} s, K ${p.objects}, ${p.cpuMs} ms per object, deadline ${p.deadlineMs} ms`;
}

export function buildDeadlineLessonSteps(p: DeadlineParams): readonly DeadlineLessonStep[] {
  return [
    {
      lab: 'deadline',
      n: 1,
      title: 'Timers fire late when the loop has more work than a core',
      paragraphs: [
        `Each request fetches ${p.objects} objects from a mock store and parses each (${p.cpuMs} ms of CPU), with a ${p.deadlineMs} ms deadline ` +
          `timer. The spike brings ${p.spikeRps} requests a second: more work than one thread can do. unbounded does it on the main thread; ` +
          'worker-pool hands it to a pool of threads.',
      ],
      watch: 'The lateness chart inside the shaded spike: unbounded’s climbs to seconds and stays up after the spike; worker-pool’s stays flat.',
      presets: [{ strategies: ['unbounded', 'worker-pool'], params: p }],
      conclude: ([unbounded, pool]) => concludeLateTimers(unbounded, pool),
    },
    {
      lab: 'deadline',
      n: 2,
      title: 'Limit the GETs, or refuse the excess',
      paragraphs: [
        `limited-concurrency lets ${p.concurrency} GETs run at once: it spares the store, but the work stays on the main thread. shed-load ` +
          `answers 503 to new requests while the loop is more than ${p.shedLagMs} ms late.`,
      ],
      watch: 'The Outcomes view: timed out for the limiter, refused for shed-load, and the lateness of each.',
      presets: [{ strategies: ['limited-concurrency', 'shed-load'], params: p }],
      conclude: ([limited, shed]) => concludeLimitVsShed(limited, shed),
    },
  ];
}

export const DEADLINE_LESSON_STEPS: readonly DeadlineLessonStep[] = buildDeadlineLessonSteps(SPIKE_PARAMS);
