import { Box, Text } from '@mantine/core';
import { useLayoutEffect, useRef } from 'react';
import { INSPECTOR_TEXTS } from '@/config/inspector-texts';
import { formatClockTime } from '@/lib/format';
import { SEQUENCE_GEOMETRY, shortName, type SequenceArrow, type SequenceLane, type SequenceLayout } from '@/lib/inspection/sequence';

const TEXTS = INSPECTOR_TEXTS.sequence;
const STROKE = 'var(--mantine-color-gray-6)';
const TEXT = 'var(--mantine-color-text)';
const DIMMED = 'var(--mantine-color-dimmed)';
const EVENT = 'var(--mantine-color-blue-8)';
const CALL = 'var(--mantine-color-teal-8)';
const FAILED = 'var(--mantine-color-red-8)';
// Labels cross other lanes' lifelines: a halo in the page's colour keeps them readable.
const HALO = { stroke: 'var(--mantine-color-body)', strokeWidth: 3, paintOrder: 'stroke' } as const;
const HEADER_TOP = 22;
const BOX_HEIGHT = 34;
// Near the end already: new arrows keep it at the end. Scrolled up: it stays where it was.
const AT_END = 40;

interface SequenceDiagramProps {
  layout: SequenceLayout;
  /** The scroll box's height (it scrolls both ways). */
  maxHeight?: string;
}

function LaneBox({ lane, y }: { lane: SequenceLane; y: number }) {
  const { laneWidth } = SEQUENCE_GEOMETRY;
  const service = lane.kind === 'service';
  const name = lane.kind === 'outside' ? TEXTS.outside : lane.label;
  return (
    <g data-lane={lane.name} data-lane-kind={lane.kind}>
      <title>{lane.kind === 'outside' ? TEXTS.outside : `${lane.name}${lane.owner ? ` ${TEXTS.ownerOf(lane.owner)}` : ''}`}</title>
      <rect
        x={lane.x - laneWidth / 2 + 8}
        y={y}
        width={laneWidth - 16}
        height={BOX_HEIGHT}
        rx={service ? 14 : 4}
        fill={lane.kind === 'outside' ? 'var(--mantine-color-gray-1)' : service ? 'var(--mantine-color-teal-0)' : 'var(--mantine-color-body)'}
        stroke={service ? CALL : STROKE}
        strokeDasharray={lane.kind === 'outside' ? '4 3' : undefined}
      />
      <text x={lane.x} y={y + (lane.owner ? 14 : 21)} fontSize={12} fontWeight={600} fill={TEXT} textAnchor="middle">
        {name}
      </text>
      {lane.owner && (
        <text x={lane.x} y={y + 28} fontSize={10} fill={DIMMED} textAnchor="middle">
          {TEXTS.ownerOf(shortName(lane.owner))}
        </text>
      )}
    </g>
  );
}

function Arrow({ arrow }: { arrow: SequenceArrow }) {
  const { gutter, selfWidth } = SEQUENCE_GEOMETRY;
  const { from, to, y, self } = arrow;
  const answer = arrow.duration !== null;
  const call = arrow.type === 'invoke' || answer;
  const failed = answer && arrow.event.startsWith('xstate.error.actor.');
  const kind = failed ? 'failed' : call ? 'call' : 'event';
  const colour = failed ? FAILED : call ? CALL : EVENT;
  const marker = `url(#sequence-${kind})`;
  const title = TEXTS.arrow(
    from.kind === 'outside' ? TEXTS.outside : from.name,
    to.name,
    arrow.event,
    formatClockTime(arrow.time),
    arrow.gapText,
    arrow.durationText,
  );
  const direction = to.x >= from.x ? 1 : -1;
  return (
    <g data-from={from.name} data-to={to.name} data-event={arrow.event} data-type={arrow.type} data-seq={arrow.seq}>
      <title>{title}</title>
      <text x={gutter - 8} y={y + 4} fontSize={10} fill={DIMMED} textAnchor="end">
        {arrow.gapText}
      </text>
      {self ? (
        <>
          <path
            d={`M ${from.x} ${y - 8} h ${selfWidth} v 14 h ${-selfWidth + 3}`}
            fill="none"
            stroke={colour}
            strokeWidth={1.2}
            markerEnd={marker}
          />
          <text x={from.x + selfWidth + 5} y={y + 3} fontSize={11} fill={colour} {...HALO}>
            {arrow.text}
          </text>
        </>
      ) : (
        <>
          <line
            x1={from.x + direction * 2}
            y1={y}
            x2={to.x - direction * 3}
            y2={y}
            stroke={colour}
            strokeWidth={1.2}
            // A return (a service's answer) is dashed, as in UML.
            strokeDasharray={answer ? '5 3' : undefined}
            markerEnd={marker}
          />
          <text x={(from.x + to.x) / 2} y={y - 5} fontSize={11} fill={colour} textAnchor="middle" {...HALO}>
            {arrow.text}
          </text>
          {arrow.durationText && (
            <text x={(from.x + to.x) / 2} y={y + 13} fontSize={10} fill={DIMMED} textAnchor="middle" {...HALO}>
              {TEXTS.took(arrow.durationText)}
            </text>
          )}
        </>
      )}
    </g>
  );
}

/**
 * The sequence view (issue 22 item 3): one lane per actor (the outside, the machines, then the
 * services they call), one arrow per message down the page, with the time since the one before
 * and a call's duration on its answer. It scrolls both ways and follows the newest arrow while
 * scrolled to the end.
 */
export function SequenceDiagram({ layout, maxHeight = '60vh' }: SequenceDiagramProps) {
  const box = useRef<HTMLDivElement>(null);
  const atEnd = useRef(true);
  const last = layout.arrows.at(-1)?.seq ?? null;
  useLayoutEffect(() => {
    const element = box.current;
    if (element && atEnd.current) element.scrollTop = element.scrollHeight;
  }, [last]);

  if (layout.arrows.length === 0) return <Text c="dimmed">{TEXTS.empty}</Text>;
  const { laneWidth, footerHeight } = SEQUENCE_GEOMETRY;
  const footerY = layout.height - footerHeight + 4;
  return (
    <Box
      ref={box}
      // Focusable, so the keyboard can scroll it.
      tabIndex={0}
      role="region"
      aria-label={TEXTS.sequence}
      style={{ overflow: 'auto', maxHeight }}
      onScroll={(event) => {
        const element = event.currentTarget;
        atEnd.current = element.scrollHeight - element.scrollTop - element.clientHeight < AT_END;
      }}
    >
      {layout.hidden > 0 && (
        <Text size="xs" c="dimmed">
          {TEXTS.hidden(layout.hidden)}
        </Text>
      )}
      <svg role="img" aria-label={TEXTS.title} width={layout.width} height={layout.height} style={{ display: 'block' }}>
        <title>{TEXTS.title}</title>
        <defs>
          {([['event', EVENT], ['call', CALL], ['failed', FAILED]] as const).map(([kind, fill]) => (
            <marker key={kind} id={`sequence-${kind}`} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
              <path d="M 0 0 L 10 5 L 0 10 z" fill={fill} />
            </marker>
          ))}
        </defs>
        {layout.services && (
          <g aria-hidden="true">
            <path
              d={`M ${layout.services.x1 - laneWidth / 2 + 8} 18 v -6 H ${layout.services.x2 + laneWidth / 2 - 8} v 6`}
              fill="none"
              stroke={CALL}
            />
            <text x={(layout.services.x1 + layout.services.x2) / 2} y={9} fontSize={10} fill={CALL} textAnchor="middle">
              {TEXTS.services}
            </text>
          </g>
        )}
        {layout.lanes.map((lane) => (
          <line
            key={`life-${lane.key}`}
            x1={lane.x}
            y1={HEADER_TOP + BOX_HEIGHT}
            x2={lane.x}
            y2={footerY}
            stroke={STROKE}
            strokeDasharray="3 4"
            aria-hidden="true"
          />
        ))}
        {layout.lanes.map((lane) => (
          <LaneBox key={lane.key} lane={lane} y={HEADER_TOP} />
        ))}
        {layout.arrows.map((arrow) => (
          <Arrow key={arrow.seq} arrow={arrow} />
        ))}
        {layout.lanes.map((lane) => (
          <g key={`foot-${lane.key}`} aria-hidden="true">
            <rect x={lane.x - laneWidth / 2 + 8} y={footerY} width={laneWidth - 16} height={footerHeight - 12} rx={4} fill="var(--mantine-color-body)" stroke={STROKE} />
            <text x={lane.x} y={footerY + 17} fontSize={11} fill={DIMMED} textAnchor="middle">
              {lane.kind === 'outside' ? TEXTS.outside : lane.label}
            </text>
          </g>
        ))}
      </svg>
    </Box>
  );
}
