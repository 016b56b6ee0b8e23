/**
 * The guided push-vs-pull walkthrough: each step's text, the small experiment(s) it runs and how it
 * concludes from their summaries. Client-safe and pure; the walkthrough component renders it.
 */
import { DEFAULT_STREAMS_PARAMS, type StreamsParams } from '../shared/params';
import type { LessonStep as GenericLessonStep } from '../../../lib/lessons/lesson';
import {
  concludeFromEventLoss,
  concludeGarbageVsRetained,
  concludeMemoryBudget,
  concludePushVsPull,
  concludeWhereTheFileGoes,
  concludeWhoHoldsTheFile,
  concludeConcurrency,
} from './conclusions';
import { LAB_ID } from '../shared/id';

export { matchStepExperiments, type LessonPreset } from '../../../lib/lessons/lesson';

/** A step of the streams walkthrough. */
export type LessonStep = GenericLessonStep<typeof LAB_ID>;

/**
 * Small enough that a step takes seconds on two cores: 32 MiB in 64 KiB chunks is 512 chunks, 2 ms
 * each. The watchdog is short so a stuck step cannot hold the shared queue for ten minutes.
 */
export const SMALL_PARAMS: StreamsParams = { ...DEFAULT_STREAMS_PARAMS, sizeMb: 32, delayMs: 2, sampleMs: 50, timeoutS: 60 };

/** Parameters of a run under an RSS budget: the budget is what the step is about, so it is never null. */
export type BudgetParams = StreamsParams & { budgetMb: number };

/**
 * An idle child is ~45–58 MB of RSS (Node plus the library). 80 MB leaves a pull reader (~60 MB)
 * room, while rxjs-from passes it after ~25 MB of a 48 MiB file (measured: killed at 82 MB).
 */
export const BUDGET_PARAMS: BudgetParams = { ...SMALL_PARAMS, sizeMb: 48, delayMs: 1, budgetMb: 80 };

/** Step 6's runs: step 1's file with a slower consumer, each snapshotted a second in (rxjs-from has read the file by then, the consumer not). */
export function holdersParams(small: StreamsParams): StreamsParams {
  return { ...small, delayMs: 5, heapSnapshot: 'at=1' };
}

/**
 * Step 7's runs: the http consumer (a mock API in its own process, 20 ms at the median, 50 ms at
 * p99) on 8 MiB in 16 KiB chunks, 512 calls: ~11 s at one call in flight, ~1.5 s at 8.
 */
export function concurrencyParams(small: StreamsParams): { one: StreamsParams; many: StreamsParams } {
  const one: StreamsParams = { ...small, sizeMb: 8, chunkKb: 16, delayMs: 20, consumer: 'http', apiP99Ms: 50, apiErrorRate: 0, concurrency: 1 };
  return { one, many: { ...one, concurrency: 8 } };
}

/** "1 s": the moment of a step's snapshot, from its trigger. */
function snapshotAt(p: StreamsParams): string {
  const at = /^at=([\d.]+)/.exec(p.heapSnapshot ?? '');
  return at ? `${at[1]} s` : 'a moment';
}

/**
 * "32 MB file, 64 KB chunks, 2 ms per chunk, 80 MB budget, retained mode": a preset's figures, read
 * from its parameters so the text cannot disagree with what the step sends.
 */
export function describeParams(params: StreamsParams): string {
  const parts = [`${params.sizeMb} MB file`, `${params.chunkKb} KB chunks`, `${params.delayMs} ms per chunk`];
  if (params.cpuUs > 0) parts.push(`${params.cpuUs} µs of CPU per chunk`);
  if (params.budgetMb !== null && params.budgetMb !== DEFAULT_STREAMS_PARAMS.budgetMb) parts.push(`${params.budgetMb} MB budget`);
  if (params.retained) parts.push('retained mode');
  return parts.join(', ');
}

/**
 * The seven steps, their texts written from the presets they run: every figure a paragraph quotes
 * is read from `small` or `budget`, never typed in twice.
 */
export function buildLessonSteps(
  small: StreamsParams,
  budget: BudgetParams,
  holders: StreamsParams = holdersParams(small),
  calls: { one: StreamsParams; many: StreamsParams } = concurrencyParams(small),
): readonly LessonStep[] {
  return [
    {
      lab: LAB_ID,
      n: 1,
      title: 'Push vs pull',
      paragraphs: [
        `Both runs read the same ${small.sizeMb} MB file and hand each ${small.chunkKb} KB chunk to a consumer that takes ` +
          `${small.delayMs} ms. rxjs-from reads with an async iterator, but subscriber.next() never waits for the consumer, so it ` +
          'asks for the next chunk at once: the reader is driven by the disk. pipeline-generator asks for the next chunk only ' +
          'after the consumer finished the last one.',
      ],
      watch:
        'The buffer-level chart is bytes read minus bytes handed to the consumer. Push: a ramp up to the file size, then a slow ' +
        "drain. Pull: a low line a couple of highWaterMarks high (the chunk in the consumer's hands plus the one the stream " +
        'has read ahead), never near the file size; the conclusion below says how many highWaterMarks this run measured.',
      presets: [{ strategies: ['rxjs-from', 'pipeline-generator'], params: small }],
      conclude: ([push, pull]) => concludePushVsPull(push, pull),
    },
    {
      lab: LAB_ID,
      n: 2,
      title: 'Where the file goes: arrayBuffers, not the heap',
      paragraphs: [
        'A chunk from fs.createReadStream is a Buffer. Its bytes are allocated outside the V8 heap, so a push reader holding ' +
          'the whole file shows up in arrayBuffers (and external, which includes it) while heapUsed barely moves. A heap ' +
          'snapshot does list those bytes, but not among the JavaScript objects: they appear as one native entry, ' +
          '"system / JSArrayBufferData", about as large as the chunks still held.',
      ],
      watch: 'Compare the arrayBuffers line with heapUsed while the consumer falls behind.',
      presets: [{ strategies: ['rxjs-from'], params: small }],
      conclude: ([push]) => concludeWhereTheFileGoes(push),
    },
    {
      lab: LAB_ID,
      n: 3,
      title: "fromEvent + takeUntil('end') loses data",
      paragraphs: [
        "fromEvent(stream, 'data') attaches a 'data' listener, which switches the stream to flowing mode: the file is read as " +
          "fast as the disk allows and concatMap queues what the consumer has not taken yet. 'end' fires when the last chunk is " +
          "read, not when it is processed, and takeUntil('end') completes the whole pipeline at that moment.",
      ],
      watch: 'The run ends long before the consumer could have processed the file: compare bytes processed with the file size.',
      presets: [{ strategies: ['rxjs-fromEvent'], params: small }],
      conclude: ([s]) => concludeFromEventLoss(s),
    },
    {
      lab: LAB_ID,
      n: 4,
      title: 'Garbage awaiting collection vs memory really retained',
      paragraphs: [
        'ixjs-from is pull-based, yet a plain process.memoryUsage() can show megabytes of arrayBuffers: chunks the consumer has ' +
          'finished with but the garbage collector has not freed yet. The second run uses retained mode: the child collects ' +
          'garbage before every sample, so only memory something still references is counted.',
      ],
      watch: 'Same strategy, same file: the default run first, then the retained run. Compare their arrayBuffers peaks.',
      presets: [
        { strategies: ['ixjs-from'], params: small },
        { strategies: ['ixjs-from'], params: { ...small, retained: true } },
      ],
      conclude: ([plain, retained]) => concludeGarbageVsRetained(plain, retained),
    },
    {
      lab: LAB_ID,
      n: 5,
      title: 'A memory budget: the out-of-memory failure, reproduced safely',
      paragraphs: [
        `In the article the RxJS version died of out-of-memory on a large file. Here both runs read a file of ${budget.sizeMb} MB ` +
          `under an RSS budget of ${budget.budgetMb} MB, like a container's memory limit. The lab watches each child's RSS from ` +
          'outside and kills it when it passes the budget, so the failure is real but cannot take the machine down.',
      ],
      watch: 'The dashed line on the memory chart is the budget: rxjs-from crosses it and is stopped; pipeline-generator stays below.',
      presets: [{ strategies: ['rxjs-from', 'pipeline-generator'], params: budget }],
      conclude: ([push, pull]) => concludeMemoryBudget(push, pull),
    },
    {
      lab: LAB_ID,
      n: 6,
      title: 'Who holds the file?',
      paragraphs: [
        'The charts say how much memory a run holds, not what holds it. Both runs below take a heap snapshot ' +
          `${snapshotAt(holders)} after they start: V8 writes out every object and who refers to it, and the lab finds the ` +
          'largest holders and the chain of references from each up to a GC root, naming the functions whose closures are on it.',
        `The same file as the first step, but ${holders.delayMs} ms per chunk, so the consumer is still busy when the snapshots are taken.`,
      ],
      watch:
        'Each card lists its snapshot: the largest holder, its retainer path, and the classes that retain the most. The shaded ' +
        'band on the charts is the snapshot’s pause: the run stands still while V8 writes it.',
      presets: [{ strategies: ['rxjs-from', 'pipeline-generator'], params: holders }],
      conclude: ([push, pull]) => concludeWhoHoldsTheFile(push, pull),
    },
    {
      lab: LAB_ID,
      n: 7,
      title: 'How many calls in flight?',
      paragraphs: [
        'The real job calls an API for each record. Here the consumer is one: a mock API in a process of its own, answering in ' +
          `${calls.one.delayMs} ms at the median and ${calls.one.apiP99Ms} ms at p99, called over ${calls.one.apiPool} connections. ` +
          `A sequential reader waits for every answer, so throughput is one call per latency. readable-map takes a concurrency: ` +
          `with ${calls.many.concurrency} calls in flight it pulls the next chunk whenever one finishes.`,
        `rxjs-merge-map is RxJS's mergeMap(fn, ${calls.many.concurrency}): the same bound on the calls, over a reader that pushes. ` +
          `All three read ${calls.one.sizeMb} MB in ${calls.one.chunkKb} KB chunks.`,
      ],
      watch:
        'Records per second on each card, and arrayBuffers: the two bounded runs make the same number of calls at once, but only ' +
        'one of them holds the file.',
      presets: [
        { strategies: ['readable-map'], params: calls.one },
        { strategies: ['readable-map', 'rxjs-merge-map'], params: calls.many },
      ],
      conclude: ([one, bounded, push]) => concludeConcurrency(one, bounded, push),
    },
  ];
}

export const LESSON_STEPS: readonly LessonStep[] = buildLessonSteps(SMALL_PARAMS, BUDGET_PARAMS);
