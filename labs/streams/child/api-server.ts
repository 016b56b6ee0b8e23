/**
 * The http consumer's mock API, in its own process (forked by consumers/http.ts, so its CPU and
 * memory are not the run's): each `POST /items` waits a latency drawn from a log-normal (median
 * p50Ms, 99th percentile p99Ms) and answers 200, or 500 for a seeded share `errorRate` of calls.
 * It counts the calls, bytes and checksum of the bodies it received and tells them when asked, so
 * the consumer can check every item arrived once. Listens on 127.0.0.1, port 0. Child build entry
 * (no zod).
 */
import { createServer, type ServerResponse } from 'node:http';
import { crc32 } from 'node:zlib';
import { send } from '../../../server/child/load-process';
import { listenLocal } from '../../../server/child/listen';
import { logNormal, logNormalSigma, prng } from '../../../server/child/numbers';
import { addToChecksum } from './consumers/checksum';

export interface ApiConfig {
  p50Ms: number;
  p99Ms: number;
  errorRate: number;
  seed: number;
}

/** What the API received, whole bodies only. */
export interface ApiCounts {
  calls: number;
  bytes: number;
  checksum: number;
}

/** The run's messages to the API, and the API's answers. */
export type ToApi = { type: 'start'; config: ApiConfig } | { type: 'counts' };
export type FromApi = { type: 'listening'; port: number } | ({ type: 'counts' } & ApiCounts);

function start(cfg: ApiConfig): void {
  const random = prng(cfg.seed);
  const sigma = logNormalSigma(cfg.p50Ms, cfg.p99Ms);
  const counts: ApiCounts = { calls: 0, bytes: 0, checksum: 0 };

  const answer = (res: ServerResponse, bodyCrc: number, bytes: number) => {
    counts.calls += 1;
    counts.bytes += bytes;
    counts.checksum = addToChecksum(counts.checksum, bodyCrc);
    // Drawn in arrival order from one seeded generator: the same run answers alike.
    const latencyMs = cfg.p50Ms > 0 ? logNormal(random, cfg.p50Ms, sigma) : 0;
    const status = random() < cfg.errorRate ? 500 : 200;
    const reply = () => res.writeHead(status, { 'content-length': 0 }).end();
    if (latencyMs === 0) return void reply();
    const timer = setTimeout(reply, latencyMs);
    // A call its client gave up on (its timeout) costs no more.
    res.once('close', () => clearTimeout(timer));
  };

  const server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/items') return void res.writeHead(404).end();
    let bodyCrc = 0;
    let bytes = 0;
    req.on('data', (piece: Buffer) => {
      bodyCrc = crc32(piece, bodyCrc);
      bytes += piece.length;
    });
    // A body cut off (its client went away) is not counted: it did not arrive.
    req.once('end', () => answer(res, bodyCrc, bytes));
  });
  // Longer than undici's own keep-alive (4 s), so the pool, not the server, decides when a connection idles out.
  server.keepAliveTimeout = 30_000;

  process.on('message', (m: ToApi) => {
    if (m.type === 'counts') send({ type: 'counts', ...counts } satisfies FromApi);
  });
  listenLocal(server).then(
    ({ port }) => send({ type: 'listening', port } satisfies FromApi),
    (err: Error) => {
      console.error(`mock API: ${err.message}`);
      process.exit(1);
    },
  );
}

process.once('message', (m: ToApi) => {
  if (m.type === 'start') start(m.config);
});
// The API lives exactly as long as its run: when the run's IPC channel closes, it goes too.
process.on('disconnect', () => process.exit(0));
