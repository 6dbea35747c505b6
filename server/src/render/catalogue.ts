import { defaultAppConfiguration, type AppConfiguration } from '../../../src/config/app-config.ts';

/**
 * The app configuration `GET frontend-configurations` answers for the running provider: a model
 * the provider cannot run is offered as inactive (`active: 0`), so the web app never lists a model
 * whose job would fail. The local engine runs everything, so its catalogue is SPEC's as it is.
 */
export function catalogueFor(unavailable: ReadonlyMap<string, string>): AppConfiguration {
  const configuration = structuredClone(defaultAppConfiguration);
  if (unavailable.size === 0) return configuration;
  for (const model of configuration.asset_tools) if (unavailable.has(model.value)) model.active = 0;
  for (const model of configuration.media_tools) if (unavailable.has(model.value)) model.active = 0;
  return configuration;
}
