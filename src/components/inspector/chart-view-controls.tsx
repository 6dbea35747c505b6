import { ActionIcon, Button, Group, Text, TextInput } from '@mantine/core';
import { INSPECTOR_TEXTS } from '@/config/inspector-texts';
import { ZOOM_MAX, ZOOM_MIN } from '@/lib/inspection/chart-find';

interface ChartViewControlsProps {
  zoom: number;
  query: string;
  matchCount: number;
  /** 0-based position of the match shown. */
  matchIndex: number;
  onZoomIn(): void;
  onZoomOut(): void;
  onFit(): void;
  onActualSize(): void;
  onFind(query: string): void;
  onFindNext(back: boolean): void;
}

/** Zoom and find above the statechart (issue 22 item 4): the screen sends each to the inspector machine. */
export function ChartViewControls(props: ChartViewControlsProps) {
  const { zoom, query, matchCount, matchIndex } = props;
  const texts = INSPECTOR_TEXTS.chart;
  return (
    <Group gap="xs" wrap="wrap" role="toolbar" aria-label={texts.toolbar}>
      <ActionIcon variant="default" size="lg" onClick={props.onZoomOut} disabled={zoom <= ZOOM_MIN} aria-label={texts.zoomOut}>
        −
      </ActionIcon>
      <Text size="sm" w={48} ta="center" aria-label={texts.zoomLevel} role="status">
        {`${Math.round(zoom * 100)} %`}
      </Text>
      <ActionIcon variant="default" size="lg" onClick={props.onZoomIn} disabled={zoom >= ZOOM_MAX} aria-label={texts.zoomIn}>
        +
      </ActionIcon>
      <Button variant="default" size="xs" onClick={props.onFit}>
        {texts.fit}
      </Button>
      <Button variant="default" size="xs" onClick={props.onActualSize} disabled={zoom === 1}>
        {texts.actualSize}
      </Button>
      <TextInput
        size="xs"
        w={220}
        type="search"
        aria-label={texts.find}
        placeholder={texts.findPlaceholder}
        value={query}
        onChange={(event) => props.onFind(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key !== 'Enter') return;
          event.preventDefault();
          props.onFindNext(event.shiftKey);
        }}
      />
      {query.trim() !== '' && (
        <>
          <Text size="sm" role="status" aria-live="polite">
            {texts.matches(matchCount, matchIndex)}
          </Text>
          <Button variant="subtle" size="xs" onClick={() => props.onFindNext(true)} disabled={matchCount < 2}>
            {texts.previous}
          </Button>
          <Button variant="subtle" size="xs" onClick={() => props.onFindNext(false)} disabled={matchCount < 2}>
            {texts.next}
          </Button>
        </>
      )}
    </Group>
  );
}
