/**
 * The HTTP side every strategy shares: `GET /fetch?id=N` starts the request's deadline timer, runs
 * the strategy's fetch-and-work, and answers `complete` or — when the timer fires first —
 * `timed-out` with what it had, aborting the rest (the write-up's Octo returned what it got from
 * S3 by then). A strategy may refuse a request before any of that (503). Child side.
 */
import { createServer } from 'node:http';
import { request, type Agent } from 'undici';
import { work } from './work';
import { countWork, type DeadlineContext } from './strategy';
import { listenLocal } from '../../../server/child/listen';
import { endIfDenied } from '../../../server/child/denied';

/** What the service answers; the load classifies it. */
export interface FetchAnswer {
  id: number;
  outcome: 'complete' | 'timed-out' | 'refused';
  /** Objects fetched and worked before the answer. */
  objects: number;
}

/** Fetches one object's body from the store (its GET aborted with the request's deadline). */
export async function getObject(ctx: DeadlineContext, agent: Agent, objectId: number, signal: AbortSignal): Promise<string> {
  const res = await request(`${ctx.storeOrigin}/objects/${objectId}`, { dispatcher: agent, signal });
  if (res.statusCode !== 200) {
    await res.body.dump();
    throw new Error(`store answered ${res.statusCode} for object ${objectId}`);
  }
  const body = await res.body.text();
  ctx.counters.objectsFetched += 1;
  return body;
}

/** The object's CPU work on this thread (the main thread, for every strategy but worker-pool). */
export function workHere(ctx: DeadlineContext, body: string): void {
  const t = performance.now();
  work(body, ctx.rounds);
  countWork(ctx.counters, performance.now() - t);
}

/** One request as a strategy sees it: its id, its deadline's abort signal, and its objects worked so far. */
export interface RequestState {
  id: number;
  signal: AbortSignal;
  worked: number;
}

/** Runs `each` for the request's K objects at once; `each` resolves true when it did the object's work. */
export async function forEachObject(ctx: DeadlineContext, req: RequestState, each: (objectId: number) => Promise<boolean>): Promise<void> {
  await Promise.all(
    Array.from({ length: ctx.objects }, async (_, i) => {
      if (await each(req.id * ctx.objects + i)) req.worked += 1;
    }),
  );
}

/** Serves the fetch endpoint with `handle` (the strategy's part); `admit` may refuse a request first. */
export async function serveDeadline(
  ctx: DeadlineContext,
  handle: (req: RequestState) => Promise<void>,
  admit: () => boolean = () => true,
): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const m = /^\/fetch\?id=(\d{1,9})$/.exec(req.url ?? '');
    if (!m) return void res.writeHead(404).end();
    const id = Number(m[1]);
    const reply = (status: number, a: FetchAnswer) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(a));
    if (!admit()) return reply(503, { id, outcome: 'refused', objects: 0 });

    const aborter = new AbortController();
    const state: RequestState = { id, signal: aborter.signal, worked: 0 };
    let answered = false;
    const dueAt = performance.now() + ctx.deadlineMs;
    const timer = setTimeout(() => {
      ctx.lateness.record('deadline', dueAt, performance.now());
      answered = true;
      aborter.abort();
      reply(200, { id, outcome: 'timed-out', objects: state.worked });
    }, ctx.deadlineMs);
    // A client that hung up needs no more GETs or work.
    res.once('close', () => aborter.abort());
    handle(state).then(
      () => {
        if (answered) return;
        answered = true;
        clearTimeout(timer);
        reply(200, { id, outcome: 'complete', objects: state.worked });
      },
      (err: Error) => {
        // A fenced strategy of yours that tried what its fence forbids ends the run refused, deadline or not.
        endIfDenied(err);
        if (answered || aborter.signal.aborted) return;
        answered = true;
        clearTimeout(timer);
        res.writeHead(500).end(err.message);
      },
    );
  });
  server.keepAliveTimeout = 30_000;
  return listenLocal(server, ctx.port);
}
