import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { reloadPage } from '@/app/reload-page';
import { MESSAGES } from '@/config/messages';
import { isChunkLoadError } from '@/lib/chunk-load';

interface ErrorBoundaryProps {
  children: ReactNode;
  /** Called once per caught error, e.g. to send it to error reporting. */
  onError?: (error: unknown, componentStack?: string) => void;
  /** When this value changes (e.g. the path), a shown fallback is cleared. */
  resetKey?: unknown;
}

interface ErrorBoundaryState {
  error: unknown;
  hasError: boolean;
  resetKey: unknown;
}

/** SPEC §2.9 item 7 and §8 "Render crash": a fallback with a retry that resets the error. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  state: ErrorBoundaryState = { error: null, hasError: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<ErrorBoundaryState> {
    return { error, hasError: true };
  }

  static getDerivedStateFromProps(props: ErrorBoundaryProps, state: ErrorBoundaryState): Partial<ErrorBoundaryState> | null {
    // Leaving the broken page should not keep the fallback on the next one.
    if (props.resetKey !== state.resetKey) return { error: null, hasError: false, resetKey: props.resetKey };
    return null;
  }

  componentDidCatch(error: unknown, info: ErrorInfo): void {
    this.props.onError?.(error, info.componentStack ?? undefined);
  }

  /**
   * "Try again?": re-render the children, or reload the page when a lazy chunk failed to
   * download, since React keeps a failed lazy import and rendering again would fail again.
   */
  reset = (): void => {
    if (isChunkLoadError(this.state.error)) {
      reloadPage();
      return;
    }
    this.setState({ error: null, hasError: false });
  };

  render(): ReactNode {
    if (this.state.hasError) return <ErrorFallback onRetry={this.reset} />;
    return this.props.children;
  }
}

export function ErrorFallback({ onRetry }: { onRetry: () => void }) {
  return (
    <Container size="sm" py="xl">
      <Stack align="center" gap="md" role="alert">
        <Title order={1}>{MESSAGES.errorFallback.title}</Title>
        <Text c="dimmed">Something went wrong while showing this page.</Text>
        <Button onClick={onRetry}>{MESSAGES.errorFallback.retry}</Button>
      </Stack>
    </Container>
  );
}
