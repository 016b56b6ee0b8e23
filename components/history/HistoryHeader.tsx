/** Header of the history pages: where you are, and the way back to the lab. */
import Link from 'next/link';
import { ThemeToggle } from '@/components/ThemeToggle';

export function HistoryHeader({ title }: { title: string }) {
  return (
    <header className="site-header">
      <div>
        <h1>{title}</h1>
        <p className="tagline">Recorded runs: keep them, compare them, export them, embed them.</p>
      </div>
      <nav className="history-nav" aria-label="Pages">
        <Link href="/">Lab</Link>
        <Link href="/runs">History</Link>
        <ThemeToggle />
      </nav>
    </header>
  );
}
