import { describe, expect, it } from 'vitest';
import { applyTransition, availableTransitions, planTransitions } from './workflow.js';

const editor = { username: 'e', role: 'Editor' } as const;
const contributor = { username: 'c', role: 'Contributor' } as const;

describe('default workflow', () => {
  it('walks the shortest path of allowed transitions', () => {
    expect(planTransitions('Draft', 'Public', editor).map((t) => t.name)).toEqual(['Approve']);
    expect(planTransitions('Public', 'Draft', editor).map((t) => t.name)).toEqual(['Edit', 'Resubmit']);
    expect(planTransitions('Review', 'Archive', editor).map((t) => t.name)).toEqual(['Approve', 'Archive']);
    expect(planTransitions('Draft', 'Draft', contributor)).toEqual([]);
  });

  it('refuses what the role may not do, naming the reachable states', () => {
    expect(planTransitions('Draft', 'Review', contributor).map((t) => t.name)).toEqual(['Submit']);
    try {
      planTransitions('Draft', 'Public', contributor);
      expect.unreachable();
    } catch (err) {
      expect(err).toMatchObject({ status: 409, code: 'INVALID_TRANSITION', extra: { allowedStates: ['Review'] } });
    }
    expect(() => planTransitions('Draft', 'Nowhere', editor)).toThrow(/Cannot move/);
  });

  it('lists and applies transitions by name', () => {
    expect(availableTransitions('Public', editor).map((t) => t.name)).toEqual(['Edit', 'Archive']);
    expect(availableTransitions('Public', contributor).map((t) => t.name)).toEqual(['Edit']);
    expect(applyTransition('Review', 'Reject', editor)).toBe('Draft');
    expect(() => applyTransition('Review', 'Reject', contributor)).toThrow(/not available/);
  });
});
