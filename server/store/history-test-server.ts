/**
 * A real server process for tests and measurement scripts: the same wiring as server/index.ts
 * (queue → history, server with the history routes) without Next, so it needs no build. Prints
 * its URL, then serves until killed. Not used by the app.
 */
import { createLabServer } from '../app-server';
import { RunQueue } from '../queue/run-queue';
import { ensureChildBuild } from '../runner/child-build';
import { enableChildPriority } from '../runner/child-priority';
import { enableSpareChild } from '../runner/spare-child';
import { closeOnSignals } from '../shutdown';
import { openHistory } from './history';

enableChildPriority();
const history = await openHistory();
const queue = new RunQueue();
queue.subscribe(history.observer);
const server = await createLabServer({ port: 0, host: '127.0.0.1', next: false, queue, routes: history.routes });
enableSpareChild(await ensureChildBuild());
console.log(`history test server ready on ${server.url}`);

closeOnSignals({ queue, server, history }, () => undefined);
// Started by a test with an IPC channel: if the test process dies (a failed test, a killed
// worker), this server goes too instead of living on.
if (process.send) process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
