/**
 * The mock object store (S3 in the write-up), in its own process: `GET /objects/<id>` answers the
 * object's JSON after a latency drawn from a log-normal distribution (median `medianMs`, σ 0.7, so
 * p99 ≈ 5× the median and a few GETs much slower), from a seeded generator so runs repeat. Listens
 * on 127.0.0.1, port 0, and tells its run the port. Child build entry (no zod).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { send } from '../../../server/child/load-process';
import { objectBody } from './work';
import { logNormal, prng } from '../../../server/child/numbers';

export interface StoreConfig {
  medianMs: number;
  seed: number;
}

/** The store's messages to its run. */
export type StoreMessage = { type: 'listening'; port: number };

const SIGMA = 0.7;
const BODIES = 64;

function start(cfg: StoreConfig): void {
  const random = prng(cfg.seed);
  // The bodies are made once: the store's own CPU stays small, whatever the load.
  const bodies = Array.from({ length: BODIES }, (_, i) => objectBody(i));
  const server = createServer((req, res) => {
    const m = /^\/objects\/(\d{1,9})$/.exec(req.url ?? '');
    if (!m) return void res.writeHead(404).end();
    const body = bodies[Number(m[1]) % BODIES];
    const timer = setTimeout(
      () => res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body),
      logNormal(random, cfg.medianMs, SIGMA),
    );
    // A GET its client gave up on (the service's deadline aborted it) costs no more.
    res.once('close', () => clearTimeout(timer));
  });
  server.keepAliveTimeout = 30_000;
  server.listen(0, '127.0.0.1', () => send({ type: 'listening', port: (server.address() as AddressInfo).port } satisfies StoreMessage));
}

process.once('message', (m: { type: 'start'; config: StoreConfig }) => start(m.config));
// The store lives exactly as long as its run: when the run's IPC channel closes, it goes too.
process.on('disconnect', () => process.exit(0));
