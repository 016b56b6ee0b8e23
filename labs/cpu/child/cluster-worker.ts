/**
 * A cluster worker: the same HTTP server as single-thread, listening on the primary's shared port
 * (the primary hands each new connection to a worker, round-robin). Child build entry.
 */
import { createServer } from 'node:http';
import { fibParam, timedFib } from './fib';

const port = Number(process.env.STREAM_LAB_CPU_PORT);
createServer((req, res) => {
  if (req.url === '/ping') return void res.end('pong');
  const ask = fibParam(req.url);
  if (ask === null) return void res.writeHead(404).end();
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ id: ask.id, n: ask.n, ...timedFib(ask.n), servedBy: String(process.pid), spawnMs: 0 }));
}).listen(port, '127.0.0.1', () => process.send?.({ type: 'listening' }));
process.on('disconnect', () => process.exit(0));
