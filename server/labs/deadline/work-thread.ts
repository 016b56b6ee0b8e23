/** The piscina pool's task (worker-pool): one object's work on a worker thread. Child build entry. */
import { work } from './work';

export default function task({ body, rounds }: { body: string; rounds: number }): number {
  return work(body, rounds);
}
