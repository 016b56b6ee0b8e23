/** The piscina pool's task (worker-pool): one object's work on a worker thread. Child build entry. */
import { work } from './work';

/** Returns how long the work took on this thread (ms). */
export default function task({ body, rounds }: { body: string; rounds: number }): number {
  const t = performance.now();
  work(body, rounds);
  return performance.now() - t;
}
