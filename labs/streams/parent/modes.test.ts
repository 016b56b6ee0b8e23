import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modesReportSchema, type Flowing, type ModesReport } from '../view/modes';
import { handleApi } from '../../../server/http/router';
import { routes as lessonRoutes } from './routes';
import { measureModes } from './modes';

/**
 * What Node's Stream documentation says readableFlowing is after each case ("Three states", "Two
 * reading modes", readable.resume(), readable.pipe(), 'readable' event). The quote is the reason.
 */
const DOCUMENTED: Record<string, { flowing: Flowing; docs: string }> = {
  fresh: { flowing: null, docs: "when readable.readableFlowing is null, no mechanism for consuming the stream's data is provided" },
  'on-data': { flowing: true, docs: "attaching a listener for the 'data' event ... readable.readableFlowing to true" },
  'add-listener-data': { flowing: true, docs: 'addListener is an alias of on' },
  'readable-listener': { flowing: false, docs: "the 'readable' event ... readableFlowing would become false" },
  resume: { flowing: true, docs: 'calling the readable.resume() method ... readableFlowing to true' },
  pipe: { flowing: true, docs: 'calling the readable.pipe() method ... readableFlowing to true' },
  pipeline: { flowing: true, docs: 'pipeline pipes the source into the destination (readable.pipe())' },
  pause: { flowing: false, docs: 'calling readable.pause() ... readableFlowing to be set as false' },
  'async-iterator': { flowing: false, docs: "the async iterator consumes with 'readable' and read() (paused mode) in Node 20" },
  'read-loop': { flowing: false, docs: "a 'readable' listener switches to paused mode; read() pulls from the buffer" },
  'read-only': { flowing: null, docs: 'read() is not one of the mechanisms that set readableFlowing' },
  unpipe: { flowing: false, docs: 'if there are pipe destinations, by removing all pipe destinations (readable.unpipe()) → paused' },
  'remove-data-listener': { flowing: true, docs: "removing 'data' event handlers will not automatically pause the stream" },
  'pause-then-data': { flowing: false, docs: "while readableFlowing is false ... attaching a 'data' listener will not switch it to true" },
  'readable-and-data': { flowing: false, docs: "if both 'readable' and 'data' are used at the same time, 'readable' takes precedence" },
  'resume-with-readable': { flowing: false, docs: "readable.resume() has no effect if there is a 'readable' event listening" },
  'pipe-backpressure': { flowing: false, docs: 'pipe() pauses the source when the destination write() returns false' },
  'pipeline-backpressure': { flowing: false, docs: 'pipeline() pipes, so it pauses the source the same way' },
};

/** The article's table (Node 20.11.0): s0–s7, with its "flowing"/"paused" as true/false. */
const ARTICLE: Record<string, Flowing> = { s0: null, s1: true, s2: true, s2a: false, s3: true, s4: true, s5: true, s6: false, s7: false };

describe('measureModes', () => {
  let report: ModesReport;

  beforeAll(async () => {
    report = await measureModes();
  });

  it('measures every documented case, and only those, in order', () => {
    expect(report.cases.map((c) => c.id)).toEqual(Object.keys(DOCUMENTED));
  });

  it.each(Object.entries(DOCUMENTED))('matches the Node docs for %s', (id, { flowing, docs }) => {
    const c = report.cases.find((x) => x.id === id)!;
    expect(c.error).toBeNull();
    expect(c.flowing, docs).toBe(flowing);
  });

  it("carries the article's s0–s7 rows, and this Node agrees with every one of them", () => {
    const rows = Object.fromEntries(report.cases.filter((c) => c.article).map((c) => [c.article!.label, c.article!.flowing]));
    expect(rows).toEqual(ARTICLE);
    const disagreeing = report.cases.filter((c) => c.article && c.article.flowing !== c.flowing).map((c) => c.id);
    expect(disagreeing).toEqual([]);
  });

  it('shows the code that ran and the helpers it uses', () => {
    const code = (id: string) => report.cases.find((c) => c.id === id)!.code;
    expect(code('on-data')).toBe("s.on('data', nothing);");
    expect(code('unpipe')).toBe('const w = devNull();\ns.pipe(w);\ns.unpipe(w);');
    expect(code('pipe-backpressure')).toBe("s.pipe(stuck());\nawait once(s, 'pause');");
    expect(report.helpers).toContain('const stuck = () => new Writable({ highWaterMark: 1, write() {} });');
  });

  it('reports the Node that ran the probe', () => {
    expect(report.nodeVersion).toBe(process.versions.node);
    expect(report.durationMs).toBeGreaterThan(0);
  });
});

describe('GET /api/lessons/modes', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      void handleApi(lessonRoutes, req, res).then((handled) => {
        if (!handled) res.writeHead(404).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('answers a fresh, schema-valid measurement on every request', async () => {
    const first = modesReportSchema.parse(await (await fetch(`${base}/api/lessons/modes`)).json());
    const second = modesReportSchema.parse(await (await fetch(`${base}/api/lessons/modes`)).json());
    expect(second.measuredAt).toBeGreaterThan(first.measuredAt);
    expect(first.cases.find((c) => c.id === 'on-data')!.flowing).toBe(true);
  });

  it('answers another method with a typed 405', async () => {
    const res = await fetch(`${base}/api/lessons/modes`, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(await res.json()).toEqual({ type: 'error', code: 'bad-request', message: 'POST is not allowed on /api/lessons/modes' });
  });
});
