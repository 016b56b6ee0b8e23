/** The lessons' landing page: what each lesson teaches and a link to it. */
import Link from 'next/link';
import { LessonsNav } from './LessonsNav';

export function LessonsIndex() {
  return (
    <>
      <LessonsNav current="index" />
      <main className="lessons-layout">
        <header className="lesson-intro">
          <h1>Lessons</h1>
          <p>
            The dashboard shows <em>that</em> a push reader such as RxJS <code>from(stream)</code> buffers the whole file. These lessons
            show <em>why</em>, with values measured live on this server.
          </p>
        </header>
        <ul className="lessons-list">
          <li className="panel">
            <h2>
              <Link href="/lessons/modes">Stream modes: flowing or paused?</Link>
            </h2>
            <p>
              What <code>readableFlowing</code> is after each way of touching a stream: a &apos;data&apos; listener, an async iterator,
              pipe, pipeline, pause, unpipe and more, measured in a fresh Node process every time.
            </p>
          </li>
          <li className="panel">
            <h2>
              <Link href="/lessons/backpressure">Push vs pull, step by step</Link>
            </h2>
            <p>
              Five short live runs: push vs pull, where the file goes in memory, how fromEvent + takeUntil loses data, garbage vs
              retained memory, and the out-of-memory failure under a memory budget.
            </p>
          </li>
          <li className="panel">
            <h2>
              <Link href="/lessons/http">HTTP responses: buffered or streamed</Link>
            </h2>
            <p>
              Three live runs of the HTTP lab: a buffered JSON response against a cursor streamed into the response, a response
              streamed out but buffered in, and slow clients against writes that ignore <code>drain</code>.
            </p>
          </li>
          <li className="panel">
            <h2>
              <Link href="/lessons/cpu">CPU-bound requests: one thread, processes, threads, pools</Link>
            </h2>
            <p>
              Four live runs of the CPU lab: one thread queueing requests, processes up to the cores, what spawning per request costs
              against a pool, and the leaky pool that answers requests with each other&apos;s results.
            </p>
          </li>
          <li className="panel">
            <h2>
              <Link href="/lessons/deadline">Deadlines under a traffic spike</Link>
            </h2>
            <p>
              Two live runs of the deadlines lab: a service whose timers fire late once a spike asks more than a core of its event loop,
              against a worker pool; then a limit on the GETs against shedding load with 503.
            </p>
          </li>
          <li className="panel">
            <h2>
              <Link href="/lessons/hotcode">Hot code: toLocaleString and a spreading groupBy</Link>
            </h2>
            <p>
              Three live runs of the hot-code lab: a report that freezes the server (and its fix), what a time-zone{' '}
              <code>toLocaleString</code> costs against a cached formatter, and a sweep showing rows² against rows.
            </p>
          </li>
        </ul>
      </main>
    </>
  );
}
