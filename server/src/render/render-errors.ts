/**
 * Why a render did not produce a file. The job engine maps `outcome` onto the job's ended status
 * (SPEC §4 `failed` / `nsfw`) and refunds it; `message` is safe to show to the user.
 */
export class RenderRejectedError extends Error {
  readonly outcome: 'failed' | 'nsfw';

  constructor(outcome: 'failed' | 'nsfw', message: string) {
    super(message);
    this.name = 'RenderRejectedError';
    this.outcome = outcome;
  }
}

/** An input picture the engine could not decode (a PSD, a HEIC, a damaged file). */
export class RenderInputError extends RenderRejectedError {
  constructor(message: string) {
    super('failed', message);
    this.name = 'RenderInputError';
  }
}
