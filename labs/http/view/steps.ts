/**
 * The HTTP walkthrough: three steps, each running a small preset experiment of the HTTP lab and
 * concluding from its runs. Every figure a text quotes is read from the presets. Client-safe, pure.
 */
import { DEFAULT_HTTP_PARAMS, type HttpParams } from '../shared/params';
import { formatCount } from '../../../lib/readouts/format';
import { concludeBufferedIn, concludeBufferedVsStreamed, concludeSlowClients } from './conclusions';
import type { LessonStep } from '../../../lib/lessons/lesson';
import { LAB_ID } from '../shared/id';

export type HttpLessonStep = LessonStep<typeof LAB_ID>;

/**
 * Big enough that ten buffered responses at once stand out from the server's own heap, small enough
 * that a run takes seconds on two cores: one wave of ten requests at once. Twenty (two waves) took
 * about twice as long and peaked higher (buffered-json 382 MB, cursor 64 MB), but one wave already
 * shows both steps' lessons with room to spare. Measured over three runs of each
 * (`npm run bench -- --lab http --rows 100000 --requests 10 --concurrency 10`, 2026-11-25, two shared
 * cores): buffered-json peaked at 196–213 MB, ndjson-cursor at 48–63 MB (3.2–4.4×, the lesson needs 2×),
 * ndjson-all-rows at 136–138 MB (1.4–1.6× below buffered-json, the lesson needs under 2×); 5–13 s a run.
 * The watchdog is short so a stuck step cannot hold the shared queue for ten minutes.
 */
export const LOAD_PARAMS: HttpParams = { ...DEFAULT_HTTP_PARAMS, rows: 100_000, requests: 10, concurrency: 10, timeoutS: 120 };

/**
 * Slow readers of responses big enough (200,000 rows, ~14 MB) to outgrow what the kernel's socket
 * buffers absorb, so what a writer queues shows in writableLength. At 2,048 KB/s a run takes 9.5 s
 * and write-ignoring-drain's socket buffers held 20.7 MB against 0.1 MB for the cursor; at
 * 1,024 KB/s (the first preset) 38.0 MB against 0.1 MB but 16.3 s a run, at 4,096 KB/s 5.6–6.7 MB
 * (5.9 s), at 8,192 KB/s nothing queued (`npm run bench -- --lab http --strategies
 * write-ignoring-drain,ndjson-cursor --rows 200000 --requests 2 --concurrency 2 --slow-clients 4
 * --slow-kbps 2048`, 2026-11-25, two shared cores). With 100,000 rows it was 0–2.6 MB from run to
 * run. Two fast requests keep the run short.
 */
export const SLOW_PARAMS: HttpParams = { ...LOAD_PARAMS, rows: 200_000, requests: 2, concurrency: 2, slowClients: 4, slowKbps: 2048 };

/** "100,000 rows, 20 requests, 10 at once, 4 slow clients at 2,048 KB/s": a preset's figures. */
export function describeHttpParams(p: HttpParams): string {
  const parts = [`${formatCount(p.rows)} rows`, `${formatCount(p.requests)} requests`, `${p.concurrency} at once`];
  if (p.slowClients > 0) parts.push(`${p.slowClients} slow clients at ${formatCount(p.slowKbps)} KB/s`);
  return parts.join(', ');
}

export function buildHttpLessonSteps(load: HttpParams, slow: HttpParams): readonly HttpLessonStep[] {
  return [
    {
      lab: LAB_ID,
      n: 1,
      title: 'A buffered response vs a streamed one',
      paragraphs: [
        `Both runs serve all ${formatCount(load.rows)} rows of a table, ${load.concurrency} clients at once, ${load.requests} requests in all. ` +
          'buffered-json is the usual endpoint: pool.query loads every row as an object, JSON.stringify builds the whole body, res.end ' +
          `sends it. ndjson-cursor reads the rows through a cursor, ${load.cursorRows} at a time, and pipes them into the response with ` +
          'stream.pipeline, which waits whenever the client is behind.',
      ],
      watch: 'Compare heapUsed on the two memory charts (same scale). Then the latencies: streaming is not free.',
      presets: [{ strategies: ['buffered-json', 'ndjson-cursor'], params: load }],
      conclude: ([buffered, cursor]) => concludeBufferedVsStreamed(buffered, cursor),
    },
    {
      lab: LAB_ID,
      n: 2,
      title: 'Streamed out, buffered in',
      paragraphs: [
        'ndjson-all-rows writes one NDJSON line per row and waits for drain like a good stream, so its response is streamed. But it ' +
          'gets its rows from pool.query, which returns all of them at once: every row is already in memory before the first line ' +
          'goes out.',
      ],
      watch: 'Its heapUsed climbs like the buffered run’s, not like the cursor’s of step 1.',
      presets: [{ strategies: ['buffered-json', 'ndjson-all-rows'], params: load }],
      conclude: ([buffered, allRows]) => concludeBufferedIn(buffered, allRows),
    },
    {
      lab: LAB_ID,
      n: 3,
      title: 'Slow clients: res.write without drain',
      paragraphs: [
        `Now ${slow.slowClients} extra clients each read one response of ${formatCount(slow.rows)} rows at ${formatCount(slow.slowKbps)} KB/s, ` +
          "more than the kernel's socket buffers absorb. write-ignoring-drain reads the " +
          'same cursor but passes every batch to res.write whatever it returns: what the client has not read yet stays queued in the ' +
          'server, in the socket’s writableLength. ndjson-cursor’s pipeline stops reading the cursor until the socket drains.',
      ],
      watch: 'The dotted line on the memory charts is socket buffers: the bytes queued for clients that have not read them.',
      presets: [{ strategies: ['write-ignoring-drain', 'ndjson-cursor'], params: slow }],
      conclude: ([drain, cursor]) => concludeSlowClients(drain, cursor),
    },
  ];
}

export const HTTP_LESSON_STEPS: readonly HttpLessonStep[] = buildHttpLessonSteps(LOAD_PARAMS, SLOW_PARAMS);
