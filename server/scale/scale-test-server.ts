/**
 * A web server on the Redis back end for tests and the scale-out benchmark: server/index.ts's
 * wiring with STREAM_LAB_REDIS_URL set, without Next (no build needed). Prints its URL, serves
 * until killed. Not used by the app.
 */
import { createLabServer } from '../app-server';
import { closeOnSignals } from '../shutdown';
import { openHistory } from '../store/history';
import { readRedisUrl } from './redis-config';
import { RedisQueue } from './redis-queue';

const url = readRedisUrl();
if (!url) throw new Error('STREAM_LAB_REDIS_URL is not set');
const history = await openHistory();
const queue = new RedisQueue(url);
await queue.ready();
queue.subscribe(history.observer);
const server = await createLabServer({
  port: Number(process.env.PORT ?? 0),
  host: '127.0.0.1',
  next: false,
  queue,
  routes: history.routes,
  rateLimits: { 'experiment.start': { burst: 100, everyMs: 10 } },
});
console.log(`scale test server ready on ${server.url}`);

closeOnSignals({ queue, server, history }, () => undefined);
// Started by a test with an IPC channel: if the test process dies, this server goes too.
if (process.send) process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
