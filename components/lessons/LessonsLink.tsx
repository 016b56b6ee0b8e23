/** The dashboard's link to the current lab's lesson (its first), or to the lessons' index for a lab without one. */
import Link from 'next/link';
import { labView } from '@/labs/views';

export function LessonsLink({ lab }: { lab: string }) {
  const lesson = labView(lab)?.lessons[0];
  return (
    <Link href={lesson ? `/lessons/${lesson.slug}` : '/lessons'} className="lessons-link" data-testid="lessons-link" data-lab={lab}>
      {lesson ? `Lesson: ${lesson.heading}` : 'Lessons'}
    </Link>
  );
}
