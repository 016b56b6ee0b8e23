/**
 * A y-scale shared by several charts (the cards of one experiment), so 80 MB beside 220 MB reads
 * as smaller. Each chart reports the largest value it shows; the group's top is that maximum
 * rounded up to a "nice" number, and members are told only when the rounded top changes, so
 * a growing line does not make every card redraw on every sample.
 */

const NICE_STEPS = [1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10];

/** The smallest 1–1.25–1.5–2–2.5–3–4–5–6–8 × 10^k (in base-1024 steps for bytes) at or above `v`. */
export function niceCeil(v: number, base: 1000 | 1024 = 1000): number {
  if (!(v > 0)) return 1;
  let unit = 1;
  while (v / unit >= 1000) unit *= base;
  const scaled = v / unit;
  const mag = 10 ** Math.floor(Math.log10(scaled));
  const step = NICE_STEPS.find((s) => s * mag >= scaled - 1e-9) ?? 10;
  return step * mag * unit;
}

export class ScaleGroup {
  private readonly maxes = new Map<object, number>();
  private readonly listeners = new Map<object, () => void>();
  private top = 0;

  constructor(private readonly base: 1000 | 1024 = 1024) {}

  /** Joins the group; `onChange` runs when the shared top changes because of another member. */
  join(member: object, onChange: () => void): () => void {
    this.listeners.set(member, onChange);
    return () => {
      this.listeners.delete(member);
      this.maxes.delete(member);
      this.recompute(null);
    };
  }

  /** A member's current largest value. */
  report(member: object, max: number): void {
    if (this.maxes.get(member) === max) return;
    this.maxes.set(member, max);
    this.recompute(member);
  }

  /** The shared top of the y axis (0 before anyone reported a value). */
  max(): number {
    return this.top;
  }

  private recompute(changedBy: object | null): void {
    let max = 0;
    for (const v of this.maxes.values()) max = Math.max(max, v);
    // 5 % headroom keeps the top line off the frame.
    const top = max > 0 ? niceCeil(max * 1.05, this.base) : 0;
    if (top === this.top) return;
    this.top = top;
    for (const [member, onChange] of this.listeners) if (member !== changedBy) onChange();
  }
}

/**
 * The shared scales of one experiment's cards, one per kind of chart (memory, latency, CPU…):
 * cards on the same view share an axis; a card switched to another view joins that view's group.
 */
export class ScaleGroups {
  private readonly groups = new Map<string, ScaleGroup>();

  /** The group of a kind of chart; `base` 1024 for bytes, 1000 for every other unit. */
  of(kind: string, base: 1000 | 1024 = 1000): ScaleGroup {
    let group = this.groups.get(kind);
    if (!group) {
      group = new ScaleGroup(base);
      this.groups.set(kind, group);
    }
    return group;
  }
}
