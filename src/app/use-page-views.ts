import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import type { Analytics } from '@/services/telemetry';

/** SPEC §2.1: page views are tracked by current path, once per navigation to a new path. */
export function usePageViews(analytics: Analytics): void {
  const { pathname } = useLocation();
  useEffect(() => {
    analytics.pageView(pathname);
  }, [analytics, pathname]);
}
