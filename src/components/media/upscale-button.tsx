import { Button, Text, Tooltip } from '@mantine/core';
import { createContext, useContext, useMemo, useState } from 'react';
import { AppConfigActorContext } from '@/components/app-config/app-config-context';
import { JobsActorContext } from '@/components/jobs/jobs-context';
import { useSubmitBlocker } from '@/components/session/use-submit-blocker';
import { optionsForTool, type ModelOption } from '@/config/asset-tools';
import { RESULT_ACTION_TEXTS } from '@/config/compare-texts';
import { generationToolBySlug, type GenerationToolSpec } from '@/config/generation-tools';
import { selectAssetTools } from '@/machines/app-config/app-config.selectors';

/** The tool and model "Upscale" runs: Edit Image's Upscale Image (SPEC §9 "Upscale", 4 credits). */
const UPSCALE_TOOL = 'edit-image';
const UPSCALE_MODEL = 'Upscale';

/** Edit Image's Upscale model as the configuration offers it now, or null when it is not offered. */
function upscaleOffer(assetTools: readonly ModelOption[]): { spec: GenerationToolSpec; model: ModelOption } | null {
  const spec = generationToolBySlug(UPSCALE_TOOL);
  const model = optionsForTool(assetTools, UPSCALE_TOOL).find((candidate) => candidate.value === UPSCALE_MODEL);
  return spec && model ? { spec, model } : null;
}

/**
 * "Upscale" on a picture result (issue 21 item 7): Edit Image's Upscale job on that picture,
 * handed to the jobs registry as the tool's form would (its call, its price, the SPEC §6 credit
 * check before anything is sent), so it appears in the jobs panel and on the Edit Image page.
 * Disabled, with the reason, when the person cannot pay; sent once per picture on this page.
 */
export function UpscaleButton({ url, label }: { url: string; label: string }) {
  const jobs = JobsActorContext.useActorRef();
  const assetTools = AppConfigActorContext.useSelector(selectAssetTools);
  const offer = useMemo(() => upscaleOffer(assetTools), [assetTools]);
  const blocker = useSubmitBlocker(offer ? offer.model.required_credits : null);
  const [sent, setSent] = useState(false);
  if (!offer) return null;
  const cost = offer.model.required_credits;
  const start = () => {
    setSent(true);
    jobs.send({
      type: 'jobs.submit',
      request: {
        tool: offer.spec.slug,
        toolTitle: offer.spec.title,
        option: offer.model.value,
        optionLabel: offer.model.label,
        endpoint: offer.spec.endpoint,
        cost,
        fields: { option: offer.model.value, image_url: url, ...(offer.spec.asyncMode ? { async_mode: 'true' } : {}) },
        assetId: null,
      },
    });
  };
  if (sent) {
    return (
      <Text size="xs" c="teal" role="status">
        {RESULT_ACTION_TEXTS.upscale.started}
      </Text>
    );
  }
  return (
    <Tooltip label={blocker.reason} disabled={blocker.reason === null} withArrow>
      <Button
        size="compact-xs"
        variant="light"
        onClick={start}
        disabled={blocker.reason !== null}
        aria-label={RESULT_ACTION_TEXTS.upscale.buttonLabel(label, cost)}
      >
        {RESULT_ACTION_TEXTS.upscale.button(cost)}
      </Button>
    </Tooltip>
  );
}

/**
 * Whether the results around offer "Upscale" on their pictures: a tool page's results do (they sit
 * under the jobs registry); a card shown elsewhere (an asset's page) does not.
 */
export const UpscaleOffered = createContext(false);

/** "Upscale" on a picture where the results around offer it, else nothing. */
export function PictureUpscale({ url, label }: { url: string; label: string }) {
  return useContext(UpscaleOffered) ? <UpscaleButton url={url} label={label} /> : null;
}
