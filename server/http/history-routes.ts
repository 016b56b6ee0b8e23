/**
 * The history API: list, read, delete and export recorded runs. Every query parameter is
 * validated (lib/history/) and a bad one is answered with a typed error naming it.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { publicId, readOperatorToken, sameSecret } from '../hub/identity';
import { HISTORY_LIMITS, parseListQuery, parsePoints, parseRunIds, runIdSchema, type RunListResponse, type RunRecord } from '../../lib/history';
import { samplesToCsv, summariesToCsv, summariesToMarkdown } from '../../lib/history/export';
import type { RunStore } from '../store/run-store';
import { strategyCatalog } from '../../labs/catalog';
import { verdictFor } from '../../labs/verdicts';
import { API_HEADERS, sendError, sendJson, type Route, type RouteContext } from './router';

const SUMMARY_LIMITS = { min: 1, max: HISTORY_LIMITS.compare.max };

/** Headers a page sends with a delete: its browser id, or the operator token. */
export const BROWSER_HEADER = 'x-stream-lab-browser';
export const OPERATOR_HEADER = 'x-stream-lab-operator';

/** The one rule for deleting a record: a run nobody in a room started is anyone's; an owned one its browser's or the operator's. */
function mayDelete(ownerId: string | null, headers: IncomingHttpHeaders): boolean {
  if (ownerId === null) return true;
  const browser = headers[BROWSER_HEADER];
  const token = headers[OPERATOR_HEADER];
  const operatorToken = readOperatorToken();
  if (typeof token === 'string' && operatorToken !== null && sameSecret(token, operatorToken)) return true;
  return typeof browser === 'string' && publicId(browser) === ownerId;
}

function sendDownload(res: ServerResponse, body: string, type: string, fileName: string): void {
  res.writeHead(200, {
    'content-type': `${type}; charset=utf-8`,
    'content-disposition': `attachment; filename="${fileName}"`,
    'cache-control': 'no-store',
    ...API_HEADERS,
  });
  res.end(body);
}

/** The id path parameter, or null after answering 400. */
function runId(ctx: RouteContext): string | null {
  const parsed = runIdSchema.safeParse(ctx.params.id);
  if (parsed.success) return parsed.data;
  sendError(ctx.res, 400, 'bad-request', parsed.error.issues[0].message);
  return null;
}

/** The records for ?ids=, or null after answering 400/404. */
function recordsFor(ctx: RouteContext, store: RunStore): RunRecord[] | null {
  const ids = parseRunIds(ctx.url.searchParams.get('ids'), SUMMARY_LIMITS);
  if (!ids.ok) {
    sendError(ctx.res, 400, 'bad-request', ids.error);
    return null;
  }
  const records = ids.value.map((id) => store.record(id));
  const missing = ids.value.filter((_, i) => records[i] === null);
  if (missing.length) {
    sendError(ctx.res, 404, 'not-found', `no recorded run with id ${missing.join(', ')}`);
    return null;
  }
  return records as RunRecord[];
}

/**
 * The record as served: a finished run's summary with its verdict, made now from the experiment's
 * other finished runs (a comparison changes as they end, so it is never stored). A copy: the store's
 * record stays as written.
 */
function withVerdict(store: RunStore, record: RunRecord): RunRecord {
  const s = record.run.summary;
  if (!s) return record;
  const others = store.experimentRecords(record.run.experimentId).flatMap((r) => (r.run.summary ? [r.run.summary] : []));
  return { ...record, run: { ...record.run, summary: { ...s, verdict: verdictFor(s, others) } } };
}

const strategyLabels = () => Object.fromEntries(strategyCatalog().map((s) => [`${s.lab}/${s.id}`, s.label]));

/** Routes under /api/runs, /api/summaries and /api/strategies. */
export function historyRoutes(store: RunStore): Route[] {
  return [
    {
      method: 'GET',
      pattern: /^\/api\/runs$/,
      handle(ctx) {
        const q = parseListQuery(ctx.url.searchParams);
        if (!q.ok) return sendError(ctx.res, 400, 'bad-request', q.error);
        // Told per run only to a page that says which browser it is, so it offers Delete where a delete would be allowed.
        const asked = ctx.req.headers[BROWSER_HEADER] !== undefined || ctx.req.headers[OPERATOR_HEADER] !== undefined;
        const runs = store.list(q.value).map((r) => (asked ? { ...r, mayDelete: mayDelete(r.owner?.id ?? null, ctx.req.headers) } : r));
        const body: RunListResponse = { runs, total: store.count(), warnings: store.warnings(), storage: store.storage() };
        sendJson(ctx.res, 200, body);
      },
    },
    {
      method: 'GET',
      pattern: /^\/api\/runs\/(?<id>[^/]+)$/,
      async handle(ctx) {
        const id = runId(ctx);
        if (!id) return;
        const points = parsePoints(ctx.url.searchParams.get('points'));
        if (!points.ok) return sendError(ctx.res, 400, 'bad-request', points.error);
        const detail = await store.read(id, points.value);
        if (!detail) return sendError(ctx.res, 404, 'not-found', `no recorded run with id ${id}`);
        sendJson(ctx.res, 200, { ...detail, record: withVerdict(store, detail.record) });
      },
    },
    {
      method: 'DELETE',
      pattern: /^\/api\/runs\/(?<id>[^/]+)$/,
      async handle(ctx) {
        const id = runId(ctx);
        if (!id) return;
        // A run started by a browser in the room is that browser's (or the operator's) to delete.
        const owner = store.record(id)?.experiment?.owner ?? null;
        if (owner && !mayDelete(owner.id, ctx.req.headers)) {
          const who = owner.name ? `${owner.name}'s browser` : 'the browser that started it';
          return sendError(ctx.res, 403, 'forbidden', `only ${who} can delete run ${id}, or the operator (STREAM_LAB_OPERATOR_TOKEN)`);
        }
        const result = await store.remove(id);
        if (result === 'not-found') return sendError(ctx.res, 404, 'not-found', `no recorded run with id ${id}`);
        if (result === 'active') return sendError(ctx.res, 409, 'bad-request', `run ${id} is still going: stop it before deleting its record`);
        ctx.res.writeHead(204).end();
      },
    },
    {
      method: 'GET',
      pattern: /^\/api\/runs\/(?<id>[^/]+)\/(?<file>samples\.csv|run\.json)$/,
      async handle(ctx) {
        const id = runId(ctx);
        if (!id) return;
        const all = await store.readAll(id);
        if (!all) return sendError(ctx.res, 404, 'not-found', `no recorded run with id ${id}`);
        const base = `${id}-${all.record.run.strategy}`;
        if (ctx.params.file === 'samples.csv') sendDownload(ctx.res, samplesToCsv(all.samples), 'text/csv', `${base}-samples.csv`);
        else sendDownload(ctx.res, JSON.stringify({ ...all, record: withVerdict(store, all.record) }, null, 1), 'application/json', `${base}.json`);
      },
    },
    {
      method: 'GET',
      pattern: /^\/api\/summaries\.(?<format>csv|json|md)$/,
      handle(ctx) {
        const found = recordsFor(ctx, store);
        if (!found) return;
        const records = found.map((r) => withVerdict(store, r));
        const name = records.length === 1 ? `${records[0].run.id}-summary` : `stream-lab-${records.length}-runs`;
        if (ctx.params.format === 'csv') sendDownload(ctx.res, summariesToCsv(records), 'text/csv', `${name}.csv`);
        else if (ctx.params.format === 'md') sendDownload(ctx.res, summariesToMarkdown(records, strategyLabels()), 'text/markdown', `${name}.md`);
        else sendDownload(ctx.res, JSON.stringify(records, null, 1), 'application/json', `${name}.json`);
      },
    },
    {
      method: 'GET',
      pattern: /^\/api\/strategies$/,
      // The catalog, so history pages can name strategies without opening the live socket.
      handle: ({ res }) => sendJson(res, 200, strategyCatalog()),
    },
  ];
}
