/** The lessons' header: where you are, links between the lessons and back to the lab. */
import Link from 'next/link';
import type { ReactNode } from 'react';

export type LessonPage = 'index' | 'modes' | 'backpressure' | 'http' | 'cpu' | 'deadline' | 'hotcode';

const LINKS: Array<{ page: LessonPage; href: string; label: string }> = [
  { page: 'index', href: '/lessons', label: 'Lessons' },
  { page: 'modes', href: '/lessons/modes', label: 'Stream modes' },
  { page: 'backpressure', href: '/lessons/backpressure', label: 'Push vs pull' },
  { page: 'http', href: '/lessons/http', label: 'HTTP responses' },
  { page: 'cpu', href: '/lessons/cpu', label: 'CPU-bound requests' },
  { page: 'deadline', href: '/lessons/deadline', label: 'Deadlines' },
  { page: 'hotcode', href: '/lessons/hotcode', label: 'Hot code' },
];

export function LessonsNav({ current, children }: { current: LessonPage; children?: ReactNode }) {
  return (
    <header className="site-header lessons-header">
      <nav aria-label="Lessons" className="lessons-nav">
        <Link href="/" className="lessons-home">
          Stream Lab
        </Link>
        {LINKS.map((l) => (
          <Link key={l.page} href={l.href} aria-current={l.page === current ? 'page' : undefined}>
            {l.label}
          </Link>
        ))}
      </nav>
      {children && <div className="header-meta">{children}</div>}
    </header>
  );
}
