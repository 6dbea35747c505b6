import { createContext, useContext, type ReactNode } from 'react';
import { disabledTelemetry, type Telemetry } from '@/services/telemetry';

const TelemetryContext = createContext<Telemetry>(disabledTelemetry);

/** Hands the telemetry started in main.tsx to the shell (page views, error reports). */
export function TelemetryProvider({ telemetry, children }: { telemetry: Telemetry; children: ReactNode }) {
  return <TelemetryContext.Provider value={telemetry}>{children}</TelemetryContext.Provider>;
}

export const useTelemetry = (): Telemetry => useContext(TelemetryContext);
