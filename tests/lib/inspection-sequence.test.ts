import { describe, expect, it } from 'vitest';
import type { InspectionMessage } from '@/lib/inspection/hub';
import { formatDuration, formatGap, layoutSequence, SEQUENCE_GEOMETRY } from '@/lib/inspection/sequence';

const JOB = 'job-8f14e45f-ceea-467f-a0e6-7b2c1d3e4f5a';

let seq = 0;
type Kind = InspectionMessage['fromKind'];
/** A message from `from` to `to` ("name@session:kind"; null = the outside) at `time`. */
function message(time: number, from: string | null, to: string, event: string, type: InspectionMessage['type'] = 'event'): InspectionMessage {
  seq += 1;
  const parse = (text: string) => {
    const [name, rest] = text.split('@') as [string, string];
    const cut = rest.lastIndexOf(':');
    return { name, sessionId: rest.slice(0, cut), kind: rest.slice(cut + 1) as Kind };
  };
  const source = from ? parse(from) : null;
  const target = parse(to);
  return {
    seq,
    time,
    type,
    fromId: source?.name ?? null,
    fromSessionId: source?.sessionId ?? null,
    fromKind: source?.kind ?? 'outside',
    toId: target.name,
    toSessionId: target.sessionId,
    toKind: target.kind as 'machine' | 'service',
    event,
  };
}

const jobs = 'jobs@x:1:machine';
const job = `${JOB}@x:2:machine`;
const poll = 'pollStatus@x:3:service';
const session = 'session@x:4:machine';

function jobStory(): InspectionMessage[] {
  seq = 0;
  return [
    message(1000, null, session, 'xstate.init'),
    message(1010, null, jobs, 'jobs.add'),
    message(1020, jobs, job, 'xstate.init'),
    message(1500, job, job, 'xstate.after.2000.generationJob.polling.waiting'),
    message(1500, job, poll, 'invoke pollStatus', 'invoke'),
    message(1840, poll, job, 'xstate.done.actor.0.generationJob.polling.checking'),
    message(1900, jobs, job, 'job.visibility'),
  ];
}

describe('sequence layout', () => {
  it('has a lane per actor: the outside first, the machines in order of appearance, then the services', () => {
    const layout = layoutSequence(jobStory());
    expect(layout.lanes.map((lane) => [lane.name, lane.kind])).toEqual([
      ['outside', 'outside'],
      ['session', 'machine'],
      ['jobs', 'machine'],
      [JOB, 'machine'],
      ['pollStatus', 'service'],
    ]);
    // A job's uuid is shortened on its header; the service names its caller.
    expect(layout.lanes[3]!.label).toBe('job-8f14e45f…');
    expect(layout.lanes[4]!.owner).toBe(JOB);
    const xs = layout.lanes.map((lane) => lane.x);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
    expect(xs[1]! - xs[0]!).toBe(SEQUENCE_GEOMETRY.laneWidth);
    expect(layout.services).toEqual({ x1: xs[4], x2: xs[4] });
    expect(layout.width).toBe(SEQUENCE_GEOMETRY.gutter + 5 * SEQUENCE_GEOMETRY.laneWidth);
  });

  it('draws one arrow per message down the page, with the time since the one before and a call’s duration', () => {
    const layout = layoutSequence(jobStory());
    const arrows = layout.arrows;
    expect(arrows.map((arrow) => `${arrow.from.name} -> ${arrow.to.name}`)).toEqual([
      'outside -> session',
      'outside -> jobs',
      `jobs -> ${JOB}`,
      `${JOB} -> ${JOB}`,
      `${JOB} -> pollStatus`,
      `pollStatus -> ${JOB}`,
      `jobs -> ${JOB}`,
    ]);
    const ys = arrows.map((arrow) => arrow.y);
    expect(ys).toEqual([...ys].sort((a, b) => a - b));
    expect(ys[1]! - ys[0]!).toBe(SEQUENCE_GEOMETRY.rowHeight);
    expect(arrows[0]!.gapText).toBe('');
    expect(arrows.map((arrow) => arrow.gapText).slice(1)).toEqual(['+10 ms', '+10 ms', '+480 ms', '+0 ms', '+340 ms', '+60 ms']);
    expect(arrows[3]!.self).toBe(true);
    expect(arrows[4]).toMatchObject({ type: 'invoke', duration: null });
    // The answer of pollStatus, 340 ms after it was called.
    expect(arrows[5]).toMatchObject({ duration: 340, durationText: '340 ms' });
    // An ordinary event is not a call's answer.
    expect(arrows[6]!.duration).toBeNull();
    // Long event names are cut to fit between their lanes, the full one kept.
    expect(arrows[5]!.text.length).toBeLessThan(arrows[5]!.event.length);
    expect(arrows[5]!.text.endsWith('…')).toBe(true);
    expect(layout.height).toBe(SEQUENCE_GEOMETRY.headerHeight + 7 * SEQUENCE_GEOMETRY.rowHeight + SEQUENCE_GEOMETRY.footerHeight);
  });

  it('keeps the newest arrows, up to a time, and only one actor’s when focused', () => {
    const story = jobStory();
    const last = layoutSequence(story, { limit: 3 });
    expect(last.arrows.map((arrow) => arrow.event)).toEqual([
      'invoke pollStatus',
      'xstate.done.actor.0.generationJob.polling.checking',
      'job.visibility',
    ]);
    expect(last.hidden).toBe(4);
    // The first arrow kept still says how long after the one before (hidden) it came.
    expect(last.arrows[0]!.gapText).toBe('+0 ms');
    // Lanes come from the arrows kept, in their order of appearance there.
    expect(last.lanes.map((lane) => lane.name)).toEqual([JOB, 'jobs', 'pollStatus']);

    const paused = layoutSequence(story, { until: 1500 });
    expect(paused.arrows.map((arrow) => arrow.event).at(-1)).toBe('invoke pollStatus');
    expect(paused.arrows).toHaveLength(5);

    const focused = layoutSequence(story, { focus: 'x:2' });
    expect(focused.arrows).toHaveLength(5);
    expect(focused.lanes.map((lane) => lane.name)).toEqual(['jobs', JOB, 'pollStatus']);
    // The call is timed even when its start is outside the window.
    expect(layoutSequence(story, { limit: 2 }).arrows[0]!.duration).toBe(340);
    // A child machine's answer is timed from the xstate.init its parent sent it.
    const done = layoutSequence([...story, message(3020, job, jobs, `xstate.done.actor.${JOB}`)]);
    expect(done.arrows.at(-1)).toMatchObject({ duration: 2000, durationText: '2.0 s' });
  });

  it('puts the calls one machine makes to one service in one lane, each timed on its own', () => {
    const story = [
      ...jobStory(),
      message(3900, job, job, 'xstate.after.2000.generationJob.polling.waiting'),
      message(3900, job, 'pollStatus@x:9:service', 'invoke pollStatus', 'invoke'),
      message(4020, 'pollStatus@x:9:service', job, 'xstate.done.actor.0.generationJob.polling.checking'),
    ];
    const layout = layoutSequence(story);
    expect(layout.lanes.filter((lane) => lane.name === 'pollStatus')).toHaveLength(1);
    const answers = layout.arrows.filter((arrow) => arrow.from.name === 'pollStatus');
    expect(answers.map((arrow) => arrow.duration)).toEqual([340, 120]);
    expect(new Set(answers.map((arrow) => arrow.from.key)).size).toBe(1);
    // Another machine's calls to a service of the same name have their own lane.
    const other = layoutSequence([
      ...story,
      message(5000, 'job-2@x:10:machine', 'pollStatus@x:11:service', 'invoke pollStatus', 'invoke'),
    ]);
    expect(other.lanes.filter((lane) => lane.name === 'pollStatus').map((lane) => lane.owner)).toEqual([JOB, 'job-2']);
  });

  it('is empty without messages, and formats gaps and durations', () => {
    expect(layoutSequence([])).toMatchObject({ lanes: [], arrows: [], services: null, hidden: 0 });
    expect(formatGap(120)).toBe('+120 ms');
    expect(formatGap(2440)).toBe('+2.4 s');
    expect(formatDuration(185_000)).toBe('3 min');
    expect(formatDuration(-3)).toBe('0 ms');
  });
});
