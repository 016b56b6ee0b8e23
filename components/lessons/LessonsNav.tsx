/** The lessons' header: where you are, links between the lessons and back to the lab. */
import Link from 'next/link';
import type { ReactNode } from 'react';
import { LESSONS } from '@/labs/lessons';
import { ThemeToggle } from '@/components/ThemeToggle';

/** 'index' for the lessons' index, else a lesson's slug. */
export type LessonPage = string;

/** Built when first drawn, not on import: the lessons themselves import this header (labs/views.ts → a lab's walkthrough → here). */
function links(): Array<{ page: LessonPage; href: string; label: string }> {
  return [{ page: 'index', href: '/lessons', label: 'Lessons' }, ...LESSONS.map((l) => ({ page: l.slug, href: `/lessons/${l.slug}`, label: l.nav }))];
}

export function LessonsNav({ current, children }: { current: LessonPage; children?: ReactNode }) {
  return (
    <header className="site-header lessons-header">
      <nav aria-label="Lessons" className="lessons-nav">
        <Link href="/" className="lessons-home">
          Stream Lab
        </Link>
        {links().map((l) => (
          <Link key={l.page} href={l.href} aria-current={l.page === current ? 'page' : undefined}>
            {l.label}
          </Link>
        ))}
      </nav>
      <div className="header-meta">
        {children}
        <ThemeToggle />
      </div>
    </header>
  );
}
