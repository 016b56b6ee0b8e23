/**
 * The HTTP side every strategy but cluster shares: `/ping` answers at once (if the event loop is
 * free), `/fib?n=N` answers with what `compute` returns. Child side.
 */
import { createServer } from 'node:http';
import type { FibAnswer, FibRequest } from './fib';
import { fibParam } from './fib';
import { listenLocal } from '../../../server/child/listen';
import { endIfDenied } from '../../../server/child/denied';

export async function serveFib(port: number, compute: (req: FibRequest) => Promise<FibAnswer>): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    if (req.url === '/ping') return void res.end('pong');
    const ask = fibParam(req.url);
    if (ask === null) return void res.writeHead(404).end();
    compute(ask).then(
      (answer) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(answer));
      },
      (err: Error) => {
        // A fenced strategy of yours that tried what its fence forbids ends the run refused.
        endIfDenied(err);
        res.writeHead(500).end(err.message);
      },
    );
  });
  return listenLocal(server, port);
}
