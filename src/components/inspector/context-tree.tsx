import { UnstyledButton } from '@mantine/core';
import { useState } from 'react';
import { INSPECTOR_TEXTS } from '@/config/inspector-texts';
import type { JsonValue } from '@/lib/inspection/json-safe';

const isBranch = (value: JsonValue): value is JsonValue[] | { [key: string]: JsonValue } =>
  value !== null && typeof value === 'object';

const preview = (value: JsonValue): string => {
  if (Array.isArray(value)) return `[${value.length}]`;
  if (isBranch(value)) return `{${Object.keys(value).length}}`;
  return JSON.stringify(value);
};

function TreeItem({ name, value, level }: { name: string; value: JsonValue; level: number }) {
  // The first two levels start open: the context's own fields show at once.
  const [open, setOpen] = useState(level < 1);
  if (!isBranch(value)) {
    return (
      <li role="treeitem" aria-level={level + 1} aria-selected={false} style={{ paddingLeft: 20 }}>
        <code>
          {name}: {preview(value)}
        </code>
      </li>
    );
  }
  const entries = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : Object.entries(value);
  return (
    <li role="treeitem" aria-level={level + 1} aria-expanded={open} aria-selected={false}>
      <UnstyledButton
        onClick={() => setOpen((current) => !current)}
        aria-label={open ? INSPECTOR_TEXTS.collapse(name) : INSPECTOR_TEXTS.expand(name)}
        style={{ minHeight: 24, fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 'var(--mantine-font-size-sm)' }}
      >
        {open ? '▾' : '▸'} {name} <span style={{ opacity: 0.75 }}>{preview(value)}</span>
      </UnstyledButton>
      {open && (
        <ul role="group" style={{ listStyle: 'none', margin: 0, paddingLeft: 16 }}>
          {entries.map(([key, child]) => (
            <TreeItem key={key} name={key} value={child} level={level + 1} />
          ))}
        </ul>
      )}
    </li>
  );
}

/** A context as a collapsible tree; each branch is a button (Enter / Space toggle it). */
export function ContextTree({ value, label }: { value: JsonValue; label: string }) {
  return (
    <ul role="tree" aria-label={label} style={{ listStyle: 'none', margin: 0, padding: 0, fontSize: 'var(--mantine-font-size-sm)' }}>
      <TreeItem name="context" value={value} level={0} />
    </ul>
  );
}
