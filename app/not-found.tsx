import type { Metadata } from 'next';
import Link from 'next/link';

export const metadata: Metadata = { title: 'Not found · Stream Lab' };

/**
 * Any unknown address, and a recorded run that isn't (or is no longer) in the history: the
 * server answers those 404 itself (server/store/history.ts pageGuards), with this page.
 */
export default function NotFound() {
  return (
    <main className="layout">
      <section className="panel" data-testid="not-found">
        <h1>Not found</h1>
        <p>
          Nothing is at this address. A recorded run may have been deleted or dropped by the history&apos;s retention (STREAM_LAB_KEEP_RUNS,
          STREAM_LAB_KEEP_MB).
        </p>
        <p>
          <Link href="/runs">Run history</Link> · <Link href="/">The lab</Link>
        </p>
      </section>
    </main>
  );
}
