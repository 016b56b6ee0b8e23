/** The dashboard's link to the current lab's lesson (its first), or to the lessons' index for a lab without one. */
import Link from 'next/link';
import { firstLessonOf } from '@/labs/lessons';

export function LessonsLink({ lab }: { lab: string }) {
  const lesson = firstLessonOf(lab);
  return (
    <Link href={lesson ? `/lessons/${lesson.slug}` : '/lessons'} className="lessons-link" data-testid="lessons-link" data-lab={lab}>
      {lesson ? `Lesson: ${lesson.heading}` : 'Lessons'}
    </Link>
  );
}
