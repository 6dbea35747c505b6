import { Box, type BoxProps } from '@mantine/core';
import DOMPurify from 'dompurify';
import { useMemo } from 'react';

/**
 * HTML as DOMPurify leaves it: plain HTML elements only (no SVG/MathML), no scripts, no event
 * handler attributes, no `javascript:` links.
 */
export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });
}

export interface SafeHtmlProps extends BoxProps {
  /** Untrusted HTML (e.g. a help topic's description); it is always sanitised here. */
  html: string;
}

/**
 * The only place in the app where HTML is put into the page (eslint.config.js forbids
 * `dangerouslySetInnerHTML` everywhere else). It sanitises by itself so no caller can skip it.
 */
export function SafeHtml({ html, ...boxProps }: SafeHtmlProps) {
  const clean = useMemo(() => sanitizeHtml(html), [html]);
  return <Box {...boxProps} dangerouslySetInnerHTML={{ __html: clean }} />;
}
