/**
 * A real server process for the restart tests: the same history wiring as server/index.ts
 * (openHistory → observer + routes) without Next, so it needs no build. Prints its URL, then
 * serves until killed. Not used by the app.
 */
import { createLabServer } from '../app-server';
import { closeOnSignals } from '../shutdown';
import { openHistory } from './history';

const history = await openHistory();
const lab = await createLabServer({ port: 0, host: '127.0.0.1', next: false, observers: [history.observer], routes: history.routes });
console.log(`history test server ready on ${lab.url}`);

closeOnSignals(lab, () => history.close(), () => undefined);
