/**
 * A fresh key for one user intent (one click on Generate). The same key goes with every retry of
 * that request, so the server answers a repeat with the first response instead of charging again.
 */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
