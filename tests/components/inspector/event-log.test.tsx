import { describe, expect, it, vi } from 'vitest';
import { EventLog, shortActorId } from '@/components/inspector/event-log';
import type { InspectionRecord } from '@/lib/inspection/hub';
import { render, screen, userEvent, within } from '../../test-utils';

const JOB_ID = 'job-8f14e45f-ceea-467a-9d4b-1c2e3a4b5c6d';
const EVENT = 'xstate.done.actor.submitGeneration';

const record = (seq: number, actorId: string, event: string): InspectionRecord => ({
  seq,
  time: Date.UTC(2026, 10, 24, 21, 0, seq),
  actorId,
  sessionId: `x:${seq}`,
  machineId: 'generationJob',
  type: 'snapshot',
  event,
  from: 'submitting',
  to: { running: 'polling' },
});

describe('inspector event log (issue 17)', () => {
  it('shortens a job id to its first uuid digits and keeps the full id in the title', () => {
    expect(shortActorId(JOB_ID)).toBe('job-8f14e45f…');
    expect(shortActorId('session')).toBe('session');
    expect(shortActorId('delete-8f14e45f-ceea-467a-9d4b-1c2e3a4b5c6d')).toBe('delete-8f14e45f…');
  });

  it('keeps time, job id and event name on one line each and the whole event name visible', () => {
    render(<EventLog rows={[{ index: 0, record: record(1, JOB_ID, EVENT) }]} cursor={null} onSeek={() => {}} />);
    const row = within(screen.getByRole('table', { name: 'Event log' })).getAllByRole('row')[1];
    if (!row) throw new Error('no log row');
    const [time, actor, event, transition] = within(row).getAllByRole('cell');
    expect(actor).toHaveTextContent(/^job-8f14e45f…$/);
    expect(within(actor as HTMLElement).getByTitle(JOB_ID)).toBeInTheDocument();
    expect(event).toHaveTextContent(EVENT);
    for (const cell of [time, actor, event]) expect(cell).toHaveStyle({ whiteSpace: 'nowrap' });
    expect(transition).toHaveTextContent('submitting → {"running":"polling"}');
  });

  it('moves the view to a row when its time is pressed', async () => {
    const onSeek = vi.fn();
    render(
      <EventLog
        rows={[
          { index: 0, record: record(1, JOB_ID, EVENT) },
          { index: 1, record: record(2, JOB_ID, 'jobs.cancel') },
        ]}
        cursor={null}
        onSeek={onSeek}
      />,
    );
    const rows = within(screen.getByRole('table', { name: 'Event log' })).getAllByRole('row');
    expect(rows[2]).toHaveAttribute('aria-current', 'true');
    await userEvent.click(within(rows[1] as HTMLElement).getByRole('button'));
    expect(onSeek).toHaveBeenCalledWith(0);
  });
});
