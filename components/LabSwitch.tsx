'use client';

/**
 * The lab the dashboard shows: its form, its strategies, its runs and results. Radio buttons drawn
 * as one segmented control, so the keyboard and screen readers treat it as one choice.
 */
import { LAB_NAMES, PAGE_LABS, type PageLabId } from '@/lib/labs';

export interface LabSwitchProps {
  lab: PageLabId;
  onChange(lab: PageLabId): void;
}

export function LabSwitch({ lab, onChange }: LabSwitchProps) {
  return (
    <fieldset className="lab-switch" data-testid="lab-switch" data-lab={lab}>
      <legend className="visually-hidden">Lab</legend>
      {PAGE_LABS.map((id) => (
        <label key={id} className={id === lab ? 'chosen' : undefined}>
          <input type="radio" name="lab" value={id} checked={id === lab} onChange={() => onChange(id)} data-testid={`lab-option-${id}`} />
          {LAB_NAMES[id]}
        </label>
      ))}
    </fieldset>
  );
}
