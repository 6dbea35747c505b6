import { describe, expect, it } from 'vitest';
import { not, or } from 'xstate';
import { activePaths, describeTrigger, extractStatechart, guardName } from '@/lib/inspection/statechart-graph';
import { layoutStatechart } from '@/lib/inspection/statechart-layout';
import { generationJobMachine } from '@/machines/generation-job/generation-job.machine';
import { paidRequestMachine } from '@/machines/paid-request/paid-request.machine';
import { authFormsMachine } from '@/machines/session/auth-forms.machine';
import { sessionMachine } from '@/machines/session/session.machine';

describe('statechart extraction', () => {
  it('reads the session machine: nested states, guarded transitions, invokes and initial markers', () => {
    const chart = extractStatechart(sessionMachine);
    const byPath = new Map(chart.nodes.map((node) => [node.path, node]));
    expect(byPath.get('')).toMatchObject({ key: 'session', parentId: null });
    expect(byPath.get('signedIn')?.kind).toBe('parallel');
    expect(byPath.get('signedIn.flow')).toMatchObject({ kind: 'compound', parentId: 'session.signedIn' });
    expect(byPath.get('signedIn.flow.postLoad')?.parentId).toBe('session.signedIn.flow');
    expect(byPath.get('booting')?.initial).toBe(true);
    expect(byPath.get('signedOut')?.initial).toBe(false);
    // Every edge joins two known states.
    const ids = new Set(chart.nodes.map((node) => node.id));
    for (const edge of chart.edges) {
      expect(ids.has(edge.source) && ids.has(edge.target)).toBe(true);
    }
    // The sign-in forms are the session's `authForms` child (issue 18): their guarded edges are read there.
    const forms = extractStatechart(authFormsMachine);
    const guarded = forms.edges.filter((edge) => edge.guard === 'hasPendingEmail');
    expect(guarded.length).toBeGreaterThan(0);
    expect(guarded.map((edge) => edge.label)).toContain('session.confirmSignUp [hasPendingEmail]');
    expect(forms.edges.some((edge) => edge.guard === 'mfaMethodOffered' && edge.trigger === 'session.selectMfa')).toBe(true);
    expect(chart.nodes.some((node) => node.invokes.length > 0)).toBe(true);
  });

  it('reads the generation job: always, after, invoke done/error and combined guards', () => {
    const chart = extractStatechart(generationJobMachine);
    const labels = chart.edges.map((edge) => `${edge.source} -> ${edge.target}: ${edge.label}`);
    expect(labels).toContain('generationJob.submitting -> generationJob.denied: done: submit [paidRefused]');
    expect(labels).toContain('generationJob.starting -> generationJob.polling.paused: always [and(isResume, isHidden)]');
    const paths = chart.nodes.map((node) => node.path);
    expect(paths).toEqual(expect.arrayContaining(['polling', 'polling.waiting', 'polling.checking', 'polling.paused', 'succeeded']));
    expect(chart.nodes.find((node) => node.path === 'succeeded')?.kind).toBe('final');
    expect(chart.edges.some((edge) => edge.kind === 'after')).toBe(true);
    const submitting = chart.edges.filter((edge) => edge.source === 'generationJob.submitting');
    expect(submitting.some((edge) => edge.kind === 'done' && edge.trigger.startsWith('done: '))).toBe(true);
    const loading = chart.edges.filter((edge) => edge.source === 'generationJob.fetchingResult.loading');
    expect(loading.some((edge) => edge.kind === 'error' && edge.guard === 'isRetryable')).toBe(true);
    // The submit's paid-request child: its check's combined guard.
    const paid = extractStatechart(paidRequestMachine).edges.map((edge) => `${edge.source} -> ${edge.target}: ${edge.label}`);
    expect(paid).toContain('paidRequest.checkingCredit -> paidRequest.waiting: always [and(or(checked, affordable), gated)]');
    // Generated invoke ids are replaced by the invoked source's name.
    expect(chart.edges.every((edge) => !edge.trigger.includes('0.generationJob'))).toBe(true);
  });

  it('names triggers and guards in words', () => {
    expect(describeTrigger('')).toEqual({ kind: 'always', trigger: 'always' });
    expect(describeTrigger('xstate.after.retryDelay.job.waiting')).toEqual({ kind: 'after', trigger: 'after retryDelay' });
    expect(describeTrigger('xstate.error.actor.load')).toEqual({ kind: 'error', trigger: 'error: load' });
    expect(guardName({ type: 'hasCredit', params: {} })).toBe('hasCredit');
    expect(guardName(undefined)).toBeNull();
    expect(guardName(not('isGuest'))).toBe('not(isGuest)');
    expect(guardName(or(['a', not('b')]))).toBe('or(a, not(b))');
  });

  it('turns a state value into active paths', () => {
    expect(activePaths({ signedIn: { flow: 'ready', tokens: 'idle' } })).toEqual(
      new Set(['signedIn', 'signedIn.flow', 'signedIn.flow.ready', 'signedIn.tokens', 'signedIn.tokens.idle']),
    );
    expect(activePaths('idle')).toEqual(new Set(['idle']));
  });
});

describe('statechart layout (ELK)', () => {
  it('places nested states inside their parents and routes every edge', async () => {
    const chart = extractStatechart(generationJobMachine);
    const layout = await layoutStatechart(chart);
    expect(layout.nodes).toHaveLength(chart.nodes.length);
    const byId = new Map(layout.nodes.map((node) => [node.id, node]));
    for (const node of layout.nodes) {
      expect(node.width).toBeGreaterThan(0);
      if (!node.parentId) continue;
      const parent = byId.get(node.parentId)!;
      expect(node.x).toBeGreaterThanOrEqual(parent.x);
      expect(node.y).toBeGreaterThanOrEqual(parent.y);
      expect(node.x + node.width).toBeLessThanOrEqual(parent.x + parent.width + 0.5);
      expect(node.y + node.height).toBeLessThanOrEqual(parent.y + parent.height + 0.5);
      expect(node.depth).toBe(parent.depth + 1);
    }
    expect(layout.edges).toHaveLength(chart.edges.length);
    expect(layout.edges.every((edge) => edge.points.length >= 2)).toBe(true);
    expect(layout.edges.filter((edge) => edge.labelBox).length).toBe(layout.edges.length);
  });
});
