/** A small link to the lessons, for the dashboard to place wherever it suits (e.g. its header). */
import Link from 'next/link';

export function LessonsLink() {
  return (
    <Link href="/lessons" className="lessons-link" data-testid="lessons-link">
      Lessons: why push readers buffer
    </Link>
  );
}
