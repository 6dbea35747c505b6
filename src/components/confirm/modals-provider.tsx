import { ModalsProvider } from '@mantine/modals';
import { useEffect } from 'react';
import { setModalsMounted } from '@/components/confirm/modals-state';

/** `@mantine/modals`' provider, in its own chunk (see modals-host.tsx); it listens once mounted. */
export function ModalsProviderHost() {
  // The provider's own effects (its window listeners) have run when this one runs.
  useEffect(() => {
    setModalsMounted(true);
    return () => setModalsMounted(false);
  }, []);
  return <ModalsProvider />;
}
