/** The accent colour's contrast rule (docs/decisions/050-organization-identity.md), as the server and the Settings form apply it. */
import { describe, expect, it } from 'vitest';
import { accentVerdict, contrastRatio } from '../../shared/organization';

describe('the accent colour contrast', () => {
  it('computes WCAG ratios: black on white is 21:1, #767676 on white just over 4.5:1, either order', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#767676')).toBeCloseTo(4.54, 2);
    expect(contrastRatio('#767676', '#ffffff')).toBe(contrastRatio('#ffffff', '#767676'));
  });

  it("takes the theme's own blue and a dark plum, refuses a yellow and a mid grey that passes on white but not on the banner background", () => {
    expect(accentVerdict('#0b5cad').passes).toBe(true);
    expect(accentVerdict('#7a1f5c').passes).toBe(true);
    expect(accentVerdict('#ffcc00')).toEqual({ ratio: 1.31, passes: false });
    // 4.54:1 on white, under 4.5:1 on #e7f0fb: the lowest contrast decides
    expect(accentVerdict('#767676').passes).toBe(false);
    expect(accentVerdict('#767676').ratio).toBeLessThan(4.5);
  });
});
