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

/**
 * The render stopped without a result because the server is stopping or the job stopped being this
 * worker's (cancelled, deleted, taken over): nothing was kept, and a remote provider's request
 * stays stored with the job so the next claim resumes it.
 */
export class StoppedError extends Error {
  constructor() {
    super('the server is stopping');
    this.name = 'StoppedError';
  }
}
