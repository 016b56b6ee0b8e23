import { describe, expect, it } from 'vitest';
import { codeHeightPx } from './code-height';

describe('codeHeightPx', () => {
  it('adds up rows of blocks, each row as tall as its longest block', () => {
    // Two columns: rows [10, 20] and [5]: 60 + (20 × 18.2 + 150 + 14) + (5 × 18.2 + 150 + 14).
    expect(codeHeightPx([10, 20, 5], 2)).toBe(843);
    // One column (a phone): every block on its own row.
    expect(codeHeightPx([10, 20, 5], 1)).toBe(1189);
  });

  it('is the heading alone with no code, far below the 2,400 px it used to reserve', () => {
    expect(codeHeightPx([], 3)).toBe(60);
  });
});
