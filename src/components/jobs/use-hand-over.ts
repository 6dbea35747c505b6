import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { SUBMIT_COOLDOWN_MS } from '@/config/limits';

import type { SendPhase } from '@/components/jobs/generate-bar';

/**
 * "Generate" hands a job over once: pressed again while the form is checked and the job handed to
 * the registry, or just after (SUBMIT_COOLDOWN_MS), it does nothing. A form the rules refuse (a
 * missing picture) makes it available again at once.
 */
export function useHandOver() {
  const [phase, setPhase] = useState<SendPhase>('idle');
  const busy = useRef(false);

  useEffect(() => {
    if (phase !== 'sent') return;
    const timer = window.setTimeout(() => setPhase('idle'), SUBMIT_COOLDOWN_MS);
    return () => window.clearTimeout(timer);
  }, [phase]);

  /** Called by the form's submit handler once the job is handed to the registry. */
  const markSent = useCallback(() => setPhase('sent'), []);

  const handOver = (event: FormEvent<HTMLFormElement>, submit: (event: FormEvent<HTMLFormElement>) => Promise<void>) => {
    event.preventDefault();
    if (busy.current || phase !== 'idle') return;
    busy.current = true;
    setPhase('sending');
    void submit(event).finally(() => {
      busy.current = false;
      setPhase((current) => (current === 'sending' ? 'idle' : current));
    });
  };

  return { phase, handOver, markSent };
}
